"""Held-out set 15: ``python -m theory.trf --json`` on the cases of ``heldout15_cases.py``
(mixtures and products of kernels: means of ALiBi heads with ALiBi's slopes, heads weighted
by 2^-k, xPos-like decay times a rotation and a Gaussian window times a rotation (both
signs), Kerple-log shapes (1 + n/L)^-r with decimals, stretched exponentials, n^-p e^(-n/L)
(polylog), Lerch kernels, an ALiBi head plus a power-law head, log-damped kernels; T5 with
increasing, positive, all-equal and ALiBi-like bucket values and the truncated TRF, Sandwich
at d = 4, ALiBi / Kerple from n = 2, 10, 10^6; many eps at once, eps = 0.999 and 1e-15,
--truncate, --compare (Thm 3.5), --bias formulas, --verdict-only; input that must be
refused; proved verdicts with hard B and two open problems; free-parameter families of
kernel shapes proved on the whole line), each against its independent mpmath reference
(``heldout15_reference.py``, derivation beside each case).  The truncated TRF and the
comparison are judged by ``heldout_runner`` as well.

No answer may be WRONG, an internal error or a time-out; the cases in :data:`HONEST` may be
undecided or give bounds, every other case must be fully right.  ``-m slow`` runs all of
them; the default suite a representative few.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from heldout15_cases import CASES  # noqa: E402
from heldout_runner import check_case  # noqa: E402

BY_ID = {c.id: c for c in CASES}

#: generous, so that a busy machine does not turn a provable answer into a partial one
TIME_LIMIT = "120"

#: measured honest at the head, filled in from the runner's runs, never by changing a
#: reference.  First run (at 5984568 + uncommitted, load 1.2-1.6): 57 right, 2 honest
#: (exp(-n*Abs(sin(n))), exp(-sqrt(n)*Abs(sin(n))) undecided), 1 WRONG that was the
#: reference's: a truncated TRF at an exact tie, where App. E's pseudocode stops at a
#: partial sum >= (1 - eps) B_M (the reference had Eq. 22's >; corrected, with the line
#: quoted in the case).  60 right at ba9cdee.
HONEST: set[str] = set()

FAST = [
    "mix/two-alibi-heads-mean",
    "xpos/exp-n-over-4-cos-n-over-3",
    "t5/all-equal-values-truncate-exact-ties",
    "free/one-plus-n-over-L-pow-minus-r",
]


def _check(cid: str, tmp: Path) -> None:
    check_case(BY_ID[cid], tmp, HONEST, TIME_LIMIT)


@pytest.mark.parametrize("cid", FAST)
def test_heldout15_representative(cid, tmp_path):
    _check(cid, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c for c in BY_ID if c not in FAST])
def test_heldout15_all(cid, tmp_path):
    _check(cid, tmp_path)
