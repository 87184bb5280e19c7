"""Free-parameter families decided part by part (theory/series/family_parts.py): residue
classes, and an oscillating part plus a part of one sign; and the same series with values
put in (theory/series/oscillating_parts.py).  Each truth is argued in a comment; the
condition and the decision at values on a grid (boundaries included) may be undecided
only where listed, and are never wrong."""

import pytest
import sympy as sp
from heldout5_series import UNDEF, Family, grid1, grid2

from theory.series.convergence import decide, decide_in_process
from theory.series.decision import SeriesError
from theory.series.expressions import parse_expression
from theory.series.sign_cases import holds

BUDGET = 30.0
R = sp.Rational
AXIS = (-1, 0, R(1, 2), 1, 2)


def _undef_at_zero(rule):
    return lambda p: UNDEF if p["p"] == 0 else rule(p)


FAMILIES = [
    # p > 0: classes 1/((2m)^p - 1) and 1/((2m+1)^p + 1), both positive and ~ n^-p:
    # converges iff p > 1; p = 0: b_2 = 1/0; p < 0: the classes tend to -1 and 1
    Family("1/(n**p - (-1)**n)", "p", 2, {}, _undef_at_zero(lambda p: p["p"] > 1), grid1("p")),
    # Dirichlet part cos(n) n^-p (converges iff p > 0, else its terms do not tend to 0)
    # minus a p-series of one sign: converges iff p > 0 and q > 1
    Family(
        "cos(n)/n**p - 1/n**q",
        "p q",
        1,
        {},
        lambda p: p["p"] > 0 and p["q"] > 1,
        grid2("p", "q", AXIS, AXIS),
    ),
    # Leibniz part plus log(n)/n^q (Bertrand: converges iff q > 1)
    Family(
        "(-1)**n/n**p + log(n)/n**q",
        "p q",
        2,
        {},
        lambda p: p["p"] > 0 and p["q"] > 1,
        grid2("p", "q", AXIS, AXIS),
    ),
    # (-1)^n/(n^p + (-1)^n) = (-1)^n n^-p - n^-2p/(1 + (-1)^n n^-p): Leibniz plus a part
    # of one sign ~ n^-2p, so converges iff p > 1/2; p = 0: b_3 = -1/0; p < 0: terms -> 1
    Family(
        "(-1)**n/(n**p + (-1)**n)",
        "p",
        2,
        {},
        _undef_at_zero(lambda p: p["p"] > R(1, 2)),
        grid1("p", R(1, 4), R(3, 4)),
    ),
    # a periodic sign of mean 0 (partial sums bounded) times n^-p: Dirichlet iff n^-p -> 0,
    # i.e. p > 0; p <= 0: terms do not tend to 0
    Family("(-1)**floor(n/2)/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p")),
    # two oscillating parts: p = q all terms 0; else sin(n)(n^-p - n^-q) with
    # n^-p - n^-q ~ +-n^-min(p, q): Dirichlet iff min(p, q) > 0, terms not -> 0 otherwise
    Family(
        "sin(n)/n**p - sin(n)/n**q",
        "p q",
        1,
        {},
        lambda p: p["p"] == p["q"] or (p["p"] > 0 and p["q"] > 0),
        grid2("p", "q", AXIS, AXIS),
    ),
    Family("(-1)**floor(n/3)/n**p", "p", 1, {}, lambda p: p["p"] > 0, grid1("p")),  # period 6
    # signs 1, 1, -1 (mean 1/3): (1/3) sum n^-p plus a Dirichlet part: iff p > 1
    Family("(-1)**floor(2*n/3)/n**p", "p", 1, {}, lambda p: p["p"] > 1, grid1("p")),
    # the same sign times n^p/(n^2 + 1) ~ n^(p-2): Dirichlet iff p < 2; p >= 2: not -> 0
    Family("(-1)**floor(n/2)*n**p/(n**2 + 1)", "p", 1, {}, lambda p: p["p"] < 2, grid1("p", 3)),
]


