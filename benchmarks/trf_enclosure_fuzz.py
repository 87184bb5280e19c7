"""A seeded fuzz of the certified answers of ``python -m theory.trf --rpe F --json``
against references computed here in mpmath, independently of the tool.

Each case is a convergent term built from a small grammar of what researchers type
(rational functions with shifts, decimal exponents, log factors, geometric and factorial
factors, bounded oscillating perturbations, alternating signs), written twice: as the
formula text the command reads and as an mpmath function of n built from the same tree
(literals as exact decimals, as the command reads them: ``mpmath.mpf("0.37")`` at 60
digits).  The reference for B, and for every tail R_j, is one of:

* ``smooth`` (positive terms, algebraic decay): the first terms summed directly and the
  rest by Euler-Maclaurin (``mpmath.sumem``) from two different cut points; trusted when
  the two agree to 25 digits;
* ``alt`` ((-1)^n g(n), g smooth): the pairs g(2m) - g(2m+1) summed the same way, against
  ``mpmath.nsum`` (Shanks / Richardson); trusted when they agree to 25 digits;
* ``fast`` (geometric or faster, any bounded factor): the terms summed directly until they
  fall below 1e-70 of the sum, at 60 and at 80 digits, with the geometric bound of the rest;
* ``osc`` (a bounded factor h(n) times n^-p): the first N terms summed directly and the rest
  between h_min zeta(p, N) and h_max zeta(p, N): an interval, rigorous but wide.

Every comparison is between intervals: a certified enclosure of B is false when it is
disjoint from the reference interval; an exact TRF is wrong when the reference proves
the crossing elsewhere; a lower (upper) bound is wrong when the reference proves the TRF
below (above) it.  Cases the reference cannot decide are counted, not judged.

Run (one process, a few hundred cases; each runs the command as a user does)::

    nice -n 5 python -m benchmarks.trf_enclosure_fuzz --cases 300 --seed 1
    python -m benchmarks.trf_enclosure_fuzz --cases 5 --seed 3 --show   # the formulas

exits 1 when a false answer is found.
"""

from __future__ import annotations

import argparse
import functools
import json
import random
import signal
import subprocess
import sys
import time
from collections.abc import Callable
from dataclasses import dataclass, field

import mpmath
from mpmath import mp, mpf

DPS = 60
EPS = (0.1, 0.01, 0.001)
TIMEOUT = 60.0


# ---------------------------------------------------------------------- the grammar
@dataclass
class Term:
    """A formula as typed and the same function in mpmath."""

    text: str
    f: Callable[[mpf], mpf]
    kind: str  # smooth | alt | fast | osc
    start: int = 1
    p: float = 0.0  # osc: b_n = h(n) n^-p with h in [hlo, hhi]
    hlo: float = 0.0
    hhi: float = 0.0
    notes: dict = field(default_factory=dict)


def _dec(rng: random.Random, lo: float, hi: float, digits: int | None = None) -> str:
    d = digits if digits is not None else rng.choice([1, 2, 2, 3, 7, 19])
    x = rng.uniform(lo, hi)
    s = f"{x:.{d}f}".rstrip("0")
    return s + "0" if s.endswith(".") else s


