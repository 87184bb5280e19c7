"""Assumptions 1-2 of the attention-alignment paper (Sec. 6.1, App. A.1) on a model.

The *averaged logit vector* of a layer: every pre-softmax logit row of every head is
sorted, and the sorted rows are averaged (Sec. 6.1); it is made zero-mean (App. A.2).

* Assumption 1: its entries are :math:`N(0, \\sigma^2)`; checked by the QQ plot of the
  standardised vector against normal quantiles :math:`\\Phi^{-1}((i - 1/2)/L)` with the
  line y = x (Figs. 2/5), and by numbers: the QQ correlation, Shapiro-Wilk W on evenly
  spaced ranks (at most 5000; the vector is a quantile function, not an i.i.d. sample,
  so W is descriptive), skewness, excess kurtosis, the largest ``|y - x|``.
* Assumption 2: :math:`l_{max}` (its largest entry) is the same at L_tr and L_ex
  (Table 7).  Under Assumption 1 the largest of L normal quantiles is
  :math:`\\sigma\\,\\Phi^{-1}(1 - 1/(2L))`, which grows with L unless sigma shrinks;
  the table reports this Gaussian-implied lmax beside the measured one.

``python -m empirical.assumptions --model SPEC --L-tr 512 --L-ex 4096 --out DIR``

>>> g = gaussianity(np.sort(np.random.default_rng(0).normal(size=2000))[::-1])
>>> g["qq_correlation"] > 0.999
True
"""

from __future__ import annotations

import csv
import json
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
from scipy import stats as sps

from theory.core.cli import (
    atomic_path,
    save_figure,
    write_text,
)
from theory.core.cli import dumps as json_dumps

if TYPE_CHECKING:
    from empirical.capture.models import LoadedModel


def normal_quantiles(n: int) -> np.ndarray:
    """:math:`\\Phi^{-1}((i - 1/2)/n)`, i = 1..n."""
    return sps.norm.ppf((np.arange(1, n + 1) - 0.5) / n)


def gaussianity(v: np.ndarray, max_sw: int = 5000) -> dict:
    """Numbers for Assumption 1 on an averaged (sorted) logit vector ``v``."""
    y = np.sort(np.asarray(v, dtype=float))
    c = y - y.mean()
    sigma = float(np.sqrt((c**2).mean()))
    z = c / sigma if sigma > 0 else c
    x = normal_quantiles(z.size)
    idx = np.unique(np.linspace(0, z.size - 1, min(z.size, max_sw)).round().astype(int))
    w, pw = sps.shapiro(z[idx]) if idx.size >= 3 else (float("nan"), float("nan"))
    core = slice(int(0.01 * z.size), int(np.ceil(0.99 * z.size)))
    return {
        "n": int(z.size),
        "sigma": sigma,
        "lmax": float(c.max()),
        "qq_correlation": float(np.corrcoef(x, z)[0, 1]),
        "shapiro_w": float(w),
        "shapiro_p": float(pw),
        "skewness": float(sps.skew(z)),
        "excess_kurtosis": float(sps.kurtosis(z)),
        "max_abs_dev_central98": float(np.abs(z[core] - x[core]).max()),
        "max_abs_dev": float(np.abs(z - x).max()),
        "gaussian_implied_lmax": float(sigma * sps.norm.ppf(1 - 0.5 / z.size)),
    }


