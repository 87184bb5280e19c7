"""Empirical claims of the RPE paper (Sec. 4, Figs. 3-6, Tables 4-6, App. B) checked with
tiny models trained here: the RPE set of every rung of the ladder (ci, ``python -m
empirical.bundle --profile ci``, and the rungs stored in ``empirical/agreement/rungs``),
each number the mean over its seeds.  A claim judged on our models is judged on every
rung and decided by the top one (:func:`paper_checks.scale.on_rungs`); one decided by
the paper's own tables says so (:func:`paper_checks.scale.rests_on`), our numbers beside
it from the top rung.

Numbers at the paper's scale (Wikitext-103, Books, Github, WikiBook; 6-12 layers, 50k
updates, m = 512, lengths to 9216) cannot be reproduced on this machine; those claims
name the missing data and compare what the paper's own tables say under its Definition
2.1; the small-scale numbers are reported beside them.  Qualitative claims (stable vs
growing PPL, ERF vs TRF order) are judged on the small models, and every note says so.
The thresholds (Def. 2.1's band, "rapidly") are the paper values the evidence is
compared with.
"""

from __future__ import annotations

import math

from paper_checks.evidence import (
    Counterexample,
    Evidence,
    Inequality,
    MissingInput,
    Reading,
    Reported,
    Tol,
)
from paper_checks.registry import Context, claim
from paper_checks.scale import fixed, on_rungs, rests_on, rung_setting
from theory.papers.rpe import METHODS, PAPER_T6, PAPER_T45

STABLE = 0.10  # |ppl_n - ppl_m| / ppl_m below this: "stable" (Def. 2.1 with delta = 0.1)
GROWS = 1.0  # above this: "grows rapidly" (Def. 2.1: >> 1)
CONVERGENT = ("Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")


#: eps at which the ERF and the windowed TRF (the RPE-only attention) are read
ERF_EPS = (0.5, 0.2, 0.1, 0.05)
NEEDS = "the seeded bundle: python -m empirical.bundle --profile ci --out runs/ci"


#: the paper's tables as the scale a claim rests on
TABLES_45 = {
    "paper: Tables 4-5": "the paper's own Tables 4-5 (Wikitext-103, Books, Github, WikiBook; "
    "512 -> 9216 tokens)"
}
TABLE_6 = {"paper: Table 6": "the paper's own Table 6 (four data sets; 512 -> 9216 tokens)"}
TABLE_1 = {"paper: Table 1": "the paper's own Table 1 timings (Sec. 2.4)"}


def _results(ctx, rung: str | None = None):
    """A rung's RPE set (the top rung's unless ``rung`` is named) as :func:`_rpe_view`
    gives it; None without the ci bundle."""
    from empirical.agreement.bundle_io import find_profile_bundle, load_rung, rung_names

    if find_profile_bundle() is None:
        return None
    return _rpe_view(load_rung(rung or rung_names()[-1]))


_VIEWS: dict = {}


def _rpe_view(b: dict) -> dict:
    """A bundle's RPE set, per model the mean over seeds: perplexity per length, its
    growth to the longest length, ERF and windowed TRF at :data:`ERF_EPS` with their
    Spearman rho across models, the learned Kerple-log parameters (computed once per
    bundle file)."""
    key = (b["folder"], b.get("rung", "ci"))
    if key not in _VIEWS:
        _VIEWS[key] = _compute_view(b)
    return _VIEWS[key]