def _smooth_factor(rng: random.Random) -> tuple[str, Callable, float]:
    """A positive smooth factor: (text, function, its power of n at infinity)."""
    c = rng.randint(1, 5)
    k = rng.randint(1, 3)
    a = _dec(rng, 0.1, 2.5)
    choices = [
        (f"1/(n**2 + {c}*n + 1)", lambda n, c=c: 1 / (n**2 + c * n + 1), -2.0),
        (f"(n + {c})/(n**3 + {k + 1})", lambda n, c=c, k=k: (n + c) / (n**3 + k + 1), -2.0),
        (f"n**-{a}", lambda n, a=a: n ** (-mpf(a)), -float(a)),
        (f"(n + {c})**-{a}", lambda n, a=a, c=c: (n + c) ** (-mpf(a)), -float(a)),
        (f"log(n + {c})**{k}", lambda n, c=c, k=k: mpmath.log(n + c) ** k, 0.0),
        (f"1/log(n + {c + 1})", lambda n, c=c: 1 / mpmath.log(n + c + 1), 0.0),
        (f"sqrt(n + {c})", lambda n, c=c: mpmath.sqrt(n + c), 0.5),
        ("atan(n)", lambda n: mpmath.atan(n), 0.0),
        (f"exp(-{c}/n)", lambda n, c=c: mpmath.exp(-c / n), 0.0),
        ("exp(1/n)", lambda n: mpmath.exp(1 / n), 0.0),
        ("tanh(n)", lambda n: mpmath.tanh(n), 0.0),
        (f"(1/n - 1/(n + {c}))", lambda n, c=c: 1 / n - 1 / (n + c), -2.0),
        ("(sqrt(n + 1) - sqrt(n))", lambda n: mpmath.sqrt(n + 1) - mpmath.sqrt(n), -0.5),
        (
            f"gamma(n + {a})/gamma(n + 2)",
            lambda n, a=a: mpmath.gamma(n + mpf(a)) / mpmath.gamma(n + 2),
            float(a) - 2,
        ),
        (
            "binomial(2*n, n)/4**n",
            lambda n: mpmath.binomial(2 * n, n) / mpf(4) ** n,
            -0.5,
        ),
        (f"n*log(1 + 1/n**{k + 1})", lambda n, k=k: n * mpmath.log1p(1 / n ** (k + 1)), -k),
        ("(1 - cos(1/n))", lambda n: 1 - mpmath.cos(1 / n), -2.0),
        (f"Max(1/n**2, {c}/n**3)", lambda n, c=c: max(1 / n**2, c / n**3), -2.0),
        (f"Min(1/n, {c}/n**2)", lambda n, c=c: min(1 / n, c / n**2), -2.0),
    ]
    return rng.choice(choices)


def _const(rng: random.Random) -> tuple[str, mpf]:
    r = rng.random()
    if r < 0.55:
        return "", mpf(1)
    if r < 0.8:
        s = _dec(rng, 0.05, 20.0)
    elif r < 0.9:
        s = rng.choice(["17.123456789012345678", "0.3333333333333333333333", "2.5"])
    else:
        s = rng.choice(["1e-300", "1e300", "1e-30", "3e100", "1e-8"])
    return f"{s}*", mpf(s)


def _smooth_positive(rng: random.Random, p_lo: float, p_hi: float) -> tuple[str, Callable]:
    """A product of 1-3 smooth positive factors times the power of n making the total
    decay n^-p with p in [p_lo, p_hi]."""
    parts = [_smooth_factor(rng) for _ in range(rng.randint(1, 3))]
    deg = sum(d for _, _, d in parts)
    target = rng.uniform(p_lo, p_hi)
    if rng.random() < 0.1:
        target = 1 + float(rng.choice(["1e-3", "0.01", "0.05"]))
    q = target + deg  # n**-q with -q + deg = -target
    qs = f"{abs(q):.{rng.choice([1, 2, 3])}f}"
    texts = [t for t, _, _ in parts]
    fs = [g for _, g, _ in parts]
    if float(qs) != 0:
        texts.append(f"n**-{qs}" if q > 0 else f"n**{qs}")
        qv = -mpf(qs) if q > 0 else mpf(qs)
        fs.append(lambda n, qv=qv: n**qv)
    text = "*".join(texts)

    def f(n, fs=fs):
        v = mpf(1)
        for g in fs:
            v *= g(n)
        return v

    return text, f


def smooth_case(rng: random.Random) -> Term:
    text, f = _smooth_positive(rng, 1.15, 3.5)
    if rng.random() < 0.25:  # a second positive summand
        t2, f2 = _smooth_positive(rng, 2.0, 4.0)
        text, f = f"{text} + {t2}", (lambda n, f=f, f2=f2: f(n) + f2(n))
    cs, cv = _const(rng)
    start = rng.choice([1, 1, 1, 2, 3, 10, 100, 12345, 10**6, 10**12])
    return Term(f"{cs}({text})" if cs else text, lambda n, f=f, cv=cv: cv * f(n), "smooth", start)