def assumption_table(
    lm: LoadedModel,
    corpus: str,
    l_tr: int,
    l_ex: int,
    n_tr: int = 4,
    n_ex: int = 1,
    layers: list[str] | None = None,
    progress: bool = True,
) -> dict:
    """Averaged logit vectors of ``layers`` (default: the first attention module) at
    both lengths, with Gaussianity numbers, sigma and lmax (Table 7 form) and Pmax /
    entropy of those layers and of all layers (Table 1 form)."""
    from empirical.capture.measure import collect_stats, sequences
    from empirical.capture.positions import check_length, text_attention_names

    check_length(lm.model, max(l_tr, l_ex), "--L-ex")
    names = text_attention_names(lm.model)
    layers = layers or [names[0]]
    unknown = [x for x in layers if x not in names]
    if unknown:
        raise ValueError(f"unknown layer(s) {unknown}; the model has {names}")
    out = {
        "model": lm.description,
        "corpus": corpus,
        "L_tr": l_tr,
        "L_ex": l_ex,
        "layers": layers,
        "lengths": {},
    }
    for tag, length, n, off in (("tr", l_tr, n_tr, 0), ("ex", l_ex, n_ex, 1)):
        st = collect_stats(
            lm.model,
            sequences(lm, corpus, length, n, off),
            1.0,
            sorted_layers=layers,
            progress=f"L={length}" if progress else None,
        )
        per = {}
        for name in layers:
            v = st.layers[name].averaged_logit_vector()
            s = st.layers[name].summary()
            per[name] = {
                **gaussianity(v),
                "pmax": s["pmax"],
                "entropy": s["entropy"],
                "vector": v.tolist(),
            }
        summ = st.summary()
        out["lengths"][tag] = {
            "L": length,
            "n_seq": n,
            "per_layer": per,
            "all_layers": {"pmax": st.overall("pmax"), "entropy": st.overall("entropy")},
            "by_module": {
                k: {"pmax": v["pmax"], "entropy": v["entropy"], "mean_distance": v["mean_distance"]}
                for k, v in summ.items()
            },
        }
    for name in layers:
        a, b = (out["lengths"][t]["per_layer"][name] for t in ("tr", "ex"))
        out.setdefault("assumption2", {})[name] = {
            "lmax_tr": a["lmax"],
            "lmax_ex": b["lmax"],
            "relative_change": (b["lmax"] - a["lmax"]) / abs(a["lmax"]),
            "gaussian_implied_relative_change": (
                b["gaussian_implied_lmax"] - a["gaussian_implied_lmax"]
            )
            / abs(a["gaussian_implied_lmax"]),
        }
    return out


def qq_figure(vectors: list, title: str, png: Path, csv_path: Path) -> None:
    """QQ plot (Figs. 2/5 form) of averaged logit vectors ``[(label, vector), ...]``, one
    panel each, standardised against normal quantiles with the line y = x; the points
    are written to ``csv_path``."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, axes = plt.subplots(1, len(vectors), figsize=(4.5 * len(vectors), 4.2), squeeze=False)
    rows = []
    for ax, (label, vec) in zip(axes[0], vectors):
        v = np.sort(np.asarray(vec, dtype=float))
        g = gaussianity(v)
        z = (v - v.mean()) / g["sigma"]
        x = normal_quantiles(z.size)
        ax.plot(x, z, ".", ms=2, label="averaged sorted logits")
        lim = [min(x.min(), z.min()), max(x.max(), z.max())]
        ax.plot(lim, lim, "r-", lw=1, label="y = x")
        ax.set_title(f"{label}  r = {g['qq_correlation']:.4f}  lmax = {g['lmax']:.2f}", fontsize=9)
        ax.set_xlabel("normal quantile")
        ax.set_ylabel("standardised averaged logit")
        ax.legend(fontsize=7)
        rows += [(label, i, xi, zi, vi) for i, (xi, zi, vi) in enumerate(zip(x, z, v))]
    fig.suptitle(title, fontsize=8)
    fig.tight_layout()
    save_figure(fig, png, dpi=110)
    plt.close(fig)
    with atomic_path(csv_path) as tmp, open(tmp, "w", newline="") as fh:
        w = csv.writer(fh)
        w.writerow(
            ["length", "rank_ascending", "normal_quantile", "standardised", "averaged_logit"]
        )
        w.writerows(rows)


def write_outputs(res: dict, outdir: Path, note: str = "") -> dict:
    """QQ plot PNG per layer (both lengths, y = x line), CSV of the vectors, JSON table."""
    outdir.mkdir(parents=True, exist_ok=True)
    files = {"png": [], "csv": [], "json": str(outdir / "assumptions.json")}
    for li, name in enumerate(res["layers"]):
        vectors = [
            (f"L = {res['lengths'][tag]['L']}", res["lengths"][tag]["per_layer"][name]["vector"])
            for tag in ("tr", "ex")
        ]
        png, csvp = outdir / f"qq_{li}.png", outdir / f"qq_{li}.csv"
        qq_figure(vectors, f"QQ plot (Figs. 2/5 form), {name}\n{res['model']}{note}", png, csvp)
        files["png"].append(str(png))
        files["csv"].append(str(csvp))
    slim = json.loads(json_dumps(res))
    for t in slim["lengths"].values():
        for d in t["per_layer"].values():
            d.pop("vector")
    write_text(files["json"], json_dumps(slim, indent=1))
    return files
