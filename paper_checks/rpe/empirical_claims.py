"""Empirical claims of the RPE paper (Sec. 4, Figs. 3-6, Tables 4-6, App. B) checked with
tiny byte-level models trained here (``python -m empirical.bundle``).

Numbers at the paper's scale (Wikitext-103, Books, Github, WikiBook; 6-12 layers, 50k
updates, m = 512, lengths to 9216) cannot be reproduced on this machine; those claims are
"cannot be checked here" with (a) what the paper's own tables say under its Definition
2.1 and (b) the small-scale finding.  Qualitative claims (stable vs growing PPL, ERF vs
TRF order) are judged on the small models, and every summary says so.
"""
from __future__ import annotations

import math

from paper_checks.registry import APPROX, CANNOT, FAILS, HOLDS, Verdict, claim

# Tables 4-5 of the RPE paper (App. F): PPL at m = 512 and at 9216, per dataset and method
METHODS = ("Sinusoidal", "Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")
PAPER_T45 = {  # dataset: (row at 512, row at 9216)
    "Wikitext-103": ((24.73, 24.22, 24.12, 24.18, 24.76, 24.25, 24.29),
                     (423.92, 22.12, 21.80, 21.90, 23.26, 21.90, 22.06)),
    "Books": ((7.49, 7.28, 7.34, 7.31, 7.64, 7.30, 7.35),
              (34.70, 6.98, 7.01, 6.98, 7.35, 6.99, 7.02)),
    "Github": ((2.29, 2.25, 2.24, 2.25, 2.29, 2.25, 2.25),
               (143.17, 2.05, 2.01, 2.03, 2.05, 2.02, 2.03)),
    "Wikibook": ((17.98, 17.64, 17.65, 17.62, 18.21, 17.68, 17.70),
                 (412.06, 16.33, 16.23, 16.24, 16.70, 16.28, 16.33)),
}
# Table 6: (1/n, 1/(n ln n)) at 512 and at 9216
PAPER_T6 = {"Wikitext-103": ((24.67, 24.64), (58.46, 27.63)), "Books": ((7.40, 7.35), (26.34, 10.65)),
            "Github": ((2.28, 2.27), (76.78, 16.35)), "Wikibook": ((17.91, 17.90), (204.10, 133.36))}
STABLE = 0.10      # |ppl_n - ppl_m| / ppl_m below this: "stable" (Def. 2.1 with delta = 0.1)
GROWS = 1.0        # above this: "grows rapidly" (Def. 2.1: >> 1)
CONVERGENT = ("Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")


def _results(ctx):
    from empirical.results import bundle_results
    return bundle_results(quick=ctx.quick, workdir=ctx.outdir)


def _delta(g):
    return round((g["ppl_max_len"] - g["ppl_train_len"]) / g["ppl_train_len"], 4)


def _scale(res):
    s = res["summary"]["settings"]
    return (f"tiny byte-level LMs trained here: {s['budget_steps']} steps, m={s['seq_len']}, "
            f"{s['corpus']} corpus, lengths {min(s['lengths'])}-{max(s['lengths'])}")


def _paper_deltas_t45():
    return {ds: {m: round((b - a) / a, 4) for m, a, b in zip(METHODS, r0, r1)}
            for ds, (r0, r1) in PAPER_T45.items()}


@claim(id="rpe-fig3", paper="rpe", location="Fig. 3, Sec. 4 'Validating the sufficiency'",
       statement="RPEs with a convergent exp(RPE) series (Alibi, Kerple, Sandwich, Type1, Type2) "
                 "keep perplexity stable as the inference length grows far beyond training; "
                 "sinusoidal positions grow rapidly.", kind="empirical")
