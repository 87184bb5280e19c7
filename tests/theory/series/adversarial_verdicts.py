"""Adversarial convergence cases for ``theory.series.convergence.decide`` and ``python -m theory.trf``.

Each case: the formula for b_n (or a named RPE), the start index, the true verdict (True:
converges, False: diverges, "error": the input must be refused with exit 2 and one
``error:`` line), the failure class it probes (1-10, see the list below), the reason of the
verdict worked out by hand (in ``why``), parameter values (``--param``, put in before
simplification), and whether the series is "RPE-like" (positive terms of a paper family or
a perturbation of one: the decided-fraction target counts these).

Classes: 1 parameter values with a sign; 2 degenerate / zero terms and powers of 0;
3 features between integers or late in the series; 4 very slow decays and cancellations;
5 rational differences, floor terms, convergent oscillating terms; 6 Min/Max/Abs of shifted
arguments and huge constants; 7 T5-like constant tails written with Min/Max; 8 iterated-log
borderlines; 9 factorial, gamma, binomial, Product; 10 typos and both spellings of names.

The verdicts are facts of analysis (p-series, Bertrand's series, comparison, terms not
tending to 0, Stirling's formula), never outputs of the engine.
"""

from __future__ import annotations

from typing import NamedTuple


class Case(NamedTuple):
    text: str
    start: int
    truth: object  # True, False or "error"
    cls: int
    why: str
    params: dict = {}
    rpe_like: bool = True


C, D, ERR = True, False, "error"


def _c(text, start, truth, cls, why, params=None, rpe_like=True):
    return Case(text, start, truth, cls, why, dict(params or {}), rpe_like)