def alt_case(rng: random.Random) -> Term:
    text, g = _smooth_positive(rng, 0.3, 2.5)
    cs, cv = _const(rng)
    start = rng.choice([1, 1, 2, 3, 10, 1000])
    sign = rng.choice(["(-1)**n", "(-1)**(n + 1)", "cos(pi*n)"])
    s0 = 0 if sign != "(-1)**(n + 1)" else 1
    return Term(
        f"{cs}{sign}*({text})",
        lambda n, g=g, cv=cv, s0=s0: cv * (-1) ** (int(n) + s0) * g(n),
        "alt",
        start,
        notes={"g": lambda n, g=g, cv=cv: cv * g(n), "s0": s0},
    )


def fast_case(rng: random.Random) -> Term:
    qd = _dec(rng, 0.05, 0.97)
    c = _dec(rng, 0.05, 3.0)
    x = rng.randint(1, 6)
    bases = [
        (f"{qd}**n", lambda n, q=qd: mpf(q) ** n),
        (f"exp(-{c}*n)", lambda n, c=c: mpmath.exp(-mpf(c) * n)),
        (f"{x}**n/factorial(n)", lambda n, x=x: mpf(x) ** n / mpmath.factorial(n)),
        ("factorial(n)/n**n", lambda n: mpmath.factorial(n) / n**n),
        (
            "factorial(n)**2/factorial(2*n)",
            lambda n: mpmath.factorial(n) ** 2 / mpmath.factorial(2 * n),
        ),
        (
            f"binomial(2*n, n)/{x + 4}**n",
            lambda n, x=x: mpmath.binomial(2 * n, n) / mpf(x + 4) ** n,
        ),
        (f"exp(-{c}*sqrt(n))", lambda n, c=c: mpmath.exp(-mpf(c) * mpmath.sqrt(n))),
        ("exp(-n**1.5)", lambda n: mpmath.exp(-(n ** mpf("1.5")))),
        ("2**n*factorial(n)/n**n", lambda n: mpf(2) ** n * mpmath.factorial(n) / n**n),
        ("1/cosh(n)", lambda n: 1 / mpmath.cosh(n)),
        # denominators of positive summands (a majorant keeps one of them)
        ("1/(factorial(n) + exp(n))", lambda n: 1 / (mpmath.factorial(n) + mpmath.exp(n))),
        (
            f"1/(factorial(n) + n**{x + 2})",
            lambda n, x=x: 1 / (mpmath.factorial(n) + mpf(n) ** (x + 2)),
        ),
        (
            f"n**2/(gamma(n + 1/2) + {x + 1}**n)",
            lambda n, x=x: n**2 / (mpmath.gamma(n + mpf(1) / 2) + mpf(x + 1) ** n),
        ),
    ]
    a = _dec(rng, 0.2, 2.5)
    k = rng.randint(1, 3)
    facs = [
        ("", lambda n: 1),
        (f"n**{k}", lambda n, k=k: n**k),
        (f"log(n + 1)**{k}", lambda n, k=k: mpmath.log(n + 1) ** k),
        (f"(n + 1)**-{a}", lambda n, a=a: (n + 1) ** (-mpf(a))),
        ("exp(cos(n))", lambda n: mpmath.exp(mpmath.cos(n))),
        ("(2 + sin(n))", lambda n: 2 + mpmath.sin(n)),
        ("(-1)**n", lambda n: (-1) ** int(n)),
        ("sin(n)", lambda n: mpmath.sin(n)),
        ("cos(3*n)", lambda n: mpmath.cos(3 * n)),
        ("atan(n)", lambda n: mpmath.atan(n)),
        ("floor(sqrt(n))", lambda n: mpmath.floor(mpmath.sqrt(n))),
        ("Abs(sin(n))", lambda n: abs(mpmath.sin(n))),
        (f"(n**2 - {k + 1}*n + 0.5)", lambda n, k=k: n**2 - (k + 1) * n + mpf("0.5")),
    ]
    bt, bf = rng.choice(bases)
    picked = rng.sample(facs, rng.randint(1, 2))
    texts = [bt] + [t for t, _ in picked if t]
    fs = [bf] + [g for _, g in picked]
    cs, cv = _const(rng)
    text = "*".join(texts)

    def f(n, fs=fs, cv=cv):
        v = cv
        for g in fs:
            v *= g(n)
        return v

    start = rng.choice([1, 1, 1, 2, 5, 30])
    return Term(f"{cs}{text}" if cs else text, f, "fast", start)


