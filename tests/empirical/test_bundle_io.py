"""Bundles that ``empirical.results`` and ``benchmarks.mutation`` cannot read are refused
before any contrast or mutant runs: one ``error:`` line naming the file and what is wrong
(an empty list once gave a TypeError, a null perplexity a TypeError after 5 s of work, a
format-3 bundle "error: 'init_pmax'" after 18 s, a cut-off one a JSON position without
the file)."""

from __future__ import annotations

import copy
import json
from pathlib import Path

import pytest

from empirical.agreement.bundle_io import FORMAT, BundleError, check_bundle, load_profile_bundle
from empirical.results.cli import main

GOOD = {
    "format": FORMAT,
    "profile": "ci",
    "settings": {"seq_len": 32},
    "results": {"alibi": {"0": {"ppl": {"32": 5.0, "64": 5.2}, "metrics": {}}}},
}


def bad(change) -> dict:
    b = copy.deepcopy(GOOD)
    change(b)
    return b


CASES = {
    "a list": ([], "a JSON array"),
    "format 3": (bad(lambda b: b.update(format=3)), "bundle format 3"),
    "no format": (bad(lambda b: b.pop("format")), "bundle format None"),
    "null ppl": (
        bad(lambda b: b["results"]["alibi"]["0"]["ppl"].update({"64": None})),
        "ppl at length 64 is None",
    ),
    "nan ppl": (
        bad(lambda b: b["results"]["alibi"]["0"]["ppl"].update({"64": float("nan")})),
        "ppl at length 64 is nan",
    ),
    "no ppl": (bad(lambda b: b["results"]["alibi"]["0"].pop("ppl")), "no perplexities"),
    "no seeds": (bad(lambda b: b["results"].update(alibi={})), "holds no seeds"),
    "no results": (bad(lambda b: b.pop("results")), "no results"),
    "no seq_len": (bad(lambda b: b["settings"].pop("seq_len")), "settings.seq_len"),
}


def write(folder: Path, text: str) -> Path:
    folder.mkdir()
    (folder / "bundle.json").write_text(text)
    return folder


@pytest.mark.parametrize("name", sorted(CASES))
def test_bad_bundle_is_one_error_line(tmp_path, capsys, name):
    doc, words = CASES[name]
    folder = write(tmp_path / "b", json.dumps(doc))
    assert main(["--bundle", str(folder), "--contrasts"]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("error: ") and words in err, err
    assert str(folder / "bundle.json") in err


def test_cut_off_bundle_names_the_file(tmp_path, capsys):
    folder = write(tmp_path / "b", json.dumps(GOOD)[:-20])
    assert main(["--bundle", str(folder)]) == 2
    err = capsys.readouterr().err
    assert str(folder / "bundle.json") in err and "not a complete JSON document" in err


def test_empty_bundle_argument_is_not_the_default(tmp_path, capsys, monkeypatch):
    """``--bundle ''`` once read $LENGTHX_AGREEMENT instead and exited 0."""
    monkeypatch.setenv("LENGTHX_AGREEMENT", str(write(tmp_path / "b", json.dumps(GOOD))))
    assert main(["--bundle", ""]) == 2
    assert "--bundle is empty" in capsys.readouterr().err


def test_the_good_bundle_reads():
    check_bundle(copy.deepcopy(GOOD))
    with pytest.raises(BundleError):
        check_bundle({**GOOD, "format": FORMAT + 1})


def test_mutation_benchmark_refuses_a_cut_off_bundle(tmp_path):
    from benchmarks.mutation import _bundle
    from theory.core.cli import UsageError

    folder = write(tmp_path / "b", json.dumps(GOOD)[:-20])
    with pytest.raises((BundleError, UsageError), match="not a complete JSON document"):
        _bundle(folder)
    assert Path(_bundle(write(tmp_path / "g", json.dumps(GOOD)))) == (tmp_path / "g").resolve()


def test_the_real_bundle_passes_the_check():
    from empirical.agreement.bundle_io import find_profile_bundle

    found = find_profile_bundle()
    if found is None:
        pytest.skip("no seeded bundle here")
    assert load_profile_bundle(found)["format"] == FORMAT
