"""Every registered claim's verdict follows from its evidence: moving the paper's
reference values within the declared tolerances keeps the verdict; moving them beyond
(on the items that decide it) changes it.  Evidence is computed once per claim (the
session fixture ``evidence_of`` in conftest.py, quick sizes); the full sizes that
``python -m paper_checks`` uses give the same verdicts (slow).

A claim whose evidence has nothing to move (a missing input) says why in its
registration (``unperturbable=``); those are few, and the declaration is checked.
"""

import pytest
from evidence_perturbation import is_perturbable, perturb

from paper_checks.evidence import Evidence, judge
from paper_checks.registry import Context, load_all

REGISTRY = load_all()
CLAIMS = [c for c in REGISTRY.values() if not c.empirical]


@pytest.mark.parametrize("cid", [c.id for c in CLAIMS])
def test_verdict_follows_the_evidence(cid, evidence_of):
    c = REGISTRY[cid]
    ev = evidence_of(cid)
    assert isinstance(ev, Evidence), f"{cid} returns {type(ev).__name__}, not Evidence"
    v = judge(ev, c.tolerances)
    assert judge(perturb(ev, c.tolerances, "within"), c.tolerances).label == v.label
    if c.unperturbable:
        assert not is_perturbable(ev, c.tolerances), (
            f"{cid} declares unperturbable ({c.unperturbable}) but has a paper value to move"
        )
        return
    assert is_perturbable(ev, c.tolerances), (
        f"{cid}: nothing to perturb; declare unperturbable='why' in its registration"
    )
    moved = judge(perturb(ev, c.tolerances, "beyond"), c.tolerances)
    assert moved.status != v.status, f"{cid}: verdict {v.label} does not depend on the paper"


def test_unperturbable_claims_are_few_and_say_why():
    declared = [c for c in REGISTRY.values() if c.unperturbable]
    assert all(len(c.unperturbable) > 20 for c in declared)
    assert len(declared) <= max(2, len(REGISTRY) // 8), [c.id for c in declared]


@pytest.mark.slow
@pytest.mark.parametrize("cid", [c.id for c in CLAIMS])
def test_full_size_evidence_gives_the_quick_verdict(cid, evidence_of, tmp_path):
    c = REGISTRY[cid]
    full = c.check(Context(tmp_path, quick=False, seed=0))
    v = judge(full, c.tolerances)
    assert v.label == judge(evidence_of(cid), c.tolerances).label, v.summary
    assert judge(perturb(full, c.tolerances, "within"), c.tolerances).label == v.label
