"""The references of held-out set 5 (heldout5_cases.py): mpmath tools for B and for
TRF(eps) (RPE paper Eq. 22; for signed terms the tail rule of docs/conventions.md), and the
classifier of what ``python -m theory.trf --json`` reports for them.

Index convention of the tool: term k = 0, 1, ... is b_(start+k); R_j = sum_(k >= j) b_(s+k);
for terms >= 0, TRF(eps) = min{j : R_j < eps B}; for signed terms, TRF(eps) = min{j : |R_k| <
eps |B| for every k >= j}.  eps is the decimal the user typed (0.1 is 1/10, as the tool reads it).

Every reference is computed here at 40 digits, never by the tool: closed forms (zeta,
Hurwitz zeta, polylog, gamma, incomplete gamma, Bessel-Fourier series), Euler-Maclaurin tails
with the closed-form integral (:func:`em_tail`), Euler transforms of alternating / e^(i n)
tails (:func:`osc_tail`), and direct summation; each case names its source.
"""

from __future__ import annotations

import json
import math
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction
from pathlib import Path

import mpmath as mp
import numpy as np

DPS = 40  # working digits of every reference (mp.workdps; the global precision is left alone)
EPS = (0.1, 0.01, 0.001)
mpf = mp.mpf


# ---------------------------------------------------------------------------------------------
# reference tools
# ---------------------------------------------------------------------------------------------


def em_tail(f: Callable, a, integral, order: int = 5):
    """sum_(n >= a) f(n) by Euler-Maclaurin: I(a) + f(a)/2 - sum_k B_2k/(2k)! f^(2k-1)(a)
    (a large enough that the remainder is below 40 digits for the smooth f used here)."""
    a = mpf(a)
    s = integral(a) + f(a) / 2
    for k in range(1, order + 1):
        s -= mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.diff(f, a, 2 * k - 1)
    return s


def direct(f: Callable, a: int, b: int):
    """sum_(a <= n < b) f(n)."""
    return mp.fsum(f(n) for n in range(a, b))


def osc_tail(g: Callable, z, m, terms: int = 30):
    """sum_(n >= m) z^n g(n) for |z| = 1, z != 1 and smooth decreasing g, by the Euler
    transform sum_k z^k g(m+k) = sum_j Delta^j g(m) z^j / (1 - z)^(j+1)."""
    m = mpf(m)
    extra = int(terms * max(0.0, float(mp.log10(m)))) + 20
    with mp.workdps(mp.mp.dps + extra):
        vals = [g(m + i) for i in range(terms + 1)]
        out, zz = mpf(0), mp.mpmathify(z)
        for j in range(terms + 1):
            d = mp.fsum((-1) ** (j - i) * mp.binomial(j, i) * vals[i] for i in range(j + 1))
            out += d * zz**j / (1 - zz) ** (j + 1)
        res = zz**m * out if not isinstance(z, int) else (z ** int(m)) * out
    return +res


def root_t(log_r: Callable, log_target, t0) -> mp.mpf:
    """The t with log_r(t) = log_target for log_r decreasing in t (t = ln x): bracketing
    by doubling, then bisection to the working precision."""
    lo = hi = mpf(t0)
    while log_r(lo) < log_target:
        lo = lo / 2
    while log_r(hi) > log_target:
        hi = hi * 2
    for _ in range(160):
        mid = (lo + hi) / 2
        if log_r(mid) > log_target:
            lo = mid
        else:
            hi = mid
    return (lo + hi) / 2


def bisect_first(pred: Callable[[int], bool], lo: int = 1) -> int:
    """The least j >= lo with pred(j), pred monotone (False ... False True ...)."""
    if pred(lo):
        return lo
    hi = max(2 * lo, 2)
    while not pred(hi):
        lo, hi = hi, hi * 2
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if pred(mid):
            hi = mid
        else:
            lo = mid
    return hi


# ---------------------------------------------------------------------------------------------
# the cases
# ---------------------------------------------------------------------------------------------