CASES = [
    # ---- 1: parameter values with a sign (values are substituted before simplification)
    _c("exp(-Abs(k)*n)", 0, C, 1, "k=-1: exp(-n), geometric", {"k": -1}),
    _c("exp(Abs(k)*n)", 0, D, 1, "k=-1: exp(n) -> oo", {"k": -1}),
    _c("exp(-sqrt(r**2)*n)", 0, C, 1, "r=-2: sqrt(4) = 2, exp(-2n)", {"r": -2}),
    _c("exp(-Max(k, 0)*n)", 0, D, 1, "k=-1: Max = 0, b_n = 1", {"k": -1}),
    _c("exp(-Max(k, 0)*n)", 0, C, 1, "k=2: exp(-2n)", {"k": 2}),
    _c("exp(Min(k, 0)*n)", 0, C, 1, "k=-1: exp(-n)", {"k": -1}),
    _c("(1 + Abs(k)*n)**(-r)", 0, C, 1, "k=-1, r=2: (1+n)^-2", {"k": -1, "r": 2}),
    _c("(1 + Abs(k)*n)**(-r)", 0, D, 1, "k=-3, r=1: ~1/(3n)", {"k": -3, "r": 1}),
    _c("n**(-Abs(p))", 1, C, 1, "p=-2: 1/n^2", {"p": -2}),
    _c("n**(-Abs(p))", 1, D, 1, "p=-1/2: 1/sqrt(n)", {"p": "-1/2"}),
    _c("n**(-sqrt(p**2))", 1, C, 1, "p=-3/2: n^-3/2", {"p": "-3/2"}),
    _c("exp(-k*n)", 0, D, 1, "k=-1: exp(n)", {"k": -1}),
    _c("exp(k*n)", 0, C, 1, "k=-1: exp(-n)", {"k": -1}),
    _c("n**k", 1, C, 1, "k=-2: p-series p=2", {"k": -2}),
    _c("n**k", 1, D, 1, "k=-1: harmonic", {"k": -1}),
    _c("(n + Abs(a))**(-2)", 1, C, 1, "a=-5: (n+5)^-2", {"a": -5}),
    _c("exp(-Abs(k)*log(n))", 1, C, 1, "k=-2: 1/n^2", {"k": -2}),
    _c("exp(-Abs(k)*log(n))", 1, D, 1, "k=-1: 1/n", {"k": -1}),
    _c("exp(-Max(k, 1)*log(n))", 1, D, 1, "k=-3: Max = 1, 1/n", {"k": -3}),
    _c("exp(-Max(k, 1)*log(n))", 1, C, 1, "k=3: 1/n^3", {"k": 3}),
    _c("1/(n**2 + k)", 1, C, 1, "k=-1/2: n^2 - 1/2 > 0, ~1/n^2", {"k": "-1/2"}),
    _c("exp(-k**2*n)", 0, C, 1, "k=-1: exp(-n)", {"k": -1}),
    _c("exp(-n*k/Abs(k))", 0, D, 1, "k=-1: exp(n)", {"k": -1}),
    _c("exp(-n*k/Abs(k))", 0, C, 1, "k=2: exp(-n)", {"k": 2}),
    _c("(1 + k*n)**(-2)", 1, ERR, 1, "k=-1: b_1 = 0^-2 is undefined", {"k": -1}, False),
    _c("log(k*n)", 1, ERR, 1, "k=-1: log of a negative number is not real", {"k": -1}, False),
    # ---- 2: degenerate terms, powers with base 0, terms that are 0
    _c(
        "0**(1 + cos(n))",
        1,
        ERR,
        2,
        "base 0: 0 at every integer, undefined where the exponent <= 0",
        rpe_like=False,
    ),
    _c("0**n", 1, ERR, 2, "base 0 with an exponent in n", rpe_like=False),
    _c("k**n", 1, ERR, 2, "k=0: 0**n", {"k": 0}, False),
    _c("0**(2 + sin(n))", 1, ERR, 2, "base 0", rpe_like=False),
    _c("0*exp(n)", 1, ERR, 2, "every term is 0", rpe_like=False),
    _c("n**0 - 1", 1, ERR, 2, "every term is 0", rpe_like=False),
    _c("n*sin(pi*n)", 1, C, 2, "0 at every integer (sum of zeros)", rpe_like=False),
    _c("cos(pi*n)**2 - 1", 1, C, 2, "0 at every integer", rpe_like=False),
    _c("sin(pi*n)", 1, ERR, 2, "every term is 0: refused by the CLI", rpe_like=False),
    _c("cos(2*pi*n)", 1, D, 2, "= 1 at every integer", rpe_like=False),
    _c("sin(pi*n + pi/2)", 1, D, 2, "= cos(pi n) = +-1, terms do not tend to 0", rpe_like=False),
    _c("Piecewise((0, n < 10**6), (1/n**2, True))", 1, C, 2, "zero head, then 1/n^2"),
    _c("Piecewise((1/n**2, n < 512), (0, True))", 1, C, 2, "finite window"),
    _c("floor(1/n)", 1, C, 2, "b_1 = 1, then 0 (finite sum)", rpe_like=False),
    # ---- 3: features between integers or late
    _c(
        "1/n**2 + exp(-10**6*(n - 5/2)**2)",
        1,
        C,
        3,
        "bump between 2 and 3 is < e^-250000 at integers",
    ),
    _c("1/n**2 + 1/(1 + (n - 10**5)**2)", 1, C, 3, "bump at 10^5 is summable (1/(1+m^2))"),
    _c(
        "1/((log(n) - 5/2)**2*n**2)",
        1,
        C,
        3,
        "pole at e^2.5 = 12.18 is not an integer; ~1/(n^2 log^2 n)",
    ),
    _c("1/(n - 1/2)**2", 1, C, 3, "~1/n^2, pole at 1/2"),
    _c("Piecewise((1/n**2, n < 10**6), (1/n, True))", 1, D, 3, "switch to 1/n at 10^6"),
    _c("Piecewise((1/n, n < 10**6), (1/n**2, True))", 1, C, 3, "switch to 1/n^2 at 10^6"),
    _c("Piecewise((exp(-n), n < 10**5), (1/n, True))", 1, D, 3, "1/n from 10^5 on"),
    _c("1/n**2 + exp(-(n - 10**5)**2)", 1, C, 3, "Gaussian bump at 10^5"),
    _c("(1 + 10**6*exp(-(n - 10**5)**2/100))/n**2", 1, C, 3, "bump times 1/n^2"),
    _c("1/Abs(n - 10**5 - 1/2)", 1, D, 3, "~1/n; pole between integers"),
    _c("1/(n*Abs(log(n) - 7))", 2, D, 3, "~1/(n log n); pole at e^7 = 1096.6"),
    _c("exp(-n) + Piecewise((0, n < 10**6), (1/n, True))", 1, D, 3, "1/n from 10^6 on"),
    _c("1/(n**2 - 2*n + 3/2)", 1, C, 3, "no real root; ~1/n^2"),
    # ---- 4: very slow decays, slow cancellations
    _c("exp(-n**(1/100))", 0, C, 4, "stretched exponential: exp(-n^0.01) <= n^-2 eventually"),
    _c("exp(-n**(1/100)/100)", 0, C, 4, "exp(-c n^0.01), any c > 0"),
    _c("exp(-log(n)**(101/100))", 1, C, 4, "exp(-u^1.01) with u = ln n: u^1.01 >= 2u eventually"),
    _c("exp(-log(n)**(11/10))", 1, C, 4, "as above, d = 0.1"),
    _c("exp(-log(n))", 1, D, 4, "1/n"),
    _c("exp(-log(n)**(99/100))", 1, D, 4, "exp(-u^0.99) >= e^-u = 1/n"),
    _c("(1 + 1/n)**n - E + E/(2*n)", 1, C, 4, "= 11E/(24 n^2) + O(n^-3)", rpe_like=False),
    _c("(1 + 1/n)**n - E", 1, D, 4, "~ -E/(2n)", rpe_like=False),
    _c("exp(-1/n) - 1 + 1/n", 1, C, 4, "~ 1/(2 n^2)", rpe_like=False),
    _c("1 - exp(-1/n)", 1, D, 4, "~ 1/n", rpe_like=False),
    _c("n**(-101/100)", 1, C, 4, "p = 1.01"),
    _c("n**(-99/100)", 1, D, 4, "p = 0.99"),
    _c("1/(n*log(n)**(101/100))", 2, C, 4, "Bertrand q = 1.01"),
    _c("log(n)**(-log(log(n)))", 3, D, 4, "= exp(-(ln ln n)^2) >= 1/n eventually"),
    _c("n**(-1 - 1/log(n))", 2, D, 4, "= e^-1/n"),
    _c("n**(-1 - 1/sqrt(log(n)))", 2, C, 4, "1/n exp(-sqrt(ln n)); int exp(-sqrt u) du < oo"),
    _c("1 - cos(1/n)", 1, C, 4, "~ 1/(2n^2)", rpe_like=False),
    _c("sin(1/n)", 1, D, 4, "~ 1/n", rpe_like=False),
    _c("sin(1/n)**2", 1, C, 4, "~ 1/n^2", rpe_like=False),
    _c("1 - n*sin(1/n)", 1, C, 4, "~ 1/(6 n^2)", rpe_like=False),
    _c("log(1 + 1/n) - 1/n + 1/(2*n**2)", 1, C, 4, "~ 1/(3 n^3)", rpe_like=False),
    _c("exp(-sqrt(log(n))*log(n))", 1, C, 4, "exp(-u^1.5)"),
    # ---- 5: rational differences, floor terms, convergent oscillating terms
    _c("1/n - 3/(3*n + 2)", 1, C, 5, "= 2/(n (3n+2))", rpe_like=False),
    _c("1/n - 1/(n + 1)", 1, C, 5, "telescoping, 1/(n(n+1))", rpe_like=False),
    _c("1/n - 2/(2*n + 1)", 1, C, 5, "= 1/(n(2n+1))", rpe_like=False),
    _c("1/(2*n) - 1/(n + 1)", 1, D, 5, "= (1-n)/(2n(n+1)) ~ -1/(2n)", rpe_like=False),
    _c("(1/2)**floor(n/2)", 1, C, 5, "<= 2^(1 - n/2), geometric"),
    _c("2**(-floor(sqrt(n)))", 1, C, 5, "<= 2^(1 - sqrt n)"),
    _c("floor(n/2)**(-2)", 2, C, 5, "<= 4/(n-1)^2... ~4/n^2"),
    _c("floor(sqrt(n))**(-2)", 1, D, 5, ">= 1/n"),
    _c("(2 + sin(n))/n**2", 1, C, 5, "<= 3/n^2", rpe_like=False),
    _c("exp(cos(n))/n**2", 1, C, 5, "<= e/n^2", rpe_like=False),
    _c("cos(n)**2/n**2", 1, C, 5, "<= 1/n^2", rpe_like=False),
    _c("(1 + sin(n)**2)/n", 1, D, 5, ">= 1/n", rpe_like=False),
    _c(
        "sin(n)/n",
        1,
        C,
        5,
        "Dirichlet: 1/n decreasing, partial sums of sin(n) bounded",
        rpe_like=False,
    ),
    _c("cos(n)/n", 1, C, 5, "Dirichlet", rpe_like=False),
    _c("sin(n)/n**2", 1, C, 5, "absolutely, |b| <= 1/n^2", rpe_like=False),
    _c("cos(n)**2/n", 1, D, 5, "= 1/(2n) + cos(2n)/(2n): harmonic + Dirichlet", rpe_like=False),
    _c("Max(1/n**2, exp(-n))", 1, C, 5, "= 1/n^2 eventually"),
    _c("Min(1/n, 1/n**2)", 1, C, 5, "= 1/n^2"),
    _c("Max(1/n, 1/n**2)", 1, D, 5, "= 1/n"),
    _c("exp(-n)*(2 + cos(n))", 0, C, 5, "<= 3 e^-n", rpe_like=False),
    _c("(-1)**n*cos(n)/n", 1, C, 5, "= cos((pi + 1) n)/n: Dirichlet", rpe_like=False),
    _c("(-1)**n*sin(n)**2/sqrt(n)", 1, C, 5, "angles pi, pi +- 2: Dirichlet", rpe_like=False),
    _c("cos(n)*cos(pi*n/3)/log(n + 1)", 1, C, 5, "angles +-1 +- pi/3: Dirichlet", rpe_like=False),
    _c("(-1)**n*cos(pi*n)/n", 1, D, 5, "= 1/n (angle 2 pi)", rpe_like=False),
    _c("sin(pi*n/2)**2/n", 1, D, 5, "= (1 - cos(pi n))/(2n): harmonic + Dirichlet", rpe_like=False),
    _c(
        "(1 + cos(n))*(1 + (-1)**n)/sqrt(n)",
        1,
        D,
        5,
        "constant component 1/sqrt(n)",
        rpe_like=False,
    ),
    _c("sin(n)*(1 + 1/n)**n/sqrt(n)", 1, C, 5, "Abel: (1 + 1/n)^n increases to e", rpe_like=False),
    # ---- 6: Min/Max/Abs of shifted arguments, huge constants
    _c("Max(n - 2, 1)**(-2)", 1, C, 6, "= (n-2)^-2 for n >= 3"),
    _c("Min(n + 3, 2*n)**(-2)", 1, C, 6, "= (n+3)^-2 for n >= 3"),
    _c("Abs(n - 5/2)**(-2)", 1, C, 6, "~1/n^2"),
    _c("Abs(n - 21/2)**(-3/2)", 1, C, 6, "~n^-3/2"),
    _c("Max(n - 5, 1)**(-1)", 1, D, 6, "= 1/(n-5) eventually"),
    _c("Min(n, 2*n - 3)**(-2)", 1, C, 6, "= n^-2 for n >= 3"),
    _c("exp(-n/10**1000)", 0, C, 6, "geometric, ratio exp(-10^-1000) < 1"),
    _c("exp(-n/10**100)", 0, C, 6, "geometric"),
    _c("exp(-Abs(n - 7))", 0, C, 6, "= e^7 e^-n for n >= 7"),
    _c("exp(-Max(n - 100, 0))", 0, C, 6, "geometric after 100"),
    _c("exp(-Max(n - 100, 0)/10**50)", 0, C, 6, "geometric with ratio exp(-10^-50)"),
    _c("1/Max(n, 10**6)**2", 1, C, 6, "= 1/n^2 after 10^6"),
    _c("1/Max(n, 10**6)", 1, D, 6, "= 1/n after 10^6"),
    _c("(n + 10**1000)**(-2)", 1, C, 6, "p = 2 after a huge shift"),
    # ---- 7: T5-like constant tails with Min/Max (T5's bias: must never be missed)
    _c("exp(-Min(n, 128)/16)", 1, D, 7, "= e^-8 for n >= 128"),
    _c("exp(-Min(n, 128)/16)", 0, D, 7, "= e^-8 for n >= 128"),
    _c("exp(-Min(n/16, 8))", 0, D, 7, "= e^-8"),
    _c("exp(-Min(n, 128))", 0, D, 7, "= e^-128 > 0"),
    _c("exp(-Max(n, 128)/16)", 0, C, 7, "= exp(-n/16) after 128"),
    _c("exp(-Min(log(n), 10))", 1, D, 7, "= e^-10 after e^10"),
    _c("exp(Max(-n/16, -8))", 0, D, 7, "= e^-8"),
    _c("exp(-Min(floor(n/8), 15))", 0, D, 7, "= e^-15 after 120"),
    _c("exp(-floor(Min(n, 128)/8))", 0, D, 7, "= e^-16"),
    _c("Piecewise((exp(-n/4), n < 128), (exp(-32), True))", 0, D, 7, "constant tail"),
    _c("Piecewise((exp(-n/4), n < 128), (0, True))", 0, C, 7, "cut off: finite sum"),
    _c("exp(-Min(n, 128)/16)*exp(-n/1000)", 0, C, 7, "geometric times bounded"),
    _c("exp(-Min(n, 128)/16)/n", 1, D, 7, "e^-8/n"),
    _c("exp(-Min(n, 128)/16)/n**2", 1, C, 7, "e^-8/n^2"),
    _c("t5", 0, D, 7, "named T5 (default values): constant last bucket"),
    _c("exp(-Min(n, 10**6)/10**5)", 0, D, 7, "= e^-10 after 10^6"),
    # ---- 8: iterated-log borderlines
    _c("n**(-1 - 1/log(log(n)))", 3, C, 8, "1/n exp(-ln n/ln ln n); int exp(-u/ln u) du < oo"),
    _c("1/(n*log(n)*log(log(n)))", 3, D, 8, "Bertrand level 2, q = 1"),
    _c("1/(n*log(n)*log(log(n))**2)", 3, C, 8, "Bertrand level 2, q = 2"),
    _c("1/(n*log(n)*log(log(n))*log(log(log(n))))", 16, D, 8, "level 3, q = 1"),
    _c("1/(n*log(n)*log(log(n))*log(log(log(n)))**2)", 16, C, 8, "level 3, q = 2"),
    _c(
        "1/(n*log(n)*log(log(n))*log(log(log(n)))*log(log(log(log(n)))))",
        16,
        D,
        8,
        "level 4, q = 1",
    ),
    _c(
        "1/(n*log(n)*log(log(n))*log(log(log(n)))*log(log(log(log(n))))**2)",
        16,
        C,
        8,
        "level 4, q = 2",
    ),
    _c("n**(-1 - 1/log(log(log(n))))", 16, C, 8, "1/n exp(-ln n/ln ln ln n)"),
    _c("exp(-log(n)*log(log(n)))", 3, C, 8, "n^-ln ln n"),
    _c("exp(-log(log(n))**2)", 3, D, 8, ">= 1/n eventually"),
    _c("1/(n*log(n)**2)", 2, C, 8, "Bertrand q = 2"),
    _c("n**(-1 - 1/n)", 1, D, 8, "~ 1/n"),
    _c("n**(-1 - log(log(n))/log(n))", 3, D, 8, "= 1/(n ln n)"),
    _c("n**(-1 - 2*log(log(n))/log(n))", 3, C, 8, "= 1/(n ln^2 n)"),
    _c("1/(n*sqrt(log(n))*log(log(n)))", 3, D, 8, "~ Bertrand q = 1/2 at level 1"),
    # ---- 9: factorial, gamma, binomial, Product
    _c("1/factorial(n)", 0, C, 9, "sum 1/n! = e"),
    _c("factorial(n)/n**n", 1, C, 9, "ratio (n/(n+1))^n -> 1/e"),
    _c("n**n/factorial(n)", 1, D, 9, "ratio -> e"),
    _c("binomial(2*n, n)/4**n", 1, D, 9, "~ 1/sqrt(pi n)"),
    _c("binomial(2*n, n)/(4**n*n)", 1, C, 9, "~ n^-3/2/sqrt(pi)"),
    _c("factorial(n)**2/factorial(2*n)", 1, C, 9, "ratio -> 1/4"),
    _c("2**n/factorial(n)", 0, C, 9, "ratio -> 0"),
    _c("gamma(n + 1/2)/(gamma(n)*n**2)", 1, C, 9, "~ n^-3/2 (Stirling)"),
    _c("gamma(n)/gamma(n + 3/2)", 1, C, 9, "~ n^-3/2"),
    _c("gamma(n)/gamma(n + 1/2)", 1, D, 9, "~ n^-1/2"),
    _c("Product(1 - 1/(k + 1)**2, (k, 1, n))", 1, D, 9, "= (n+2)/(2(n+1)) -> 1/2"),
    _c("Product(k/(k + 1), (k, 1, n))", 1, D, 9, "= 1/(n+1)"),
    _c("Product(k/(k + 1), (k, 1, n))**2", 1, C, 9, "= 1/(n+1)^2"),
    _c("1/binomial(n, 2)", 2, C, 9, "= 2/(n(n-1))"),
    _c("1/gamma(n)", 1, C, 9, "= 1/(n-1)!"),
    _c("exp(n)*factorial(n)/n**n", 1, D, 9, "~ sqrt(2 pi n) -> oo"),
    # ---- 10: typos and both spellings of the named RPEs
    _c("kerple", 0, ERR, 10, "not a name: nearest is kerple-log", rpe_like=False),
    _c("kerple_log", 0, C, 10, "named Kerple log, (1+n)^-2"),
    _c("kerple-log", 0, C, 10, "named Kerple log, (1+n)^-2"),
    _c("inv_n", 1, D, 10, "1/n"),
    _c("inv-n", 1, D, 10, "1/n"),
    _c("inv_nlogn", 2, D, 10, "1/(n ln n)"),
    _c("Type1", 1, C, 10, "1/n^2"),
    _c("type_2", 1, ERR, 10, "not a name (type2 is)", rpe_like=False),
    _c("kerple_power", 0, C, 10, "exp(-n)"),
    _c("alibi", 0, C, 10, "exp(-n)"),
    _c("sandwich", 0, D, 10, "b_n >= exp(-2 k d/2) > 0"),
    _c("alibii", 0, ERR, 10, "typo of alibi", rpe_like=False),
    _c("kerpel_log", 0, ERR, 10, "typo of kerple_log", rpe_like=False),
    _c("sandwhich", 0, ERR, 10, "typo of sandwich", rpe_like=False),
    _c("exp(-k*n)", 0, ERR, 10, "k neither given a value nor declared free", rpe_like=False),
    _c("1/n**p", 1, ERR, 10, "p undeclared", rpe_like=False),
]


