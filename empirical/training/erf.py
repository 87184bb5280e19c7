"""Empirical Receptive Field (ERF) of a trained model beside the TRF of its RPE.

RPE paper Sec. 3.3: with c_ij the (unnormalised) attention of query i on key j and
C_ij the sum over the j nearest keys,

.. math::

    n_{\\mathrm{emp}}(\\epsilon) = \\inf_j \\{ C_{ij} > C_{ii}(1-\\epsilon) \\},\\qquad
    n_{\\mathrm{the}}(\\epsilon) = \\inf_j \\Big\\{ \\sum_{t=0}^{j-1} b_t > B(1-\\epsilon) \\Big\\}\\ \\text{(Eq. 22)}

**Our choice for the ERF.** ``a(t)`` = attention probability at distance ``t`` averaged
over heads, layers, test chunks and query positions ``i >= m`` (the training length)
of chunks of length ``L`` (default 4m); ``sum_t a(t) = 1`` and ``n_emp(eps)`` is the
least ``j`` with ``sum_{t<j} a(t) > 1 - eps``.

**The TRF on the same axes.** ``n_the^L`` is the same statistic for the same model with
all content logits ``q.k`` set to 0, i.e. attention ``b_{h,t} / sum_{t'<=i} b_{h,t'}``
from the (learned) RPE alone, averaged over the same heads and query positions: Eq. 22
restricted to the window the model sees.  The infinite-series TRF (Eq. 22 with B the
full sum, per head, learned parameters substituted) is added with ``--series-trf`` from
``theory.series.trf_search.trf_table``; it is infinite for divergent series (1/n,
1/(n ln n), Sandwich with finite d, Kerple-log heads with r <= 1).
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np
import torch

from empirical.training.data import run_test_tokens
from empirical.training.rpe import LABELS
from empirical.training.train import load_model
from theory.core.cli import (
    save_figure,
)

if TYPE_CHECKING:
    from empirical.training.tiny_lm import TinyLM

EPSILONS = tuple(np.round(np.linspace(0.02, 1.0, 50), 4))


def query_distance_mass(probs: torch.Tensor, first_query: int) -> torch.Tensor:
    """probs (B, H, L, L) -> (L,) sum over B, H and queries i >= first_query of the
    attention at distance t = i - j."""
    L = probs.shape[-1]
    I = torch.arange(first_query, L)[:, None]  # (Q, 1)
    T = torch.arange(L)[None, :]  # (1, L)
    J = I - T  # (Q, L) key index
    vals = probs[..., I, J.clamp(min=0)] * (J >= 0)  # (B, H, Q, L)
    return vals.sum(dim=(0, 1, 2))


@torch.no_grad()
def attention_by_distance(
    model: TinyLM, tokens: torch.Tensor, length: int, first_query: int, n_chunks: int = 2
) -> np.ndarray:
    """a(t), t < length: attention mass per distance averaged over heads, layers, chunks
    and query positions >= first_query (sums to 1)."""
    total = torch.zeros(length, dtype=torch.float64)
    for c in range(n_chunks):
        chunk = tokens[c * length : (c + 1) * length]
        if len(chunk) < length:
            raise ValueError(f"test split too short for {n_chunks} chunks of {length}")
        _, probs = model(chunk[None], want_probs=True)
        for p in probs:
            total += query_distance_mass(p.double(), first_query)
    return (total / total.sum()).numpy()


@torch.no_grad()
def rpe_only_attention(model: TinyLM, length: int, first_query: int) -> np.ndarray:
    """a^0(t): the same average with content logits set to 0 (the RPE alone)."""
    bias = model.rpe.bias_matrix(length).double()  # (H, L, L)
    probs = torch.softmax(bias, dim=-1)[None]
    mass = query_distance_mass(probs, first_query)
    return (mass / mass.sum()).numpy()


def receptive_field(mass: np.ndarray, eps: Sequence[float]) -> np.ndarray:
    """least j >= 1 with sum_{t<j} mass(t) > (1 - eps) * sum(mass), for each eps.

    >>> receptive_field(np.array([0.5, 0.25, 0.25]), [1.0, 0.6, 0.5, 0.1]).tolist()
    [1, 1, 2, 3]
    """
    cum = np.cumsum(mass) / mass.sum()
    eps = np.asarray(eps, dtype=float)
    j = np.searchsorted(cum, (1 - eps) * (1 + 1e-12), side="right") + 1
    return np.minimum(j, len(mass))


def series_trf(
    model: TinyLM, eps_values: Sequence[float] = (0.5, 0.2, 0.1), budget: float = 8.0
) -> dict | None:
    """Infinite-series TRF (Eq. 22) per head from ``theory.series.trf_search.trf_table``.

    Returns ``{"eps": [...], "per_head": [[n or None per eps] per head], "status":
    [per head]}``; ``None`` entries are divergent series ("diverges") or computations that
    ran past ``budget`` seconds ("undecided"); ``None`` overall for RPEs with no closed
    form (T5, sinusoidal)."""
    from empirical.training.rpe_theory import rpe_b_expressions
    from theory.series.trf_search import trf_table

    exprs = rpe_b_expressions(model.rpe)
    if exprs is None:
        return None
    per_head, status, memo = [], [], {}
    for expr, start in exprs:
        key = (str(expr), start)
        if key not in memo:
            try:
                res = trf_table(expr, list(eps_values), start=start, budget=budget)
                memo[key] = ([int(r.value) if r.exact else float(r.value) for r in res], "finite")
            except Exception as exc:  # SeriesError (divergent) or budget
                diverges = "diverge" in str(exc)
                memo[key] = ([None] * len(eps_values), "diverges" if diverges else "undecided")
        per_head.append(memo[key][0])
        status.append(memo[key][1])
    return {"eps": [float(e) for e in eps_values], "per_head": per_head, "status": status}


def erf_for_run(
    run: str | Path,
    length: int | None = None,
    n_chunks: int = 2,
    eps_values: Sequence[float] = EPSILONS,
    tokens: torch.Tensor | None = None,
    with_series_trf: bool = False,
) -> dict:
    """ERF and windowed TRF curves of one run (JSON-able)."""
    model, cfg = load_model(run)
    m = cfg["train"]["seq_len"]
    length = length or 4 * m
    if tokens is None:
        tokens = run_test_tokens(cfg)
    a = attention_by_distance(
        model, tokens, length, first_query=min(m, length - 1), n_chunks=n_chunks
    )
    a0 = rpe_only_attention(model, length, first_query=min(m, length - 1))
    res = {
        "run": str(run),
        "rpe": cfg["model"]["rpe"],
        "label": LABELS.get(cfg["model"]["rpe"], cfg["model"]["rpe"]),
        "train_len": m,
        "length": length,
        "eps": [float(e) for e in eps_values],
        "n_emp": receptive_field(a, eps_values).tolist(),
        "n_the_window": receptive_field(a0, eps_values).tolist(),
        "mean_distance_emp": float((a * np.arange(length)).sum()),
        "mean_distance_the": float((a0 * np.arange(length)).sum()),
        "rpe_params": model.rpe.describe()
        if cfg["model"]["rpe"] in ("kerple_log", "kerple_power", "t5")
        else {"name": model.rpe.name},
    }
    if with_series_trf:
        res["series_trf"] = series_trf(model)
    return res


def spearman(results: list[dict], eps: float) -> dict:
    """Spearman rank correlation of n_emp(eps) and n_the_window(eps) across runs."""
    from scipy.stats import spearmanr

    k = [min(range(len(r["eps"])), key=lambda i: abs(r["eps"][i] - eps)) for r in results]
    emp = [r["n_emp"][i] for r, i in zip(results, k)]
    the = [r["n_the_window"][i] for r, i in zip(results, k)]
    rho = spearmanr(emp, the).statistic if len(set(emp)) > 1 and len(set(the)) > 1 else float("nan")
    return {
        "eps": eps,
        "rho": float(rho),
        "labels": [r["label"] for r in results],
        "n_emp": emp,
        "n_the_window": the,
    }


def plot_erf(results: list[dict], path: str | Path, note: str = "") -> None:
    """ERF (solid) and windowed TRF (dashed) of each run against eps (Figs. 5-6); the
    curves are written beside the PNG (same name, ``.json``)."""
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for k, r in enumerate(results):
        col = f"C{k % 10}"
        ax.plot(r["eps"], r["n_emp"], color=col, label=f"{r['label']} ERF")
        ax.plot(r["eps"], r["n_the_window"], color=col, ls="--", lw=1)
    ax.set_yscale("log")
    ax.set_xlabel(r"$\epsilon$")
    ax.set_ylabel(r"receptive field $n(\epsilon)$ (tokens)")
    ax.set_title("ERF (solid, trained model) vs TRF (dashed, RPE alone)", fontsize=10)
    ax.legend(fontsize=7)
    if note:
        fig.text(0.01, 0.01, note, fontsize=7, color="dimgray")
    fig.tight_layout(rect=(0, 0.04, 1, 1))
    keep = ("run", "label", "rpe", "train_len", "length", "eps", "n_emp", "n_the_window")
    save_figure(
        fig,
        path,
        data={"note": note, "results": [{k: r[k] for k in keep if k in r} for r in results]},
        dpi=120,
    )
    plt.close(fig)