def osc_case(rng: random.Random) -> Term:
    p = float(_dec(rng, 2.5, 5.0, rng.choice([1, 2])))
    c = _dec(rng, 0.1, 0.9, 1)
    hs = [
        ("(2 + cos(n))", lambda n: 2 + mpmath.cos(n), 1, 3),
        ("exp(cos(n))", lambda n: mpmath.exp(mpmath.cos(n)), mpmath.exp(-1), mpmath.e),
        ("(1 + sin(n)**2)", lambda n: 1 + mpmath.sin(n) ** 2, 1, 2),
        ("sin(n)", lambda n: mpmath.sin(n), -1, 1),
        ("cos(2*n + 1)", lambda n: mpmath.cos(2 * n + 1), -1, 1),
        (
            "(3 + sin(2*n))/(2 + cos(n))",
            lambda n: (3 + mpmath.sin(2 * n)) / (2 + mpmath.cos(n)),
            mpf(2) / 3,
            4,
        ),
        ("exp(-sin(n)**2)", lambda n: mpmath.exp(-(mpmath.sin(n) ** 2)), mpmath.exp(-1), 1),
        ("Max(sin(n), cos(n))", lambda n: max(mpmath.sin(n), mpmath.cos(n)), -1, 1),
        ("(1 + Abs(cos(n)))", lambda n: 1 + abs(mpmath.cos(n)), 1, 2),
        ("(2 + (-1)**floor(n/3))", lambda n: 2 + (-1) ** int(mpmath.floor(n / 3)), 1, 3),
        ("(5 + floor(3*sin(n)))", lambda n: 5 + mpmath.floor(3 * mpmath.sin(n)), 2, 8),
        (
            "atan(n)*(2 + sin(n))",
            lambda n: mpmath.atan(n) * (2 + mpmath.sin(n)),
            mpmath.pi / 4,
            3 * mpmath.pi / 2,
        ),
    ]
    ht, hf, lo, hi = rng.choice(hs)
    pv = mpf(str(p))
    if rng.random() < 0.25:
        # 1/(n**p + c sin(n)) = h n^-p with h in [1/(1 + c), 1/(1 - c)] for n >= 1
        text = f"1/(n**{p!r} + {c}*sin(n))"
        cv = mpf(c)
        return Term(
            text,
            lambda n: 1 / (n**pv + cv * mpmath.sin(n)),
            "osc",
            1,
            p,
            1 / (1 + cv),
            1 / (1 - cv),
        )
    text = f"{ht}/n**{p!r}"
    return Term(
        text, lambda n, hf=hf: hf(n) * n ** (-pv), "osc", rng.choice([1, 1, 2, 7]), p, lo, hi
    )


KINDS = [
    ("smooth", smooth_case, 0.4),
    ("alt", alt_case, 0.2),
    ("fast", fast_case, 0.25),
    ("osc", osc_case, 0.15),
]


def generate(seed: int, count: int) -> list[Term]:
    with mp.workdps(DPS):  # constants made here keep their digits
        return _generate(seed, count)


def _generate(seed: int, count: int) -> list[Term]:
    rng = random.Random(seed)
    out = []
    for _ in range(count):
        r, acc = rng.random(), 0.0
        for _name, make, w in KINDS:
            acc += w
            if r < acc:
                out.append(make(rng))
                break
        else:
            out.append(KINDS[-1][1](rng))
    return out


# ---------------------------------------------------------------------- references
class Untrusted(Exception):
    """The reference methods disagree or fail."""


#: seconds the reference of one case may take (B and every TRF)
REFERENCE_SECONDS = 60


def _too_slow(signum, frame):
    raise Untrusted(f"reference slower than {REFERENCE_SECONDS} s")


@dataclass
class Reference:
    """Tails R(a) = sum_{n >= a} b_n as intervals; B = R(start)."""

    tail: Callable[[int], tuple[mpf, mpf]]
    nonneg: bool
    # the index beyond which every |R_k| stays below ``bound(k)`` and bound decreases
    bound: Callable[[int], mpf] | None = None
    # every tail R_k, k = 0 .. K-1, as an interval, and a bound of |R_k| for k >= K
    direct: tuple | None = None