def _compute_view(b: dict) -> dict:
    from pathlib import Path

    import numpy as np

    from empirical.agreement.bundle_io import seeds, train_len
    from empirical.agreement.rpe import erf_values, rpe_only_values
    from empirical.training.erf import spearman
    from empirical.training.rpe import LABELS, PAPER_SET

    m, res = train_len(b), b["results"]
    models = [r for r in PAPER_SET if r in res]

    def mean_ppl(r: str, L: str) -> float:
        return float(np.mean([res[r][s]["ppl"][L] for s in seeds(b, r)]))

    lengths = sorted({int(L) for r in models for L in res[r][seeds(b, r)[0]]["ppl"]})
    rows = [
        {"rpe": r, "label": LABELS[r], "length": L, "ppl": mean_ppl(r, str(L))}
        for r in models
        for L in lengths
        if str(L) in res[r][seeds(b, r)[0]]["ppl"]
    ]
    growth = {}
    for r in models:
        rr = [x for x in rows if x["rpe"] == r]
        base = next(x["ppl"] for x in rr if x["length"] == m)
        growth[LABELS[r]] = {
            "ppl_train_len": base,
            "ppl_max_len": rr[-1]["ppl"],
            "max_len": rr[-1]["length"],
        }
    erf = [
        {
            "label": LABELS[r],
            "rpe": r,
            "eps": list(ERF_EPS),
            "n_emp": np.mean([erf_values(b, r, s, ERF_EPS) for s in seeds(b, r)], 0).tolist(),
            "n_the_window": np.mean(
                [rpe_only_values(b, r, s, ERF_EPS) for s in seeds(b, r)], 0
            ).tolist(),
        }
        for r in models
        if "erf" in res[r][seeds(b, r)[0]]
    ]
    conv = [e for e in erf if e["label"] in CONVERGENT]
    kerple = (
        [res["kerple_log"][s]["metrics"].get("rpe_params") or {} for s in seeds(b, "kerple_log")]
        if "kerple_log" in res
        else []
    )
    learned = {k: [x for p in kerple for x in p.get(k, [])] for k in ("r", "k")} if kerple else {}
    s = b["settings"]
    first = seeds(b, "sinusoidal")[0] if "sinusoidal" in res else "0"
    return {
        "folder": b["folder"],
        "rung": b.get("rung", "ci"),
        "setting": rung_setting(b),
        "sinusoidal_run": str(Path(b["folder"]) / "sinusoidal" / f"seed{first}"),
        "rows": rows,
        "erf": erf,
        "summary": {
            "settings": {
                "budget_steps": s["steps"],
                "seq_len": m,
                "corpus": s.get("corpus", "stdlib"),
                "lengths": lengths,
                "seeds": list(s["seeds"]),
            },
            "growth": growth,
            "table": {
                str(L): {x["label"]: x["ppl"] for x in rows if x["length"] == L} for L in lengths
            },
            "spearman": {
                "convergent": [spearman(conv, e) for e in ERF_EPS[:3]] if len(conv) > 2 else [],
                "all_bias_rpes": [spearman(erf, e) for e in ERF_EPS[:3]] if len(erf) > 2 else [],
            },
            "learned": {"kerple_log": learned},
        },
    }


def _delta(g):
    return round((g["ppl_max_len"] - g["ppl_train_len"]) / g["ppl_train_len"], 4)


def _scale(res):
    s = res["summary"]["settings"]
    return (
        f"tiny LMs trained here, rung {res['rung']}: {s['budget_steps']} steps, "
        f"m={s['seq_len']}, {s['corpus']} corpus, lengths {min(s['lengths'])}-"
        f"{max(s['lengths'])}, mean over seeds {s['seeds']}"
    )


def _paper_deltas_t45():
    return {
        ds: {m: round((b - a) / a, 4) for m, a, b in zip(METHODS, r0, r1)}
        for ds, (r0, r1) in PAPER_T45.items()
    }


def _small(res) -> str:
    return f"small scale: {_scale(res)}" if res else f"small scale: none measured ({NEEDS})"


def _ours_delta(res, labels=None) -> dict:
    """Our models' delta per label (all, or ``labels``); {} without a bundle."""
    growth = res["summary"]["growth"] if res else {}
    return {k: _delta(v) for k, v in growth.items() if labels is None or k in labels}


