"""Held-out set 11: ``python -m theory.trf --json`` on the cases of ``heldout11_cases.py``
(moving powers (1 + a/n)^(n^2), exp expanded in series, tanh / cosh / atan / asinh
compositions, square-root differences, exponents with log log n, Catalan squares, sign
changes that are not Leibniz, floor(sqrt(n)) blocks, Max/Min of smooth terms, named RPEs at
new parameters, bias files whose float64 values matter, late starts, free-parameter
families, refusals and series no engine can decide), each against its independent mpmath
reference (``heldout11_reference.py``, derivation beside each case).

No answer may be WRONG, an internal error or a time-out; the cases in :data:`HONEST` may be
undecided or give bounds, every other case must be fully right.  ``-m slow`` runs all of
them; the default suite a representative few.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from heldout11_cases import CASES  # noqa: E402
from heldout_runner import check_case  # noqa: E402

BY_ID = {c.id: c for c in CASES}

#: generous, so that a busy machine does not turn a provable answer into a partial one
TIME_LIMIT = "120"

#: measured honest (default time limit, a load of 2): refused by name (b_1 = 1/0), or bounds
#: instead of a certified B (the first, a moving power, only for want of time)
HONEST = {
    "power/n-over-n-plus-one-squared-power-times-cube",
    "power/one-minus-inverse-n-to-2n-log-n",
    "exprat/exp-of-exp-minus-n-minus-one",
    "logtrig/log-one-minus-inverse-square-negative",
    "loglog/exponent-inverse-log",
    "floor/inverse-floor-sqrt-cubed",
    "second/sin-over-n-plus-sin",
}

FAST = [
    "start/telescoping-start-7",
    "refuse/eps-one",
    "named/alibi-k3.5",
    "floor/inverse-floor-sqrt-squared",
]


def _check(cid: str, tmp: Path) -> None:
    check_case(BY_ID[cid], tmp, HONEST, TIME_LIMIT)


@pytest.mark.parametrize("cid", FAST)
def test_heldout11_representative(cid, tmp_path):
    _check(cid, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c for c in BY_ID if c not in FAST])
def test_heldout11_all(cid, tmp_path):
    _check(cid, tmp_path)
