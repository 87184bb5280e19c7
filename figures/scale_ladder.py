"""Every contrast's errors against scale: the ladder of rungs (ci and the stored ones).

One panel per contrast of :data:`empirical.agreement.catalogue.CATALOGUE`.  The x axis is
the rung's span of text in one training window (characters, log scale; tick labels the
rung names), the y axis the theory's error on that rung -- the mean over seeds with its
95% Student-t seed interval as error bars, a filled marker where the theory agrees
(upper end <= tolerance), an open one where it does not -- with the declared tolerance as
a horizontal line and each alternative's error as a lighter line.  The panel title gives
the trend of the theory's error by the declared rule of :mod:`empirical.agreement.scales`.

Where the tolerance bounds the theory's error relative to a null model's
(``theory_error_is`` = ``error / error(NULL)``), the theory's ratio and the tolerance are
on the left axis and the alternatives' own errors on a right-hand axis of their own.

Every number drawn is the scale report (:func:`empirical.agreement.scales.scale_report`,
the object of ``python -m empirical.results --scales --json``) computed when the figure
is made: the theory on each rung's stored measurements, nothing read from a stored
theory number.  The data lies beside the PNG: ``scale-ladder.json`` (the rungs and one
entry per contrast and rung) and ``scale-ladder.csv`` (one row per contrast, rung and
candidate).
"""

from __future__ import annotations

import csv
import math
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from figures.legend import PANEL_LEGEND_FONTSIZE, figure_key
from figures.registry import figure
from figures.rpe_empirical import no_bundle
from theory.core.cli import dumps as json_dumps

if TYPE_CHECKING:  # annotations only: matplotlib is imported where the figure is drawn
    from matplotlib.axes import Axes
    from matplotlib.figure import Figure

NAME = "scale-ladder"
#: columns of the grid of panels (one panel per contrast)
COLUMNS = 5
THEORY_COLOUR = "black"
TOLERANCE_STYLE = {"color": "tab:red", "ls": "--", "lw": 1}
#: lighter lines for the alternatives, one colour per alternative of a panel
ALTERNATIVE_COLOURS = ("C0", "C1", "C2", "C4", "C5", "C6", "C8", "C9")
ALTERNATIVE_ALPHA = 0.45
CSV_HEADER = [
    "contrast",
    "rung",
    "span_chars",
    "candidate",
    "lo",
    "mean",
    "hi",
    "theory_error_is",
    "tolerance",
    "agrees",
]


def relative(contrast: dict) -> bool:
    """Whether the contrast's theory error is a ratio to a null model's error."""
    return contrast["theory_error_is"] != "error"


def ladder_data(report: dict) -> dict:
    """What the figure draws, from a scale report: the rungs (name, span of text, ...) and
    per contrast its declared tolerance, trend and one point per rung (the theory's
    ``[lo, mean, hi]``, each alternative's, whether the theory agrees)."""
    rungs = report["rungs"]
    contrasts = []
    for c in report["contrasts"]:
        points = []
        for r in rungs:
            at = c["rungs"][r["name"]]
            if at.get("formed", True) is False:  # not formed on this rung: no point
                continue
            points.append(
                {
                    "rung": r["name"],
                    "span_chars": r["span_chars"],
                    "theory": list(at["theory"]),
                    "alternatives": {a: list(t) for a, t in at["alternatives"].items()},
                    "agrees": at["agrees"],
                }
            )
        contrasts.append(
            {
                "key": c["key"],
                "title": c["title"],
                "place": c["place"],
                "paper_check": c["paper_check"],
                "theory_error_is": c["theory_error_is"],
                "tolerance": c["tolerance"],
                "trend": c["trend"],
                "top_rung": c["top_rung"],
                "top_gap_sign": dict(c["top_gap_sign"]),
                "points": points,
            }
        )
    return {"rungs": rungs, "trend_rule": report["trend_rule"], "contrasts": contrasts}


def csv_rows(data: dict) -> list[list]:
    """One row per contrast, rung and candidate (the theory first, then each alternative)."""
    rows = []
    for c in data["contrasts"]:
        for p in c["points"]:
            cands = [("theory", p["theory"])] + list(p["alternatives"].items())
            for name, (lo, mean, hi) in cands:
                rows.append(
                    [c["key"], p["rung"], p["span_chars"], name, lo, mean, hi,
                     c["theory_error_is"] if name == "theory" else "error",
                     c["tolerance"], p["agrees"] if name == "theory" else ""]
                )  # fmt: skip
    return rows


def rung_ticks(rungs: Sequence[dict]) -> tuple[list[float], list[str]]:
    """Tick positions (spans of text) and labels (rung names; rungs of one span share a
    tick, their names joined)."""
    names: dict[float, list[str]] = {}
    for r in rungs:
        names.setdefault(float(r["span_chars"]), []).append(r["name"])
    spans = sorted(names)
    return spans, [" / ".join(names[s]) for s in spans]


def _errorbar(ax: Axes, x: Sequence[float], triples: Sequence[Sequence[float]], **kw) -> None:
    lo, mean, hi = zip(*triples)
    ax.errorbar(
        x,
        mean,
        yerr=[[m - a for m, a in zip(mean, lo)], [b - m for m, b in zip(mean, hi)]],
        capsize=2,
        **kw,
    )


