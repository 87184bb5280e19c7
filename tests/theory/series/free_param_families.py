r"""Families of series with free parameters, each with its true convergence region.

Each entry: the formula (``python -m theory.trf --rpe``), its free parameters, the start,
the ``--assume`` options, the truth as a function of the parameter values (exact
rationals; the mathematical argument in the comment beside it), and a grid of values
that includes the boundaries of the region.  Used by
``tests/theory/series/test_free_param_families.py`` and by
``python -m benchmarks.free_params`` (the table of verdicts).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field
from fractions import Fraction as F


@dataclass(frozen=True)
class Family:
    name: str
    formula: str
    params: tuple
    truth: Callable  # truth(**values) -> bool (converges)
    grid: tuple  # per parameter, the values tried (strings: "1", "-1/2", ...)
    start: int = 1
    assume: tuple = ()
    points: tuple = field(default=())  # explicit points instead of the product grid

    def grid_points(self) -> list[dict]:
        if self.points:
            return [dict(zip(self.params, p)) for p in self.points]
        return [dict(zip(self.params, vs)) for vs in itertools.product(*self.grid)]


def _f(v) -> F:
    return F(v)


FAMILIES = (
    # sum n^-p: p-series, converges iff p > 1
    Family("p-series", "1/n**p", ("p",), lambda p: p > 1, (("-1", "0", "1/2", "1", "3/2", "2"),)),
    # n^(-p^2): converges iff p^2 > 1 iff |p| > 1
    Family(
        "p-squared",
        "1/n**(p**2)",
        ("p",),
        lambda p: p * p > 1,
        (("-2", "-1", "-1/2", "0", "1", "3/2"),),
    ),
    # Bertrand, 1/(n log(n)^q) (start 2): integral test, converges iff q > 1
    Family(
        "bertrand-q",
        "1/(n*log(n)**q)",
        ("q",),
        lambda q: q > 1,
        (("-1", "0", "1", "3/2", "2"),),
        start=2,
    ),
    # Bertrand, 1/(n^p log(n)^q) (start 2): p > 1, or p = 1 and q > 1 (Cauchy condensation)
    Family(
        "bertrand-pq",
        "1/(n**p*log(n)**q)",
        ("p", "q"),
        lambda p, q: p > 1 or (p == 1 and q > 1),
        (("0", "1", "3/2"), ("-1", "1", "2")),
        start=2,
    ),
    # 1/(n log n (log log n)^q) (start 3): integral test with u = log log n: q > 1
    Family(
        "bertrand-loglog",
        "1/(n*log(n)*log(log(n))**q)",
        ("q",),
        lambda q: q > 1,
        (("0", "1", "2"),),
        start=3,
    ),
    # log(n)^a / n^p (start 2): p > 1, or p = 1 and a < -1 (Bertrand with q = -a)
    Family(
        "log-power-over-power",
        "log(n)**a/n**p",
        ("a", "p"),
        lambda a, p: p > 1 or (p == 1 and a < -1),
        (("-2", "-1", "0"), ("1/2", "1", "2")),
        start=2,
    ),
    # n^a log(n)^b loglog(n)^c (start 3): a < -1, or a = -1 and (b < -1 or b = -1 and c < -1)
    Family(
        "three-level-log",
        "n**a*log(n)**b*log(log(n))**c",
        ("a", "b", "c"),
        lambda a, b, c: a < -1 or (a == -1 and (b < -1 or (b == -1 and c < -1))),
        (),
        start=3,
        points=(
            ("-2", "0", "0"),
            ("0", "-2", "0"),
            ("-1", "-2", "0"),
            ("-1", "0", "-2"),
            ("-1", "-1", "-2"),
            ("-1", "-1", "-1"),
            ("-1", "-1", "0"),
        ),
    ),
    # a^n (a real): geometric, converges iff |a| < 1 (a = 0: zero terms)
    Family(
        "geometric",
        "a**n",
        ("a",),
        lambda a: abs(a) < 1,
        (("-2", "-1", "-1/2", "0", "1/2", "1", "2"),),
    ),
    # a^n / n^b (a > 0): ratio test a; at a = 1 the p-series: a < 1 or (a = 1 and b > 1)
    Family(
        "geometric-over-power",
        "a**n/n**b",
        ("a", "b"),
        lambda a, b: a < 1 or (a == 1 and b > 1),
        (("1/2", "1", "2"), ("-1", "1", "2")),
        assume=("a>0",),
    ),
    # c^n n^a log(n)^b (c > 0, start 2): c < 1, or c = 1 and (a < -1 or a = -1 and b < -1)
    Family(
        "geometric-power-log",
        "c**n*n**a*log(n)**b",
        ("a", "b", "c"),
        lambda a, b, c: c < 1 or (c == 1 and (a < -1 or (a == -1 and b < -1))),
        (),
        start=2,
        assume=("c>0",),
        points=(
            ("3", "0", "1/2"),
            ("0", "0", "2"),
            ("-2", "0", "1"),
            ("-1", "-2", "1"),
            ("-1", "0", "1"),
            ("0", "-2", "1"),
        ),
    ),
    # a^n / n! : ratio |a|/(n+1) -> 0, converges for every real a
    Family("exponential", "a**n/factorial(n)", ("a",), lambda a: True, (("-3", "0", "1/2", "5"),)),
    # binomial(2n, n)/a^n (a > 0): ~ (4/a)^n / sqrt(pi n): a > 4 (a = 4: n^-1/2 diverges)
    Family(
        "central-binomial",
        "binomial(2*n, n)/a**n",
        ("a",),
        lambda a: a > 4,
        (("1", "4", "9/2", "5"),),
        assume=("a>0",),
    ),
    # gamma(n + a)/gamma(n + b) (a, b > 0): ~ n^(a - b) (Wendel), converges iff b - a > 1
    Family(
        "gamma-ratio",
        "gamma(n + a)/gamma(n + b)",
        ("a", "b"),
        lambda a, b: b - a > 1,
        (),
        assume=("a>0", "b>0"),
        points=(("1", "3"), ("1", "2"), ("1/2", "3/2"), ("1/2", "2"), ("2", "1"), ("1", "1")),
    ),
    # binomial(n + a, n)/n^b (a > 0): ~ n^a / Gamma(a + 1), converges iff b - a > 1
    Family(
        "binomial-ratio",
        "binomial(n + a, n)/n**b",
        ("a", "b"),
        lambda a, b: b - a > 1,
        (),
        assume=("a>0",),
        points=(("1", "3"), ("1", "2"), ("1/2", "3/2"), ("1/2", "2"), ("2", "1"), ("1", "5/2")),
    ),
    # n^a / gamma(n + b) (b > 0): 1/Gamma decays faster than any power: always
    Family(
        "power-over-gamma",
        "n**a/gamma(n + b)",
        ("a", "b"),
        lambda a, b: True,
        (("-1", "0", "5"), ("1/2", "1")),
        assume=("b>0",),
    ),
    # sin(2n)/n^p: Dirichlet for p > 0; p <= 0: |sin(2n)| > 1/2 infinitely often, terms
    # do not tend to 0 (2/pi irrational).  Converges iff p > 0
    Family(
        "sin-2n",
        "sin(2*n)/n**p",
        ("p",),
        lambda p: p > 0,
        (("-1", "0", "1/2", "1", "2"),),
    ),
    # sin(a n)/n^2: |terms| <= 1/n^2: converges for every a
    Family("sin-frequency", "sin(a*n)/n**2", ("a",), lambda a: True, (("-1", "0", "1/2", "3"),)),
    # (-1)^floor(sqrt(n)) n^-p: signs in blocks [k^2, (k+1)^2), block sums ~ 2 k^(1 - 2p):
    # converges iff p > 1/2 (theory/series/sign_blocks.py, power_block_family)
    Family(
        "sqrt-sign-blocks",
        "(-1)**floor(sqrt(n))/n**p",
        ("p",),
        lambda p: p > F(1, 2),
        (("-1", "0", "1/4", "1/2", "1", "2"),),
    ),
    # cos(a n)/n: Dirichlet where a is not in 2 pi Z, harmonic where it is; among the
    # rational values only a = 0 is in 2 pi Z (pi is irrational)
    Family("cos-frequency", "cos(a*n)/n", ("a",), lambda a: a != 0, (("-1", "0", "1/2", "3"),)),
    # (-1)^(n(n+1)/2) n^-p: signs of period 4 and mean 0, Dirichlet iff p > 0; p <= 0: the
    # terms do not tend to 0
    Family(
        "triangular-sign",
        "(-1)**(n*(n+1)/2)/n**p",
        ("p",),
        lambda p: p > 0,
        (("-1", "0", "1/2", "1"),),
    ),
    # cos(n)^2/n^p = (1 + cos(2n))/(2 n^p): converges iff p > 1 (cos(2n)/n^p converges
    # for p > 0; p <= 0: terms do not tend to 0)
    Family(
        "cos-squared",
        "cos(n)**2/n**p",
        ("p",),
        lambda p: p > 1,
        (("-1", "0", "1/2", "1", "2"),),
    ),
    # sin(n)^2/n^p: likewise, converges iff p > 1
    Family(
        "sin-squared",
        "sin(n)**2/n**p",
        ("p",),
        lambda p: p > 1,
        (("-1", "0", "1/2", "1", "2"),),
    ),
    # (-1)^n/n^p: Leibniz for p > 0; otherwise terms do not tend to 0: p > 0
    Family(
        "alternating",
        "(-1)**n/n**p",
        ("p",),
        lambda p: p > 0,
        (("-1", "0", "1/2", "1", "2"),),
    ),
    # (-1)^n/n^p + 1/n^q: p > 0 and q > 1 (sum of two series; where p <= 0 or q <= 0 the
    # terms do not tend to 0 (at p = q <= 0 every other term is 2 n^-p); where p > 0 and
    # q <= 1 the first converges and the second diverges)
    Family(
        "alternating-plus-power",
        "(-1)**n/n**p + 1/n**q",
        ("p", "q"),
        lambda p, q: p > 0 and q > 1,
        (("0", "1/2", "2"), ("1/2", "1", "2")),
    ),
    # (2 + (-1)^n)/n^p: between 1/n^p and 3/n^p: p > 1
    Family(
        "two-plus-alternating",
        "(2 + (-1)**n)/n**p",
        ("p",),
        lambda p: p > 1,
        (("0", "1", "3/2"),),
    ),
    # exp(a sin(n))/n^p: between e^-|a| and e^|a| times n^-p: p > 1 for every a
    Family(
        "exp-sin-amplitude",
        "exp(a*sin(n))/n**p",
        ("a", "p"),
        lambda a, p: p > 1,
        (("-1", "0", "2"), ("1", "2")),
    ),
    # exp(-a n^b): a > 0 and b > 0 (otherwise the terms tend to exp(-a) > 0, 1 or infinity)
    Family(
        "stretched-exp",
        "exp(-a*n**b)",
        ("a", "b"),
        lambda a, b: a > 0 and b > 0,
        (("-1", "0", "1/2"), ("-1", "0", "1/2", "2")),
    ),
    # n^a exp(-b n): b > 0 (ratio e^-b); b = 0: p-series, a < -1; b < 0: terms -> infinity
    Family(
        "power-times-exp",
        "n**a*exp(-b*n)",
        ("a", "b"),
        lambda a, b: b > 0 or (b == 0 and a < -1),
        (("-2", "-1", "3"), ("-1", "0", "1/2")),
    ),
    # exp(-a log(n)^2): a > 0 (faster than any power); a = 0: 1; a < 0: grows
    Family("log-normal", "exp(-a*log(n)**2)", ("a",), lambda a: a > 0, (("-1", "0", "1/10", "1"),)),
    # exp(-log(n)^a) (start 2): a > 1 superpolynomial decay; a = 1: 1/n; a < 1: slower
    Family(
        "exp-log-power",
        "exp(-log(n)**a)",
        ("a",),
        lambda a: a > 1,
        (("0", "1/2", "1", "3/2", "2"),),
        start=2,
    ),
    # n^(-a log log n) (start 3): a > 0: exponent -> infinity; a <= 0: terms >= 1
    Family(
        "loglog-exponent",
        "n**(-a*log(log(n)))",
        ("a",),
        lambda a: a > 0,
        (("-1", "0", "1/10", "1"),),
        start=3,
    ),
    # (1 - 1/n)^(n^a) (start 2) = exp(n^a log(1 - 1/n)) ~ exp(-n^(a-1)): a > 1
    Family(
        "one-minus-power",
        "(1 - 1/n)**(n**a)",
        ("a",),
        lambda a: a > 1,
        (("0", "1", "3/2", "2"),),
        start=2,
    ),
    # (1 + 1/n)^(-a n^2) = exp(-a n + a/2 + O(1/n)): a > 0
    Family(
        "one-plus-power",
        "(1 + 1/n)**(-a*n**2)",
        ("a",),
        lambda a: a > 0,
        (("-1", "0", "1/2", "1"),),
    ),
    # n^a (sqrt(n + 1) - sqrt(n)) = n^a / (sqrt(n + 1) + sqrt(n)) ~ n^(a - 1/2)/2: a < -1/2
    Family(
        "sqrt-difference",
        "n**a*(sqrt(n + 1) - sqrt(n))",
        ("a",),
        lambda a: a < F(-1, 2),
        (("-1", "-1/2", "0"),),
    ),
    # n^p sin(1/n) ~ n^(p - 1): p < 0
    Family("power-sin-inverse", "n**p*sin(1/n)", ("p",), lambda p: p < 0, (("-1", "0", "1"),)),
    # (n^(1/n) - 1)^p ~ (log n / n)^p: p > 1 (p = 1: log n / n diverges)
    Family(
        "nth-root-minus-one",
        "(n**(1/n) - 1)**p",
        ("p",),
        lambda p: p > 1,
        (("0", "1", "2"),),
        start=2,
    ),
    # 1 - cos(a/n) ~ a^2/(2 n^2) (and 0 <= 1 - cos x <= x^2/2): converges for every a
    Family("one-minus-cos", "1 - cos(a/n)", ("a",), lambda a: True, (("-2", "0", "1"),)),
    # 1/log(n)^p (start 2): log(n)^p <= n for large n, terms >= 1/n: diverges for every p
    Family(
        "inverse-log-power",
        "1/log(n)**p",
        ("p",),
        lambda p: False,
        (("-1", "0", "2", "10"),),
        start=2,
    ),
    # n^a/(n^b + 1): b > 0: ~ n^(a - b), b - a > 1; b = 0: n^a/2, a < -1; b < 0: ~ n^a, a < -1
    Family(
        "power-over-power-plus-one",
        "n**a/(n**b + 1)",
        ("a", "b"),
        lambda a, b: (b > 0 and b - a > 1) or (b <= 0 and a < -1),
        (("-2", "-1", "0", "1"), ("-1", "0", "2")),
    ),
    # exp(-a n) (1 + 1/n)^(n^2): n^2 log(1 + 1/n) = n - 1/2 + 1/(3n) - ..., so
    # b_n = e^(-1/2 + O(1/n)) e^((1 - a) n): a > 1 geometric; a = 1: b_n -> e^(-1/2) != 0;
    # a < 1: b_n -> oo.  Converges iff a > 1
    Family(
        "exp-times-one-plus-power",
        "exp(-a*n)*(1+1/n)**(n**2)",
        ("a",),
        lambda a: a > 1,
        (("-1", "0", "1/2", "1", "3/2", "2"),),
    ),
    # n^a log(1 + n^-b): b > 0: log(1 + x) ~ x, so ~ n^(a - b), iff a < b - 1; b = 0:
    # log(2) n^a, iff a < -1; b < 0: log(1 + n^|b|) = |b| log n + o(1), so ~ |b| n^a log n,
    # iff a < -1 (Bertrand: at a = -1 it diverges)
    Family(
        "power-log-one-plus-power",
        "n**a*log(1+1/n**b)",
        ("a", "b"),
        lambda a, b: (b > 0 and a < b - 1) or (b <= 0 and a < -1),
        (("-2", "-1", "0", "1"), ("-1", "0", "1", "2")),
    ),
    # cos(a n)/n^p: p > 1 absolutely; 0 < p <= 1: Dirichlet where a is not in 2 pi Z (partial
    # sums of cos(a n) at most 1/|sin(a/2)|), the p-series (diverges) where it is; p <= 0:
    # cos(a n) does not tend to 0 (cos^2 = (1 + cos(2 a n))/2) and n^-p >= 1, so neither do
    # the terms.  Among rational a only a = 0 is in 2 pi Z (pi is irrational); the lattice
    # points 2 pi k are checked in test_free_param_families.py
    Family(
        "cos-frequency-power",
        "cos(a*n)/n**p",
        ("a", "p"),
        lambda a, p: p > 1 or (p > 0 and a != 0),
        (("-1", "0", "1/2", "3"), ("-1", "0", "1/2", "1", "2")),
    ),
    # sin(a n)/n^p: a in pi Z: every term is 0; otherwise Dirichlet for p > 0 and, for
    # p <= 0, sin(a n) does not tend to 0 (sin^2 = (1 - cos(2 a n))/2, 2a not in 2 pi Z) while
    # n^-p >= 1.  Among rational a only a = 0 is in pi Z
    Family(
        "sin-frequency-power",
        "sin(a*n)/n**p",
        ("a", "p"),
        lambda a, p: a == 0 or p > 0,
        (("-1", "0", "1/2", "3"), ("-1", "0", "1/2", "1", "2")),
    ),
    # (-1)^floor(log n) n^-p: p > 1 absolutely; p <= 1: n^-p >= 1/n, and the block sum over
    # [e^k, e^(k+1)) is at least int_(e^k + 1)^(e^(k+1)) dx/x = 1 - log(1 + e^-k) -> 1 (not
    # -> 0; for p < 1 it grows like e^(k(1 - p)) (e^(1 - p) - 1)/(1 - p)): diverges
    Family(
        "log-sign-blocks",
        "(-1)**floor(log(n))/n**p",
        ("p",),
        lambda p: p > 1,
        (("-1", "0", "1/2", "1", "3/2", "2"),),
    ),
    # a^n / n^b with a real: |a| < 1 root test; a = 1: p-series, b > 1; a = -1: Leibniz iff
    # b > 0 (else the terms do not tend to 0); |a| > 1: |b_n| -> oo; a = 0: zero terms
    Family(
        "geometric-over-power-real",
        "a**n/n**b",
        ("a", "b"),
        lambda a, b: abs(a) < 1 or (a == 1 and b > 1) or (a == -1 and b > 0),
        (("-2", "-1", "-1/2", "0", "1/2", "1", "2"), ("-1", "0", "1", "2")),
    ),
    # gamma(n + a)/gamma(n + b), a, b real (the grid keeps n + a, n + b > 0 for n >= 1):
    # ~ n^(a - b) (Wendel/Stirling), converges iff b - a > 1
    Family(
        "gamma-ratio-real",
        "gamma(n + a)/gamma(n + b)",
        ("a", "b"),
        lambda a, b: b - a > 1,
        (("-1/2", "1/2", "2"), ("-1/2", "1/2", "3/2", "3")),
    ),
    # 1/(n^p + n^q): n^max(p, q) <= n^p + n^q <= 2 n^max(p, q): max(p, q) > 1
    Family(
        "sum-of-powers",
        "1/(n**p + n**q)",
        ("p", "q"),
        lambda p, q: p > 1 or q > 1,
        (("0", "1", "2"), ("1/2", "1", "3/2")),
    ),
)


def truth(family: Family, values: dict) -> bool:
    """The family's truth at string values ("1/2", "-1", ...)."""
    return bool(family.truth(**{k: _f(v) for k, v in values.items()}))