@dataclass
class Case:
    """One series: CLI arguments, the reference B, and how its TRF is found.

    ``tail(j)``: R_j, decreasing for terms >= 0 (bisection); ``term(n)``: b_n (direct
    partial sums R_j = B - S_j); ``log10_trf(eps, B)``: log10 TRF for TRFs beyond 10^15;
    ``envelope(eps, B)``: for signed terms, a K with |R_k| < eps |B| proved for k >= K
    (the tails below K are scanned); ``monotone_from``: for signed terms, |R_k| decreasing
    from there on (bisection beyond a scan)."""

    name: str
    args: list
    B: Callable
    source: str
    start: int = 1
    term: Callable | None = None
    tail: Callable | None = None
    log10_trf: Callable | None = None
    signed: bool = False
    envelope: Callable | None = None
    monotone_from: int | None = None
    files: dict = field(default_factory=dict)
    slow_only: bool = False
    exact_trf: Callable | None = None  # TRF from the decimal eps in exact rationals


def typed(eps: float) -> mp.mpf:
    """eps as the tool reads it: the decimal of the float's shortest repr (0.1 is 1/10)."""
    q = Fraction(repr(eps))
    return mpf(q.numerator) / q.denominator


def ref_trf(c: Case, eps: float, B=None):
    """("int", j) or ("log10", x): the reference TRF(eps)."""
    with mp.workdps(DPS):
        return _ref_trf(c, eps, B)


def _ref_trf(c: Case, eps: float, B=None):
    B = c.B() if B is None else B
    if c.exact_trf is not None:
        return ("int", c.exact_trf(Fraction(repr(eps))))
    eps = typed(eps)
    target = eps * abs(B)
    if c.log10_trf is not None:
        L = c.log10_trf(eps, B)
        if L > 14.5 or c.tail is None:
            return ("log10", L)
    if not c.signed:
        if c.tail is not None:
            return ("int", bisect_first(lambda j: c.tail(j) < target))
        s, j = mpf(0), 0
        while B - s >= target:
            s += c.term(c.start + j)
            j += 1
        return ("int", j)
    # signed: 1 + the last k with |R_k| >= eps |B|
    if c.monotone_from is not None:
        k0 = c.monotone_from
        if abs(c.tail(k0)) >= target:
            return ("int", bisect_first(lambda j: abs(c.tail(j)) < target, k0))
        K = k0
    else:
        K = c.envelope(eps, B)
    s, last = mpf(0), -1
    for k in range(K + 1):
        if abs(B - s) >= target:
            last = k
        s += c.term(c.start + k)
    return ("int", last + 1)


def hurwitz(s, start):
    """1/n^s from n = start: B = zeta(s, start), R_j = zeta(s, start + j) (Hurwitz)."""
    return (lambda: mp.zeta(s, start)), (lambda j: mp.zeta(s, start + j))


def power_log10(s, start=1):
    """log10 TRF for 1/n^s, s -> 1+: R(x) = x^(1-s)/(s-1) + x^(-s)/2 + ... = eps B solved
    for x = start + j (Newton on ln x; the next EM term is below 1e-40 there)."""
    d = mpf(s) - 1

    def f(eps, B):
        t = -mp.log(eps * B * d) / d  # first guess ln x
        for _ in range(30):
            r = mp.exp(-d * t) / d + mp.exp(-s * t) / 2
            dr = -mp.exp(-d * t) - s * mp.exp(-s * t) / 2
            t = t - (r - eps * B) / dr
        return t / mp.log(10)

    return f


def gamma_ratio(a, b, start=1):
    """Gamma(n+a)/Gamma(n+b): sum_(n>=m) = Gamma(m+a)/((b-a-1) Gamma(m+b-1)) (telescoping,
    Gamma(n+a)/Gamma(n+b-1) differences); exact tail."""

    def tail(j):
        m = start + j
        return mp.gamma(m + a) / ((b - a - 1) * mp.gamma(m + b - 1))

    return (lambda: tail(0)), tail


def bessel_fourier(trig, p, start=1, kmax=40):
    """sum_(n>=start) exp(trig(n))/n^p with exp(z cos t) = sum_k I_k(z) e^(ikt): B =
    sum_k I_k(1) c_k Li_p(e^(ik)) minus the first terms (c_k = 1 for cos, (-i)^k for sin)."""

    def B():
        tot = mpf(0)
        for k in range(-kmax, kmax + 1):
            c = 1 if trig == "cos" else (-1j) ** k
            tot += mp.besseli(abs(k), 1) * c * (mp.polylog(p, mp.expj(k)) if k else mp.zeta(p))
        head = direct(lambda n: mp.exp(getattr(mp, trig)(n)) / mpf(n) ** p, 1, start)
        return mp.re(tot) - head

    return B


