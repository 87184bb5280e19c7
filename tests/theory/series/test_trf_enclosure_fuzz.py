"""The certified answers of ``python -m theory.trf --json`` against mpmath references
computed independently of the tool (``benchmarks/trf_enclosure_fuzz.py``: direct sums,
Euler-Maclaurin from two cut points, pair grouping of alternating terms, majorant
intervals for bounded oscillating factors).  A false enclosure of B, a wrong exact TRF or a
lower bound above the true TRF is a failure; so is a traceback."""

from __future__ import annotations

import mpmath
import pytest
from mpmath import mp, mpf

from benchmarks import trf_enclosure_fuzz as fz


def _geometric() -> fz.Term:
    # 18.8 * 0.7^n from n = 2: B = 18.8 * 0.49/0.3 (closed form, checked below)
    return fz.Term("18.8*0.7**n", lambda n: mpf("18.8") * mpf("0.7") ** n, "fast", 2)


def test_reference_of_a_geometric_series_is_its_closed_form():
    with mp.workdps(fz.DPS):
        ref = fz.reference(_geometric())
        lo, hi = ref.tail(2)
        exact = mpf("18.8") * mpf("0.49") / mpf("0.3")
        assert lo <= exact <= hi and hi - lo < mpf(10) ** -40
        # TRF(0.01): R_j = B 0.7^j < 0.01 B first at j = 13 (0.7^12 = 0.0138, 0.7^13 = 0.0097)
        assert fz.true_trf_bracket(_geometric(), ref, (lo, hi), 0.01) == (13, "")


def test_the_judge_sees_a_false_enclosure_and_a_wrong_exact_trf():
    """The comparison itself can fail: a B interval beside the truth, an exact TRF one off
    and a lower bound above the truth are each reported."""
    t = _geometric()
    with mp.workdps(fz.DPS):
        ref = fz.reference(t)
    out = {
        "certified": True,
        "sum_lo": "30.70666666666666666666667",  # B = 30.7066...6 (repeating): just above
        "sum_hi": "30.7066666666666666666667",
        "trf": [
            {"eps": 0.01, "value": 12, "exact": True},
            {"eps": 0.001, "value": None, "exact": False, "lower_bound": 21},
        ],
    }
    o = fz.Outcome(t.text, t.start, t.kind)
    fz.judge(t, out, ref, o)
    assert any("B lower end" in f for f in o.findings)
    assert any("TRF(0.01) = 12 exact, reference 13" in f for f in o.findings)
    # TRF(0.001): 0.7^19 = 0.00114, 0.7^20 = 0.000798: 20; the lower bound 21 is false
    assert any("lower bound 21 > reference 20" in f for f in o.findings)


CASES = [
    _geometric(),
    fz.Term("sin(n)/n**3.8", lambda n: mpmath.sin(n) * n ** -mpf("3.8"), "osc", 2, 3.8, -1, 1),
    fz.Term(
        "cos(pi*n)*(1/log(n + 3)*n**-1.28)",
        lambda n: (-1) ** int(n) / mpmath.log(n + 3) * n ** -mpf("1.28"),
        "alt",
        1,
        notes={"g": lambda n: 1 / mpmath.log(n + 3) * n ** -mpf("1.28"), "s0": 0},
    ),
    fz.Term(
        "2.5*(tanh(n)*exp(-5/n)*n**-2.735)",
        lambda n: mpf("2.5") * mpmath.tanh(n) * mpmath.exp(-5 / n) * n ** -mpf("2.735"),
        "smooth",
        10**6,
    ),
]


@pytest.mark.parametrize(
    "case",
    [CASES[0]] + [pytest.param(c, marks=pytest.mark.slow) for c in CASES[1:]],
    ids=lambda c: c.text,
)
def test_certified_answers_hold(case):
    o = fz.fuzz_one(case)
    assert o.status == "ok", o.notes
    assert not o.findings, o.findings
    assert o.judged_exact + o.judged_bounds > 0  # something was compared


@pytest.mark.slow
def test_seeded_fuzz_has_no_false_answer():
    """Twelve generated cases (seed 7): no false answer, no traceback."""
    for t in fz.generate(7, 12):
        o = fz.fuzz_one(t)
        assert o.status != "error", (t.text, o.notes)
        assert not o.findings, (t.text, t.start, o.findings)