def check_fig3(ctx):
    res = _results(ctx)
    g = res["summary"]["growth"]
    deltas = {k: _delta(v) for k, v in g.items()}
    bad = [k for k in CONVERGENT if k in deltas and deltas[k] > STABLE]
    sin = deltas.get("Sinusoidal")
    ok_sin = sin is not None and sin > GROWS
    status = HOLDS if not bad and ok_sin else FAILS
    summary = (f"small scale ({_scale(res)}): delta = (ppl_16m - ppl_m)/ppl_m: "
               + ", ".join(f"{k} {v:+.3f}" for k, v in deltas.items())
               + f"; convergent stable (delta <= {STABLE}): {'all' if not bad else 'not ' + ', '.join(bad)}; "
               f"sinusoidal grows (delta > {GROWS}): {ok_sin}")
    return Verdict(status, summary, evidence={"delta": deltas, "growth": g, "bundle": res["folder"]},
                   measured_range=_scale(res))


@claim(id="rpe-fig4", paper="rpe", location="Fig. 4, Sec. 4 'Validating the necessity'",
       statement="RPEs with a divergent series, b_n = 1/n and 1/(n ln n), cannot extrapolate: their "
                 "perplexity increases rapidly with the inference length while Type1 stays stable.",
       kind="empirical")
def check_fig4(ctx):
    res = _results(ctx)
    d = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    div = {k: d[k] for k in ("1/n", "1/(n ln n)") if k in d}
    t1 = d.get("Type1")
    grows = {k: v > STABLE and (t1 is None or v > t1 + 0.05) for k, v in div.items()}
    rapid = {k: v > GROWS for k, v in div.items()}
    if all(rapid.values()):
        status = HOLDS
    elif all(grows.values()):
        status = APPROX
    else:
        status = FAILS
    rise = _rise_from_minimum(res["rows"])
    summary = (f"small scale ({_scale(res)}): delta 1/n {div.get('1/n')}, 1/(n ln n) "
               f"{div.get('1/(n ln n)')}, Type1 {t1}; grows (delta > {STABLE} and > Type1's + 0.05): {grows}; "
               f"grows rapidly (delta > {GROWS}): {rapid}; rise from the minimum PPL over "
               f"lengths to the longest: {rise} (the paper's curves also dip first)")
    longer = _longer_training_rows()
    if longer:
        summary += (f"; 3x longer training (runs/long_train, 1200 steps): delta "
                    f"{ {k: v for k, v in longer.items()} } -- the growth increases with training")
    return Verdict(status, summary, evidence={"delta": d, "rise_from_min": rise, "bundle": res["folder"],
                                              "longer_training_delta": longer},
                   error=max(div.values()) if div else None, measured_range=_scale(res))


def _longer_training_rows(path="runs/long_train/ppl_rows.csv") -> dict:
    """{label: {length: delta vs the shortest length}} from the optional longer-training
    evaluation (README 'training'); {} when absent."""
    import csv
    from pathlib import Path
    if not Path(path).exists():
        return {}
    with open(path) as fh:
        rows = list(csv.DictReader(fh))
    out = {}
    for lab in dict.fromkeys(r["label"] for r in rows):
        rr = sorted((r for r in rows if r["label"] == lab), key=lambda r: int(r["length"]))
        base = float(rr[0]["ppl"])
        out[lab] = {int(r["length"]): round(float(r["ppl"]) / base - 1, 4) for r in rr[1:]}
    return out


def _rise_from_minimum(rows) -> dict:
    """ppl at the longest length / minimum ppl over lengths - 1, per label."""
    out = {}
    for lab in dict.fromkeys(r["label"] for r in rows):
        rr = sorted((r for r in rows if r["label"] == lab), key=lambda r: r["length"])
        out[lab] = round(rr[-1]["ppl"] / min(r["ppl"] for r in rr) - 1, 4)
    return out


def _spearman_verdict(ranks, what):
    rhos = [r["rho"] for r in ranks if not math.isnan(r["rho"])]
    if not rhos:
        return CANNOT, f"{what}: no rank correlation (ties)"
    lo = min(rhos)
    status = HOLDS if lo >= 0.8 else APPROX if lo >= 0.5 else FAILS
    return status, f"{what}: Spearman rho " + ", ".join(f"eps={r['eps']}: {r['rho']:.3f}" for r in ranks)


