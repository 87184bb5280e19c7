from theory.core.registry import Registry
import pytest

from paper_checks import registry
from paper_checks.registry import HOLDS, Context, Verdict, claim, run_claim


def test_duplicate_id_is_an_error(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", Registry("claim id"))
    claim("x-1", "rpe", "Eq. 1", "s")(lambda ctx: Verdict(HOLDS, "ok"))
    with pytest.raises(ValueError, match="duplicate"):
        claim("x-1", "rpe", "Eq. 2", "t")(lambda ctx: Verdict(HOLDS, "ok"))


def test_unknown_paper_and_verdict_rejected():
    with pytest.raises(ValueError):
        claim("y", "nature", "Eq. 1", "s")
    with pytest.raises(ValueError):
        Verdict("sort of", "hm")


def test_crash_is_recorded_not_raised(tmp_path):
    c = registry.Claim("z", "rpe", "Eq. 1", "s", "numeric", lambda ctx: 1 / 0)
    row = run_claim(c, Context(tmp_path))
    assert row["crashed"] and row["verdict"] == "crashed" and "ZeroDivision" in row["summary"]


def test_all_registered_claims_are_well_formed():
    reg = registry.load_all()
    for c in reg.values():
        assert c.statement and c.location and c.paper in registry.PAPERS
