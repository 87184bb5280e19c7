"""The scale-ladder figure: its data is the scale report, one entry per contrast and per
rung, with the theory computed when the figure is made; without the ci bundle nothing is
drawn and the command says why."""

import csv
import json

import pytest

from figures.scale_ladder import NAME, make_scale_ladder, scale_ladder
from theory.core.cli import json_safe

RUNGS = (("ci", 32.0), ("bytes128", 128.0), ("kjv192", 601.5))


def synthetic_report() -> dict:
    """A scale report (the ``--scales --json`` layout) with a different number for every
    contrast, rung and candidate: one plain contrast and one whose theory error is a ratio
    to a null model's."""
    rungs = [{"name": n, "span_chars": s, "seq_len": 32, "tokenizer": "bytes",
              "corpus": "stdlib", "n_layer": 2, "d_model": 64, "steps": 800}
             for n, s in RUNGS]  # fmt: skip
    contrasts = []
    for k, (key, alts, relative) in enumerate(
        (("plain", ("null", "halved"), False), ("ratio", ("tau = 1", "log rule"), True))
    ):
        by_rung = {}
        for r, (name, _) in enumerate(RUNGS):
            t = 0.1 * (k + 1) + 0.01 * r
            by_rung[name] = {
                "theory": [t - 0.005, t, t + 0.005],
                "alternatives": {
                    a: [t + j + 0.5, t + j + 0.6, t + j + 0.7] for j, a in enumerate(alts)
                },
                "gaps": {},
                "agrees": r != 1,
                "beats": {},
            }
        contrasts.append(
            {
                "key": key,
                "title": f"{key} contrast",
                "place": "somewhere",
                "paper_check": "check",
                "tolerance": 0.2,
                "margin": 0.0,
                "theory_error_is": "error / error(tau = 1)" if relative else "error",
                "rungs": by_rung,
                "trend": "rises",
                "top_rung": RUNGS[-1][0],
                "top_gap_sign": {a: "theory better" for a in alts},
            }
        )
    return {"rungs": rungs, "trend_rule": "a rule", "contrasts": contrasts}


def assert_data_is_report(outdir, report: dict) -> None:
    """The JSON and CSV beside the PNG hold every contrast on every rung, with the
    report's numbers (theory and each alternative, its rung's span of text)."""
    data = json.loads((outdir / f"{NAME}.json").read_text())
    report = json_safe(report)  # a theory error of infinity is written as "inf" (strict JSON)
    span = {r["name"]: r["span_chars"] for r in report["rungs"]}
    assert [c["key"] for c in data["contrasts"]] == [c["key"] for c in report["contrasts"]]
    rows = list(csv.DictReader(open(outdir / f"{NAME}.csv")))
    n_rows = 0
    for drawn, c in zip(data["contrasts"], report["contrasts"]):
        assert drawn["tolerance"] == c["tolerance"] and drawn["trend"] == c["trend"]
        assert [p["rung"] for p in drawn["points"]] == list(span)
        for p in drawn["points"]:
            want = c["rungs"][p["rung"]]
            assert p["span_chars"] == span[p["rung"]]
            assert p["theory"] == list(want["theory"]) and p["agrees"] == want["agrees"]
            assert p["alternatives"] == {a: list(t) for a, t in want["alternatives"].items()}
            for cand, triple in [("theory", want["theory"]), *want["alternatives"].items()]:
                (row,) = [
                    x for x in rows
                    if (x["contrast"], x["rung"], x["candidate"]) == (c["key"], p["rung"], cand)
                ]  # fmt: skip
                assert [float(row[k]) for k in ("lo", "mean", "hi")] == [float(t) for t in triple]
                assert float(row["span_chars"]) == span[p["rung"]]
                n_rows += 1
    assert len(rows) == n_rows


def test_data_is_the_report(tmp_path):
    report = synthetic_report()
    res = scale_ladder(tmp_path, report)
    assert (tmp_path / f"{NAME}.png").stat().st_size > 10_000
    assert res["data"] == str(tmp_path / f"{NAME}.csv")
    assert_data_is_report(tmp_path, report)
    assert res["comparison"]["agrees"]["plain"] == {"ci": True, "bytes128": False, "kjv192": True}
    assert res["comparison"]["trend"] == {"plain": "rises", "ratio": "rises"}


def test_no_ci_bundle_draws_nothing_and_says_so(tmp_path, monkeypatch, capsys):
    from figures.cli import main

    monkeypatch.setenv("LENGTHX_AGREEMENT", str(tmp_path / "none"))
    res = make_scale_ladder(tmp_path / "out")
    assert res["png"] is None and "no seeded bundle" in res["skipped"]
    assert main(["scale-ladder", "--out", str(tmp_path / "cli")]) == 0
    err = capsys.readouterr().err
    assert "scale-ladder: not drawn, no seeded bundle (python -m empirical.bundle" in err
    assert not (tmp_path / "cli" / f"{NAME}.png").exists()


#: contrasts cheap to compute (the whole catalogue takes about a minute per rung)
CHEAP = ("align-alg1-4m", "align-prop2-2m", "infoscale-eta-init")


@pytest.mark.agreement
@pytest.mark.empirical
def test_figure_computes_the_theory_on_every_rung(agreement_bundle, tmp_path, monkeypatch):
    """On ci and every stored rung, for a few contrasts of the catalogue: the figure's
    numbers are each contrast computed afresh on each rung's measurements."""
    from empirical.agreement import bundle_io, scales
    from empirical.agreement.catalogue import entry
    from empirical.agreement.contrast import Interval

    monkeypatch.setenv("LENGTHX_AGREEMENT", agreement_bundle["folder"])
    monkeypatch.setattr(scales, "CATALOGUE", tuple(entry(k) for k in CHEAP))
    res = make_scale_ladder(tmp_path)
    assert res["png"] == str(tmp_path / f"{NAME}.png")
    names = bundle_io.rung_names()

    def triple(iv: Interval) -> list:
        return [iv.lo, iv.mean, iv.hi]

    report = {
        "rungs": [{"name": n, "span_chars": round(bundle_io.text_span(bundle_io.load_rung(n)), 1)}
                  for n in names],
        "contrasts": [],
    }  # fmt: skip
    for key in CHEAP:
        e = entry(key)
        computed = {n: e.contrast(bundle_io.load_rung(n)) for n in names}
        by_rung = {
            n: {
                "theory": triple(c.theory_error()),
                "alternatives": {a: triple(c.errors[a]) for a in c.alternatives},
                "agrees": c.agrees(),
            }
            for n, c in computed.items()
        }
        trend = scales.trend([c.theory_error() for c in computed.values()])
        report["contrasts"].append(
            {"key": key, "tolerance": e.tolerance.value, "trend": trend, "rungs": by_rung}
        )
    assert_data_is_report(tmp_path, report)