@claim(
    id="rpe-fig4",
    paper="rpe",
    location="Fig. 4, Sec. 4 'Validating the necessity'",
    statement="RPEs with a divergent series, b_n = 1/n and 1/(n ln n), cannot extrapolate: their "
    "perplexity increases rapidly with the inference length while Type1 stays stable.",
    kind="empirical",
    tolerances={
        "rapid": Tol(
            approx_atol=GROWS - STABLE,
            reason="'rapidly' read as growing by more than the gap between the growth the paper calls stable and the growth it calls rapid in its Figure 3",
        )
    },
)
@on_rungs("rpe", "delta of 1/n, 1/(n ln n) and Type1")
def divergent_rpes_fail_to_extrapolate(ctx: Context, b: dict) -> Evidence:
    res = _rpe_view(b)
    d = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    div = [d[k] for k in ("1/n", "1/(n ln n)") if k in d]
    if not div or "Type1" not in d:
        return Evidence(
            [
                MissingInput(
                    "delta of 1/n, 1/(n ln n) and Type1",
                    missing="trained 1/n, 1/(n ln n) and Type1 runs in the bundle",
                )
            ],
            notes=[_small(res)],
        )
    return Evidence(
        [
            Inequality(
                "smallest delta of 1/n and 1/(n ln n)",
                min(div),
                paper=GROWS,
                relation=">",
                key="rapid",
                where=_scale(res),
                source="Fig. 4 ('increases rapidly'; Def. 2.1: >> 1)",
            ),
            Inequality(
                "smallest delta of 1/n, 1/(n ln n) minus Type1's",
                min(div) - d["Type1"],
                paper=0.05,
                relation=">",
                where=_scale(res),
                source="Fig. 4 ('while Type1 stays stable')",
            ),
        ],
        data={
            "delta": d,
            "rise_from_min": _rise_from_minimum(res["rows"]),
            "bundle": res["folder"],
            "longer_training_delta": _longer_training_rows(),
        },
        notes=[_small(res) + "; the paper's curves also dip before they rise"],
    )


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


#: "follows the trend": Spearman rho >= 0.8 agrees, >= 0.5 agrees approximately
TREND = Tol(
    approx_atol=0.3,
    reason="Spearman rho >= 0.8 is a trend by the usual reading; 0.5 to 0.8 a weak one",
)


def _spearman_items(ranks, what, res) -> list:
    rhos = [r["rho"] for r in ranks if not math.isnan(r["rho"])]
    if not rhos:
        return [
            MissingInput(
                what,
                missing="a bundle whose ERFs are not all tied (no rank correlation is defined)",
            )
        ]
    return [
        Inequality(
            f"smallest Spearman rho over eps, {what}",
            min(rhos),
            paper=0.8,
            relation=">=",
            key="trend",
            where=_scale(res),
            source="Sec. 4 ('follows the trend', read as rho >= 0.8)",
        ),
        Reported("Spearman rho per eps", [r["rho"] for r in ranks]),
    ]


def _table_check(res, datasets, table_name):
    paper = {ds: v for ds, v in _paper_deltas_t45().items() if ds in datasets}
    ours = _ours_delta(res)
    return Evidence(
        [
            MissingInput(
                f"{table_name}: PPL at 512 and 9216 tokens",
                missing=f"the paper's {' and '.join(datasets)} data and its 50k-update models",
            ),
            Inequality(
                f"largest delta of the convergent RPEs in {table_name} (paper's numbers)",
                max(d[m] for d in paper.values() for m in CONVERGENT),
                paper=STABLE,
                relation="<=",
                source=f"{table_name}; Def. 2.1 with delta = 0.1",
            ),
            Inequality(
                f"smallest delta of sinusoidal in {table_name} (paper's numbers)",
                min(d["Sinusoidal"] for d in paper.values()),
                paper=GROWS,
                relation=">",
                source=f"{table_name} ('grows')",
            ),
        ],
        data={
            "paper_delta": paper,
            "ours_delta": ours,
            "ours_table": res["summary"]["table"] if res else {},
        },
        notes=[_small(res)],
    )


@claim(
    id="rpe-table4",
    paper="rpe",
    location="Table 4 (App. F)",
    statement="On Wikitext-103 and Books, Alibi, Kerple-Log/Power, Sandwich, Type1 and Type2 "
    "keep PPL stable from 512 to 9216 tokens; sinusoidal grows (24.7 -> 423.9, 7.5 -> 34.7).",
    kind="empirical",
)
@rests_on("rpe", TABLES_45)
def table4_convergent_rpes_stable(ctx: Context) -> Evidence:
    return _table_check(_results(ctx), ("Wikitext-103", "Books"), "Table 4")


