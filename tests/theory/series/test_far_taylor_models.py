"""Far boxes read through Taylor models (theory.series.arb_eval.box_taylor): where log b is
a product whose factors cancel, such as 2 n log(n) log(1 - 1/n) + 2 log(n) -> 0, interval
evaluation on [2^k, 2^(k+1)] loses about k while the model keeps the cancellation. The
model encloses the function at every point of the box (mpmath at 50 digits), its remainder
is needed, and B and the TRFs of such terms agree with mpmath sums computed here."""

import json

import mpmath
import pytest
from flint import arb, ctx

from theory.series.arb_eval import box_taylor, taylor_range
from theory.trf.cli import main

# (name, ball function, mpmath function, box, order): every model must hold f on the box
MODELS = [
    ("log x on [1, 2]", lambda x: x.log(), mpmath.log, (1, 2), 4),
    ("log x on [1, 2]", lambda x: x.log(), mpmath.log, (1, 2), 12),
    ("1/x on [3, 5]", lambda x: 1 / x, lambda x: 1 / x, (3, 5), 3),
    (
        "2 x log x log(1 - 1/x) + 2 log x on [2^41, 2^42]",
        lambda x: 2 * x * x.log() * (1 - 1 / x).log() + 2 * x.log(),  # 600 bits: no loss
        lambda x: 2 * x * mpmath.log(x) * mpmath.log1p(-1 / x) + 2 * mpmath.log(x),
        (2**41, 2**42),
        24,
    ),
    (
        "x log(1 + 1/x) - 1/2 log x on [2^200, 2^201]",
        lambda x: x * (1 + 1 / x).log() - x.log() / 2,
        lambda x: x * mpmath.log1p(1 / x) - mpmath.log(x) / 2,
        (2**200, 2**201),
        16,
    ),
]


@pytest.mark.parametrize("case", MODELS, ids=[f"{c[0]} (order {c[4]})" for c in MODELS])
def test_model_encloses_the_function(case):
    _name, f, ref, (lo, hi), order = case
    old = ctx.prec
    ctx.prec = 600
    try:
        coeffs = box_taylor(f, arb(lo), arb(hi), order)
        r = taylor_range(coeffs, arb(lo), arb(hi))
    finally:
        ctx.prec = old
    with mpmath.workdps(60):
        for i in range(17):  # the ends and 15 inner points
            x = mpmath.mpf(lo) + (mpmath.mpf(hi) - lo) * i / 16
            y = ref(x)
            assert r.lower() <= arb(mpmath.nstr(y, 55)) <= r.upper(), (i, y, r)


def test_remainder_is_needed():
    """log x on [1, 2] at order 4: without the Lagrange term the range misses log 1 = 0."""
    coeffs = box_taylor(lambda x: x.log(), arb(1), arb(2), 4)
    assert taylor_range(coeffs, arb(1), arb(2)).lower() < 0
    assert taylor_range(coeffs[:-1], arb(1), arb(2)).lower() > 0


def test_model_keeps_the_cancellation():
    """Where interval evaluation of 2 x log x log(1 - 1/x) + 2 log x on [2^300, 2^301] is
    hundreds wide, the model is narrower than 10^-3."""
    f = MODELS[3][1]
    lo, hi = arb(2) ** 300, arb(2) ** 301
    old = ctx.prec
    ctx.prec = 730
    try:
        direct = f(lo.union(hi))
        model = taylor_range(box_taylor(f, lo, hi, 24), lo, hi)
    finally:
        ctx.prec = old
    assert direct.rad() > 100 and model.rad() < 1e-3


def _mp_sum(term, start):
    with mpmath.workdps(45):
        return mpmath.nsum(term, [start, mpmath.inf], method="euler-maclaurin")


def _counts(term, start, B, eps_list):
    """Terms needed until the partial sum reaches (1 - eps) B (Eq. 22), for each eps."""
    out, s, n = [], mpmath.mpf(0), start
    with mpmath.workdps(45):
        for eps in eps_list:
            while s < (1 - mpmath.mpf(eps)) * B:
                s += term(n)
                n += 1
            out.append(n - start)
    return out


# (formula, start, mpmath term): b_n ~ C/n^2 with log(b_n) a product of cancelling factors
SERIES = [
    (
        "(1 - 1/n)**(2*n*log(n))",
        2,
        lambda n: mpmath.exp(2 * n * mpmath.log(n) * mpmath.log1p(-1 / n)),
    ),
    (
        "((n - 1)/(n + 1))**(n*log(n))",
        2,
        lambda n: mpmath.exp(n * mpmath.log(n) * mpmath.log1p(-2 / (n + 1))),
    ),
]


@pytest.mark.parametrize("case", SERIES, ids=[c[0] for c in SERIES])
def test_sum_and_exact_trfs(capsys, case):
    formula, start, term = case
    code = main([f"--rpe={formula}", "--start", str(start), "--json", "--time-limit", "60"])
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    B = _mp_sum(term, start)
    assert out["certified"] and out["sum_digits"] >= 15, out.get("sum_error")
    with mpmath.workdps(45):
        assert mpmath.mpf(out["sum_lo"]) <= B <= mpmath.mpf(out["sum_hi"])
    exact = [t for t in out["trf"] if t.get("exact")]
    assert len(exact) == 3
    assert [t["value"] for t in exact] == _counts(term, start, B, [t["eps"] for t in exact])


def test_model_on_a_box_with_inexact_ends():
    """Ends that are balls (1/3, 7/3): the centre is an exact point inside, and the range
    reaches the farther end."""
    lo, hi = arb(1) / 3, arb(7) / 3
    r = taylor_range(box_taylor(lambda x: 1 / x, lo, hi, 3), lo, hi)
    with mpmath.workdps(30):
        for x in (mpmath.mpf(1) / 3, mpmath.mpf(4) / 3, mpmath.mpf(7) / 3):
            assert r.lower() <= arb(mpmath.nstr(1 / x, 25)) <= r.upper()


def test_log1p_series_on_a_wide_ball():
    """log(1 + n) as a Taylor series on the wide ball [20001, 40002] (the Euler-Maclaurin
    blocks of the integral test): its constant term is exactly log1p of the ball, the rest
    has constant term 0.  (Subtracting the wide constant term from the series doubled it,
    the ball of log(1 + n) held 0 and log(n + 1)**(-1/2) was refused there.)  Each
    coefficient must enclose mpmath's at both ends and the middle of the ball."""
    from theory.series.arb_eval import arb_function, ball, taylor
    from theory.series.expressions import parse_expression

    g = arb_function(parse_expression("log(n + 1)**(-1/2)"))
    c = taylor(g, ball(20001, 40002), 3)
    with mpmath.workdps(30):
        for x in (20001, 30001, 40002):
            ref = mpmath.taylor(lambda t: mpmath.log(t + 1) ** -0.5, x, 2)
            for k in range(3):
                lo, hi = (mpmath.mpf(v.str(30, radius=False)) for v in (c[k].lower(), c[k].upper()))
                assert lo <= ref[k] <= hi, (x, k)
    assert c[0].rad() < 0.01 and c[1].rad() < 1e-6