@claim(id="rpe-fig6", paper="rpe", location="Figs. 5-6, Sec. 4 'Validating TRF'",
       statement="The empirical receptive field of trained models follows the trend of the "
                 "theoretical receptive field: ERF and TRF order Alibi, Kerple, Sandwich, Type1, "
                 "Type2 alike.", kind="empirical")
def check_fig6(ctx):
    res = _results(ctx)
    status, text = _spearman_verdict(res["summary"]["spearman"]["convergent"],
                                     "ERF (trained) vs windowed TRF (RPE alone), convergent set")
    return Verdict(status, f"small scale ({_scale(res)}): {text}",
                   evidence={"spearman": res["summary"]["spearman"], "bundle": res["folder"]},
                   measured_range=_scale(res))


def _table_check(res, datasets, table_name):
    paper = {ds: v for ds, v in _paper_deltas_t45().items() if ds in datasets}
    unstable = {ds: [m for m in CONVERGENT if d[m] > STABLE] for ds, d in paper.items()}
    sin = {ds: d["Sinusoidal"] for ds, d in paper.items()}
    ours = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    summary = (f"{table_name} numbers need the paper's datasets and 50k-update models: not "
               f"reproducible here. Paper's own numbers under Def. 2.1 (delta at 9216 vs 512): "
               f"sinusoidal {sin}; convergent RPEs all within +-{STABLE}: "
               f"{all(not v for v in unstable.values())} (largest {max(max(d[m] for m in CONVERGENT) for d in paper.values()):+.3f}). "
               f"Small scale ({_scale(res)}): delta {ours}")
    return Verdict(CANNOT, summary, evidence={"paper_delta": paper, "ours_delta": ours,
                                              "ours_table": res["summary"]["table"]},
                   measured_range=_scale(res))


@claim(id="rpe-table4", paper="rpe", location="Table 4 (App. F)",
       statement="On Wikitext-103 and Books, Alibi, Kerple-Log/Power, Sandwich, Type1 and Type2 "
                 "keep PPL stable from 512 to 9216 tokens; sinusoidal grows (24.7 -> 423.9, 7.5 -> 34.7).",
       kind="empirical")
def check_table4(ctx):
    return _table_check(_results(ctx), ("Wikitext-103", "Books"), "Table 4")


@claim(id="rpe-table5", paper="rpe", location="Table 5 (App. F)",
       statement="On Github and WikiBook the same RPEs keep PPL stable to 9216; sinusoidal grows.",
       kind="empirical")
def check_table5(ctx):
    return _table_check(_results(ctx), ("Github", "Wikibook"), "Table 5")


@claim(id="rpe-table6", paper="rpe", location="Table 6 (App. F), Sec. 4",
       statement="With b_n = 1/n and 1/(n ln n) the PPL increases rapidly as the inference "
                 "sequence lengthens, on all four datasets.", kind="empirical")
def check_table6(ctx):
    res = _results(ctx)
    paper = {ds: {"1/n": round((b[0] - a[0]) / a[0], 3), "1/(n ln n)": round((b[1] - a[1]) / a[1], 3)}
             for ds, (a, b) in PAPER_T6.items()}
    weak = [f"{ds} {k} (delta {v})" for ds, d in paper.items() for k, v in d.items() if v <= GROWS]
    ours = {k: _delta(v) for k, v in res["summary"]["growth"].items() if k in ("1/n", "1/(n ln n)", "Type1")}
    summary = ("Table 6 numbers need the paper's datasets and models: not reproducible here. "
               f"The paper's own numbers under its Def. 2.1 (non-extrapolation means delta >> 1): "
               f"{paper}; NOT >> 1 for {'; '.join(weak) or 'none'}, so 'increase rapidly' is "
               f"overstated there. Small scale ({_scale(res)}): delta {ours}")
    return Verdict(CANNOT, summary, evidence={"paper_delta": paper, "weak_cases": weak,
                                              "ours_delta": ours}, measured_range=_scale(res))


def _erf_by_label(res):
    return {e["label"]: e for e in res["erf"]}


def _at(e, key, eps):
    i = min(range(len(e["eps"])), key=lambda k: abs(e["eps"][k] - eps))
    return e[key][i]


