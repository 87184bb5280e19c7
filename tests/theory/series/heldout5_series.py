"""A fifth held-out set for the convergence decision: free-parameter families and fixed series.

Data only (the tests are in ``test_heldout5_verdicts.py``).  Each truth carries its textbook
argument in a comment.

``FAMILIES``: ``Family(text, names, start, assumptions, truth, grid)``; ``truth(point)``
returns True (converges), False (diverges) or ``UNDEF`` (a term b_n, n >= start, is not a
finite real number) at a point (a dict name -> sympy Rational).  ``grid`` lists the
points where the tool's free-parameter condition and the decision with the values
substituted (as ``--param``) are compared with the truth: each parameter on its
boundaries (p = 1, a = 1, a = -1, 0) and on both sides of them.

``FIXED``: ``Fixed(text, start, truth, hard)``; ``hard`` marks the series whose proof
needs more than the tool's tests reach (Diophantine estimates on n mod pi at a growing
scale): for them only a wrong verdict counts.
"""

from __future__ import annotations

import itertools
from collections.abc import Callable
from dataclasses import dataclass, field

import sympy as sp

UNDEF = "undefined"
R = sp.Rational
ONE_AXIS = (-2, -1, R(-1, 2), 0, R(1, 2), 1, R(3, 2), 2)
TWO_AXIS = (-2, -1, R(-1, 2), 0, R(1, 2), 1, 2)


def _axis(*extra):
    return tuple(sorted(set(ONE_AXIS) | {sp.sympify(e) for e in extra}))


def grid1(name, *extra):
    return [{name: sp.sympify(v)} for v in _axis(*extra)]


def grid2(a, b, axis_a=TWO_AXIS, axis_b=TWO_AXIS):
    return [{a: sp.sympify(x), b: sp.sympify(y)} for x, y in itertools.product(axis_a, axis_b)]


@dataclass(frozen=True)
class Family:
    text: str
    names: str
    start: int
    assumptions: dict
    truth: Callable[[dict], object]
    grid: list = field(default_factory=list)

    @property
    def ident(self) -> str:
        assumed = ",".join(f"{k}:{v}" for k, v in self.assumptions.items())
        return f"{self.text}|{self.names}|{self.start}|{assumed}"


def _geom(a, conv_at_1, conv_at_m1):
    """|a| < 1: root test; |a| > 1: |b_n| -> oo; a = 0: the terms are 0; a = +-1 given."""
    if abs(a) < 1:
        return True
    if abs(a) > 1:
        return False
    return conv_at_1 if a == 1 else conv_at_m1