@claim(
    id="rpe-table5",
    paper="rpe",
    location="Table 5 (App. F)",
    statement="On Github and WikiBook the same RPEs keep PPL stable to 9216; sinusoidal grows.",
    kind="empirical",
)
@rests_on("rpe", TABLES_45)
def table5_convergent_rpes_stable(ctx: Context) -> Evidence:
    return _table_check(_results(ctx), ("Github", "Wikibook"), "Table 5")


@claim(
    id="rpe-table6",
    paper="rpe",
    location="Table 6 (App. F), Sec. 4",
    statement="With b_n = 1/n and 1/(n ln n) the PPL increases rapidly as the inference "
    "sequence lengthens, on all four datasets.",
    kind="empirical",
)
@rests_on("rpe", TABLE_6)
def table6_divergent_rpes_grow(ctx: Context) -> Evidence:
    res = _results(ctx)
    paper = {
        ds: {"1/n": round((b[0] - a[0]) / a[0], 3), "1/(n ln n)": round((b[1] - a[1]) / a[1], 3)}
        for ds, (a, b) in PAPER_T6.items()
    }
    smallest = min(v for d in paper.values() for v in d.values())
    missing = MissingInput(
        "Table 6: PPL at 512 and 9216 tokens",
        missing="the paper's four data sets and its 1/n, 1/(n ln n) models",
    )

    def reading(bound, name, reason=""):
        return Reading(
            name,
            (
                missing,
                Inequality(
                    "smallest delta of 1/n and 1/(n ln n) over the four data sets (paper's numbers)",
                    smallest,
                    paper=bound,
                    relation=">",
                    source="Table 6",
                ),
            ),
            reason=reason,
        )

    ours = _ours_delta(res, ("1/n", "1/(n ln n)", "Type1"))
    return Evidence(
        readings=[
            reading(GROWS, "rapidly: Def. 2.1's non-extrapolation, delta >> 1 (here > 1)"),
            reading(
                STABLE,
                "outside Def. 2.1's stable band, delta > 0.1",
                "Sec. 4 uses Table 6 to show that these RPEs do not extrapolate, which Def. "
                "2.1 decides by the band",
            ),
        ],
        data={
            "paper_delta": paper,
            "ours_delta": ours,
            "weak_cases": [
                f"{ds} {k} (delta {v})"
                for ds, d in paper.items()
                for k, v in d.items()
                if v <= GROWS
            ],
        },
        notes=[_small(res)],
    )


def _erf_by_label(res):
    return {e["label"]: e for e in res["erf"]}


def _at(e, key, eps):
    i = min(range(len(e["eps"])), key=lambda k: abs(e["eps"][k] - eps))
    return e[key][i]


@claim(
    id="rpe-erf-type2-smaller",
    paper="rpe",
    location="Sec. 4 'Visualizing RPE', Figs. 6-7",
    statement="Type2 concentrates attention on closer tokens than Type1: smaller TRF and ERF.",
    kind="empirical",
)
@on_rungs("rpe", "ERF of Type1 and Type2")
def type2_erf_smaller_than_type1(ctx: Context, b: dict) -> Evidence:
    res = _rpe_view(b)
    e = _erf_by_label(res)
    if "Type1" not in e or "Type2" not in e:
        return Evidence(
            [
                MissingInput(
                    "ERF of Type1 and Type2", missing="trained Type1 and Type2 runs in the bundle"
                )
            ],
            notes=[_small(res)],
        )
    eps = (0.5, 0.2, 0.1, 0.05)
    diff = lambda key, x: _at(e["Type2"], key, x) - _at(e["Type1"], key, x)
    series = {
        lab: (e[lab].get("series_trf") or {}).get("per_head", [None])[0]
        for lab in ("Type1", "Type2")
    }
    return Evidence(
        [
            Inequality(
                "largest ERF_Type2 - ERF_Type1 over eps in {0.5, 0.2, 0.1, 0.05}",
                max(diff("n_emp", x) for x in eps),
                paper=0,
                relation="<=",
                where=_scale(res),
                source="Sec. 4, Fig. 6",
            ),
            Inequality(
                f"windowed TRF_Type2 - TRF_Type1 at eps = {min(eps)} (Thm 3.5 orders "
                "them only as eps -> 0)",
                diff("n_the_window", min(eps)),
                paper=0,
                relation="<=",
                source="Sec. 4, Fig. 5",
            ),
            Reported(
                "windowed TRF_Type2 - TRF_Type1 at each eps", [diff("n_the_window", x) for x in eps]
            ),
        ],
        data={"series_trf": series},
        notes=[_small(res)],
    )