def _check(f, complete):
    b = parse_expression(f.text, params=tuple(f.names.split()), assumptions=f.assumptions)
    d = decide(b, f.start, budget=BUDGET)
    assert d.test != "time budget", d.certificate
    syms = {s.name: s for s in b.free_symbols}
    cond, domain = d.details.get("condition"), d.details.get("domain", sp.true)
    gaps = []
    for pt in f.grid:
        truth = f.truth(pt)
        point = {syms[k]: v for k, v in pt.items() if k in syms}
        got = None if cond is None or not holds(domain, point) else holds(cond, point)
        if truth == UNDEF:
            assert got is None or "defined" in d.condition, (pt, d.condition)
            continue
        assert got in (None, truth), (pt, d.condition, d.certificate)
        gaps += [pt] if got is None else []
    if complete:
        assert not gaps, (gaps, d.condition)


def _check_values(f, complete):
    """The decision with the values put in (as --param): never wrong."""
    undecided = []
    for pt in f.grid:
        truth = f.truth(pt)
        try:
            got = decide(parse_expression(f.text, values=dict(pt)), f.start, budget=BUDGET)
            got = got.converges
        except SeriesError:
            got = UNDEF
        if truth == UNDEF:
            assert got in (UNDEF, None), pt
            continue
        assert got in (None, truth), (pt, got)
        undecided += [pt] if got is None else []
    if complete:
        assert not undecided, undecided


@pytest.mark.slow
@pytest.mark.parametrize("f", FAMILIES, ids=lambda f: f.text)
def test_condition_complete(f):
    _check(f, complete=True)


@pytest.mark.slow
@pytest.mark.parametrize("f", FAMILIES, ids=lambda f: f.text)
def test_values_never_wrong(f):
    _check_values(f, complete=True)


def test_residue_class_condition():
    """One parameter, in the default suite: the two held-out-like families."""
    b = parse_expression("1/(n**p - (-1)**n)", params=("p",))
    d = decide_in_process(b, 2)
    assert d.condition.startswith("converges iff p > 1"), d.condition
    assert "every class is positive" in d.certificate


def test_oscillating_sum_condition():
    b = parse_expression("sin(2*n)/n**p + 1/n**q", params=("p", "q"))
    d = decide_in_process(b, 1)
    assert d.condition == "converges iff p > 0 and q > 1", d.condition
    assert "Dirichlet's test" in d.certificate


#: without parameters: an oscillating part plus a part of one sign
VALUES = [
    # n sin n + n = n(1 + sin n): terms >= n when sin n >= 0 (infinitely often)
    ("n*sin(n) + n", False),
    # sin n does not tend to 0, 1/sqrt(n) does: the terms do not
    ("sin(n) + 1/sqrt(n)", False),
    # sqrt(n) cos(2n) does not tend to 0 (|cos 2n| > 1/2 infinitely often), 1/n does
    ("sqrt(n)*cos(2*n) - 1/n", False),
    # (-1)^n n + log n: at odd n the terms are log n - n -> -oo
    ("(-1)**n*n + log(n)", False),
    # sin(n)^2 - 1/2 = -cos(2n)/2: the constant part cancels; the terms do not tend to 0
    ("sin(n)**2 - 1/2 + 1/n**2", False),
    # sin(n)^2/n - 1/(2n) = -cos(2n)/(2n): the constant part of sin^2 cancels the p-series;
    # Dirichlet, converges
    ("sin(n)**2/n - 1/(2*n)", True),
    # Dirichlet part plus a convergent / divergent p-series
    ("cos(n)/n + 1/n**2", True),
    ("sin(n)/n**2 + 1/n", False),
]


@pytest.mark.parametrize("text, truth", VALUES)
def test_oscillating_part_values(text, truth):
    d = decide_in_process(parse_expression(text), 1)
    assert d.converges is truth, d.certificate