@claim(id="rpe-erf-type2-smaller", paper="rpe", location="Sec. 4 'Visualizing RPE', Figs. 6-7",
       statement="Type2 concentrates attention on closer tokens than Type1: smaller TRF and ERF.",
       kind="empirical")
def check_erf_type2(ctx):
    res = _results(ctx)
    e = _erf_by_label(res)
    if "Type1" not in e or "Type2" not in e:
        return Verdict(CANNOT, "bundle lacks Type1 or Type2")
    rows = {eps: {"type1_emp": _at(e["Type1"], "n_emp", eps), "type2_emp": _at(e["Type2"], "n_emp", eps),
                  "type1_the": _at(e["Type1"], "n_the_window", eps),
                  "type2_the": _at(e["Type2"], "n_the_window", eps)} for eps in (0.5, 0.2, 0.1, 0.05)}
    emp_ok = all(r["type2_emp"] <= r["type1_emp"] for r in rows.values())
    the_ok = {eps: r["type2_the"] <= r["type1_the"] for eps, r in rows.items()}
    series = {e: (_erf_by_label(res)[e].get("series_trf") or {}).get("per_head", [None])[0]
              for e in ("Type1", "Type2")}
    if emp_ok and all(the_ok.values()):
        status = HOLDS
    elif emp_ok and the_ok[min(the_ok)]:
        status = APPROX       # Thm 3.5 orders the TRFs only as eps -> 0
    else:
        status = FAILS
    return Verdict(status, f"small scale ({_scale(res)}): n(eps) Type1 vs Type2: {rows}; "
                   f"ERF order (Type2 <= Type1) at every eps: {emp_ok}; windowed TRF order per eps: "
                   f"{the_ok}; theory's series TRF at eps 0.5, 0.2, 0.1: Type1 {series['Type1']}, "
                   f"Type2 {series['Type2']} -- at large eps Type2's TRF is the larger one (b_1 "
                   f"holds 61% of Type1's mass, 45% of Type2's), as Thm 3.5 only orders them for "
                   f"eps -> 0; the caption of Fig. 5 states the order without that proviso",
                   evidence={"n": rows, "series_trf": series}, measured_range=_scale(res))


@claim(id="rpe-erf-trf-all", paper="rpe", location="Sec. 3.3, Sec. 4 'Validating TRF'",
       statement="TRF, computed from the RPE alone, estimates the trend of the ERF of trained "
                 "models (checked here across all eight bias RPEs, divergent ones included).",
       kind="empirical")
def check_erf_all(ctx):
    res = _results(ctx)
    status, text = _spearman_verdict(res["summary"]["spearman"]["all_bias_rpes"],
                                     "ERF vs windowed TRF, all bias RPEs")
    series = {e["label"]: (e.get("series_trf") or {}).get("status") for e in res["erf"]}
    return Verdict(status, f"small scale ({_scale(res)}): {text}; infinite-series TRF status per "
                   f"head: {series}", evidence={"spearman": res["summary"]["spearman"]["all_bias_rpes"],
                                                "series_trf": {e["label"]: e.get("series_trf") for e in res["erf"]}},
                   measured_range=_scale(res))


@claim(id="rpe-emp-kerple-r", paper="rpe", location="App. B (Kerple log, after Eq. 33)",
       statement="A trained Kerple-log model has r > 1 in every head (the convergence condition), "
                 "and with r = 1 the model cannot extrapolate (announced 'in empirical analysis').",
       kind="empirical")
def check_kerple_r(ctx):
    res = _results(ctx)
    learned = res["summary"].get("learned", {}).get("kerple_log") or {}
    r = learned.get("r")
    if not r:
        return Verdict(CANNOT, "bundle lacks a trained Kerple-log run")
    d = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    above = [x > 1 for x in r]
    status = HOLDS if all(above) else FAILS
    return Verdict(status, f"the paper's checked Kerple model is not available; small scale "
                   f"({_scale(res)}): learned r per head {[round(x, 3) for x in r]}, k "
                   f"{[round(x, 3) for x in learned.get('k', [])]}; heads with r > 1: "
                   f"{sum(above)}/{len(r)}; Kerple-Log delta {d.get('Kerple-Log')}. The paper never "
                   f"shows the promised r = 1 experiment; its nearest control is 1/n (delta "
                   f"{d.get('1/n')} here).", evidence={"learned": learned, "delta": d},
                   measured_range=_scale(res))


