"""Claims rpe-* (empirical) and figures rpe-fig3/4/6: logic on a synthetic bundle (fast),
and the observed agreement/disagreement on the cached real bundle when one exists."""

import csv
import json
import math
from pathlib import Path

import pytest

pytest.importorskip("torch")
pytestmark = pytest.mark.empirical

LABELS = {
    "sinusoidal": "Sinusoidal",
    "alibi": "Alibi",
    "kerple_log": "Kerple-Log",
    "kerple_power": "Kerple-Power",
    "sandwich": "Sandwich",
    "type1": "Type1",
    "type2": "Type2",
    "inv_n": "1/n",
    "inv_nlogn": "1/(n ln n)",
}
# synthetic ppl at 128 and 2048: convergent flat, sinusoidal x5, 1/n x1.3, 1/(n ln n) x1.15
FINAL = {"Sinusoidal": 25.0, "1/n": 6.5, "1/(n ln n)": 5.75}


def write_bundle(folder: Path, n_emp_scale=None):
    folder.mkdir(parents=True)
    rows, growth, erf = [], {}, []
    for k, (rpe, lab) in enumerate(LABELS.items()):
        for L in (128, 2048):
            ppl = FINAL.get(lab, 4.9) if L == 2048 else 5.0
            rows.append(
                {
                    "run": rpe,
                    "rpe": rpe,
                    "label": lab,
                    "train_len": 128,
                    "length": L,
                    "nll": math.log(ppl),
                    "ppl": ppl,
                    "predictions": 100,
                }
            )
        growth[lab] = {"ppl_train_len": 5.0, "ppl_max_len": FINAL.get(lab, 4.9), "max_len": 2048}
        if rpe != "sinusoidal":
            base = {"type2": 2, "type1": 4, "alibi": 8}.get(rpe, 16 + k)
            erf.append(
                {
                    "label": lab,
                    "rpe": rpe,
                    "eps": [0.5, 0.2, 0.1, 0.05],
                    "n_emp": [base, 2 * base, 3 * base, 4 * base],
                    "n_the_window": [base, 2 * base, 4 * base, 5 * base],
                }
            )
    sp = {
        "convergent": [{"eps": e, "rho": 1.0} for e in (0.5, 0.2, 0.1)],
        "all_bias_rpes": [{"eps": e, "rho": 0.9} for e in (0.5, 0.2, 0.1)],
    }
    summary = {
        "settings": {"budget_steps": 7, "seq_len": 128, "corpus": "stdlib", "lengths": [128, 2048]},
        "growth": growth,
        "spearman": sp,
        "table": {},
        "learned": {"kerple_log": {"r": [1.5, 0.8], "k": [0.1, 0.2]}},
    }
    (folder / "summary.json").write_text(json.dumps(summary))
    (folder / "erf.json").write_text(json.dumps(erf))
    with open(folder / "ppl_rows.csv", "w", newline="") as fh:
        w = csv.DictWriter(fh, fieldnames=list(rows[0]))
        w.writeheader()
        w.writerows(rows)


@pytest.fixture(scope="module")
def synthetic(tmp_path_factory):
    """(registry, ``evidence(claim_id)``) with the synthetic bundle as LENGTHX_BUNDLE; each
    claim's check runs once on it, and the tests share its evidence."""
    from paper_checks.registry import Context, load_all

    folder = tmp_path_factory.mktemp("synthetic")
    write_bundle(folder / "b")
    reg, cache = load_all(), {}
    ctx = Context(outdir=folder / "out", empirical=True, quick=True)

    def evidence(cid: str):
        if cid not in cache:
            cache[cid] = reg[cid].check(ctx)
        return cache[cid]

    with pytest.MonkeyPatch.context() as mp:
        mp.setenv("LENGTHX_BUNDLE", str(folder / "b"))
        yield reg, evidence


# (claim id, verdict label on the synthetic bundle)
CASES = [
    ("rpe-fig4", "holds approximately"),  # +0.3 and +0.15 grow, not >> 1
    ("rpe-table4", "cannot be checked here"),
    ("rpe-table5", "cannot be checked here"),
    ("rpe-table6", "depends on the reading"),  # '>> 1' fails, '> 0' needs the data sets
    ("rpe-erf-type2-smaller", "holds"),
    ("rpe-erf-trf-all", "holds"),
    ("rpe-emp-kerple-r", "does not hold (severity not assessed)"),  # a head has r = 0.8
    ("rpe-emp-necessity", "does not hold (severity not assessed)"),  # Sandwich, Tables 4-5
    ("rpe-emp-fig1-sliding", "cannot be checked here"),
]  # synthetic bundle: no model