def _agree(x: mpf, y: mpf, digits: int = 25) -> tuple[mpf, mpf]:
    scale = max(abs(x), abs(y))
    d = abs(x - y)
    if not (mpmath.isfinite(x) and mpmath.isfinite(y)) or d > scale * mpf(10) ** (-digits):
        raise Untrusted(f"methods disagree: {mpmath.nstr(x, 30)} vs {mpmath.nstr(y, 30)}")
    err = 10 * d + scale * mpf(10) ** (-digits - 3)
    m = (x + y) / 2
    return m - err, m + err


def _log_integral(f: Callable, a: mpf, gauss: bool = False) -> mpf:
    """int_a^oo f(x) dx as int_0^U f(a e^u) a e^u du (algebraic decay becomes
    exponential; f evaluated with log10(x) more digits, so shifts and differences such as
    1/x - 1/(x + 5) keep theirs) plus X f(X)/(p - 1) beyond X = a e^U, p the local power
    of f there; tanh-sinh up to U = 300, or Gauss-Legendre up to U = 400 for the second
    method (a term that is no pure power beyond X makes the two disagree)."""
    base = mp.dps

    def g(u):
        with mp.workdps(base + int(u / 2.3) + 10):
            x = a * mpmath.exp(u)
            v = f(x) * x
        return +v

    if gauss:
        pts, method = [0, 0.5, 3, 10, 30, 100, 200, 300, 400], "gauss-legendre"
    else:
        pts, method = [0, 1, 2, 4, 8, 16, 32, 64, 128, 200, 300], "tanh-sinh"
    v = mpmath.quad(g, pts, method=method)
    U = pts[-1]
    with mp.workdps(base + int(U / 2.3) + 10):
        X = a * mpmath.exp(U)
        fx = f(X)
        if fx == 0:
            return v
        p = -mpmath.diff(lambda u: mpmath.log(abs(f(X * mpmath.exp(u)))), 0)
        if p <= 1:
            raise Untrusted("the term does not decay like a power > 1 far out")
        return v + X * fx / (p - 1)


def _em_tail(f: Callable, a: int, head: int, gauss: bool = False) -> mpf:
    """sum_{n>=a} f(n): ``head`` terms directly, then Euler-Maclaurin (mpmath.sumem) with
    the integral in log x."""
    s = mpmath.fsum(f(mpf(n)) for n in range(a, a + head))
    b = mpf(a + head)
    return s + mpmath.sumem(f, [b, mpmath.inf], integral=_log_integral(f, b, gauss))


def _quick_tail(f: Callable, a: int) -> mpf:
    """sum_{n>=a} f(n) to about 10 digits, for the search of a crossing only:
    terms to a + 30 directly, then the integral, f/2 and f'/12 (Euler-Maclaurin)."""
    with mp.workdps(15):
        b = a + 30
        s = mpmath.fsum(f(mpf(n)) for n in range(a, b))
        x = mpf(b)
        return s + _log_integral(f, x) + f(x) / 2 - mpmath.diff(f, x) / 12


def smooth_reference(t: Term) -> Reference:
    def tail(a, precise=True):
        if precise is False:  # for the search only; the answer is judged on precise tails
            x = _quick_tail(t.f, a)
            return x, x
        if precise is None:  # 15 digits: enough to place a crossing
            with mp.workdps(22):
                return _agree(_em_tail(t.f, a, 20), _em_tail(t.f, a, 60, True), 15)
        with mp.workdps(40):
            return _agree(_em_tail(t.f, a, 40), _em_tail(t.f, a, 160, True))

    return Reference(tail, nonneg=True)


def alt_reference(t: Term) -> Reference:
    g, s0 = t.notes["g"], t.notes["s0"]

    def tail(a, precise=True):
        sg = (-1) ** (a + s0)  # the sign of the term at n = a
        pair = lambda m: g(a + 2 * m) - g(a + 2 * m + 1)  # noqa: E731
        if precise is False:
            x = sg * _quick_tail(pair, 0)
            return x, x
        if precise is None:  # 15 digits: enough to place a crossing
            with mp.workdps(22):
                return _agree(sg * _em_tail(pair, 0, 10), sg * _em_tail(pair, 0, 40, True), 15)
        with mp.workdps(40):
            return _agree(sg * _em_tail(pair, 0, 30), sg * _em_tail(pair, 0, 100, True))

    return Reference(tail, nonneg=False)


