"""RPE paper Figs. 3, 4 and 6 re-made with tiny models trained here (empirical.bundle).

Uses the cached bundle under ``$LENGTHX_BUNDLE`` / ``runs/bundle`` when present, else
trains the quick bundle (60 steps per RPE).  Every figure says on it that the models are
tiny byte-level models trained on this machine, not the paper's.
"""
from __future__ import annotations

import csv
import json
from pathlib import Path

from figures.registry import figure

CONVERGENT = ("Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")


def _note(res):
    s = res["summary"]["settings"]
    return (f"tiny byte-level LMs trained here ({s['budget_steps']} steps, m={s['seq_len']}, "
            f"{s['corpus']}); not the paper's models ({res['folder']})")


def _delta(g):
    return (g["ppl_max_len"] - g["ppl_train_len"]) / g["ppl_train_len"]


def _ppl_figure(outdir, quick, labels, name, title):
    from empirical.extrapolate import plot_ppl, write_csv
    from empirical.results import bundle_results
    res = bundle_results(quick=quick, workdir=outdir)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    rows = [r for r in res["rows"] if r["label"] in labels]
    png, data = outdir / f"{name}.png", outdir / f"{name}.csv"
    plot_ppl(rows, png, title=title, note=_note(res))
    write_csv(rows, data)
    deltas = {k: round(_delta(v), 4) for k, v in res["summary"]["growth"].items() if k in labels}
    return {"png": str(png), "data": str(data), "deltas": deltas,
            "comparison": {"predicted": "convergent series: delta ~ 0; divergent / sinusoidal: grows",
                           "measured_delta_at_max_len": deltas, "bundle": res["folder"]}}


@figure("rpe-fig3", paper="rpe", empirical=True,
        description="PPL vs inference length for convergent RPEs and sinusoidal (cf. Fig. 3)")
def make_fig3(outdir: Path, quick: bool = False) -> dict:
    return _ppl_figure(outdir, quick, ("Sinusoidal",) + CONVERGENT, "rpe-fig3",
                       "Convergent RPEs vs sinusoidal (cf. RPE paper Fig. 3)")


@figure("rpe-fig4", paper="rpe", empirical=True,
        description="PPL vs inference length for divergent 1/n, 1/(n ln n) and Type1 (cf. Fig. 4)")
def make_fig4(outdir: Path, quick: bool = False) -> dict:
    return _ppl_figure(outdir, quick, ("1/n", "1/(n ln n)", "Type1"), "rpe-fig4",
                       "Divergent 1/n, 1/(n ln n) vs Type1 (cf. RPE paper Fig. 4)")


@figure("rpe-fig6", paper="rpe", empirical=True,
        description="ERF of trained models beside the TRF of their RPE (cf. Figs. 5-6)")
def make_fig6(outdir: Path, quick: bool = False) -> dict:
    from empirical.erf import plot_erf
    from empirical.results import bundle_results
    res = bundle_results(quick=quick, workdir=outdir)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    erf = [e for e in res["erf"] if e["label"] in CONVERGENT]
    png, data = outdir / "rpe-fig6.png", outdir / "rpe-fig6.csv"
    plot_erf(erf, png, note=_note(res))
    with open(data, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["label", "eps", "n_emp", "n_the_window"])
        for e in erf:
            for eps, a, b in zip(e["eps"], e["n_emp"], e["n_the_window"]):
                w.writerow([e["label"], eps, a, b])
    (outdir / "rpe-fig6.json").write_text(json.dumps(res["summary"]["spearman"], indent=1))
    return {"png": str(png), "data": str(data),
            "comparison": {"predicted": "ERF and TRF rank the RPEs alike (Spearman ~ 1)",
                           "spearman": res["summary"]["spearman"]["convergent"],
                           "bundle": res["folder"]}}