def draw_panel(ax: Axes, c: dict, spans: Sequence[float], labels: Sequence[str]) -> None:
    """One contrast: theory with its seed intervals, the tolerance, the alternatives."""
    x = [p["span_chars"] for p in c["points"]]
    alt_ax = ax.twinx() if relative(c) else ax
    alts = list(c["points"][0]["alternatives"])
    for k, a in enumerate(alts):
        colour = ALTERNATIVE_COLOURS[k % len(ALTERNATIVE_COLOURS)]
        _errorbar(
            alt_ax,
            x,
            [p["alternatives"][a] for p in c["points"]],
            color=colour,
            alpha=ALTERNATIVE_ALPHA,
            lw=1,
            marker=".",
            ms=4,
            label=a,
        )
    _errorbar(ax, x, [p["theory"] for p in c["points"]], color=THEORY_COLOUR, lw=1.8, zorder=5)
    for p in c["points"]:
        ax.plot(
            [p["span_chars"]],
            [p["theory"][1]],
            "o",
            color=THEORY_COLOUR,
            mfc=THEORY_COLOUR if p["agrees"] else "white",
            ms=5,
            zorder=6,
        )
    ax.axhline(c["tolerance"], **TOLERANCE_STYLE)
    ax.set_xscale("log")
    lo, hi = min(spans), max(spans)
    ax.set_xlim(lo / 1.6, hi * 1.6)
    ax.set_xticks(spans, labels, fontsize=7)
    ax.minorticks_off()
    ax.tick_params(axis="y", labelsize=7)
    ax.set_ylabel(c["theory_error_is"], fontsize=7)
    if relative(c):
        alt_ax.set_ylabel("alternatives' error", fontsize=7, alpha=0.8)
        alt_ax.tick_params(axis="y", labelsize=7, colors="dimgray")
        # the theory and its tolerance above the alternatives' lines
        ax.set_zorder(alt_ax.get_zorder() + 1)
        ax.patch.set_visible(False)
    # the alternatives' names, placed where they hide least of the theory's points
    handles, names = alt_ax.get_legend_handles_labels()
    ax.legend(handles, names, fontsize=PANEL_LEGEND_FONTSIZE, loc="best", framealpha=0.6)
    ax.set_title(f"{c['key']}\ntrend: {c['trend']}", fontsize=8)


def draw(data: dict, note: str = "") -> Figure:
    """The grid of panels, one per contrast, with ``note`` under the title."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    n = len(data["contrasts"])
    cols = min(COLUMNS, n)
    rows = math.ceil(n / cols)
    fig, axes = plt.subplots(rows, cols, figsize=(4.6 * cols, 3.8 * rows + 1.2), squeeze=False)
    spans, labels = rung_ticks(data["rungs"])
    for ax, c in zip(axes.flat, data["contrasts"]):
        draw_panel(ax, c, spans, labels)
    for ax in list(axes.flat)[n:]:
        ax.set_visible(False)
    fig.suptitle(
        "Every contrast's errors across the ladder of rungs (x: span of text in one "
        f"training window, characters, log scale)\n{note}",
        fontsize=10,
    )
    figure_key(
        fig,
        [
            ("theory's error: mean, 95% seed interval (filled: agrees)", {"color": THEORY_COLOUR,
             "marker": "o", "lw": 1.8}),
            ("declared tolerance", TOLERANCE_STYLE),
            ("alternatives (named in each panel; right axis where the theory's error is a "
             "ratio)", {"color": "C0", "alpha": ALTERNATIVE_ALPHA, "marker": ".", "lw": 1}),
        ],
        ncol=3,
    )  # fmt: skip
    return fig


def scale_ladder(outdir: Path, report: dict) -> dict:
    """Draw the figure of ``report`` (a scale report) into ``outdir`` with its data."""
    from matplotlib import pyplot as plt

    data = ladder_data(report)
    rungs = ", ".join(
        f"{r['name']}: m = {r['seq_len']} {r['tokenizer']} tokens of {r['corpus']}, "
        f"{r['n_layer']}x{r['d_model']}, {r['steps']} steps"
        for r in data["rungs"]
    )
    note = (
        f"tiny LMs trained here, not the papers' models; {rungs}; trend rule: "
        "empirical.agreement.scales"
    )
    fig = draw(data, note)
    outdir = Path(outdir)
    outdir.mkdir(parents=True, exist_ok=True)
    paths = {k: str(outdir / f"{NAME}.{k}") for k in ("png", "csv", "json")}
    fig.savefig(paths["png"], dpi=110)
    plt.close(fig)
    with open(paths["csv"], "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(CSV_HEADER)
        w.writerows(csv_rows(data))
    Path(paths["json"]).write_text(json_dumps(data, indent=1))
    return {
        "png": paths["png"],
        "data": paths["csv"],
        "json": paths["json"],
        "comparison": {
            "predicted": "the theory's error within its declared tolerance on every rung, "
            "beating each alternative by its margin",
            "rungs": [r["name"] for r in data["rungs"]],
            "agrees": {
                c["key"]: {p["rung"]: p["agrees"] for p in c["points"]} for c in data["contrasts"]
            },  # fmt: skip
            "trend": {c["key"]: c["trend"] for c in data["contrasts"]},
            "top_gap_sign": {c["key"]: c["top_gap_sign"] for c in data["contrasts"]},
        },
    }


@figure(
    NAME,
    "ladder",
    "Every contrast's theory and alternative errors against the rung's span of text "
    "(ci and the stored rungs), seed intervals, declared tolerance, trend",
    empirical=True,
)
def make_scale_ladder(outdir: Path, quick: bool = False, report: dict | None = None) -> dict:
    from empirical.agreement.bundle_io import find_profile_bundle
    from empirical.agreement.scales import scale_report

    if report is None:
        if find_profile_bundle() is None:
            return no_bundle(NAME)
        report = scale_report()
    return scale_ladder(outdir, report)
