"""The pieces of docs/_ext/generate.py that put generated numbers on the pages: claim
tables from the report, settings read from the code, and the command runner behind the
``command-output`` directive (exit status and excerpts)."""

from __future__ import annotations

import sys
from pathlib import Path

import pytest

pytest.importorskip("sphinx")  # the docs extra
sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "docs" / "_ext"))
import generate  # noqa: E402

REPORT = {
    "claims": [
        {"id": "a-1", "paper": "align", "kind": "numeric", "label": "holds", "summary": "x | y"},
        {"id": "a-2", "paper": "align", "kind": "empirical", "label": "skipped", "summary": "z"},
        {"id": "r-1", "paper": "rpe", "kind": "numeric", "label": "holds", "summary": "w"},
    ]
}


def test_claims_table_selects_paper_and_kind():
    text = generate.claims_table(REPORT, "align", ("numeric", "symbolic"))
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert rows == ["| `a-1` | holds | x \\| y |"]
    assert "python -m paper_checks --paper align`" in text
    assert "--empirical" in generate.claims_table(REPORT, "align", ("empirical",))


def test_registered_claims_table_lists_every_claim_by_paper():
    from paper_checks.registry import load_all

    claims = list(load_all().values())
    text = generate.registered_claims_table(claims)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert len(rows) == len(claims)
    assert rows[0].startswith(f"| `{claims[0].id}` |")
    c = next(c for c in claims if c.id == "rpe-appB-sandwich")
    assert f"`{c.check.__module__}.sandwich_series_diverges`" in text


def test_settings_are_read_from_the_code():
    from theory.trf.analysis import DECISION_SHARE, DEFAULT_TIME_LIMIT

    assert generate.constant("theory/trf/analysis.py", "DEFAULT_TIME_LIMIT") == DEFAULT_TIME_LIMIT
    assert generate.constant("theory/trf/analysis.py", "DECISION_SHARE") == DECISION_SHARE
    with pytest.raises(KeyError):
        generate.constant("theory/trf/analysis.py", "NO_SUCH_NAME")
    # needs torch and transformers
    sweep = pytest.importorskip("empirical.capture.sweep.architectures")
    budget = generate.constant("empirical/capture/sweep/architectures.py", "CPU_BUDGET")
    assert budget == sweep.CPU_BUDGET


def test_lines_option():
    out = list("abcdef")
    assert out[generate._lines("2-3")] == ["b", "c"]
    assert out[generate._lines("-2")] == ["a", "b"]
    assert out[generate._lines("5-")] == ["e", "f"]


def test_command_runner_checks_the_exit_status():
    bad = 'python -m theory.trf --rpe "(1+k*n)**(-r)"'
    assert generate.run_command_line(bad, 2).startswith("error: unknown name 'k'")
    with pytest.raises(RuntimeError, match="exit 2"):
        generate.run_command_line(bad)  # a page expecting success fails the build
    with pytest.raises(RuntimeError, match="exit 0"):
        generate.run_command_line("python -m theory.trf --version", 2)


def _rows(text: str) -> list[str]:
    return [line for line in text.splitlines() if line.startswith("| `")]


def test_rpe_table_lists_every_named_rpe():
    from theory.series.rpe_library import LIBRARY

    rows = _rows(generate.rpe_table())
    assert [r.split("`")[1] for r in rows] == list(LIBRARY)
    kerple = next(r for r in rows if r.startswith("| `kerple-log` |"))
    assert "| 0 |" in kerple and "`r` = 2: power" in kerple  # start and default from LIBRARY
    assert "| 2 |" in next(r for r in rows if r.startswith("| `inv-nlogn` |"))


def test_contrasts_table_lists_every_catalogue_entry_with_its_thresholds():
    from empirical.agreement.catalogue import CATALOGUE

    rows = _rows(generate.contrasts_table())
    assert [r.split("`")[1] for r in rows] == [e.key for e in CATALOGUE]
    for row, e in zip(rows, CATALOGUE, strict=True):
        assert f"| {e.tolerance.value:g}: " in row and f"| {e.margin.value:g}: " in row
        assert row.endswith(f"| `{e.check}` |")


