"""Adversarial convergent series for the certified sums and TRFs, each with an independent reference.

One row per series: ``Case(text, start, kind, reference)``.  ``kind`` names the failure class
it probes: ``feature`` (bumps, poles, switches between integers or late in the series),
``slow`` (very slow decays and slowly converging cancellations), ``gives-up`` (rational
differences, floor/Min/Max/Piecewise/Abs pieces, oscillating terms) and ``hypergeometric``
(factorial, binomial, gamma and Product terms whose ratio tends to 1: Raabe/Gauss regime).  ``reference()`` returns
B = sum_{n >= start} b_n as an mpmath number at ``DPS`` digits, computed without the engine:
a closed form (zeta, Hurwitz zeta, digamma, polylog, geometric sums) plus, for the features,
a direct mpmath sum over the window where the feature is not negligible (the neglected part
is below 10^-120 of B, stated per family).  The list is data only: the tests in
``test_certified_sums.py`` and the benchmark import it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

import mpmath as mp

DPS = 50


@dataclass(frozen=True)
class Case:
    text: str
    start: int
    kind: str
    reference: Callable[[], object]


def _z(s, a=1):
    return mp.zeta(s, a)


def _window(f, centre, half):
    """sum of f(n) over the integers n >= 1 with |n - centre| <= half (direct, mpmath)."""
    lo, hi = max(1, int(mp.floor(centre - half))), int(mp.ceil(centre + half))
    return mp.fsum(f(mp.mpf(n)) for n in range(lo, hi + 1))


def _bump(A, c, w):
    """1/n^2 + A exp(-w (n - c)^2): zeta(2) + the bump over |n - c| <= sqrt(300/w)
    (outside, each term is < A e^-300 and their sum < 10^-120 B)."""

    def ref():
        half = mp.sqrt(mp.mpf(300) / w) + 2
        return _z(2) + _window(lambda n: A * mp.exp(-w * (n - c) ** 2), c, half)

    return ref


def _switch(N1, p1, p2):
    """Piecewise((n^-p1, n < N1), (n^-p2, True)): zeta(p1) - zeta(p1, N1) + zeta(p2, N1)."""
    return lambda: _z(p1) - _z(p1, N1) + _z(p2, N1)


def _rational_difference(a, b):
    """1/n - a/(a n + b) = 1/n - 1/(n + b/a): digamma(1 + b/a) - digamma(1) (telescoping)."""
    return lambda: mp.digamma(1 + mp.mpf(b) / a) + mp.euler


def _floor_geometric(r, q):
    """r^floor(n/q), n >= 1: (q - 1) terms equal to 1, then q copies of r^m, m >= 1."""
    return lambda: (q - 1) + q * r / (1 - r)


def _li(s, k):
    """Li_s(e^(ik)) (mpmath polylog)."""
    return mp.polylog(s, mp.expj(k))


def _exp_minus_inv():
    """sum exp(-1/n) - 1 + 1/n = sum_{k>=2} (-1)^k zeta(k)/k! (absolutely convergent)."""
    return mp.nsum(lambda k: (-1) ** int(k) * _z(k) / mp.factorial(k), [2, mp.inf])


def _one_minus_cos_inv():
    """sum 1 - cos(1/n) = sum_{k>=1} (-1)^(k+1) zeta(2k)/(2k)!."""
    return mp.nsum(lambda k: (-1) ** (int(k) + 1) * _z(2 * k) / mp.factorial(2 * k), [1, mp.inf])


def _euler_limit():
    """sum (1+1/n)^n - e + e/(2n): direct to N = 400, then e sum_k a_k zeta(k, N) with a_k the
    Taylor coefficients of (1+t)^(1/t)/e at t = 0 (k >= 2; the first 40 terms, remainder
    below 400^-40)."""
    N = 400
    head = mp.fsum((1 + mp.mpf(1) / n) ** n - mp.e + mp.e / (2 * n) for n in range(1, N))
    with mp.workdps(2 * DPS):
        a = mp.taylor(lambda t: mp.exp(mp.log1p(t) / t - 1) if t != 0 else mp.mpf(1), 0, 42)
    return head + mp.e * mp.fsum(a[k] * _z(k, N) for k in range(2, 42))


def _min_exp(cap, scale):
    """exp(-Min(n, cap)/scale)/n^2: the first cap - 1 terms, then e^(-cap/scale) zeta(2, cap)."""
    return lambda: (
        mp.fsum(mp.exp(-mp.mpf(n) / scale) / n**2 for n in range(1, cap))
        + mp.exp(-mp.mpf(cap) / scale) * _z(2, cap)
    )


def _abs_shift(c):
    """Abs(n - c)^-2 with c = m + 1/2: the terms n <= m directly, then zeta(2, 1/2)."""
    m = int(c)
    return lambda: mp.fsum(1 / (n - mp.mpf(c)) ** 2 for n in range(1, m + 1)) + _z(2, mp.mpf(1) / 2)


def _frac(text: str):
    """'3/2' -> mpf(1.5) exactly at DPS digits (a small parser for this table only)."""
    with mp.workdps(DPS + 10):
        if "/" in text:
            num, den = text.split("/")
            return mp.mpf(_power(num)) / mp.mpf(_power(den))
        return mp.mpf(_power(text))


def _power(text: str):
    if "**" in text:
        base, exp = text.split("**")
        return mp.mpf(base) ** int(exp)
    return mp.mpf(text)


CASES: list[Case] = []


def _add(text, start, kind, ref):
    CASES.append(Case(text, start, kind, ref))


# --- features between integers or late in the series ---------------------------------------
for A, c, w in [
    (1, "1000.5", 100),
    (1, "50.5", 400),
    (1, "12345.5", 25),
    ("1/10**8", "100000", 1),
    ("1/10**6", "100000", "1/10**4"),
    (3, "7.5", 50),
    (1, "20000.25", 64),
    ("1/1000", "333333.5", 10),
    (2, "2.5", 1000),
    ("1/10**10", "999999", "1/100"),
]:
    _add(
        f"1/n**2 + {A}*exp(-{w}*(n - {c})**2)",
        1,
        "feature",
        _bump(*(_frac(str(x)) for x in (A, c, w))),
    )
for N1, p1, p2 in [
    (10**6, 2, 3),
    (10**4, 2, 4),
    (777777, 3, 2),
    (10**5, 2, "3/2"),
    (12345, "5/2", 2),
    (10**6, 4, 2),
]:
    _add(
        f"Piecewise((n**(-{p1}), n < {N1}), (n**(-({p2})), True))",
        1,
        "feature",
        _switch(N1, _frac(str(p1)), _frac(str(p2))),
    )
_add("Piecewise((0, n < 100000), (n**(-2), True))", 1, "feature", lambda: _z(2, 10**5))
_add(
    "exp(-n) + Piecewise((1/10**10, n < 100000), (0, True))",
    1,
    "feature",
    lambda: 1 / (mp.e - 1) + mp.mpf(10) ** -10 * (10**5 - 1),
)
_add("exp(-Min(n, 128)/16)/n**2", 1, "feature", _min_exp(128, 16))
_add("exp(-Min(n, 1000)/100)/n**2", 1, "feature", _min_exp(1000, 100))
_add("Max(n, 10)**(-2)", 1, "feature", lambda: mp.mpf(9) / 100 + _z(2, 10))
_add("Abs(n - 10.5)**(-2)", 1, "feature", _abs_shift(mp.mpf("10.5")))
_add("Abs(n - 1000.5)**(-2)", 1, "feature", _abs_shift(mp.mpf("1000.5")))

# --- very slow decays and slowly converging cancellations ----------------------------------
for p in ("1.01", "1.05", "1.1", "1.25", "3/2", "2", "3"):
    _add(f"n**(-{p})", 1, "slow", (lambda p=p: _z(_frac(p))))
for q, p in [("1/2", "11/10"), ("3", "6/5"), ("10", "2")]:
    _add(f"(n + {q})**(-{p})", 1, "slow", (lambda q=q, p=p: _z(_frac(p), 1 + _frac(q))))
_add("exp(-1/n) - 1 + 1/n", 1, "slow", _exp_minus_inv)
_add("1 - cos(1/n)", 1, "slow", _one_minus_cos_inv)
_add("(1 + 1/n)**n - E + E/(2*n)", 1, "slow", _euler_limit)
_add("exp(-n/1000)", 0, "slow", lambda: 1 / (1 - mp.exp(-mp.mpf(1) / 1000)))
_add(
    "exp(-n/100000)",
    1,
    "slow",
    lambda: mp.exp(-mp.mpf(1) / 10**5) / (1 - mp.exp(-mp.mpf(1) / 10**5)),
)
_add("(999/1000)**n", 1, "slow", lambda: mp.mpf(999) / 1000 / (1 - mp.mpf(999) / 1000))

# --- series the previous engine gave up on ---------------------------------------------------
for a, b in [(3, 2), (2, 1), (5, 3), (7, 1), (4, 3), (10, 9)]:
    _add(f"1/n - {a}/({a}*n + {b})", 1, "gives-up", _rational_difference(a, b))
_add("1/(n + 1) - 1/(n + 2)", 1, "gives-up", lambda: mp.mpf(1) / 2)
_add("1/n**2 - 1/(n + 1)**2", 1, "gives-up", lambda: mp.mpf(1))
_add("1/(n*(n + 1)*(n + 2))", 1, "gives-up", lambda: mp.mpf(1) / 4)
for r, q in [("1/2", 2), ("1/3", 2), ("1/2", 3), ("9/10", 2), ("1/5", 4)]:
    _add(f"({r})**floor(n/{q})", 1, "gives-up", _floor_geometric(_frac(r), q))
_add("(1/2)**floor((n + 1)/2)", 1, "gives-up", lambda: mp.mpf(2))  # 2 (1/2 + 1/4 + ...)
_add("(2 + sin(n))/n**2", 1, "gives-up", lambda: 2 * _z(2) + _li(2, 1).imag)
_add("cos(n)**2/n**2", 1, "gives-up", lambda: (_z(2) + _li(2, 2).real) / 2)
_add("sin(n)**2/n**2", 1, "gives-up", lambda: (_z(2) - _li(2, 2).real) / 2)
_add("(1 + cos(2*n))/n**3", 1, "gives-up", lambda: _z(3) + _li(3, 2).real)
_add(
    "(3 + cos(n) + sin(2*n))/n**2",
    1,
    "gives-up",
    lambda: 3 * _z(2) + _li(2, 1).real + _li(2, 2).imag,
)
_add(
    "sin(n)**2/n**(3/2)",
    1,
    "gives-up",
    lambda: (_z(mp.mpf(3) / 2) - _li(mp.mpf(3) / 2, 2).real) / 2,
)
_add("(2 + cos(3*n))/n**2", 1, "gives-up", lambda: 2 * _z(2) + _li(2, 3).real)
_add("sin(n)/n**2 + 2/n**2", 1, "gives-up", lambda: 2 * _z(2) + _li(2, 1).imag)
_add("(1 + sin(n)*cos(n))/n**2", 1, "gives-up", lambda: _z(2) + _li(2, 2).imag / 2)
_add(
    "exp(cos(n))/n**2",
    1,
    "gives-up",
    lambda: (
        mp.besseli(0, 1) * _z(2)
        + 2 * mp.nsum(lambda k: mp.besseli(k, 1) * _li(2, k).real, [1, mp.inf])
    ),
)

# ---- hypergeometric: ratio -> 1, Raabe exponent 3/2, 2, 13/6 (closed forms)
# sum (1/2)_n/(n! n) = psi(1) - psi(1/2) = 2 ln 2
_add("binomial(2*n, n)/(4**n*n)", 1, "hypergeometric", lambda: 2 * mp.log(2))
# sum 4^n/(n^2 binom(2n, n)) = 2 arcsin(1)^2
_add("factorial(n)**2*4**n/(factorial(2*n)*n**2)", 1, "hypergeometric", lambda: mp.pi**2 / 2)
# 3F2(1/2, 1/2, 1/2; 1, 1; 1) = pi/Gamma(3/4)^4 (Watson), without its n = 0 term
_add(
    "Product(1 - 1/(2*k), (k, 1, n))**3",
    1,
    "hypergeometric",
    lambda: mp.pi / mp.gamma(mp.mpf(3) / 4) ** 4 - 1,
)
# sum ((1/2)_n/n!)^2/n = 4 ln 2 - 8 G/pi (G Catalan's constant; equal to (1/4) 4F3(3/2, 3/2,
# 1, 1; 2, 2, 2; 1) to 40 digits)
_add(
    "binomial(2*n, n)**2/(16**n*n)",
    1,
    "hypergeometric",
    lambda: 4 * mp.log(2) - 8 * mp.catalan / mp.pi,
)
# Gamma(1/2) Gamma(1/3)/Gamma(2) 2F1(1/2, 1/3; 2; 1), Gauss's Gamma(c) Gamma(c-a-b)/(...)
_add(
    "gamma(n + 1/2)*gamma(n + 1/3)/(gamma(n + 2)*factorial(n))",
    0,
    "hypergeometric",
    lambda: (
        mp.gamma(mp.mpf(1) / 2)
        * mp.gamma(mp.mpf(1) / 3)
        * mp.gamma(mp.mpf(7) / 6)
        / (mp.gamma(mp.mpf(3) / 2) * mp.gamma(mp.mpf(5) / 3))
    ),
)
