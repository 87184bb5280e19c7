"""Held-out set 16: ``python -m theory.trf --json`` on the cases of ``heldout16_cases.py``
(special functions in telescoping terms with closed B, exact ties decided by Eq. 22's strict
">", eps one ulp around a tie and near 1, bias files by content (float32, float16, int64,
a Fortran-flagged big-endian .npy, text with '+', -0.0, exponents and CRLF, one value, 10^5
values, subnormals, +-1e308), --start 0 to 10^15, iterated logarithms at the edge of
convergence, two-parameter families, refusals and huge exponents), each against its
independent mpmath / Fraction reference (``heldout16_reference.py``, derivation beside each
case).

No answer may be WRONG, an internal error or a time-out; the cases in :data:`HONEST` may be
undecided or give bounds, every other case must be fully right.  ``-m slow`` runs all of
them; the default suite a representative few.
"""

import sys
from pathlib import Path

import pytest

sys.path.insert(0, str(Path(__file__).parent))
from heldout16_cases import CASES  # noqa: E402
from heldout_runner import check_case  # noqa: E402

BY_ID = {c.id: c for c in CASES}

#: generous, so that a busy machine does not turn a provable answer into a partial one
TIME_LIMIT = "120"

#: measured honest at the head, filled in from the runner's runs, never by changing a
#: reference.  First run (load 2.2-3.5, --time-limit default): 58 right, 7 honest, no WRONG,
#: internal error or time-out; one honest was the reference's (the truncated TRF asked at
#: eps the command did not pass; corrected to the command's eps: right).  Fixed since, each
#: right now: log(1 + 1/n) - 1/(n + 1) (no B: the rational part of F(1/n) was not
#: cancelled), the subnormal tie [0, -5e-324] (1 <= TRF(0.5) <= 2: 192 bits; now retried at
#: the bits of the file's binary values), exp(-n**(10**400)) (100 s for a lower bound below
#: b_1: a slope with no digits left; now bounded by the first).  62 right, 3 honest at the
#: head.  Honest:
#: * the atan tail's exact tie pi/2 - atan(1) = pi/4 = 0.5 B: certified 1 <= TRF(0.5) <= 2
#:   only (truth 2; sympy sums no atan telescope in closed form);
#: * clean refusals where error_ok: eps = 1 - 1e-23 (rounds to 1.0 as a double, refused by
#:   name) and the exponent 9**9**9 (too many digits).
HONEST: set[str] = {
    "telescope/atan-consecutive-start-0-tie-at-pi-over-4",
    "opt/eps-one-minus-1e-23-bias-file",
    "huge/exponent-nine-pow-nine-pow-nine",
}

FAST = [
    "rational/inverse-binomial-ties",
    "geometric/five-pow-minus-n-ties-and-one-ulp-around",
    "bias/fortran-flagged-big-endian-1d-npy-linear",
    "refuse/unknown-erfc",
]


def _check(cid: str, tmp: Path) -> None:
    check_case(BY_ID[cid], tmp, HONEST, TIME_LIMIT)


@pytest.mark.parametrize("cid", FAST)
def test_heldout16_representative(cid, tmp_path):
    _check(cid, tmp_path)


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c for c in BY_ID if c not in FAST])
def test_heldout16_all(cid, tmp_path):
    _check(cid, tmp_path)