def alt_tail(g, start):
    def tail(j):
        m = start + j
        if m < 40:
            return direct(lambda n: (-1) ** n * g(n), m, 40) + osc_tail(g, -1, 40)
        return osc_tail(g, -1, m, terms=30 if m < 10**6 else 6)

    return tail


def logpower_log10(q, B_only=False):
    """1/(n ln^q n): R(x) = ln(x)^(1-q)/(q-1) + f(x)/2 + ...; eps B = R solved for ln x."""

    def f(eps, B):
        d = mpf(q) - 1
        u = (eps * B * d) ** (-1 / d)  # ln x
        return u / mp.log(10)

    return f


def logpower_B(q, start):
    f = lambda n: 1 / (n * mp.log(n) ** q)  # noqa: E731
    N = 1000
    return lambda: direct(f, start, N) + em_tail(f, N, lambda a: mp.log(a) ** (1 - q) / (q - 1))


def stretched(r, k=1, start=1):
    """exp(-k n^r): int_x^oo = Gamma(1/r, k x^r) / (r k^(1/r)); B = S_N + EM tail."""
    f = lambda n: mp.exp(-k * mpf(n) ** r)  # noqa: E731
    integral = lambda a: mp.gammainc(1 / mpf(r), k * a**r) / (r * mpf(k) ** (1 / mpf(r)))  # noqa: E731
    N = 2000

    def B():
        return direct(f, start, N) + em_tail(f, N, integral)

    def tail(j):
        m = start + j
        if m < N:
            return B() - direct(f, start, m)
        return em_tail(f, m, integral)

    return f, B, tail


