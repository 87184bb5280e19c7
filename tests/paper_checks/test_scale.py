"""Empirical verdicts state their scale (paper_checks.scale): the top rung decides, the
lower rungs are judged apart and said in their own words, with the trend of the
theory's error across rungs; every empirical claim names the rungs it rests on."""

import gzip
import json

import pytest

from paper_checks.evidence import Evidence, Inequality, judge
from paper_checks.registry import FAILS, HOLDS, Context, load_all, verdict_of
from paper_checks.scale import Scale, on_rungs, planned_rungs

pytest.importorskip("numpy")


def _contrast(errors: list, tolerance: float = 0.5):
    from empirical.agreement.contrast import contrast_of_errors

    return contrast_of_errors(
        "toy contrast",
        "|x - x_pred|",
        "theory",
        {"theory": errors, "null": [e + 1.0 for e in errors]},
        tolerance,
        0.1,
    )


def _evidence(errors: list) -> Evidence:
    c = _contrast(errors)
    return Evidence(
        [
            Inequality(
                "upper 95% bound of error(theory)", c.theory_error().hi, paper=0.5, relation="<="
            )
        ],
        contrasts=[c],
    )


def _scale(lower: dict, trends: dict) -> Scale:
    names = ["ci", "bytes128", "kjv192"]
    return Scale(
        names,
        {"ci": "m = 32 bytes", "bytes128": "m = 128 bytes", "kjv192": "m = 192 tokens"},
        "the paper: 512 BPE tokens",
        seq_len={"ci": 32, "bytes128": 128, "kjv192": 192},
        lower=lower,
        trends=trends,
        ladder=True,
    )


def test_top_rung_agrees_lower_loses_is_no_plain_does_not_hold():
    top = _evidence([0.1, 0.12, 0.11])
    top.scale = _scale(
        {"ci": _evidence([0.9, 0.95, 0.92]), "bytes128": _evidence([0.7, 0.72, 0.71])},
        {"toy contrast": "falls"},
    )
    v = judge(top)
    assert v.status == HOLDS
    text = v.scale["text"]
    assert text.startswith("holds at kjv192 (m = 192 tokens; the paper: 512 BPE tokens)")
    assert "does not hold at ci, bytes128 (m <= 128 tokens)" in text
    assert "does not hold at kjv192" not in v.summary
    assert text.endswith("the theory's error falls with scale")
    assert v.summary.startswith(text)
    assert v.scale["rungs"] == ["ci", "bytes128", "kjv192"]
    assert v.scale["per_rung"]["ci"]["verdict"].startswith(FAILS)


def test_top_rung_loses_says_does_not_hold_at_the_top_with_the_trend():
    top = _evidence([0.9, 0.95, 0.92])
    top.scale = _scale(
        {"ci": _evidence([0.1, 0.12, 0.11]), "bytes128": _evidence([0.1, 0.13, 0.11])},
        {"toy contrast": "rises"},
    )
    v = judge(top)
    assert v.status == FAILS
    assert v.summary.startswith(
        "does not hold at kjv192 (m = 192 tokens; the paper: 512 BPE tokens)"
    )
    assert "holds at ci, bytes128" in v.summary
    assert "the theory's error rises with scale" in v.summary


def _bundle(m: int, errors: list) -> dict:
    """A bundle with what the toy check below reads: its training length and the theory's
    per-seed error."""
    return {
        "format": 4,
        "profile": "toy",
        "settings": {"seq_len": m, "seeds": [0, 1, 2]},
        "results": {"toy": {"0": {"ppl": {str(m): 5.0}}}},
        "errors": errors,
    }


@on_rungs("rpe", "toy errors")
def _toy_check(ctx, b):
    return _evidence(b["errors"])


