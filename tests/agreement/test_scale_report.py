"""The scale report (``python -m empirical.results --scales``) on the rungs of this run:
its layout is the documented one and its numbers are the contrasts' own, rung by rung."""

import copy
import json

import pytest

pytest.importorskip("torch")

from empirical.agreement import bundle_io, scales  # noqa: E402
from empirical.agreement.catalogue import entry  # noqa: E402
from empirical.results import cli as results_cli  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]


def test_scale_report_layout_and_numbers(request, agreement_bundle):
    names = request.config.getoption("--rung") or bundle_io.rung_names()
    bundles = {n: agreement_bundle if n == "ci" else bundle_io.load_rung(n) for n in names}
    e = entry("align-dispersion-2m")
    per = scales.contrast_by_rung(e, bundles)
    rec = scales.contrast_scales(e, per)
    assert set(rec["rungs"]) == set(names) and rec["paper_check"] == e.check
    assert rec["trend"] in scales.TRENDS and rec["top_rung"] == names[-1]
    for n, c in per.items():
        r = rec["rungs"][n]
        assert r["theory"] == [c.theory_error().lo, c.theory_error().mean, c.theory_error().hi]
        assert r["agrees"] == c.agrees() and set(r["alternatives"]) == set(c.alternatives)
    rungs = [scales.rung_record(n, bundles[n]) for n in names]
    keys = {"name", "seq_len", "chars_per_token", "tokenizer", "corpus", "n_layer", "d_model"}
    assert all(keys <= set(r) for r in rungs)
    assert [r["span_chars"] for r in rungs] == sorted(r["span_chars"] for r in rungs)
    for n in names:
        exp = scales.rpe_experiments(bundles[n])
        assert exp["sinusoidal"]["converges"] is None and "16m" in exp["alibi"]["ppl_ratio"]
        if n != "ci":  # every rung above ci stores the RPE paper's 18x
            assert "18m" in exp["alibi"]["ppl_ratio"]


def _without(b: dict, model: str) -> dict:
    """A copy of bundle ``b`` whose measurements lack ``model``'s runs."""
    out = copy.deepcopy(b)
    del out["results"][model]
    return out


def test_a_rung_missing_a_measurement_reports_not_formed(monkeypatch, capsys):
    # kjv192 without its T5 runs: the dispersion contrast cannot be formed there; the
    # report says so with the reason, the trend rests on bytes128 alone, and the
    # command still prints one strict JSON object
    stored = {n: bundle_io.load_rung(n) for n in ("bytes128", "kjv192")}
    stored["kjv192"] = _without(stored["kjv192"], "t5")
    monkeypatch.setattr(scales.bundle_io, "load_rung", lambda n: stored[n])
    monkeypatch.setattr(results_cli, "rung_names", lambda: list(stored))
    keys = ("align-dispersion-2m", "infoscale-eta-init")
    monkeypatch.setattr(scales, "CATALOGUE", tuple(entry(k) for k in keys))

    assert results_cli.main(["--scales", "--json"]) == 0
    report = json.loads(capsys.readouterr().out, parse_constant=_refuse)
    disp, eta = report["contrasts"]
    cell = disp["rungs"]["kjv192"]
    assert cell["formed"] is False and cell["theory"] is None and cell["agrees"] is None
    assert "'t5'" in cell["reason"] and disp["not_formed"] == {"kjv192": cell["reason"]}
    assert disp["rungs"]["bytes128"]["formed"] is True
    assert disp["trend_rests_on"] == ["bytes128"] and disp["top_rung"] == "bytes128"
    assert disp["trend"] == "no trend" and "not formed at kjv192" in disp["trend_basis"]
    # a contrast that does not need the T5 runs is formed on both rungs
    assert eta["trend_rests_on"] == ["bytes128", "kjv192"] and eta["not_formed"] == {}

    assert results_cli.main(["--scales"]) == 0
    text = capsys.readouterr().out
    assert "not formed at kjv192: the rung has no measurement 't5'" in text
    assert "(on 1 rung: bytes128; not formed at kjv192)" in text


def _refuse(name):
    raise ValueError(f"not strict JSON: {name}")