def bias_geo(values, tail_kind, shift=0.0):
    """B and terms of a bias file: exp(v_k) for k < L, then exp(last + s (k - L + 1)) with s
    the exact least-squares slope of the last max(2, L//10) binary values (linear), or 0."""
    v = [float(x) for x in values]
    L = len(v)
    if tail_kind == "linear":
        m = max(2, L // 10)
        ys = [Fraction(x) for x in v[-m:]]
        xm, ym = Fraction(m - 1, 2), sum(ys) / m
        slope = sum((i - xm) * (y - ym) for i, y in enumerate(ys)) / sum(
            (i - xm) ** 2 for i in range(m)
        )
        s = mpf(slope.numerator) / slope.denominator
    last = mpf(v[-1]) - mpf(shift)  # exact: 40 digits hold the difference of the values here

    def term(k):
        if k < L:
            return mp.exp(mpf(v[k]) - mpf(shift))
        if tail_kind == "zero":
            return mpf(0)
        return mp.exp(last + s * (k - L + 1))

    def tail(j):
        geo = mpf(0) if tail_kind == "zero" else mp.exp(last + s) / (-mp.expm1(s))
        if j >= L:
            return (
                mpf(0) if tail_kind == "zero" else mp.exp(last + s * (j - L + 1)) / (-mp.expm1(s))
            )
        return mp.fsum(mp.exp(mpf(x) - mpf(shift)) for x in v[j:]) + geo

    return term, (lambda: tail(0)), tail


# ---------------------------------------------------------------------------------------------
# running and classifying
# ---------------------------------------------------------------------------------------------


def write_files(c: Case, where: Path) -> None:
    for fname, vals in c.files.items():
        if fname.endswith(".npy"):
            np.save(where / fname, np.array(vals, dtype=float))
        else:
            (where / fname).write_text(
                "\n".join(repr(float(v)) if not isinstance(v, str) else v for v in vals) + "\n"
            )


def run_cli(c: Case, where: Path, time_limit: float | None = None, root: Path | None = None):
    """(exit code, parsed JSON or None, stderr)."""
    write_files(c, where)
    args = [sys.executable, "-m", "theory.trf", *c.args, "--json"]
    args = [a if a not in c.files else str(where / a) for a in args]
    if time_limit is not None:
        args += ["--time-limit", str(time_limit)]
    p = subprocess.run(args, capture_output=True, text=True, cwd=root, timeout=200)
    try:
        data = json.loads(p.stdout)
    except ValueError:
        data = None
    return p.returncode, data, p.stderr


def _num(v):
    if v is None:
        return None
    if isinstance(v, str):
        if v.startswith("10^("):
            return ("log10log10", mpf(v[len("10^(10^") : -1]))
        if v.startswith("10^"):
            return ("log10", mpf(v[3:]))
        return mpf(v)
    return mpf(v)


def classify_trf(t: dict, ref) -> str:
    """exact / bracket / estimate / lower / none / WRONG-... for one TRF entry."""
    kind, truth = ref
    L = mp.log10(truth) if kind == "int" else truth  # log10 of the truth
    slack = mpf(10) ** -12 * max(1, abs(L))
    lb, ub = t.get("lower_bound"), t.get("upper_bound")
    if t.get("exact"):
        if kind == "int" and t["value"] == int(truth):
            return "exact"
        return "WRONG-exact"
    if t.get("log10_bracket"):
        lo, hi = t["log10_bracket"]
        ok = (lo is None or mpf(lo) <= L + slack) and L - slack <= mpf(hi)
        return ("bracket" if lo is not None else "upper-only") if ok else "WRONG-bracket"
    if lb is not None and ub is not None:
        ok = (
            (mpf(lb) <= truth <= mpf(ub))
            if kind == "int"
            else (mp.log10(lb) <= L + slack and L - slack <= mp.log10(ub))
        )
        return "bracket" if ok else "WRONG-bracket"
    v = t.get("value")
    if v is not None:
        ra = t.get("relative_accuracy") or 0
        lv = t.get("log10")
        if kind == "int" and truth < 10**15 and not isinstance(v, str):
            ok = abs(mpf(v) - truth) <= max(1, ra * truth)
        else:
            lv = mpf(lv) if lv is not None else None
            if lv is None and t.get("log10_log10") is not None:
                ok = abs(mpf(10) ** mpf(t["log10_log10"]) - L) <= max(slack * 10, ra * L)
            else:
                ok = lv is not None and abs(lv - L) <= ra / math.log(10) + slack * 10
        return "estimate" if ok else "WRONG-estimate"
    if lb is not None:
        return (
            "lower"
            if (kind == "int" and lb <= truth) or (kind != "int" and mp.log10(lb) <= L + slack)
            else "WRONG-lower"
        )
    return "none"


def classify_sum(d: dict, B) -> str:
    """enclosed / bracket / lower / none / FALSE: the reported B against the reference."""
    if d.get("sum_log_scale_hex"):  # B = e^M x the scaled bracket (B passed scaled too)
        lo, hi = d.get("sum_scaled_lo"), d.get("sum_scaled_hi")
    else:
        lo, hi = d.get("sum_lo"), d.get("sum_hi")
    lo = mpf(lo) if lo not in (None, "unknown") else None
    hi = mpf(hi) if hi not in (None, "unknown") else None
    if lo is None and hi is None:
        return "none"
    if not ((lo is None or lo <= B) and (hi is None or B <= hi)):
        return "FALSE"
    if lo is not None and hi is not None:
        return "enclosed" if d.get("certified") else "bracket"
    return "lower"


def evaluate(c: Case, where: Path, time_limit=None, root=None, ran=None) -> dict:
    """Run one case (or take ``ran``, run_cli's answer) and classify B and each TRF against
    the references."""
    rc, d, err = run_cli(c, where, time_limit, root) if ran is None else ran
    out = {"name": c.name, "rc": rc, "stderr": err.strip()[-300:]}
    if d is None or rc != 0:
        out.update(sum="ERROR", trf=["ERROR"] * len(EPS))
        return out
    with mp.workdps(DPS):
        B = c.B()
        out["sum"] = classify_sum(d, B)
        out["trf"] = []
        for t, e in zip(d.get("trf") or [], EPS, strict=False):
            out["trf"].append(classify_trf(t, ref_trf(c, e, B)))
    out["trf"] += ["none"] * (len(EPS) - len(out["trf"]))
    out["raw"] = d.get("trf")
    return out
