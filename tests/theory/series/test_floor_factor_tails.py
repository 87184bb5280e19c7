"""Certified sums of terms with a floor/ceiling factor times a vanishing sine:
``floor(n/5)*sin(1/n**3)``, ``ceiling(n/5)*sin(1/n**3)/(1 + n**2)``.

Before: B "no estimate (terms not proved nonnegative)" for the second, "no guaranteed
enclosure" for both (the residue classes' expanded sin(1/(125 m^3 + ...)) defeated the far
boxes; the power majorant could not take floor over a box, nor n^3 sin(n^-3) at 1/n = 0).

References (40 digits, independent of the project): the residue classes n = 5m + r, where
floor(n/5) = m and ceiling(n/5) = m + [r > 0], each summed by mpmath.nsum; checked a second
way against the partial sum to N = 20000 plus the tail bracket that floor(x) in (x - 1, x]
gives, sum_(n >= N) (n/5 - 1) sin(n^-3) <= tail <= sum_(n >= N) (n/5) sin(n^-3), those
sums from the sine's series as Hurwitz zetas.
"""

import json

import mpmath
import pytest
from flint import arb, ctx

from theory.series.arb_eval import Undecided, arb_function, floor_hulls
from theory.series.enclosure import arb_bounds
from theory.series.expressions import parse_expression as P
from theory.series.lower_bounds import terms_nonnegative
from theory.series.majorant_tail import MajorantTail
from theory.series.residue_classes import ResidueTail
from theory.trf.cli import main

DPS = 40


def _floor_term(n):
    return mpmath.floor(mpmath.mpf(n) / 5) * mpmath.sin(mpmath.mpf(n) ** -3)


def _ceiling_term(n):
    n = mpmath.mpf(n)
    return mpmath.ceil(n / 5) * mpmath.sin(n**-3) / (1 + n**2)


def _by_classes(start, ceiling):
    """sum_(n >= start) b_n, class by class n = 5m + r (m >= 0, 5m + r >= start)."""
    total = mpmath.mpf(0)
    for r in range(5):
        m0 = max(0, -(-(start - r) // 5))
        k = 1 if (ceiling and r) else 0
        if ceiling:
            f = lambda m, r=r, k=k: (m + k) * mpmath.sin((5 * m + r) ** -3) / (1 + (5 * m + r) ** 2)  # noqa: E731
        else:
            f = lambda m, r=r: m * mpmath.sin(mpmath.mpf(5 * m + r) ** -3)  # noqa: E731
        if 5 * m0 + r == 0:
            m0 = 1  # n = 0 is not a term
        total += mpmath.nsum(f, [m0, mpmath.inf])
    return total


def reference(start, ceiling=False):
    with mpmath.workdps(DPS):
        return _by_classes(start, ceiling)


def test_reference_second_way():
    with mpmath.workdps(DPS):
        B = _by_classes(3, False)
        Nn = 20000
        head = mpmath.fsum(_floor_term(n) for n in range(3, Nn))

        # sin x = sum_k (-1)^k x^(2k+1)/(2k+1)!: sums of n^q sin(n^-3) are Hurwitz zetas
        def sin_sum(q):
            return mpmath.fsum(
                (-1) ** k * mpmath.zeta(6 * k + 3 - q, Nn) / mpmath.factorial(2 * k + 1)
                for k in range(8)
            )

        lo, hi = sin_sum(1) / 5 - sin_sum(0), sin_sum(1) / 5
        assert head + lo <= B <= head + hi
        assert hi - lo < 2e-8  # a bracket that tests something


def test_floor_hulls_hold_every_value_and_only_inside_the_block():
    old = ctx.prec  # python-flint's precision is global: restored for the tests after this
    ctx.prec = 192
    try:
        f = arb_function(P("floor(n/5)"))
        box = arb(100).union(arb(131))  # floor(n/5) takes 20 ... 26 on [100, 131]
        with pytest.raises(Undecided):
            f(box)
        with floor_hulls():
            v = f(box)
        assert v.contains(arb(20)) and v.contains(arb(26)) and not v.contains(arb(27))
        with pytest.raises(Undecided):  # the block restored the refusal
            f(box)
    finally:
        ctx.prec = old


@pytest.mark.parametrize(
    "text,start,ref",
    [("floor(n/5)*sin(1/n**3)", 3, False), ("ceiling(n/5)*sin(1/n**3)/(1 + n**2)", 1, True)],
)
def test_power_majorant_with_floor_encloses(text, start, ref):
    t = MajorantTail(P(text), start, head_terms=2048)
    B = reference(start, ref)
    with mpmath.workdps(DPS):
        lo, hi = arb_bounds(t.tail(start))
        assert lo <= B <= hi
        assert hi - lo < B * 1e-2
        head = mpmath.fsum((_ceiling_term if ref else _floor_term)(n) for n in range(start, 3000))
        lo, hi = arb_bounds(t.tail(3000))  # beyond the head: the majorant's constants alone
        assert lo <= B - head <= hi


@pytest.mark.parametrize(
    "text,start,ref",
    [("floor(n/5)*sin(1/n**3)", 3, False), ("ceiling(n/5)*sin(1/n**3)/(1 + n**2)", 1, True)],
)
def test_residue_classes_as_written_enclose(text, start, ref):
    """Each class summed with its sine as written, by its expansion in 1/m (from m = 1; the
    term at m = 0 apart, b_1 = sin(1)/2 ... for the ceiling): 15 digits or more."""
    t = ResidueTail(P(text), start)
    B = reference(start, ref)
    with mpmath.workdps(DPS):
        lo, hi = arb_bounds(t.tail(start))
        assert lo <= B <= hi and hi - lo < B * 1e-15
        term = _ceiling_term if ref else _floor_term
        lo, hi = arb_bounds(t.tail(7))  # a tail from inside the classes' first terms
        assert lo <= B - mpmath.fsum(term(n) for n in range(start, 7)) <= hi


def test_ceiling_product_proved_nonnegative():
    # ceiling(n/5) is -floor(-n/5): the minus sign pairs with the nonpositive floor
    assert terms_nonnegative(P("ceiling(n/5)*sin(1/n**3)/(1 + n**2)"), 1)
    assert terms_nonnegative(P("floor(n/5)*sin(1/n**3)"), 1)
    assert not terms_nonnegative(P("-ceiling(n/5)*sin(1/n**3)"), 1)
    assert not terms_nonnegative(P("floor(n/5)*sin(1/n**3)*(n - 7)"), 1)  # b_5 < 0
    assert not terms_nonnegative(P("(1 - pi)*floor(n/5)*sin(1/n**3)"), 1)  # a constant < 0
    assert terms_nonnegative(P("(pi - 1)*floor(n/5)*sin(1/n**3)"), 1)


@pytest.mark.slow
def test_cli_gives_certified_b_and_exact_trfs(capsys):
    start = 3
    code = main(
        ["--rpe", "floor(n/5)*sin(1/n**3)", "--start", str(start), "--json", "--time-limit", "120"]
    )
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"], out
    B = reference(start)
    with mpmath.workdps(DPS):
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
        assert out["sum_digits"] >= 15
        R, j, exact = B, 0, [t for t in out["trf"] if t["exact"]]
        assert exact
        for t in sorted(exact, key=lambda t: -t["eps"]):
            while R >= B * mpmath.mpf(repr(t["eps"])):
                R, j = R - _floor_term(start + j), j + 1
            assert t["value"] == j, (t, j)