FAMILIES = [
    # a^n n^-b: root test |b_n|^(1/n) -> |a| for |a| != 1; a = 1: p-series (b > 1);
    # a = -1: Leibniz for b > 0, terms not -> 0 for b <= 0
    Family(
        "a**n/n**b",
        "a b",
        1,
        {},
        lambda p: _geom(p["a"], p["b"] > 1, p["b"] > 0),
        grid2(
            "a",
            "b",
            (-2, R(-3, 2), -1, R(-1, 2), 0, R(1, 2), 1, R(3, 2)),
            (-1, 0, R(1, 2), 1, R(3, 2), 2),
        ),
    ),
    # a^n n^b: the same with b -> -b
    Family(
        "a**n*n**b",
        "a b",
        1,
        {},
        lambda p: _geom(p["a"], p["b"] < -1, p["b"] < 0),
        grid2("a", "b", (-2, -1, R(-1, 2), 0, R(1, 2), 1, 2), (-2, -1, R(-1, 2), 0, 1)),
    ),
    # a^n alone: geometric series, converges iff |a| < 1 (a = -1: terms +-1)
    Family("a**n", "a", 1, {}, lambda p: abs(p["a"]) < 1, grid1("a")),
    # a^n log n: root test for |a| != 1; a = +-1: |b_n| = log n -> oo
    Family("a**n*log(n)", "a", 2, {}, lambda p: abs(p["a"]) < 1, grid1("a")),
    # a^n n: root test; a = +-1 terms do not tend to 0
    Family("n*a**n", "a", 1, {}, lambda p: abs(p["a"]) < 1, grid1("a")),
    # a^n / sqrt(n): |a| < 1 root test; a = -1 Leibniz; a = 1 p-series p = 1/2
    Family("a**n/sqrt(n)", "a", 1, {}, lambda p: -1 <= p["a"] < 1, grid1("a")),
    # x^n/n!: ratio |x|/(n+1) -> 0: converges for every real x (x = 0: terms 0)
    Family("x**n/factorial(n)", "x", 1, {}, lambda p: True, grid1("x", 5, -5)),
    # cos(n)/n^p: Dirichlet (bounded partial sums of cos n, n^-p decreasing to 0) for
    # p > 0; for p <= 0 |cos n| > 1/2 infinitely often and n^-p >= 1: terms not -> 0
    Family("cos(n)/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p", R(1, 10))),
    # sin(n)cos(n) = sin(2n)/2: Dirichlet as above
    Family("sin(n)*cos(n)/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p")),
    # sin(n)^2 = (1 - cos 2n)/2: the series is sum n^-p/2 minus a Dirichlet series that
    # converges for p > 0; for p <= 0 the terms do not tend to 0
    Family("sin(n)**2/n**p", "p", 1, {}, lambda p: p["p"] > 1, grid1("p")),
    # |sin n| >= sin(n)^2 and |sin n| <= 1: converges iff p > 1
    Family("Abs(sin(n))/n**p", "p", 1, {}, lambda p: p["p"] > 1, grid1("p")),
    # (-1)^n log(n)/n^p: log(n)/n^p decreases to 0 for p > 0 (Leibniz); p <= 0 -> oo
    Family("(-1)**n*log(n)/n**p", "p", 2, {}, lambda p: p["p"] > 0, grid1("p")),
    # (-1)^n/n^p: Leibniz iff p > 0
    Family("(-1)**n/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p")),
    # cos(pi n) = (-1)^n
    Family("cos(pi*n)/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p")),
    # Cauchy condensation: sum 1/(n log^p n) ~ sum 1/k^p
    Family("1/(n*log(n)**p)", "p", 2, {}, lambda p: p["p"] > 1, grid1("p")),
    # Bertrand: 1/(n^p log^q n) converges iff p > 1 or (p = 1 and q > 1)
    Family(
        "1/(n**p*log(n)**q)",
        "p q",
        2,
        {},
        lambda p: p["p"] > 1 or (p["p"] == 1 and p["q"] > 1),
        grid2("p", "q"),
    ),
    # Bertrand with the roles swapped: log^p n / n^q converges iff q > 1 or (q = 1, p < -1)
    Family(
        "log(n)**p/n**q",
        "p q",
        2,
        {},
        lambda p: p["q"] > 1 or (p["q"] == 1 and p["p"] < -1),
        grid2("p", "q"),
    ),
    # exp(-k n^p): p > 0: converges iff k > 0 (k > 0: below n^-2 eventually; k <= 0
    # terms >= 1); p <= 0: n^p -> 0 or = 1, terms -> 1 or exp(-k) != 0
    Family("exp(-k*n**p)", "k p", 1, {}, lambda p: p["k"] > 0 and p["p"] > 0, grid2("k", "p")),
    # exp(-n^p): converges iff p > 0 (p <= 0: terms -> 1 or = 1/e)
    Family("exp(-n**p)", "p", 1, {}, lambda p: p["p"] > 0, grid1("p", R(1, 10))),
    # the same restricted to p <= 0: diverges for all of them
    Family(
        "exp(-n**p)",
        "p",
        1,
        {"p": "nonpositive"},
        lambda p: False,
        [{"p": v} for v in (-2, -1, R(-1, 2), 0)],
    ),
    # (1 + k n)^-r with k > 0: ~ (k n)^-r, p-series: converges iff r > 1
    Family(
        "(1 + k*n)**(-r)",
        "k r",
        1,
        {"k": "positive"},
        lambda p: p["r"] > 1,
        grid2("k", "r", (R(1, 2), 1, 2), TWO_AXIS),
    ),
    # n^p e^(-k n): k > 0 ratio test; k = 0 p-series (p < -1); k < 0 terms -> oo
    Family(
        "n**p*exp(-k*n)",
        "k p",
        1,
        {},
        lambda p: p["k"] > 0 or (p["k"] == 0 and p["p"] < -1),
        grid2("k", "p"),
    ),
    # Gamma(n + a)/Gamma(n + b) ~ n^(a - b) (Stirling), a, b > 0: converges iff b - a > 1
    Family(
        "gamma(n + a)/gamma(n + b)",
        "a b",
        1,
        {"a": "positive", "b": "positive"},
        lambda p: p["b"] - p["a"] > 1,
        grid2("a", "b", (R(1, 2), 1, 2), (R(1, 2), 1, R(3, 2), 2, R(5, 2), 3, 4)),
    ),
    # binomial(2n, n)/4^n ~ 1/sqrt(pi n): /n^p converges iff p + 1/2 > 1
    Family("binomial(2*n, n)/(4**n*n**p)", "p", 1, {}, lambda p: p["p"] > R(1, 2), grid1("p")),
    # x^n binomial(2n, n) ~ (4x)^n/sqrt(pi n): root test for |x| != 1/4; x = 1/4 diverges
    # (~ 1/sqrt(pi n)); x = -1/4 Leibniz (binomial(2n, n)/4^n decreases to 0)
    Family(
        "x**n*binomial(2*n, n)",
        "x",
        1,
        {},
        lambda p: R(-1, 4) <= p["x"] < R(1, 4),
        grid1("x", R(1, 4), R(-1, 4), R(1, 8)),
    ),
    # (2 + sin n)/n^p between n^-p and 3 n^-p: converges iff p > 1
    Family("n**(-p)*(2 + sin(n))", "p", 1, {}, lambda p: p["p"] > 1, grid1("p")),
    # exp(a sin n)/n^p between e^-|a| n^-p and e^|a| n^-p: converges iff p > 1, every a
    Family("exp(a*sin(n))/n**p", "a p", 1, {}, lambda p: p["p"] > 1, grid2("a", "p")),
    # 1/(n^p + (-1)^n), n >= 2: p > 0: = n^-p/(1 - n^-2p) - (-1)^n n^-2p/(1 - n^-2p), the
    # second part alternating and decreasing to 0 (Leibniz), the first a p-series: p > 1;
    # p = 0: 1 + (-1)^n = 0 at odd n (undefined); p < 0: |b_n| -> 1
    Family(
        "1/(n**p + (-1)**n)", "p", 2, {}, lambda p: UNDEF if p["p"] == 0 else p["p"] > 1, grid1("p")
    ),
    # 1/n^p - 1/(n^p + 1) = 1/(n^p (n^p + 1)): ~ n^-2p for p > 0; 1/2 at p = 0;
    # ~ n^-p -> oo for p < 0: converges iff p > 1/2
    Family(
        "1/n**p - 1/(n**p + 1)",
        "p",
        1,
        {},
        lambda p: p["p"] > R(1, 2),
        grid1("p", R(1, 4), R(3, 4)),
    ),
    # n^p sin(1/n) ~ n^(p - 1): converges iff p < 0
    Family("n**p*sin(1/n)", "p", 1, {}, lambda p: p["p"] < 0, grid1("p")),
    # (1 - cos(1/n))^p ~ (2 n^2)^-p: converges iff p > 1/2
    Family("(1 - cos(1/n))**p", "p", 1, {}, lambda p: p["p"] > R(1, 2), grid1("p")),
    # log(1 + n^-p) ~ n^-p for p > 0 (p-series); log 2 at p = 0; ~ -p log n for p < 0
    Family("log(1 + n**(-p))", "p", 1, {}, lambda p: p["p"] > 1, grid1("p")),
    # e^(-k n) cos n: |b_n| <= e^(-k n) for k > 0; k = 0 cos n -/-> 0; k < 0 unbounded
    Family("exp(-k*n)*cos(n)", "k", 1, {}, lambda p: p["k"] > 0, grid1("k")),
    # sin(n)/n^p + 1/n^q: the sum of a Dirichlet series (p > 0) and a p-series (q > 1);
    # if p <= 0 the first part does not tend to 0 and the second cannot cancel it
    # (|sin n| > 1/2 infinitely often while n^-q is monotone); if p > 0 the first part
    # converges, so the sum converges iff q > 1
    Family(
        "sin(n)/n**p + 1/n**q",
        "p q",
        1,
        {},
        lambda p: p["p"] > 0 and p["q"] > 1,
        grid2("p", "q", (-1, 0, R(1, 2), 1, 2), (-1, 0, R(1, 2), 1, 2)),
    ),
]