@claim(
    id="rpe-erf-trf-all",
    paper="rpe",
    location="Sec. 3.3, Sec. 4 'Validating TRF'",
    statement="TRF, computed from the RPE alone, estimates the trend of the ERF of trained "
    "models (checked here across all eight bias RPEs, divergent ones included).",
    kind="empirical",
    tolerances={"trend": TREND},
)
@on_rungs("rpe", "Spearman rho of ERF vs windowed TRF, all bias RPEs")
def erf_follows_trf_order(ctx: Context, b: dict) -> Evidence:
    res = _rpe_view(b)
    return Evidence(
        _spearman_items(
            res["summary"]["spearman"]["all_bias_rpes"], "ERF vs windowed TRF, all bias RPEs", res
        ),
        data={"series_trf": {e["label"]: e.get("series_trf") for e in res["erf"]}},
        notes=[_small(res)],
    )


@claim(
    id="rpe-emp-kerple-r",
    paper="rpe",
    location="App. B (Kerple log, after Eq. 33)",
    statement="A trained Kerple-log model has r > 1 in every head (the convergence condition), "
    "and with r = 1 the model cannot extrapolate (announced 'in empirical analysis').",
    kind="empirical",
)
@on_rungs("rpe", "learned r per head")
def trained_kerple_r_above_one(ctx: Context, b: dict) -> Evidence:
    res = _rpe_view(b)
    learned = res["summary"].get("learned", {}).get("kerple_log") or {}
    if not learned.get("r"):
        return Evidence(
            [MissingInput("learned r per head", missing="a trained Kerple-log run in the bundle")],
            notes=[_small(res)],
        )
    d = {k: _delta(v) for k, v in res["summary"]["growth"].items()}
    return Evidence(
        [
            Inequality(
                "smallest learned r over the heads of our Kerple-log model",
                min(learned["r"]),
                paper=1.0,
                relation=">",
                where=_scale(res),
                source="App. B (r > 1)",
            ),
            Reported("learned r per head", learned["r"]),
        ],
        data={"learned": learned, "delta": d},
        notes=[
            _small(res) + "; the paper's checked Kerple model is not available, and the "
            "promised r = 1 experiment is not shown (nearest control: 1/n)"
        ],
    )


@claim(
    id="rpe-emp-necessity",
    paper="rpe",
    location="Sec. 4 'Validating the necessity', Sec. 5",
    statement="The convergence condition is also necessary in practice: RPEs whose exp(RPE) "
    "series diverges do not extrapolate.",
    kind="empirical",
    tolerances={"floor": Tol(rtol=1e-9, basis="numeric", reason="double precision")},
)
@rests_on("rpe", TABLES_45)
def divergent_series_means_no_extrapolation(ctx: Context) -> Evidence:
    import numpy as np
    import torch

    from empirical.training.rpe import build_rpe

    res = _results(ctx)
    sw = build_rpe("sandwich", 4)
    lb = sw.log_b(torch.arange(0, 100_000)).double().numpy()
    floor = [float(np.exp(x)) for x in lb.min(axis=1)]
    bound = [float(np.exp(-k * sw.dim)) for k in sw.k.tolist()]
    paper_sand = {ds: v["Sandwich"] for ds, v in _paper_deltas_t45().items()}
    return Evidence(
        [
            Counterexample(
                "largest Sandwich delta (9216 vs 512) in the paper's Tables 4-5",
                max(paper_sand.values()),
                paper=STABLE,
                relation=">",
                source="Secs. 4-5 (a divergent series does not extrapolate: delta "
                "outside Def. 2.1's band)",
                searched="Tables 4-5, four data sets",
                witness="Sandwich, whose series diverges (b_t >= exp(-k d))",
            ),
            Inequality(
                "min over t < 1e5 and heads of our Sandwich b_t / exp(-k d)",
                min(f / b for f, b in zip(floor, bound)),
                paper=1.0,
                relation=">=",
                key="floor",
                source="ours (b_t >= exp(-k d): the series diverges)",
            ),
        ],
        data={
            "sandwich_min_b": floor,
            "exp_minus_kd": bound,
            "paper_sandwich_delta": paper_sand,
            "ours_delta": _ours_delta(res),
        },
        notes=[_small(res)],
    )