@pytest.fixture
def ladder(tmp_path, monkeypatch):
    """``make(ci_errors, rung_errors)``: ci and two stored rungs (m = 64, 128) holding the
    given per-seed errors of the toy contrast."""
    from empirical.agreement import bundle_io

    def make(tag: str, ci: list, m64: list, m128: list):
        (tmp_path / tag / "ci").mkdir(parents=True)
        (tmp_path / tag / "ci" / "bundle.json").write_text(json.dumps(_bundle(32, ci)))
        rungs = tmp_path / tag / "rungs"
        rungs.mkdir()
        for name, m, e in ((f"{tag}64", 64, m64), (f"{tag}128", 128, m128)):
            (rungs / f"{name}.json.gz").write_bytes(
                gzip.compress(json.dumps(_bundle(m, e)).encode())
            )
        monkeypatch.setenv("LENGTHX_AGREEMENT", str(tmp_path / tag / "ci"))
        monkeypatch.setattr(bundle_io, "RUNGS_DIR", rungs)
        return ["ci", f"{tag}64", f"{tag}128"]

    return make


def test_on_rungs_the_top_rung_decides_and_the_trend_is_stated(ladder, tmp_path):
    names = ladder("fall", [0.9, 0.95, 0.92], [0.6, 0.62, 0.61], [0.1, 0.12, 0.11])
    v = judge(_toy_check(Context(tmp_path)))
    assert v.status == HOLDS, v.summary
    assert v.scale["rungs"] == names and v.scale["top"] == names[-1]
    assert v.scale["trends"] == {"toy contrast": "falls"}
    assert v.summary.startswith(f"holds at {names[-1]} (m = 128 bytes of stdlib;")
    assert f"does not hold at ci, {names[1]} (m <= 64 tokens)" in v.summary
    assert v.summary.split(". ")[0].endswith("the theory's error falls with scale")
    rows = v.scale["per_rung"]
    assert rows[names[-1]]["decides"] and rows[names[-1]]["contrasts"][0]["agrees"]
    assert not rows["ci"]["contrasts"][0]["agrees"]


def test_on_rungs_a_loss_at_the_top_is_does_not_hold_at_the_top(ladder, tmp_path):
    names = ladder("rise", [0.1, 0.12, 0.11], [0.3, 0.32, 0.31], [0.9, 0.95, 0.92])
    v = judge(_toy_check(Context(tmp_path)))
    assert v.status == FAILS
    assert v.summary.startswith(f"does not hold at {names[-1]} (")
    assert "the theory's error rises with scale" in v.summary


def test_without_the_ci_bundle_the_evidence_is_missing(monkeypatch, tmp_path):
    monkeypatch.setenv("LENGTHX_AGREEMENT", str(tmp_path / "none"))
    monkeypatch.chdir(tmp_path)
    v = judge(_toy_check(Context(tmp_path)))
    assert v.status == "cannot be checked here" and v.scale["rungs"] == ["ci"]


def test_an_empirical_claim_without_its_scale_is_refused():
    reg = load_all()
    c = reg["rpe-train-fig3"]
    with pytest.raises(TypeError, match="without the scale"):
        verdict_of(c, Evidence([Inequality("x", 1.0, paper=2.0, relation="<")]))


def test_every_empirical_claim_names_the_rungs_it_rests_on(tmp_path):
    pytest.importorskip("torch")
    ctx = Context(tmp_path, quick=True)
    empirical = [c for c in load_all().values() if c.empirical]
    assert len(empirical) > 20
    for c in empirical:
        rungs = planned_rungs(c.check, ctx)
        assert rungs and all(isinstance(r, str) and r for r in rungs), c.id


def test_json_rows_of_empirical_claims_carry_rungs(tmp_path, capsys):
    from paper_checks import cli

    ids = ["infoscale-train-drift", "rpe-fig4", "rpe-table6", "align-layer0-flatter"]
    args = [a for i in ids for a in ("--id", i)]
    code = cli.main([*args, "--json", "--no-figures", "--out", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    assert code == 0
    rows = [r for r in out["claims"] if r["kind"] == "empirical"]
    assert len(rows) == len(ids) and all(r["rungs"] for r in rows)