def fast_reference(t: Term, limit: int = 200000) -> Reference:
    """Partial sums until the terms (and a geometric bound on the rest) fall below 1e-70."""
    with mp.workdps(DPS):
        terms = []
        n = t.start
        small = 0
        while n < t.start + limit:
            v = t.f(mpf(n))
            terms.append(v)
            if abs(v) < mpf(10) ** -75 * max(mpf(10) ** -300, abs(mpmath.fsum(terms[:50]))):
                small += 1
                if small > 60:
                    break
            else:
                small = 0
            n += 1
        else:
            raise Untrusted("terms not below 1e-70 within the limit")
        # suffix sums
        suf = [mpf(0)] * (len(terms) + 1)
        for i in range(len(terms) - 1, -1, -1):
            suf[i] = suf[i + 1] + terms[i]
        total = suf[0]
        err = abs(total) * mpf(10) ** -45 + mpf(10) ** -400
        nonneg = all(v >= 0 for v in terms)

    def tail(a, precise=True):
        i = a - t.start
        if i >= len(suf):
            return -err, err
        return suf[i] - err, suf[i] + err

    direct = ([(x - err, x + err) for x in suf[:-1]], err)
    return Reference(tail, nonneg=nonneg, bound=lambda k: err, direct=direct)


def osc_reference(t: Term, N: int = 30000) -> Reference:
    with mp.workdps(30):
        terms = [t.f(mpf(n)) for n in range(t.start, t.start + N)]
        suf = [mpf(0)] * (N + 1)
        for i in range(N - 1, -1, -1):
            suf[i] = suf[i + 1] + terms[i]
        z = mpmath.zeta(mpf(str(t.p)), t.start + N)
        lo, hi = mpf(t.hlo) * z, mpf(t.hhi) * z
        rnd = mpf(10) ** -25 * (abs(suf[0]) + 1)
        nonneg = t.hlo >= 0

    def tail(a, precise=True):
        i = a - t.start
        if i > N:
            zz = mpmath.zeta(mpf(str(t.p)), a)
            return min(0, mpf(t.hlo)) * zz, max(0, mpf(t.hhi)) * zz
        return suf[i] + lo - rnd, suf[i] + hi + rnd

    def bound(k):
        return max(abs(mpf(t.hlo)), abs(mpf(t.hhi))) * mpmath.zeta(mpf(str(t.p)), k)

    hb = max(abs(mpf(t.hlo)), abs(mpf(t.hhi)))
    direct = ([(x + lo - rnd, x + hi + rnd) for x in suf[:-1]], hb * z + rnd)
    return Reference(tail, nonneg=nonneg, bound=bound, direct=direct)


def reference(t: Term) -> Reference:
    ref = _reference(t)
    ref.tail = functools.lru_cache(maxsize=None)(ref.tail)
    return ref


def _reference(t: Term) -> Reference:
    with mp.workdps(DPS):
        if t.kind == "smooth":
            return smooth_reference(t)
        if t.kind == "alt":
            ref = alt_reference(t)
            B = ref.tail(t.start)
            y = mpmath.nsum(t.f, [t.start, mpmath.inf])
            if not (B[0] - abs(y) * mpf(10) ** -20 <= y <= B[1] + abs(y) * mpf(10) ** -20):
                raise Untrusted(f"alternating: nsum {y} outside {B}")
            return ref
        if t.kind == "fast":
            return fast_reference(t)
        return osc_reference(t)


# ---------------------------------------------------------------------- judging
def _ival(s) -> mpf | None:
    if s is None:
        return None
    if isinstance(s, str) and "x" in s:
        raise ValueError("scaled")
    return mpf(s)


def _lt(a: tuple, b: tuple) -> bool:
    return a[1] < b[0]