def test_profiles_table_lists_every_profile_and_model():
    bundle = pytest.importorskip("empirical.training.profile_bundle")  # needs torch
    text = generate.profiles_table()
    header = text.splitlines()[0]
    assert all(f"`--profile {name}`" in header for name in bundle.PROFILES)
    steps = next(r for r in _rows(text) if r.startswith("| `steps` |"))
    assert (
        steps
        == "| `steps` | " + " | ".join(str(p["steps"]) for p in bundle.PROFILES.values()) + " |"
    )
    models = [r.split("`")[1] for r in _rows(text.split("| model |")[1])]
    assert models == list(bundle.MODELS)


def test_absolute_values_are_escaped_outside_literals():
    lines = ["the tests apply to |b_n| and |R_k| < eps |B|", "``|a|`` and :math:`|x|`", "a || b"]
    generate.absolute_values(None, "function", "f", None, {}, lines)
    assert lines == [
        "the tests apply to \\|b_n\\| and \\|R_k\\| < eps \\|B\\|",
        "``|a|`` and :math:`|x|`",
        "a || b",
    ]


def test_members_of_other_packages_are_skipped():
    torch = pytest.importorskip("torch")

    assert generate.not_ours(None, "class", "softmax", torch.softmax, False, {})
    from theory.series.rpe_library import resolve_rpe

    assert not generate.not_ours(None, "module", "resolve_rpe", resolve_rpe, False, {})


def test_scales_markdown_has_every_contrast_on_every_rung():
    iv = {"ci": [0.1, 0.2, 0.3], "big": [0.01, 0.02, 0.03]}
    rung = {"seq_len": 32, "tokenizer": "bytes", "corpus": "stdlib", "chars_per_token": 1.0,
            "n_layer": 2, "d_model": 64, "steps": 800, "train_tokens": 819200,
            "max_extrapolation": 64, "seeds": [0, 1, 2]}  # fmt: skip
    rep = {
        "rungs": [dict(rung, name="ci", span_chars=32.0), dict(rung, name="big", span_chars=600.0)],
        "contrasts": [
            {"key": k, "theory_error_is": "error", "tolerance": 0.1, "trend": "falls",
             "rungs": {n: {"theory": t, "agrees": n == "big"} for n, t in iv.items()},
             "top_gap_sign": {"null": "theory better", "halved": "tied"}}
            for k in ("one", "two")
        ],
    }  # fmt: skip
    text = generate.scales_markdown(rep, ci_found=True)
    rows = [line for line in text.splitlines() if line.startswith("| `")]
    assert [r.split(" | ")[0] for r in rows] == ["| `ci`", "| `big`", "| `one`", "| `two`"]
    assert rows[2].endswith(
        "| 0.2 [0.1, 0.3] misses | 0.02 [0.01, 0.03] agrees | falls | halved (tied) |"
    )
    assert "rung ci is left out" in generate.scales_markdown(rep, ci_found=False)
    # a contrast that cannot be formed on a rung (scale_report's "formed": false cell)
    rep["contrasts"][1]["rungs"]["big"] = {
        "formed": False, "reason": "no T5 runs", "theory": None, "agrees": None
    }  # fmt: skip
    rows = [r for r in generate.scales_markdown(rep).splitlines() if r.startswith("| `two`")]
    assert "| 0.2 [0.1, 0.3] misses | not formed: no T5 runs |" in rows[0]


def test_scales_page_without_any_rung_says_so(tmp_path, monkeypatch):
    from empirical.agreement import bundle_io

    monkeypatch.setattr(bundle_io, "find_profile_bundle", lambda: None)
    monkeypatch.setattr(bundle_io, "stored_rungs", lambda: [])
    monkeypatch.setattr(generate, "DOCS", tmp_path)
    generate.scales_table()
    assert "No rung was found" in (tmp_path / "_generated" / "scales.md").read_text()