def _sums():
    """(b_n, start, reference B at the current mpmath precision, why): closed forms."""
    import mpmath as mp

    e, pi = mp.e, mp.pi
    return [
        ("1/n - 1/(n + 1)", 1, lambda: mp.mpf(1), "telescoping"),
        (
            "1/n - 3/(3*n + 2)",
            1,
            lambda: mp.digamma(mp.mpf(5) / 3) + mp.euler,
            "sum 1/n - 1/(n+2/3) = psi(5/3) + gamma (digamma series)",
        ),
        ("1/n**2", 1, lambda: pi**2 / 6, "Basel"),
        ("(1/2)**floor(n/2)", 1, lambda: mp.mpf(3), "1 + 2 (1/2 + 1/4 + ...)"),
        ("1/factorial(n)", 0, lambda: e, "e"),
        ("exp(-n/2)", 0, lambda: 1 / (1 - mp.exp(-0.5)), "geometric"),
        ("(2 + sin(n))/n**2", 1, lambda: pi**2 / 3 + mp.clsin(2, 1), "2 zeta(2) + Cl_2(1)"),
        (
            "(-1)**n*cos(n)/n",
            1,
            lambda: -mp.log(2 * mp.cos(mp.mpf(1) / 2)),
            "sum cos((pi + 1) n)/n = -log(2 sin((pi + 1)/2))",
        ),
        ("(-1)**n*sin(n)/n", 1, lambda: -mp.mpf(1) / 2, "sum sin(n t)/n = (pi - t)/2, t = pi + 1"),
        ("(-1)**n/n", 1, lambda: -mp.log(2), "alternating harmonic"),
        (
            "cos(n)**2/n**2",
            1,
            lambda: pi**2 / 12 + mp.clcos(2, 2) / 2,
            "(1 + cos 2n)/(2 n^2): zeta(2)/2 + Sl_2(2)/2",
        ),
        (
            "Piecewise((exp(-n/4), n < 128), (0, True))",
            0,
            lambda: (1 - mp.exp(-32)) / (1 - mp.exp(-0.25)),
            "finite geometric sum",
        ),
        ("1/(n*(n + 1)*(n + 2))", 1, lambda: mp.mpf(1) / 4, "telescoping"),
        ("2**n/factorial(n)", 0, lambda: e**2, "e^2"),
        (
            "1/n**2 + exp(-10**6*(n - 5/2)**2)",
            1,
            lambda: pi**2 / 6 + 2 * mp.exp(-250000),
            "bump between integers: only n = 2, 3 see e^-250000",
        ),
        (
            "1/n**2 + exp(-(n - 10**5)**2)",
            1,
            lambda: pi**2 / 6 + mp.jtheta(3, 0, mp.exp(-1)),
            "theta_3(0, 1/e) = sum_m e^-m^2 (the m < -99999 part is < e^-10^10)",
        ),
        ("Max(n - 2, 1)**(-2)", 1, lambda: 2 + pi**2 / 6, "b_1 = b_2 = 1, then (n-2)^-2"),
        (
            "exp(-Abs(n - 7))",
            0,
            lambda: (1 - mp.exp(-7)) / (e - 1) + 1 / (1 - mp.exp(-1)),
            "two geometric pieces",
        ),
        ("1/(n - 1/2)**2", 1, lambda: pi**2 / 2, "4 sum 1/(2n-1)^2 = pi^2/2"),
        (
            "exp(-1/n) - 1 + 1/n",
            1,
            lambda: mp.nsum(lambda n: mp.exp(-1 / n) - 1 + 1 / n, [1, mp.inf]),
            "mpmath nsum (smooth ~1/(2n^2) terms, Richardson/Euler-Maclaurin)",
        ),
        (
            "exp(-Min(n, 128)/16)*exp(-n/1000)",
            0,
            lambda: (
                mp.nsum(lambda n: mp.exp(-mp.mpf(n) / 16 - mp.mpf(n) / 1000), [0, 127])
                + mp.exp(-8) * mp.exp(-mp.mpf(128) / 1000) / (1 - mp.exp(-mp.mpf(1) / 1000))
            ),
            "finite head + geometric tail",
        ),
    ]


#: (b_n, start, reference (a function giving B with mpmath), why)
SUMS = _sums()
