"""Held-out set 8: ``python -m theory.trf --json`` on the cases of ``heldout8_cases.py``
(named RPEs at unusual parameters, closed-form sums of rational, gamma, product,
logarithmic and trigonometric terms, iterated logarithms, sign-changing and nonpositive
terms, float32/float64 bias files with extreme values, extreme constants, starts and
tolerances, free-parameter families and refused input), each against its independent
mpmath reference (``heldout8_reference.py``, derivation beside each case).

No answer may be WRONG (verdict, condition at a grid point, false enclosure of B, an exact
TRF that is not the reference, a bound on the wrong side), an internal error or a time-out;
the cases in :data:`HONEST` may be undecided or give bounds, every other case must be fully
right.  ``-m slow`` runs all of them; the default suite a representative few.  The tests
after those pin the defects the set found, each on the function that had it.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from heldout8_cases import CASES  # noqa: E402
from heldout8_run import run_case  # noqa: E402

BY_ID = {c.id: c for c in CASES}

#: generous, so that a busy machine does not turn a provable answer into a partial one
TIME_LIMIT = "120"

#: measured honest: undecided, or bounds instead of exact values
HONEST = {
    "pos/half-euler-gamma",  # TRF lower bounds (equal to the truth)
    "pos/exp-n-one-plus-sin2",  # B lower bound only (b <= e^-n not used for the tail)
    "pos/cosh-inv-n-minus-1",  # TRF lower bounds (equal to the truth)
    "pos/sqrt-difference-over-n",  # no estimate: terms not proved nonnegative
    "pos/n-log1p-inv-cube",  # B lower bound only
    "pos/n-pow-log-over-factorial",  # B lower bound only
    "pos/inv-n2-plus-sin",  # TRF lower bounds
    "pos/floor-cbrt-over-n2",  # B lower bound only
    "osc/power-two-plus-sin",  # undecided
    "sign/beatty-sign-over-n",  # undecided
    "sign/sin-n-squared-over-n",  # undecided
    "neg/sin-pi-n-is-zero",  # refused: every term is 0
}

FAST = [
    "named/alibi-subnormal-slope",
    "pos/beta-n-three-halves",
    "bias/float32-linear",
    "bias/subnormal-slope-linear",
    "refuse/00",
]


def _check(cid: str, tmp: Path) -> None:
    case = BY_ID[cid]
    refused = case.verdict is None and case.cond is None  # its own options, a bad limit too
    extra = () if refused else ("--time-limit", TIME_LIMIT)
    case, cls, notes, _ = run_case(case, tmp, extra, timeout=400)
    assert cls in ("right", "honest"), (cid, cls, notes)
    if cid not in HONEST:
        assert cls == "right", (cid, notes)


@pytest.mark.parametrize("cid", FAST)
def test_heldout8_representative(cid, tmp_path):
    _check(cid, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c for c in BY_ID if c not in FAST])
def test_heldout8_all(cid, tmp_path):
    _check(cid, tmp_path)
