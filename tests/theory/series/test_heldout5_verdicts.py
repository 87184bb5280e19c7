"""The fifth held-out set (heldout5_series.py): free-parameter conditions checked against
the textbook truth on a grid of values (boundaries a = +-1, p = 0, 1 included), and fixed
series against theirs.  No verdict and no condition may be wrong; the cases known to stay
undecided are listed.  The families and series that take seconds run under ``slow``."""

import pytest
import sympy as sp
from heldout5_series import FAMILIES, FIXED, UNDEF

from theory.series.convergence import decide
from theory.series.decision import SeriesError
from theory.series.expressions import ExpressionError, keep_products, parse_expression
from theory.series.product_terms import decide_product
from theory.series.sign_cases import holds

BUDGET = 30.0  # the judging limit: a decision past it counts as a time-out

#: families whose condition is not (yet) decided on their whole range
FAMILY_GAPS: set[str] = set()
#: fixed series left undecided (decidable with more work), and those the parser refuses
FIXED_GAPS: set[str] = set()
#: products whose closed form has gamma functions of complex arguments: refused by the plain
#: parser, decided from the unevaluated product (keep_products and decide_product, as
#: theory.trf reads them)
REFUSED = {"Product(1 + 1/m**2, (m, 1, n))/n**2"}
#: families whose decision takes seconds (the rest run in the default suite)
FAST_FAMILIES = {
    "a**n",
    "a**n/sqrt(n)",
    "x**n/factorial(n)",
    "x**n*binomial(2*n, n)",
    "cos(n)/n**p",
    "cos(pi*n)/n**p",
    "binomial(2*n, n)/(4**n*n**p)",
    "exp(-k*n)*cos(n)",
    "exp(-n**p)",
}
SLOW_FIXED = {
    "log(1 + (-1)**n/sqrt(n))",
    "(-1)**n/(sqrt(n) + (-1)**n)",
    "(-1)**n*sin(1/n)",
}


def _decide_family(f):
    b = parse_expression(f.text, params=tuple(f.names.split()), assumptions=f.assumptions)
    d = decide(b, f.start, budget=BUDGET)
    assert d.test != "time budget", d.certificate
    syms = {s.name: s for s in b.free_symbols}
    return d, syms


def _predicted(d, point):
    """The condition's verdict at a point, None where it is not decided there."""
    cond, domain = d.details.get("condition"), d.details.get("domain", sp.true)
    if cond is None or not holds(domain, point):
        return None
    return holds(cond, point)


def _check_family(f):
    d, syms = _decide_family(f)
    gaps = []
    for pt in f.grid:
        truth = f.truth(pt)
        point = {syms[k]: v for k, v in pt.items() if k in syms}
        got = _predicted(d, point)
        if truth == UNDEF:
            assert got is None or "defined" in d.condition, (pt, d.condition)
            continue
        assert got in (None, truth), (pt, d.condition, d.certificate)
        if got is None:
            gaps.append(pt)
    if f.text in FAMILY_GAPS:
        assert d.converges is None
    else:
        assert not gaps, (gaps, d.condition, d.certificate)
    return d


def _plain(f, pt):
    """The decision with the values put in as --param puts them."""
    try:
        b = parse_expression(f.text, values=dict(pt))
    except ExpressionError:  # 0**n: refused by the parser, with its reason
        return "refused"
    try:
        d = decide(b, f.start, budget=BUDGET)
    except SeriesError:
        return UNDEF
    assert d.test != "time budget", (pt, d.certificate)
    return d.converges


def _family_id(f):
    return f.ident


FAST = [f for f in FAMILIES if f.text in FAST_FAMILIES]
SLOW = [f for f in FAMILIES if f.text not in FAST_FAMILIES]


@pytest.mark.parametrize("f", FAST, ids=_family_id)
def test_family_condition(f):
    _check_family(f)


@pytest.mark.slow
@pytest.mark.parametrize("f", SLOW, ids=_family_id)
def test_family_condition_slow(f):
    _check_family(f)


@pytest.mark.slow
@pytest.mark.parametrize("f", FAMILIES, ids=_family_id)
def test_family_values_substituted(f):
    """--param at every grid point: never wrong, undecided only in the listed gaps."""
    undecided = []
    for pt in f.grid:
        truth, got = f.truth(pt), _plain(f, pt)
        if got == "refused":
            assert any(v == 0 for v in pt.values()) and "**n" in f.text  # 0**n only
            continue
        if truth == UNDEF:
            assert got in (UNDEF, None), pt
            continue
        assert got in (None, truth), (pt, got)
        if got is None:
            undecided.append(pt)
    if f.text not in FAMILY_GAPS:
        assert not undecided, undecided


def _check_fixed(c):
    if c.text in REFUSED:
        with pytest.raises(ExpressionError):
            parse_expression(c.text)
        with keep_products():
            d = decide_product(parse_expression(c.text), c.start)
    else:
        d = decide(parse_expression(c.text), c.start, budget=BUDGET)
    assert d.test != "time budget", d.certificate
    assert d.converges in (None, c.truth), d.certificate
    if not c.hard and c.text not in FIXED_GAPS:
        assert d.converges is c.truth, d.certificate


FIXED_FAST = [c for c in FIXED if c.text not in SLOW_FIXED]
FIXED_SLOW = [c for c in FIXED if c.text in SLOW_FIXED]


@pytest.mark.parametrize("c", FIXED_FAST, ids=lambda c: f"{c.text}|{c.start}")
def test_fixed(c):
    _check_fixed(c)


@pytest.mark.slow
@pytest.mark.parametrize("c", FIXED_SLOW, ids=lambda c: f"{c.text}|{c.start}")
def test_fixed_slow(c):
    _check_fixed(c)


def test_set_size_and_gaps_listed():
    assert len(FAMILIES) >= 30 and len(FIXED) >= 40
    texts = {c.text for c in FIXED}
    assert FIXED_GAPS <= texts and REFUSED <= texts and SLOW_FIXED <= texts
    assert FAMILY_GAPS <= {f.text for f in FAMILIES}