@pytest.mark.parametrize("cid,label", CASES)
def test_claim_logic_on_synthetic_bundle(synthetic, cid, label):
    from evidence_perturbation import perturb

    from paper_checks.evidence import judge

    reg, evidence = synthetic
    c = reg[cid]
    ev = evidence(cid)
    v = judge(ev, c.tolerances)
    assert v.label == label, v.summary
    assert any("small scale" in note.lower() for note in v.notes)
    # the verdict follows the evidence: within the tolerances it stays, beyond it changes
    assert judge(perturb(ev, c.tolerances, "within"), c.tolerances).label == v.label
    assert judge(perturb(ev, c.tolerances, "beyond"), c.tolerances).status != v.status


def test_table6_flags_weak_growth_in_paper(synthetic):
    from paper_checks.evidence import judge

    _, evidence = synthetic
    ev = evidence("rpe-table6")
    # Table 6: Wikitext-103 1/(n ln n) 24.64 -> 27.63, delta 0.121, not >> 1 (Def. 2.1)
    assert any(c.startswith("Wikitext-103 1/(n ln n) (delta 0.121") for c in ev.data["weak_cases"])
    readings = {r["reading"]: r["verdict"] for r in judge(ev).readings}
    assert (
        readings["rapidly: Def. 2.1's non-extrapolation, delta >> 1 (here > 1)"]
        == "does not hold (severity not assessed)"
    )


def test_figures_on_synthetic_bundle(synthetic, tmp_path):
    from figures.registry import load_all

    figs = load_all()
    outs = {
        name: figs[name].make(tmp_path / "figs", quick=True)
        for name in ("rpe-fig3", "rpe-fig4", "rpe-fig6")
    }
    for out in outs.values():
        assert Path(out["png"]).stat().st_size > 1000 and Path(out["data"]).exists()
    f3 = outs["rpe-fig3"]
    assert (
        f3["deltas"]["Sinusoidal"]
        > 1
        > max(v for k, v in f3["deltas"].items() if k != "Sinusoidal")
    )


REAL = Path("runs/bundle")


@pytest.mark.skipif(not (REAL / "summary.json").exists(), reason="no cached bundle in runs/bundle")
def test_real_bundle_observations():
    """What the 400-step bundle measured (docs/guide/training.md): sinusoidal grows (+159%),
    every convergent RPE stays within 10%, 1/n grows only a little (+4%, the paper's
    Wikitext model +114% at 16x), and ERF ranks the convergent RPEs like the TRF."""
    s = json.loads((REAL / "summary.json").read_text())
    if (s["settings"]["budget_steps"], s["settings"]["seed"], s["settings"]["seq_len"]) != (
        400,
        0,
        128,
    ):
        pytest.skip("runs/bundle is not the documented 400-step, seed-0, m=128 bundle")
    d = {
        k: (g["ppl_max_len"] - g["ppl_train_len"]) / g["ppl_train_len"]
        for k, g in s["growth"].items()
    }
    conv = [d[k] for k in ("Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")]
    assert d["Sinusoidal"] > 1 and max(conv) < 0.1
    assert 0 < d["1/n"] < 0.1 and d["1/n"] > d["Type1"]  # disagreement in magnitude
    assert min(r["rho"] for r in s["spearman"]["convergent"]) > 0.8


@pytest.mark.slow
def test_bundle_end_to_end(tmp_path, monkeypatch):
    """A 3-RPE bundle at a 5-step budget writes every file the claims and figures read."""
    from empirical.training.bundle import main
    from empirical.training.results import bundle_results

    out = tmp_path / "b"
    assert (
        main(
            [
                "--rpes",
                "sinusoidal",
                "type2",
                "inv_n",
                "--budget-steps",
                "5",
                "--seq-len",
                "32",
                "--lengths",
                "32",
                "128",
                "--eval-tokens",
                "256",
                "--erf-length",
                "64",
                "--max-chars",
                "300000",
                "--out",
                str(out),
                "--quiet",
            ]
        )
        == 0
    )
    monkeypatch.setenv("LENGTHX_BUNDLE", str(out))
    res = bundle_results()
    assert {r["label"] for r in res["rows"]} == {"Sinusoidal", "Type2", "1/n"}
    assert [e["label"] for e in res["erf"]] == ["Type2", "1/n"]
    for f in ("table.md", "table.csv", "fig3.png", "fig4.png", "fig6.png"):
        assert (out / f).exists(), f
