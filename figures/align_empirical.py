"""Figures of the attention-alignment paper on models built here (never Flan-T5: the
figures say so): T5 bucket bias (Fig. 1), QQ plots (Figs. 2/5), Tables 1/7 form, and
temperature against L_ex (Figs. 3-4, 6-9: Props. 1-2, Algorithm 1, log rule)."""

from __future__ import annotations

import csv
from collections.abc import Iterable, Mapping, Sequence
from pathlib import Path

from theory.core.cli import dumps as json_dumps
from theory.papers.align import TABLE1, TABLE7

from .legend import PANEL_LEGEND_FONTSIZE
from .registry import figure

NOT_FLAN = "model built here, not Flan-T5"


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def _write_csv(path: Path, header, rows):
    with open(path, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(header)
        w.writerows(rows)


# ------------------------------------------------------------------------ Fig. 1
def bucket_bias_data(
    m: int = 7500, n_max: int = 15000, heads: Iterable[int] = (0, 1), seed: int = 0
) -> dict:
    """b_{m,n} for n = 0..n_max of a seeded random-init T5-small config's buckets, by the
    paper's formula (Sec. 3.2) and by transformers' bucket function."""
    import numpy as np
    import torch
    import transformers

    from empirical.audit.paper_runs import hf_buckets, paper_bucket

    torch.manual_seed(seed)
    att = transformers.models.t5.modeling_t5.T5Attention(
        transformers.T5Config(d_model=512, num_heads=8, d_kv=64), has_relative_attention_bias=True
    )
    w = att.relative_attention_bias.weight.detach().numpy()  # (32, heads)
    n = np.arange(0, n_max + 1)
    pb = np.array([paper_bucket(int(m - x)) for x in n])
    hb = hf_buckets(m - n).numpy()
    return {
        "m": m,
        "n": n,
        "paper_bucket": pb,
        "hf_bucket": hb,
        "bias": {h: w[hb, h] for h in heads},
        "mismatches": int((pb != hb).sum()),
    }


@figure(
    "align-fig1",
    "align",
    "T5 relative-position bias b_{m,n} against n (m = 7500), "
    "paper formula vs transformers, random-init T5-small buckets",
)
def make_fig1(outdir: Path, quick: bool = False) -> dict:
    plt = _plt()
    d = bucket_bias_data(n_max=3000 if quick else 15000, m=1500 if quick else 7500)
    fig, axes = plt.subplots(1, len(d["bias"]), figsize=(9, 3.4))
    for ax, (h, b) in zip(axes, d["bias"].items()):
        ax.plot(d["n"], b, lw=1)
        ax.axvline(d["m"], color="grey", lw=0.5)
        ax.set_title(f"head {h}", fontsize=9)
        ax.set_xlabel("n (key position)")
        ax.set_ylabel("b_{m,n}")
    fig.suptitle(
        f"Fig. 1 form: b_(m,n), m = {d['m']}; random-init T5-small buckets ({NOT_FLAN});"
        f" paper formula vs transformers: {d['mismatches']} mismatches",
        fontsize=8,
    )
    fig.tight_layout()
    png, data = outdir / "align-fig1.png", outdir / "align-fig1.csv"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    heads = list(d["bias"])
    _write_csv(
        data,
        ["n", "paper_bucket", "hf_bucket"] + [f"bias_head{h}" for h in heads],
        [
            [int(x), int(p), int(q)] + [float(d["bias"][h][i]) for h in heads]
            for i, (x, p, q) in enumerate(zip(d["n"], d["paper_bucket"], d["hf_bucket"]))
        ],
    )
    far = abs(d["m"] - d["n"]) >= 128
    levels = {
        "left": int(len(set(d["hf_bucket"][far & (d["n"] < d["m"])]))),
        "right": int(len(set(d["hf_bucket"][far & (d["n"] > d["m"])]))),
    }
    return {
        "png": str(png),
        "data": str(data),
        "comparison": {
            "paper_formula_vs_transformers_mismatches": d["mismatches"],
            "distinct_buckets_beyond_128": levels,
        },
    }


# ------------------------------------------------------------------- Figs. 2/5 QQ
def qq_result(
    spec: str | None = None,
    corpus: str | None = None,
    quick: bool = False,
    sizes: Mapping[str, int] | None = None,
) -> dict:
    from empirical.audit import paper_runs as pr

    spec, corpus = spec or pr.default_spec(), corpus or pr.default_corpus()
    if sizes is None:
        return pr.assumptions_run(spec, corpus, quick)
    from empirical.audit.assumptions import assumption_table

    return assumption_table(pr.model(spec, corpus), corpus, progress=False, **sizes)


@figure(
    "align-qq",
    "align",
    "QQ plots of the first layer's averaged sorted logit vector "
    "at L_tr and L_ex (Figs. 2/5 form) with Gaussianity numbers",
    empirical=True,
)
def make_qq(outdir: Path, quick: bool = False, res: dict | None = None) -> dict:
    from empirical.audit.assumptions import write_outputs

    res = res or qq_result(quick=quick)
    files = write_outputs(res, outdir / "align-qq", note=f"  [{NOT_FLAN}]")
    name = res["layers"][0]
    comp = {
        f"L={res['lengths'][t]['L']}": {
            k: res["lengths"][t]["per_layer"][name][k]
            for k in ("qq_correlation", "shapiro_w", "sigma", "lmax", "gaussian_implied_lmax")
        }
        for t in ("tr", "ex")
    }
    return {
        "png": files["png"][0],
        "data": files["csv"][0],
        "json": files["json"],
        "comparison": {
            "model": res["model"],
            "layer": name,
            **comp,
            "paper": "Flan-T5-XL QQ plots close to y = x (not runnable here)",
        },
    }


# ---------------------------------------------------------------- Tables 1 and 7
@figure(
    "align-tables",
    "align",
    "Tables 1 and 7 form: Pmax, entropy (all layers) and lmax "
    "(first layer) at short and long length, beside the paper's Flan-T5-XL numbers",
    empirical=True,
)
def make_tables(outdir: Path, quick: bool = False, res: dict | None = None) -> dict:
    return _tables(outdir, res or qq_result(quick=quick))


def _tables(outdir: Path, res: dict) -> dict:
    plt = _plt()
    table1 = {"pmax": TABLE1["topic"]["pmax"], "entropy": TABLE1["topic"]["H"]}
    table7 = TABLE7["topic"]  # Tables 1 and 7, topic retrieval
    name = res["layers"][0]
    tr, ex = res["lengths"]["tr"], res["lengths"]["ex"]
    ours = {
        "pmax": (tr["all_layers"]["pmax"], ex["all_layers"]["pmax"]),
        "entropy": (tr["all_layers"]["entropy"], ex["all_layers"]["entropy"]),
        "lmax": (tr["per_layer"][name]["lmax"], ex["per_layer"][name]["lmax"]),
    }
    paper = {**table1, "lmax": table7}
    fig, axes = plt.subplots(1, 3, figsize=(10, 3.4))
    for ax, key in zip(axes, ("pmax", "entropy", "lmax")):
        x = [0, 1]
        ax.bar([i - 0.2 for i in x], ours[key], 0.4, label=f"this model, L = {tr['L']} / {ex['L']}")
        ax.bar([i + 0.2 for i in x], paper[key], 0.4, label="paper Flan-T5-XL, 512 / 15k")
        ax.set_xticks(x, ["short", "long"])
        ax.set_title(
            {
                "pmax": "Pmax (all layers)",
                "entropy": "entropy H (all layers)",
                "lmax": "lmax (first layer)",
            }[key],
            fontsize=9,
        )
    axes[0].legend(fontsize=PANEL_LEGEND_FONTSIZE)
    fig.suptitle(f"Tables 1 and 7 form; {res['model'][:70]} [{NOT_FLAN}]", fontsize=8)
    fig.tight_layout()
    png, data = outdir / "align-tables.png", outdir / "align-tables.json"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    table = {
        "model": res["model"],
        "corpus": res["corpus"],
        "L_short": tr["L"],
        "L_long": ex["L"],
        "ours": ours,
        "paper_flan_t5_xl_topic": paper,
        "sigma": (tr["per_layer"][name]["sigma"], ex["per_layer"][name]["sigma"]),
    }
    data.write_text(json_dumps(table, indent=1))
    return {
        "png": str(png),
        "data": str(data),
        "comparison": {
            "dispersed_attention": ours["pmax"][1] < ours["pmax"][0]
            and ours["entropy"][1] > ours["entropy"][0],
            "lmax_relative_change": (ours["lmax"][1] - ours["lmax"][0]) / abs(ours["lmax"][0]),
            "paper_lmax_relative_change": (table7[1] - table7[0]) / table7[0],
            **table,
        },
    }


@figure(
    "align-temperature",
    "align",
    "Temperature against L_ex: Props. 1-2 from measured "
    "sigmas, Algorithm 1 (grid and bisection), log_{L_ex} L_tr",
    empirical=True,
)
def make_temperature(
    outdir: Path,
    quick: bool = False,
    spec: str | None = None,
    corpus: str | None = None,
    l_tr: int | None = None,
    l_exs: Sequence[int] | None = None,
    n_tr: int | None = None,
    n_ex: int | None = None,
) -> dict:
    from empirical.audit import paper_runs as pr
    from empirical.audit.align import align

    spec, corpus = spec or pr.default_spec(), corpus or pr.default_corpus()
    s = pr.SIZES[quick]
    l_tr = l_tr or s["l_tr"]
    l_exs = l_exs or ([2 * l_tr, 4 * l_tr] if quick else [2 * l_tr, 3 * l_tr, 4 * l_tr])
    from theory.core.progress import track

    lm = pr.model(spec, corpus)
    rows = []
    runs = [(l_ex, mode) for l_ex in l_exs for mode in ("pmax", "entropy")]
    for l_ex, mode in track(runs, "align-temperature: Algorithm 1 runs"):
        r = align(
            lm,
            corpus,
            l_tr,
            l_ex,
            mode,
            n_tr or s["n_tr"],
            n_ex or s["n_ex"],
            tol=2e-3,
            progress=False,
        )
        rows.append(
            {
                "L_ex": l_ex,
                "mode": mode,
                "target": r["target_S_tr_1"],
                "grid_tau": r["grid"]["tau"],
                "continuous_tau": r["continuous"]["tau"],
                "continuous_gap": r["continuous"]["gap"],
                "bracketed": r["continuous"]["bracketed"],
                "prop1": r["predictions"]["prop1"]["tau"],
                "prop2": r["predictions"]["prop2"]["tau"],
                "log_rule": r["predictions"]["log_rule"]["tau"],
                "sigma_tr": r["first_layer_measured"]["tr"]["sigma"],
                "sigma_ex": r["first_layer_measured"]["ex"]["sigma"],
            }
        )
    return _temperature_plot(outdir, rows, lm.description, l_tr)


def _temperature_plot(outdir: Path, rows: list, model: str, l_tr: int) -> dict:
    import numpy as np

    plt = _plt()
    fig, ax = plt.subplots(figsize=(6.4, 4.2))
    by = {m: [r for r in rows if r["mode"] == m] for m in ("pmax", "entropy")}
    xs = [r["L_ex"] for r in by["pmax"]]
    p1 = [r["prop1"] if r["prop1"] is not None else np.nan for r in by["pmax"]]
    p2 = [r["prop2"] for r in by["entropy"]]
    ax.plot(xs, p1, "b-", label="Prop. 1 (measured sigmas; gaps: no real root)")
    ax.plot(xs, p2, "r-", label="Prop. 2 (measured sigmas)")
    grid_x = np.linspace(min(xs), max(xs), 50)
    ax.plot(grid_x, np.log(l_tr) / np.log(grid_x), "k--", label=f"log_L {l_tr}")
    for m, c in (("pmax", "b"), ("entropy", "r")):
        ax.plot(xs, [r["grid_tau"] for r in by[m]], c + "x", ms=8, label=f"Algorithm 1 grid ({m})")
        ax.plot(
            xs, [r["continuous_tau"] for r in by[m]], c + "o", mfc="none", label=f"bisection ({m})"
        )
    ax.set_xlabel("L_ex")
    ax.set_ylabel("temperature tau")
    ax.set_title(f"L_tr = {l_tr}; {model[:60]}\n[{NOT_FLAN}]", fontsize=8)
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    fig.tight_layout()
    png, data = outdir / "align-temperature.png", outdir / "align-temperature.csv"
    fig.savefig(png, dpi=110)
    plt.close(fig)
    keys = list(rows[0])
    _write_csv(data, keys, [[r[k] for k in keys] for r in rows])
    return {
        "png": str(png),
        "data": str(data),
        "comparison": {
            "rows": rows,
            "max_rel_gap_continuous": max(abs(r["continuous_gap"]) / r["target"] for r in rows),
        },
    }


# ------------------------------------------------- trained T5-bias model (seeded bundle)
def _t5_bundle():
    from empirical.agreement.bundle_io import find_profile_bundle, load_profile_bundle

    return load_profile_bundle() if find_profile_bundle() else None


@figure(
    "align-dispersion",
    "align",
    "Entropy and P_max of a tiny T5-bias LM trained here "
    "against the length (mean, seed interval) with the Gaussian-logit prediction from its "
    "measured sigma",
    empirical=True,
)
def make_dispersion(outdir: Path, quick: bool = False) -> dict:
    from empirical.agreement.align import dispersion, gaussian_prediction, head_mean
    from empirical.agreement.bundle_io import seeds
    from figures.rpe_empirical import band, no_bundle, plt_axes, save, seed_note

    b = _t5_bundle()
    if b is None:
        return no_bundle("align-dispersion")
    m, ss = b["settings"]["seq_len"], seeds(b, "t5")
    Ls = [m * f for f in (1, 2, 4, 8)]
    fig, axes = plt_axes(2)
    rows = []
    for ax, key in zip(axes, ("entropy", "pmax")):
        rows += band(
            ax,
            Ls,
            [[head_mean(b, "t5", s, L, key) for s in ss] for L in Ls],
            f"measured {key}",
            "C0",
        )
        rows += band(
            ax,
            Ls,
            [[gaussian_prediction(b, "t5", s, L, key) for s in ss] for L in Ls],
            f"Gaussian logits, measured sigma ({key})",
            "C1",
            ls="--",
        )
        ax.axvline(m, color="gray", ls=":", lw=1)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("inference length L (window: queries 3L/4..L)")
        ax.set_ylabel(key)
        ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    axes[0].set_title("T5-bias tiny LM: attention disperses beyond L_tr", fontsize=9)
    payload = {
        f"x{f}": {
            k: {kk: vv.as_dict() for kk, vv in dispersion(b, f, k).items()}
            for k in ("entropy", "pmax")
        }
        for f in (4, 8)
    }
    paths = save(
        fig,
        outdir,
        "align-dispersion",
        ["curve", "length", "mean", "lo", "hi", "seed values..."],
        rows,
        {**payload, "bundle": b["folder"]},
        seed_note(b) + "; " + NOT_FLAN,
    )
    return {
        **paths,
        "comparison": {
            "predicted": "entropy up, P_max down beyond L_tr, as "
            "gaussian_softmax predicts from the measured sigma",
            "measured": payload,
        },
    }


@figure(
    "align-temperature-gain",
    "align",
    "Perplexity of a tiny T5-bias LM at 4-8 L_tr against the temperature (stored grid), "
    "with Algorithm 1's tau, the log rule and tau = 1; Props. 1-2 per head against the "
    "head's Algorithm 1 tau (seed intervals)",
    empirical=True,
)
def make_temperature_gain(outdir: Path, quick: bool = False) -> dict:
    from empirical.agreement.align import alg1_tau
    from empirical.agreement.bundle_io import seeds
    from empirical.agreement.catalogue import compute
    from figures.rpe_empirical import band, no_bundle, plt_axes, save, seed_note

    b = _t5_bundle()
    if b is None:
        return no_bundle("align-temperature-gain")
    m, ss, r = b["settings"]["seq_len"], seeds(b, "t5"), b["results"]["t5"]
    fig, (ax, ax2) = plt_axes(2)
    grid = r[ss[0]]["tau_grid"]
    rows, payload = [], {}
    for k, f in enumerate((4, 8)):
        L = f * m
        curve = [[r[s]["grid_ppl"][str(L)][i] for s in ss] for i in range(len(grid))]
        rows += band(ax, grid, curve, f"ppl at {f} L_tr", f"C{k}")
        t1 = sum(alg1_tau(b, s, L, "pmax") for s in ss) / len(ss)
        ax.axvline(t1, color=f"C{k}", ls="--", lw=1)
        c = compute(b, f"align-alg1-{f}m")
        payload[f"x{f}"] = {"algorithm1": c.as_dict()}
    ax.set_xlabel("temperature tau (dashed: Algorithm 1, P_max alignment)")
    ax.set_ylabel("perplexity (bytes)")
    ax.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    for j, f in enumerate((2, 4, 8)):
        for i, p in enumerate(("prop2", "prop1")):
            c = compute(b, f"align-{p}-{f}m")
            payload[f"x{f}"] = {**payload.get(f"x{f}", {}), p: c.as_dict()}
            iv = c.errors[p]
            ax2.errorbar(
                [i + 0.15 * j],
                [iv.mean],
                yerr=[[iv.mean - iv.lo], [iv.hi - iv.mean]],
                fmt="o",
                color=f"C{j}",
                capsize=3,
                label=f"{f} L_tr" if i == 0 else None,
            )
            rows.append([f"{p} error x{f}", f * m, iv.mean, iv.lo, iv.hi, *iv.values])
    ax2.set_xticks(
        range(2), ["Prop. 2 (entropy)", "Prop. 1 (P_max, heads with a root)"], fontsize=7
    )
    ax2.set_ylabel("mean |tau - tau_alg1| over heads")
    ax2.legend(fontsize=PANEL_LEGEND_FONTSIZE)
    ax2.set_title("Props. 1-2 (theory, measured sigmas) vs each head's Algorithm 1", fontsize=9)
    paths = save(
        fig,
        outdir,
        "align-temperature-gain",
        ["curve", "length", "mean", "lo", "hi", "seed values..."],
        rows,
        {**payload, "bundle": b["folder"]},
        seed_note(b) + "; " + NOT_FLAN,
    )
    return {
        **paths,
        "comparison": {
            "predicted": "Algorithm 1's tau lowers ppl beyond L_tr; Props. 1-2 near each "
            "head's Algorithm 1 tau (contrasts of the agreement tests)",
            "measured": payload,
        },
    }