@dataclass(frozen=True)
class Fixed:
    text: str
    start: int
    truth: bool
    hard: bool = False


FIXED = [
    # max(sin, cos) = (sin + cos)/2 + |sin - cos|/2 has mean sqrt(2)/pi > 0 over the
    # equidistributed angles n mod 2 pi; with 1/n decreasing, Abel summation: diverges
    Fixed("Max(sin(n), cos(n))/n", 1, False),
    # mean of max(sin, -1/2) = (sqrt(3) - pi/3)/(2 pi) > 0: diverges as above
    Fixed("Max(sin(n), -1/2)/n", 1, False),
    # min(|sin|, |cos|) >= 0 with positive mean: diverges
    Fixed("Min(Abs(sin(n)), Abs(cos(n)))/n", 1, False),
    # sqrt(1 + cos n) = sqrt(2)|cos(n/2)| >= 0, positive mean: diverges
    Fixed("sqrt(1 + cos(n))/n", 1, False),
    # max(sin, 0) - max(-sin, 0) = sin: Dirichlet, converges
    Fixed("(Max(sin(n), 0) - Max(-sin(n), 0))/n", 1, True),
    # sin/(sqrt n + sin) = sin/sqrt n - sin^2/(sqrt n (sqrt n + sin)); the first converges
    # (Dirichlet), the second is >= sin^2/(2n) >= 0 with positive mean: diverges
    Fixed("sin(n)/(sqrt(n) + sin(n))", 2, False),
    # 1/(n^2 sin^2 n) > 0, and by Dirichlet's theorem |n - k pi| < 1/k, so |sin n| < 1/k
    # infinitely often: terms > (k/n)^2 > 1/16 infinitely often; diverges
    Fixed("1/(n**2*sin(n)**2)", 1, False),
    # n^(sin n - 3) <= n^-2: converges
    Fixed("n**sin(n)/n**3", 1, True),
    # n^(sin n - 2): on the n in [N, 2N] with sin n > 1 - 1/log N (a fraction
    # ~ c/sqrt(log N) of them, equidistribution) the terms are >= 1/(e 4 N): the block
    # sums are >= c'/sqrt(log N), and sum over dyadic N of 1/sqrt(k) diverges
    Fixed("n**sin(n)/n**2", 1, False, hard=True),
    # |sin n|^n -/-> 0: |n - pi/2 - k pi| < pi/(4n) infinitely often (inhomogeneous
    # approximation, pi irrational), there |sin n|^n >= (1 - pi^2/(32 n^2))^n -> 1
    Fixed("sin(n)**n", 1, False, hard=True),
    # blocks [k^2, (k+1)^2) of sign (-1)^k with sums (2k+1)/k^2 + O(1/k^2) decreasing to
    # 0: Leibniz over the blocks, partial sums inside a block within one block sum
    Fixed("(-1)**floor(sqrt(n))/n", 1, True),
    # floor(sqrt n) <= sqrt n: b_n <= n^-3/2
    Fixed("floor(sqrt(n))/n**2", 1, True),
    # floor(sqrt n) >= sqrt(n)/2: b_n >= 1/(2 n): diverges
    Fixed("floor(sqrt(n))/n**(3/2)", 1, False),
    # ceiling(log n) = -floor(-log n) between log n and log n + 1: ~ 1/(n log n), diverges
    Fixed("1/(n*(-floor(-log(n))))", 2, False),
    # n mod 3 = n - 3 floor(n/3) in {0, 1, 2}: <= 2/n^2, converges
    Fixed("(n - 3*floor(n/3))/n**2", 1, True),
    # n mod 3 has mean 1 over each period: >= the sum over n = 1 mod 3 of 1/n, diverges
    Fixed("(n - 3*floor(n/3))/n", 1, False),
    # (n mod 2) - 1/2 = -(-1)^n/2: Leibniz, converges
    Fixed("(n - 2*floor(n/2) - 1/2)/n", 1, True),
    # (-1)^n/(n + (-1)^n) = (-1)^n/n - 1/n^2 + O(n^-3): converges
    Fixed("(-1)**n/(n + (-1)**n)", 2, True),
    # (-1)^n/(sqrt n + (-1)^n) = (-1)^n/sqrt n - 1/n + O(n^-3/2): diverges
    Fixed("(-1)**n/(sqrt(n) + (-1)**n)", 2, False),
    # log(1 + (-1)^n/sqrt n) = (-1)^n/sqrt n - 1/(2n) + O(n^-3/2): diverges
    Fixed("log(1 + (-1)**n/sqrt(n))", 2, False),
    # log(1 + (-1)^n/n) = (-1)^n/n + O(n^-2): converges
    Fixed("log(1 + (-1)**n/n)", 2, True),
    # Stirling: Gamma(n) = sqrt(2 pi/n) (n/e)^n (1 + O(1/n))
    Fixed("gamma(n)/n**n", 1, True),  # ~ sqrt(2 pi/n) e^-n
    Fixed("exp(n)*gamma(n)/n**n", 1, False),  # ~ sqrt(2 pi) n^-1/2
    Fixed("exp(n)*gamma(n)/n**(n + 1)", 1, True),  # ~ sqrt(2 pi) n^-3/2
    Fixed("exp(-n)*gamma(n)", 1, False),  # ~ sqrt(2 pi/n) (n/e^2)^n -> oo
    Fixed("factorial(n)*exp(n)/n**(n + 1/2)", 1, False),  # -> sqrt(2 pi) != 0
    # Gamma(n + 1/2)/Gamma(n) ~ sqrt(n): times e^-n converges (root test)
    Fixed("exp(-n)*gamma(n + 1/2)/gamma(n)", 1, True),
    # (n + sin n)/(n^3 + cos n) <= (n + 1)/(n^3 - 1) ~ n^-2: converges
    Fixed("(n + sin(n))/(n**3 + cos(n))", 2, True),
    # (2 + cos n)/(n log n) >= 1/(n log n): diverges (Cauchy condensation)
    Fixed("(2 + cos(n))/(n*log(n))", 2, False),
    # 1/(n (1 + sin n)) >= 1/(2n): diverges (sin n != -1 at integers)
    Fixed("1/(n + n*sin(n))", 1, False),
    # 1/(n^2 + n sin n) <= 1/(n^2 - n): converges
    Fixed("1/(n**2 + n*sin(n))", 2, True),
    # (n - 2 sin n)/n^3 in (0, 3/n^2]: converges
    Fixed("(n - 2*sin(n))/n**3", 1, True),
    # 1/n - sin(1/n) ~ 1/(6 n^3); 1/n - log(1 + 1/n) ~ 1/(2 n^2); e^(1/n) - 1 - 1/n ~ 1/(2n^2)
    Fixed("1/n - sin(1/n)", 1, True),
    Fixed("1/n - log(1 + 1/n)", 1, True),
    Fixed("exp(1/n) - 1 - 1/n", 1, True),
    # 1 - cos(1/sqrt n) ~ 1/(2n): diverges
    Fixed("1 - cos(1/sqrt(n))", 1, False),
    # prod_{m<=n}(1 + 1/m^2) in [2, sinh(pi)/pi]: b_n ~ c/n^2, converges
    Fixed("Product(1 + 1/m**2, (m, 1, n))/n**2", 1, True),
    # prod_{m<=n} m/(m+1) = 1/(n+1): diverges
    Fixed("Product(m/(m + 1), (m, 1, n))", 1, False),
    # prod_{m=2}^{n}(1 - 1/m^2) = (n+1)/(2n) -> 1/2: terms do not tend to 0
    Fixed("Product(1 - 1/m**2, (m, 2, n))", 2, False),
    # n^(-1 - 1/log log n) = 1/(n e^(log n/log log n)) <= 1/(n log^2 n) eventually
    # (log n/log log n >= 2 log log n for large n): converges
    Fixed("n**(-1 - 1/log(log(n)))", 3, True),
    # n^(1 + 1/n) <= e n^... : n^(1/n) <= e, so b_n >= 1/(e n): diverges
    Fixed("1/n**(1 + 1/n)", 1, False),
    # (log n)^(log log n) = e^((log log n)^2) <= n eventually: b_n >= 1/n, diverges
    Fixed("1/log(n)**log(log(n))", 3, False),
    # (log n)^(-log n) = n^(-log log n) <= n^-2 for n >= e^(e^2): converges
    Fixed("1/log(n)**log(n)", 2, True),
    # (-1)^n sin(1/n): sin(1/n) decreases to 0: Leibniz
    Fixed("(-1)**n*sin(1/n)", 1, True),
    # sin(n pi/2) = 1, 0, -1, 0, ...: the series is sum (-1)^k/(2k+1), converges
    Fixed("sin(n*pi/2)/n", 1, True),
    # cos(2 pi n/3): period 3 with mean 0: converges (Dirichlet); 1 + cos has mean 1
    Fixed("cos(2*pi*n/3)/n", 1, True),
    Fixed("(1 + cos(2*pi*n/3))/n", 1, False),
    # (-1)^floor(n/2) = +, -, -, +, +, ...: pairs of sign (-1)^k, pair sums ~ 1/k decreasing
    Fixed("(-1)**floor(n/2)/n", 1, True),
    # 1/(n (2 + (-1)^n)) >= 1/(3n): diverges
    Fixed("1/(n*(2 + (-1)**n))", 1, False),
    # (-1)^n/(n (2 + (-1)^n)): even n 1/(3n), odd n -1/n; pairs sum to -2/(3n) + O(n^-2)
    Fixed("(-1)**n/(n*(2 + (-1)**n))", 1, False),
    # shifted starts
    Fixed("1/(n*log(n)*log(log(n)))", 3, False),  # Cauchy condensation twice
    Fixed("1/(n - 5)**2", 6, True),
    Fixed("1/(n - 3)", 4, False),
    Fixed("1/(n**2 - 10)", 4, True),
    # sqrt|sin n|/n >= sin(n)^2/n >= 0 with positive mean: diverges
    Fixed("sqrt(Abs(sin(n)))/n", 1, False),
    # e^(sin n) n^-2 <= e/n^2: converges; e^(sin n)/n >= 1/(e n): diverges
    Fixed("exp(sin(n))/n**2", 1, True),
    Fixed("exp(sin(n))/n", 1, False),
    # (-c)^n = (-1)^n c^n: |b_n| -> oo for c > 1, absolute convergence for c < 1
    Fixed("(-2)**n/n", 1, False),
    Fixed("(-1/2)**n*n**3", 1, True),
    # binomial(2n, n) c^n, ratio -> 4c: (-1/2)^n: |ratio| -> 2, terms grow; (-1/4)^n:
    # ratio -(2n+1)/(2n+2), |b_n| ~ 1/sqrt(pi n) decreasing to 0 (Leibniz); times n:
    # |b_n| ~ sqrt(n/pi) -> oo
    Fixed("(-1/2)**n*binomial(2*n, n)", 1, False),
    Fixed("(-1/4)**n*binomial(2*n, n)", 1, True),
    Fixed("(-1/4)**n*n*binomial(2*n, n)", 1, False),
    # (-1)^n e^n n!/n^n: |b_n| ~ sqrt(2 pi n) -> oo
    Fixed("(-1)**n*exp(n)*factorial(n)/n**n", 1, False),
    # (-1)^n 2^n/n!: ratio -2/(n+1) -> 0
    Fixed("(-2)**n/factorial(n)", 1, True),
    # n cos n: |cos n| > 1/2 infinitely often (equidistribution), terms -/-> 0
    Fixed("n*cos(n)", 1, False),
    Fixed("sqrt(n)*sin(2*n)", 1, False),
    # 1/(1 - cos(1/n)) ~ 2 n^2 (defined: 1/n in (0, 1], cos < 1 there): terms -> oo
    Fixed("(1 - cos(1/n))**(-1)", 1, False),
    # cos(n) sin(1/n): Dirichlet (sin(1/n) decreases to 0)
    Fixed("cos(n)*sin(1/n)", 1, True),
    # 1/(n (1 + cos n)) >= 1/(2n), positive as cos n != -1 at integers: diverges
    Fixed("1/(n + n*cos(n))", 1, False),
    # 1/floor(-n)^2 = 1/n^2
    Fixed("1/floor(-n)**2", 1, True),
    # log(1 + 1/(2m)) + log(1 - 1/(2m+1)) = log 1 = 0: the pairs cancel exactly
    Fixed("log(1 + (-1)**n/(n + 1))", 1, True),
]