@claim(id="rpe-emp-necessity", paper="rpe", location="Sec. 4 'Validating the necessity', Sec. 5",
       statement="The convergence condition is also necessary in practice: RPEs whose exp(RPE) "
                 "series diverges do not extrapolate.", kind="empirical")
def check_necessity(ctx):
    import numpy as np
    import torch
    from empirical.rpe import build_rpe
    res = _results(ctx)
    sw = build_rpe("sandwich", 4)
    t = torch.arange(0, 100_000)
    lb = sw.log_b(t).double().numpy()
    floor = [float(np.exp(x)) for x in lb.min(axis=1)]
    bound = [float(np.exp(-k * sw.dim)) for k in sw.k.tolist()]
    paper_sand = {ds: v["Sandwich"] for ds, v in _paper_deltas_t45().items()}
    ours = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    counter = all(v <= STABLE for v in paper_sand.values())
    summary = (f"counterexample in the paper's own Tables 4-5: Sandwich with finite d has "
               f"b_t >= exp(-k d) > 0 (sum of d/2 cosines >= -d/2), so its series diverges, yet "
               f"its delta at 9216 is {paper_sand}; min over t < 1e5 of our Sandwich b_t per head "
               f"{[f'{x:.3g}' for x in floor]} (bound exp(-kd) {[f'{x:.3g}' for x in bound]}). "
               f"Small scale ({_scale(res)}): Sandwich delta {ours.get('Sandwich')}, 1/n "
               f"{ours.get('1/n')}, 1/(n ln n) {ours.get('1/(n ln n)')}")
    return Verdict(FAILS if counter else CANNOT, summary,
                   evidence={"sandwich_min_b": floor, "exp_minus_kd": bound,
                             "paper_sandwich_delta": paper_sand, "ours_delta": ours})


@claim(id="rpe-emp-fig1-sliding", paper="rpe", location="Fig. 1 and Table 1 (Sec. 2.4)",
       statement="Sliding-window inference gives much lower PPL than non-overlapping inference at "
                 "the same window size, but is far slower (44x over windows 16-512).",
       kind="empirical")
def check_fig1_sliding(ctx):
    import time
    from pathlib import Path
    import torch
    from empirical.data import run_test_tokens
    from empirical.extrapolate import perplexity
    from empirical.train import load_model
    res = _results(ctx)
    run = Path(res["folder"]) / "sinusoidal"
    if not (run / "ckpt.pt").exists():
        return Verdict(CANNOT, f"small scale: bundle {res['folder']} has no trained sinusoidal run")
    torch.set_num_threads(1)
    model, cfg = load_model(run)
    test = run_test_tokens(cfg)
    n_tok = 512 if ctx.quick else 1024
    out = {}
    for w in (16, 32, 64, 128):
        t0 = time.perf_counter()
        non = perplexity(model, test[:(n_tok // w) * w], w)["ppl"]
        t1 = time.perf_counter()
        sl = perplexity(model, test[:n_tok + 1], w, sliding=1)["ppl"]
        t2 = time.perf_counter()
        out[w] = {"nonoverlapping": round(non, 4), "sliding": round(sl, 4),
                  "time_ratio": round((t2 - t1) / max(t1 - t0, 1e-9), 1)}
    lower = all(v["sliding"] < v["nonoverlapping"] for v in out.values())
    slower = all(v["time_ratio"] > 5 for v in out.values())
    status = HOLDS if lower and slower else FAILS
    return Verdict(status, f"small scale ({_scale(res)}), sinusoidal model, {n_tok} test tokens, "
                   f"stride 1: {out}; sliding lower at every window: {lower}; slower (>5x): {slower}",
                   evidence={"windows": out}, measured_range=_scale(res))
