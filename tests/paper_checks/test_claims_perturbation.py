"""Every registered claim's verdict follows from its evidence: moving the paper's
reference values within the declared tolerances keeps the verdict; moving them beyond
(on the items that decide it) changes it.  Evidence is computed once per claim (the
session fixture ``evidence_of`` in conftest.py).

A claim whose evidence has nothing to move (a missing input) says why in its
registration (``unperturbable=``); those are few, and the declaration is checked.
"""
import pytest

from paper_checks.evidence import Evidence, is_perturbable, judge, perturb
from paper_checks.registry import load_all
from test_no_literal_verdicts import NOT_YET_CONVERTED as NOT_YET_CONVERTED_FILES

REGISTRY = load_all()
#: claim modules still on the old API (a check returning a verdict)
NOT_YET_CONVERTED = {"paper_checks." + path.removesuffix(".py").replace("/", ".")
                     for path in NOT_YET_CONVERTED_FILES}
CLAIMS = [c for c in REGISTRY.values() if not c.empirical]


def _param(c):
    marks = [pytest.mark.xfail(strict=True, reason="returns a verdict, not evidence")] \
        if c.check.__module__ in NOT_YET_CONVERTED else []
    return pytest.param(c.id, id=c.id, marks=marks)


@pytest.mark.parametrize("cid", [_param(c) for c in CLAIMS])
def test_verdict_follows_the_evidence(cid, evidence_of):
    c = REGISTRY[cid]
    ev = evidence_of(cid)
    assert isinstance(ev, Evidence), f"{cid} returns {type(ev).__name__}, not Evidence"
    v = judge(ev, c.tolerances)
    assert judge(perturb(ev, c.tolerances, "within"), c.tolerances).label == v.label
    if c.unperturbable:
        assert not is_perturbable(ev, c.tolerances), \
            f"{cid} declares unperturbable ({c.unperturbable}) but has a paper value to move"
        return
    assert is_perturbable(ev, c.tolerances), \
        f"{cid}: nothing to perturb; declare unperturbable='why' in its registration"
    moved = judge(perturb(ev, c.tolerances, "beyond"), c.tolerances)
    assert moved.status != v.status, f"{cid}: verdict {v.label} does not depend on the paper"


def test_unperturbable_claims_are_few_and_say_why():
    mine = [c for c in REGISTRY.values() if c.check.__module__ not in NOT_YET_CONVERTED]
    declared = [c for c in mine if c.unperturbable]
    assert all(len(c.unperturbable) > 20 for c in declared)
    assert len(declared) <= max(2, len(mine) // 8), [c.id for c in declared]
