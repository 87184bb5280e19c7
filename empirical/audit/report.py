"""The files of an audit (:mod:`empirical.audit.command`): ``report.md``, ``audit.json`` and the
figures, each PNG with its data beside (CSV)."""

from __future__ import annotations

import csv
import json
from pathlib import Path

import numpy as np

from empirical.audit.assumptions import qq_figure
from theory.core.cli import dumps as json_dumps

STATS = (
    ("pmax", "P_max"),
    ("entropy", "entropy (nats)"),
    ("mean_distance", "mean attended distance"),
)


# one colour per method or layer, distinguishable (tab10 and six more); beyond them the
# colours repeat with another line style
PALETTE = (
    "#1f77b4",
    "#ff7f0e",
    "#2ca02c",
    "#d62728",
    "#9467bd",
    "#8c564b",
    "#e377c2",
    "#7f7f7f",
    "#bcbd22",
    "#17becf",
    "#000000",
    "#b8860b",
    "#00008b",
    "#ff1493",
    "#556b2f",
    "#00ff7f",
)
STYLES = ("-", "--", ":", "-.")


def style(i: int) -> dict:
    """Colour and line style of the ``i``-th line of a figure: distinct for the first
    ``len(PALETTE) * len(STYLES)`` lines.

    >>> style(0)["color"] != style(10)["color"], style(16)["ls"]
    (True, '--')
    """
    return {"color": PALETTE[i % len(PALETTE)], "ls": STYLES[(i // len(PALETTE)) % len(STYLES)]}


def _legend_outside(fig, ax) -> None:
    """The legend of ``ax``'s lines to the right of every panel (never over the data)."""
    handles, labels = ax.get_legend_handles_labels()
    fig.legend(handles, labels, loc="center left", bbox_to_anchor=(1.0, 0.5), fontsize=7)


def _plt():
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    return plt


def dispersion_figure(res: dict, out: Path) -> dict:
    """Entropy, P_max and mean distance against length, one line per layer (mean over
    heads), thin lines per head; CSV with every layer, head and length."""
    plt = _plt()
    lengths = [res["lengths"][k] for k in res["lengths"]]
    xs = [e["L"] for e in lengths]
    fig, axes = plt.subplots(1, 3, figsize=(13, 4))
    rows = []
    for ax, (key, label) in zip(axes, STATS):
        for li, name in enumerate(lengths[0]["dispersion"]):
            ys = [e["dispersion"][name][key] for e in lengths]
            st = style(li)
            ax.plot(xs, ys, marker="o", lw=1.5, label=f"layer {li}", **st)
            heads = np.array([e["dispersion"][name]["per_head"][key] for e in lengths])
            ax.plot(xs, heads, lw=0.4, color=st["color"], ls=st["ls"], alpha=0.5)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("L (tokens)")
        ax.set_ylabel(label)
    for e in lengths:
        for li, (name, d) in enumerate(e["dispersion"].items()):
            for h in range(len(d["per_head"]["pmax"])):
                rows.append(
                    [e["L"], e["query_from"], li, name, h] + [d["per_head"][k][h] for k, _ in STATS]
                )
    fig.suptitle(
        f"attention dispersion (query positions >= query_from at L_ex), {res['model'][:80]}",
        fontsize=8,
    )
    fig.tight_layout()
    _legend_outside(fig, axes[0])
    png, data = out / "dispersion.png", out / "dispersion.csv"
    fig.savefig(png, dpi=110, bbox_inches="tight")
    plt.close(fig)
    with open(data, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(["L", "query_from", "layer_index", "module", "head"] + [k for k, _ in STATS])
        w.writerows(rows)
    return {"png": str(png), "csv": str(data)}


def qq_figures(res: dict, out: Path) -> list:
    """One QQ plot (Assumption 1) per layer with sorted statistics, all lengths."""
    files = []
    first = next(iter(res["lengths"].values()))
    for li, name in enumerate(first["assumptions"]):
        vectors = [
            (f"L = {e['L']}", e["assumptions"][name]["vector"])
            for e in res["lengths"].values()
            if name in e["assumptions"]
        ]
        png, data = out / f"qq_{li}.png", out / f"qq_{li}.csv"
        qq_figure(vectors, f"QQ plot (Figs. 2/5 form), {name}\n{res['model'][:80]}", png, data)
        files.append({"module": name, "png": str(png), "csv": str(data)})
    return files


def temperature_figure(res: dict, out: Path) -> dict | None:
    """Each method's temperature, its P_max/entropy alignment error and perplexity
    against L_ex (:func:`temperature_plot`); CSV of the whole table."""
    drawn = temperature_plot(res)
    if drawn is None:
        return None
    fig, rows = drawn
    plt = _plt()
    png, data = out / "temperature.png", out / "temperature.csv"
    fig.savefig(png, dpi=110, bbox_inches="tight")
    plt.close(fig)
    with open(data, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(
            [
                "L_ex",
                "method",
                "tau",
                "pmax",
                "entropy",
                "pmax_rel_error",
                "entropy_rel_error",
                "perplexity_beyond",
                "perplexity_all",
            ]
        )
        w.writerows(rows)
    return {"png": str(png), "csv": str(data)}


def temperature_plot(res: dict) -> tuple:
    """(figure, CSV rows) of the temperature panels, one colour (:func:`style`) per
    method and the legend beside the panels; None without any L_ex."""
    ex = [e for e in res["lengths"].values() if "temperatures" in e]
    if not ex:
        return None
    plt = _plt()
    methods = list(dict.fromkeys(k for e in ex for k in e["temperatures"]["table"]))
    panels = [
        ("tau", "temperature tau"),
        ("pmax_rel_error", "P_max relative error"),
        ("entropy_rel_error", "entropy relative error"),
    ]
    if res["causal_lm_head"]:
        panels.append(("perplexity_beyond", "perplexity (beyond query_from)"))
    fig, axes = plt.subplots(1, len(panels), figsize=(4.2 * len(panels), 4))
    rows = []
    for mi, m in enumerate(methods):
        pts = [
            (e["L"], e["temperatures"]["table"][m]) for e in ex if m in e["temperatures"]["table"]
        ]
        for ax, (key, label) in zip(axes, panels):
            ax.plot(
                [L for L, _ in pts],
                [np.nan if r[key] is None else r[key] for _, r in pts],
                marker="o",
                ms=3,
                lw=1,
                label=m,
                **style(mi),
            )
            ax.set_xscale("log", base=2)
            ax.set_xlabel("L_ex")
            ax.set_ylabel(label)
        rows += [
            [L, m]
            + [
                r.get(k)
                for k in (
                    "tau",
                    "pmax",
                    "entropy",
                    "pmax_rel_error",
                    "entropy_rel_error",
                    "perplexity_beyond",
                    "perplexity_all",
                )
            ]
            for L, r in pts
        ]
    fig.suptitle(f"temperatures and the alignment they leave (L_tr = {res['L_tr']})", fontsize=8)
    fig.tight_layout()
    _legend_outside(fig, axes[0])
    return fig, rows


def _fmt(v, spec=".4f") -> str:
    return "n/a" if v is None else format(v, spec)


def _count(n: int, noun: str) -> str:
    """``n`` and ``noun``, plural unless ``n`` is 1.

    >>> _count(1, "window"), _count(4, "window")
    ('1 window', '4 windows')
    """
    return f"{n} {noun}{'' if n == 1 else 's'}"


def _geometry_lines(geometry: dict) -> list:
    """One line per attention module whose head size, window or attention type differs
    from the first module's (per-layer configurations such as Gemma 4's).

    >>> g = {"a": {"head_dim": 16, "window": 8, "attention_type": "sliding_attention"},
    ...      "b": {"head_dim": 32, "window": None, "attention_type": "full_attention"}}
    >>> _geometry_lines(g)
    ['- `a`: head size 16, window 8, sliding_attention', '- `b`: head size 32, every key, full_attention']
    """
    if len({json.dumps(g, sort_keys=True) for g in geometry.values()}) <= 1:
        return []
    lines = []
    for name, g in geometry.items():
        keys = "every key" if g["window"] is None else f"window {g['window']}"
        kind = f", {g['attention_type']}" if g["attention_type"] else ""
        lines.append(f"- `{name}`: head size {_fmt(g['head_dim'], 'd')}, {keys}{kind}")
    return lines


def _modules_lines(res: dict) -> list:
    """The modules left out (not softmax attention, or a tower that does not run on
    text), the layers whose head size or window differs from the first's, and the
    attention sinks' mass."""
    lines = []
    for name, why in (res.get("not_softmax_attention") or {}).items():
        lines.append(f"- `{name}` not audited: {why}")
    for name, why in (res.get("not_run_on_text") or {}).items():
        lines.append(f"- `{name}` not run: {why}")
    lines += _geometry_lines(res.get("layer_geometry") or {})
    for e in res["lengths"].values():
        for name, d in e["dispersion"].items():
            if d.get("sink_mass") is not None:
                lines.append(
                    f"- L {e['L']}, `{name}`: attention sink mass {d['sink_mass']:.6f} "
                    "(statistics over the keys only; docs/conventions.md, attention sinks)"
                )
    return ["", *lines] if lines else []


def markdown(res: dict, files: dict) -> str:
    """The human-readable report."""
    lines = [
        f"# Attention audit: {res['model']}",
        "",
        f"text `{res['text']}`; L_tr {res['L_tr']} ({_count(res['n_tr'], 'window')}), L_ex "
        f"{res['L_ex']} ({_count(res['n_ex'], 'window')} each); statistics at L_ex over query "
        f"positions >= {max(res['query_from'].values())}"
        f"; special tokens {res['special_tokens']}; {res['dtype']} on {res['device']}.",
        "",
        f"Target of Algorithm 1 and of every alignment error: the average over every "
        f"query row of the L_tr windows at tau = 1: P_max {res['targets']['pmax']:.6f}, "
        f"entropy {res['targets']['entropy']:.6f}. Errors are relative: "
        "(S_ex(tau) - target) / target. Perplexity counts the predictions made from the "
        "counted query positions.",
        "",
        "## Dispersion against length",
        "",
        "| L | P_max | entropy | perplexity |",
        "|---|---|---|---|",
    ]
    for e in res["lengths"].values():
        lines.append(
            f"| {e['L']} | {e['overall']['pmax']:.6f} | {e['overall']['entropy']:.6f}"
            f" | {_fmt(e['perplexity_beyond'], '.3f')} |"
        )
    lines += _modules_lines(res)
    lines += [
        "",
        f"![dispersion]({Path(files['dispersion']['png']).name}) (data: "
        f"{Path(files['dispersion']['csv']).name})",
        "",
        "## Assumptions 1-2",
        "",
        "| module | L | sigma | lmax | Gaussian lmax | QQ r | skew | kurtosis |",
        "|---|---|---|---|---|---|---|---|",
    ]
    for e in res["lengths"].values():
        for name, a in e["assumptions"].items():
            lines.append(
                f"| {name} | {e['L']} | {a['sigma']:.4f} | {a['lmax']:.4f} | "
                f"{a['gaussian_implied_lmax']:.4f} | {a['qq_correlation']:.4f} | "
                f"{a['skewness']:.3f} | {a['excess_kurtosis']:.3f} |"
            )
    lines += [f"![qq]({Path(q['png']).name})" for q in files["qq"]]
    for e in res["lengths"].values():
        if "temperatures" not in e:
            continue
        lines += [
            "",
            f"## Temperatures at L_ex = {e['L']}",
            "",
            "| method | tau | P_max error | entropy error | perplexity |",
            "|---|---|---|---|---|",
        ]
        for m, r in e["temperatures"]["table"].items():
            lines.append(
                f"| {m} | {r['tau']:.4f} | {100 * r['pmax_rel_error']:+.2f}% | "
                f"{100 * r['entropy_rel_error']:+.2f}% | "
                f"{_fmt(r['perplexity_beyond'], '.3f')} |"
            )
        for k, v in e["temperatures"]["rules"].items():
            what = "no temperature" if v["tau"] is None else f"tau {v['tau']:.4f}"
            lines.append(f"- {k}: {what}; {v['source']}" + (f"; {v['note']}" if v["note"] else ""))
        for mode, f in e["temperatures"]["algorithm1"].items():
            c = f["continuous"]
            if c["bracketed"] and c.get("searched") and c["searched"] != c["interval"]:
                lines.append(
                    f"- Algorithm 1 continuous ({mode}): target not bracketed in "
                    f"[{c['searched'][0]}, {c['searched'][1]}]; found in the widened "
                    f"[{c['interval'][0]:g}, {c['interval'][1]:g}]"
                )
            if not c["bracketed"]:
                lines.append(
                    f"- Algorithm 1 continuous ({mode}): target not bracketed in "
                    f"[{c['interval'][0]}, {c['interval'][1]}] ({c['note']})"
                )
    if files.get("temperature"):
        lines += ["", f"![temperature]({Path(files['temperature']['png']).name})"]
    lines += [
        "",
        f"{res['measurements']} measurements, {res['forward_passes_this_run']} "
        f"forward passes in this run, {res['seconds']} s.",
    ]
    return "\n".join(lines) + "\n"


def jsonable(res: dict) -> dict:
    """``res`` without the logit vectors (they are in the QQ CSVs)."""
    slim = json.loads(
        json_dumps(res, default=lambda o: o.tolist() if hasattr(o, "tolist") else str(o))
    )
    for e in slim["lengths"].values():
        for a in e["assumptions"].values():
            a.pop("vector", None)
    return slim


def write_report(res: dict, out: Path) -> dict:
    """Write every file of the report into ``out``; returns their paths."""
    out.mkdir(parents=True, exist_ok=True)
    files = {
        "dispersion": dispersion_figure(res, out),
        "qq": qq_figures(res, out),
        "temperature": temperature_figure(res, out),
    }
    files["markdown"] = str(out / "report.md")
    files["json"] = str(out / "audit.json")
    Path(files["markdown"]).write_text(markdown(res, files))
    slim = {**jsonable(res), "files": files}
    Path(files["json"]).write_text(json_dumps(slim, indent=1))
    return slim