def true_trf_bracket(t: Term, ref: Reference, B: tuple, eps: float) -> tuple[int | None, str]:
    """The reference TRF(eps) (the tail rule; Eq. 22 for terms >= 0) or None with why."""
    e = mpf(repr(eps))
    target = (min(abs(B[0]), abs(B[1])) * e, max(abs(B[0]), abs(B[1])) * e)
    if B[0] <= 0 <= B[1]:
        return None, "B not separated from 0"

    def absR(j, precise=True):
        lo, hi = ref.tail(t.start + j, precise)
        if lo >= 0:
            return lo, hi
        if hi <= 0:
            return -hi, -lo
        return mpf(0), max(-lo, hi)

    if ref.direct is not None:  # every tail known: the tail rule as defined
        tails, beyond = ref.direct
        if not beyond < target[0]:
            return None, "the tails beyond the summed terms are not below eps B"
        for k in range(len(tails) - 1, -1, -1):
            r = absR(k)
            if _lt(r, target):
                continue
            if r[0] >= target[1]:
                return k + 1, ""
            return None, f"reference cannot separate R_{k} from eps B"
        return 0, ""
    # the crossing of |R_j| below eps |B| (|R| eventually decreasing): doubling and
    # bisection on quick tails, then the two tails beside it precisely
    hi = 1
    while not _lt(absR(hi, False), target):
        hi *= 2
        if hi > 10**15:
            return None, "beyond 10^15"

    def below(a: int, c: int, precise: bool | None) -> int:  # least j in (a, c] below target
        while c - a > 1:
            m = (a + c) // 2
            a, c = (a, m) if _lt(absR(m, precise), target) else (m, c)
        return c

    hi = below(hi // 2 if hi > 1 else 0, hi, False)
    try:  # bisection again on 15-digit tails, in a window about the quick crossing
        w = max(16, hi // 10000)
        a, c = max(0, hi - w), hi + w
        while a > 0 and _lt(absR(a, None), target):
            a, w = max(0, a - 2 * w), 2 * w
        while not _lt(absR(c, None), target):
            c, w = c + 2 * w, 2 * w
        hi = below(a, c, None)
        if not _lt(absR(hi, None), target):
            return None, f"reference cannot separate R_{hi} from eps B"
        if hi == 0:
            return 0, ""
        r = absR(hi - 1, None)
    except Untrusted as exc:
        return None, f"tail near the crossing: {exc}"
    # signed: the next tails stay below (a monotone decrease is assumed beyond)
    if not ref.nonneg:
        for k in range(hi + 1, hi + 6):
            if not _lt(absR(k, None), target):
                return None, "signed tails not monotone near the crossing"
    return hi, ""


@dataclass
class Outcome:
    formula: str
    start: int
    kind: str
    status: str = "ok"  # ok | skip-ref | error | timeout
    rc: int | None = None
    seconds: float = 0.0
    certified: bool = False
    exact: int = 0
    findings: list = field(default_factory=list)  # false answers
    notes: list = field(default_factory=list)
    judged_exact: int = 0
    judged_bounds: int = 0


def run_tool(t: Term, extra: list[str] | None = None) -> tuple[int, str, str, float]:
    cmd = [sys.executable, "-m", "theory.trf", "--rpe", t.text, "--start", str(t.start), "--json"]
    cmd += extra or []
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        return -1, "", "timeout", time.monotonic() - t0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def judge(t: Term, out: dict, ref: Reference, o: Outcome, truths: dict | None = None) -> None:
    with mp.workdps(DPS):
        B = ref.tail(t.start)
        try:
            lo, hi = _ival(out.get("sum_lo")), _ival(out.get("sum_hi"))
        except ValueError:
            o.notes.append("scaled sum: not judged")
            return
        o.certified = bool(out.get("certified"))
        if lo is not None and lo > B[1]:
            o.findings.append(f"B lower end {out['sum_lo']} > reference {mpmath.nstr(B[1], 30)}")
        if hi is not None and hi < B[0]:
            o.findings.append(f"B upper end {out['sum_hi']} < reference {mpmath.nstr(B[0], 30)}")
        for row in out.get("trf") or []:
            eps = row["eps"]
            if row.get("exact"):
                o.exact += 1
            if truths is not None and eps in truths:
                truth, why = truths[eps]
            else:
                truth, why = true_trf_bracket(t, ref, B, eps)
            if truth is None:
                o.notes.append(f"eps={eps}: {why}")
                continue
            v, lb, ub = row.get("value"), row.get("lower_bound"), row.get("upper_bound")
            if row.get("exact"):
                o.judged_exact += 1
                if int(v) != truth:
                    o.findings.append(f"TRF({eps}) = {v} exact, reference {truth}")
            if lb is not None:
                o.judged_bounds += 1
                if int(lb) > truth:
                    o.findings.append(f"TRF({eps}) lower bound {lb} > reference {truth}")
            if ub is not None:
                o.judged_bounds += 1
                if int(ub) < truth:
                    o.findings.append(f"TRF({eps}) upper bound {ub} < reference {truth}")
            br = row.get("log10_bracket")
            if br and not (br[0] <= mpmath.log10(truth) <= br[1]):
                o.findings.append(f"TRF({eps}) log10 bracket {br} misses reference {truth}")


def fuzz_one(t: Term, extra: list[str] | None = None) -> Outcome:
    o = Outcome(t.text, t.start, t.kind)
    old = signal.signal(signal.SIGALRM, _too_slow)
    signal.alarm(REFERENCE_SECONDS)
    try:
        ref = reference(t)
        with mp.workdps(DPS):
            ref.tail(t.start)
            truths = {eps: true_trf_bracket(t, ref, ref.tail(t.start), eps) for eps in EPS}
    except (Untrusted, ArithmeticError, ValueError, MemoryError, TypeError) as exc:
        o.status = "skip-ref"
        o.notes.append(f"reference: {exc}")
        return o
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    rc, stdout, stderr, secs = run_tool(t, extra)
    o.rc, o.seconds = rc, secs
    if rc == -1:
        o.status = "timeout"
        return o
    if rc not in (0, 2) or "Traceback" in stderr:
        o.status = "error"
        o.notes.append(stderr.strip()[-400:])
        return o
    if rc == 2:
        o.status = "refused"
        o.notes.append(stderr.strip()[-200:])
        return o
    try:
        out = json.loads(stdout)
    except json.JSONDecodeError:
        o.status = "error"
        o.notes.append("no JSON: " + stdout[-200:])
        return o
    if out.get("converges") is False:
        o.findings.append("verdict diverges for a convergent series")
    judge(t, out, ref, o, truths)
    if secs > 30:
        o.notes.append(f"slow: {secs:.1f} s")
    return o


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--cases", type=int, default=50, help="cases to generate (default 50)")
    ap.add_argument("--seed", type=int, default=0, help="seed of the generator (default 0)")
    ap.add_argument(
        "--skip", type=int, default=0, help="skip the first cases of the seed (default 0)"
    )
    ap.add_argument("--show", action="store_true", help="print the formulas only")
    ap.add_argument("--jsonl", help="append one JSON line per case to this file (default: none)")
    args = ap.parse_args(argv)
    cases = generate(args.seed, args.cases + args.skip)[args.skip :]
    if args.show:
        for t in cases:
            print(t.kind, t.start, t.text)
        return 0
    counts = dict.fromkeys(
        [
            "cases",
            "skip-ref",
            "refused",
            "certified",
            "exact",
            "judged_exact",
            "judged_bounds",
            "false",
            "errors",
            "timeouts",
            "slow",
        ],
        0,
    )
    bad = []
    for i, t in enumerate(cases):
        o = fuzz_one(t)
        counts["cases"] += 1
        counts["skip-ref"] += o.status == "skip-ref"
        counts["refused"] += o.status == "refused"
        counts["errors"] += o.status == "error"
        counts["timeouts"] += o.status == "timeout"
        counts["slow"] += o.seconds > 30
        counts["certified"] += o.certified
        counts["exact"] += o.exact
        counts["judged_exact"] += o.judged_exact
        counts["judged_bounds"] += o.judged_bounds
        counts["false"] += bool(o.findings)
        flag = "FALSE" if o.findings else o.status
        print(
            f"[{i + args.skip}] {flag:8s} {o.seconds:5.1f}s {t.kind:6s} s={t.start} {t.text}",
            flush=True,
        )
        for line in o.findings + (
            [n for n in o.notes if o.status != "ok"] if o.status != "ok" else []
        ):
            print("      " + line[:300], flush=True)
        if o.findings or o.status in ("error", "timeout"):
            bad.append(o)
        if args.jsonl:
            with open(args.jsonl, "a") as fh:
                fh.write(json.dumps({**o.__dict__, "index": i + args.skip}) + "\n")
    print(json.dumps(counts))
    return 1 if any(o.findings for o in bad) else 0


if __name__ == "__main__":
    raise SystemExit(main())
