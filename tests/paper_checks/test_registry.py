import pytest

from paper_checks import registry
from paper_checks.evidence import Equal, Evidence, Tol, Verdict
from paper_checks.registry import Context, claim, run_claim, verdict_of
from theory.core.registry import Registry


def test_duplicate_id_is_an_error(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", Registry("claim id"))
    ok = lambda ctx: Evidence([Equal("x", 1, paper=1)])
    claim(id="x-1", paper="rpe", location="Eq. 1", statement="s")(ok)
    with pytest.raises(ValueError, match="duplicate"):
        claim(id="x-1", paper="rpe", location="Eq. 2", statement="t")(ok)


def test_unknown_paper_and_verdict_rejected():
    with pytest.raises(ValueError):
        claim(id="y", paper="nature", location="Eq. 1", statement="s")
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


def test_declared_tolerance_decides(monkeypatch):
    monkeypatch.setattr(registry, "REGISTRY", Registry("claim id"))
    check = lambda ctx: Evidence([Equal("B", 1.0000001, paper=1.0)])
    claim(id="tight", paper="rpe", location="Eq. 1", statement="s")(check)
    claim(
        id="loose",
        paper="rpe",
        location="Eq. 1",
        statement="s",
        tolerances={"B": Tol(rtol=1e-6, reason="r")},
    )(check)
    labels = [verdict_of(registry.REGISTRY[c], check(None)).label for c in ("tight", "loose")]
    assert labels == ["does not hold (severity not assessed)", "holds"]


def test_tolerances_must_be_declared_as_tol_with_a_source():
    with pytest.raises(TypeError):
        claim(id="z-1", paper="rpe", location="Eq. 1", statement="s", tolerances={"B": 1e-6})
    with pytest.raises(ValueError, match="neither source nor reason"):
        claim(
            id="z-2", paper="rpe", location="Eq. 1", statement="s", tolerances={"B": Tol(rtol=1e-6)}
        )


def test_every_declared_tolerance_says_where_it_comes_from():
    for c in registry.load_all().values():
        for key, tol in c.tolerances.items():
            assert tol.is_exact() or tol.reason, (c.id, key)


def test_a_printed_value_the_check_cannot_use_is_cannot_be_checked(tmp_path):
    from paper_checks.inferred import NotComputable

    def check(ctx):
        raise NotComputable("Eq. 2 gives sigma^2 < 0")

    row = run_claim(registry.Claim("n", "rpe", "Eq. 1", "s", "numeric", check), Context(tmp_path))
    assert not row["crashed"] and row["verdict"] == "cannot be checked here"
    assert "sigma^2 < 0" in row["summary"]


@pytest.mark.parametrize(
    "returned", ["holds", Verdict("holds", "typed in")], ids=["text", "verdict"]
)
def test_check_returning_anything_but_evidence_is_a_crash(tmp_path, returned):
    c = registry.Claim("w", "rpe", "Eq. 1", "s", "numeric", lambda ctx: returned)
    row = run_claim(c, Context(tmp_path))
    assert row["crashed"] and "not Evidence" in row["summary"]