@claim(
    id="rpe-emp-fig1-sliding",
    paper="rpe",
    location="Fig. 1 and Table 1 (Sec. 2.4)",
    statement="Sliding-window inference gives much lower PPL than non-overlapping inference at "
    "the same window size, but is far slower (more than 44x: 1195.35 vs 26.95 in "
    "Table 1).",
    kind="empirical",
)
@rests_on("rpe", TABLE_1 | {"ci": "ci's sinusoidal model"})
def sliding_window_evaluation(ctx: Context) -> Evidence:
    from pathlib import Path

    res = _results(ctx, "ci")  # the one rung whose checkpoints are here
    table1 = Inequality(
        "Table 1: sliding / non-overlapping inference time, 1195.35 / 26.95",
        1195.35 / 26.95,
        paper=44,
        relation=">",
        source="Sec. 2.4 text vs Table 1",
    )
    run = Path(res["sinusoidal_run"]) if res else None
    if run is None or not (run / "ckpt.pt").exists():
        return Evidence(
            [
                table1,
                MissingInput(
                    "PPL and time of sliding vs non-overlapping inference",
                    missing=f"a trained sinusoidal run (ckpt.pt) in {res['folder'] if res else NEEDS}",
                ),
            ],
            notes=[_small(res)],
        )
    m = res["summary"]["settings"]["seq_len"]
    # up to the training length, as the paper's; a stride-1 sliding pass costs about w
    # non-overlapping ones, so windows below m/4 (8 tokens at the ci profile) say little
    windows = (m // 4, m // 2, m)
    out = _sliding_vs_nonoverlapping(run, 512 if ctx.quick else 1024, windows)
    scale = fixed("rpe", TABLE_1 | {"ci": f"ci's sinusoidal model, {res['setting']}"})
    return Evidence(
        [
            table1,
            Inequality(
                f"largest sliding - non-overlapping PPL over windows {windows[0]}-{m} (stride 1)",
                max(v["sliding"] - v["nonoverlapping"] for v in out.values()),
                paper=0.0,
                relation="<",
                where=_scale(res),
                source="Fig. 1",
            ),
            Inequality(
                f"smallest sliding / non-overlapping time over windows {windows[0]}-{m}",
                min(v["time_ratio"] for v in out.values()),
                paper=5.0,
                relation=">",
                where=_scale(res),
                source="Table 1 ('far slower'; 44x at the paper's scale, 5x taken here)",
            ),
        ],
        data={"windows": out},
        notes=[_small(res) + "; sinusoidal model"],
        scale=scale,
    )


def _sliding_vs_nonoverlapping(run, n_tok: int, windows: tuple) -> dict:
    """PPL and wall-time ratio of sliding (stride 1) vs non-overlapping inference."""
    import time

    import torch

    from empirical.training.data import run_test_tokens
    from empirical.training.extrapolate import perplexity
    from empirical.training.train import load_model

    torch.set_num_threads(1)
    model, cfg = load_model(run)
    test = run_test_tokens(cfg)
    out = {}
    for w in windows:
        t0 = time.perf_counter()
        non = perplexity(model, test[: (n_tok // w) * w], w)["ppl"]
        t1 = time.perf_counter()
        sl = perplexity(model, test[: n_tok + 1], w, sliding=1)["ppl"]
        t2 = time.perf_counter()
        out[w] = {
            "nonoverlapping": round(non, 4),
            "sliding": round(sl, 4),
            "time_ratio": round((t2 - t1) / max(t1 - t0, 1e-9), 1),
        }
    return out
