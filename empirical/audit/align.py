"""Algorithm 1 of the attention-alignment paper on a real model, with Props. 1-2.

``python -m empirical.align --model SPEC --corpus NAME --L-tr 512 --L-ex 4096 --mode pmax``

1. target :math:`\\overline{S^{tr}}(1)` = FINDS(1.0) on length-``L_tr`` sequences;
2. the paper's grid :math:`\\tau_{ex} \\in \\{1.0, 0.95, \\dots, 0.5\\}`, answer
   :math:`\\arg\\min_\\tau |\\overline{S^{ex}}(\\tau) - \\overline{S^{tr}}(1)|`;
3. a continuous search (Brent's method on tau in ``[lo, hi]``, to ``--tol``), fewer
   forward passes and a finer answer; the bracket is checked, since with several layers
   :math:`\\overline{S^{ex}}(\\tau)` need not be monotone;
4. Props. 1-2 from sigma, lmax and :math:`P^{tr}_{max}` measured on the first layer
   (Sec. 6: the averaged sorted logit vector), the log rule, InfoScale, YaRN, LongRoPE.

Both searches and every rule are :mod:`theory.temperature.rules` (the one definition of
Algorithm 1); here ``stat_fn(tau)`` is a forward pass of the model at temperature tau
(cached, so the grid and the continuous search share passes).

>>> from theory.temperature.rules import algorithm1_grid
>>> grid_summary(algorithm1_grid(lambda t: 2 * t, 1.5))["tau"]
0.75
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from theory.temperature.rules import (
    PAPER_GRID,
    RuleResult,
    algorithm1_continuous,
    algorithm1_grid,
    temperature_rules,
)

if TYPE_CHECKING:
    import torch

    from empirical.capture.models import LoadedModel


def rule_predictions(
    l_tr: int, l_ex: int, tr: dict | None, ex: dict | None, d: int | None = None
) -> dict:
    """Every rule of :func:`theory.temperature.rules.temperature_rules` from measured
    first-layer summaries ``tr``/``ex`` (``sigma``, ``pmax``; None: length-only rules)
    as JSON-able ``{name: {"tau", "source", "note"}}``."""
    sig_tr = tr.get("sigma") if tr else None
    sig_ex = ex.get("sigma") if ex else None
    # logits without spread (every logit of the layer equal: uniform rows, as a layer
    # with a zero query or key projection gives) leave the sigma rules undefined
    flat = [n for n, v in (("sigma_tr", sig_tr), ("sigma_ex", sig_ex)) if v is not None and v <= 0]
    if flat:
        sig_tr = sig_ex = None
    rules = temperature_rules(
        l_tr, l_ex, sigma_tr=sig_tr, sigma_ex=sig_ex, pmax_tr=tr.get("pmax") if tr else None, d=d
    )
    out = {
        k: {"tau": None if v.tau is None else float(v.tau), "source": v.source, "note": v.note}
        for k, v in rules.items()
    }
    for k in ("prop1", "prop2") if flat else ():
        out[k]["note"] = (
            f"{' and '.join(flat)} = 0: the first layer's logits are all equal "
            "(uniform attention), which no temperature changes"
        )
    return out


def head_dim(model: torch.nn.Module, name: str | None = None) -> int | None:
    """The head size of the attention module ``name`` (default: the text model's first),
    per layer as Gemma 4's differ (:func:`empirical.capture.discovery.head_size`)."""
    from empirical.capture.discovery import head_size
    from empirical.capture.positions import text_attention_names

    names = text_attention_names(model) if name is None else [name]
    return head_size(model, names[0]) if names else None


def grid_summary(r: RuleResult) -> dict:
    """Algorithm 1's grid answer as a flat dict (``tau``, ``stat``, ``gap``, ``grid``
    [(tau, S)], ``bracketed``, ``evaluations``)."""
    d = r.details
    k = d["grid"].index(r.tau)
    return {
        "tau": r.tau,
        "stat": d["values"][k],
        "gap": d["residual"],
        "grid": list(zip(d["grid"], d["values"])),
        "bracketed": d["bracketed"],
        "evaluations": d["evaluations"],
        "note": r.note,
    }


def continuous_summary(r: RuleResult, stat_fn: Callable[[float], float]) -> dict:
    """The continuous answer as a flat dict; an unbracketed target gives the end of the
    bracket whose statistic is closest (``bracketed`` False: censored there)."""
    d = r.details
    tau = r.tau
    if tau is None:
        tau = (
            d["lo"]
            if abs(d["stat_lo"] - d["target"]) <= abs(d["stat_hi"] - d["target"])
            else d["hi"]
        )
    stat = float(stat_fn(tau))
    return {
        "tau": tau,
        "stat": stat,
        "gap": stat - d["target"],
        "bracketed": d["bracketed"],
        "interval": [d["lo"], d["hi"]],
        "evaluations": d["evaluations"],
        "note": r.note,
    }


class CachedStat:
    """``stat_fn(tau)`` that runs ``measure(tau)`` once per temperature (12 digits)."""

    def __init__(self, measure, reduce):
        self.measure, self.reduce, self.cache = measure, reduce, {}

    def result(self, tau: float) -> object:
        key = round(float(tau), 12)
        if key not in self.cache:
            self.cache[key] = self.measure(key)
        return self.cache[key]

    def __call__(self, tau: float) -> float:
        return self.reduce(self.result(tau))


def grid_bracket(r: RuleResult, lo: float, hi: float) -> tuple[float, float]:
    """The two adjacent grid points inside ``[lo, hi]`` between which the grid's
    statistic crosses the target (so the continuous search starts from passes already
    made); ``(lo, hi)`` when the grid does not bracket it.

    >>> from theory.temperature.rules import algorithm1_grid
    >>> grid_bracket(algorithm1_grid(lambda t: t, 0.72), 0.05, 1.0)
    (0.7, 0.75)
    """
    pts = sorted(
        (t, v - r.details["target"])
        for t, v in zip(r.details["grid"], r.details["values"])
        if lo <= t <= hi
    )
    for (t0, f0), (t1, f1) in zip(pts, pts[1:]):
        if f0 == 0 or f0 * f1 < 0:
            return t0, t1
    return lo, hi


def search(
    stat_fn: Callable[[float], float],
    target: float,
    grid: Iterable[float] = PAPER_GRID,
    lo: float = 0.05,
    hi: float = 1.0,
    tol: float = 1e-3,
    widen: bool = True,
) -> dict:
    """Algorithm 1 on ``grid`` and continuously (to ``tol`` in tau) for ``stat_fn``; the
    continuous search runs inside the grid's bracketing cell when there is one (a root
    there is a root in ``[lo, hi]``), else over ``[lo, hi]``, and when the target is not
    bracketed there either, over a bracket widened by :func:`widen_bracket` (``widen``).

    >>> r = search(lambda t: 1 / t, 0.25, grid=[0.5, 1.0], lo=0.5, hi=1.0, tol=1e-6)
    >>> round(r["continuous"]["tau"], 4), r["continuous"]["interval"]
    (4.0, [2.0, 4.0])
    """
    g = algorithm1_grid(stat_fn, target, grid)
    a, b = grid_bracket(g, lo, hi)
    c = algorithm1_continuous(stat_fn, target, a, b, tol=None, xtol=tol)
    if c.details["bracketed"] or not widen:
        return {"grid": grid_summary(g), "continuous": continuous_summary(c, stat_fn)}
    wide, note = widen_bracket(stat_fn, target, lo, hi)
    if wide is not None:
        c = algorithm1_continuous(stat_fn, target, *wide, tol=None, xtol=tol)
    out = continuous_summary(c, stat_fn)
    out["searched"] = [lo, hi]
    if wide is None:
        out["note"] = note
    return {"grid": grid_summary(g), "continuous": out}


WIDEST = (1e-3, 64.0)  # the widened continuous search stays inside these temperatures


def widen_bracket(
    stat_fn: Callable[[float], float], target: float, lo: float, hi: float
) -> tuple[tuple[float, float] | None, str]:
    """A bracket of ``target`` found by doubling ``hi`` (or halving ``lo``) on the side
    where the statistic is nearer the target, within :data:`WIDEST`: ``((a, b), "")``,
    or ``(None, why)`` naming the flag (``--hi`` / ``--lo``) to pass.

    >>> widen_bracket(lambda t: 1 / t, 0.25, 0.5, 1.0)
    ((2.0, 4.0), '')
    >>> widen_bracket(lambda t: 5.0, 1.0, 0.5, 1.0)[1]
    'target 1 not bracketed in [0.001, 64]: S(0.001)=5, S(64)=5 (the statistic does not reach it; pass --lo or --hi to search further)'
    """
    f_lo, f_hi = stat_fn(lo) - target, stat_fn(hi) - target
    up = abs(f_hi) <= abs(f_lo)
    t, f = (hi, f_hi) if up else (lo, f_lo)
    while (t * 2 <= WIDEST[1]) if up else (t / 2 >= WIDEST[0]):
        t2 = t * 2 if up else t / 2
        f2 = stat_fn(t2) - target
        if f2 == 0 or f2 * f < 0:
            return ((t, t2) if up else (t2, t)), ""
        t, f = t2, f2
    a, b = WIDEST
    fa, fb = stat_fn(a) - target, stat_fn(b) - target
    if fa * fb <= 0:  # crossed on the other side
        return (a, b), ""
    return None, (
        f"target {target:g} not bracketed in [{a:g}, {b:g}]: S({a:g})={fa + target:.6g}, "
        f"S({b:g})={fb + target:.6g} (the statistic does not reach it; pass --lo or --hi "
        "to search further)"
    )


def align(
    lm: LoadedModel,
    corpus: str = "stdlib",
    l_tr: int = 512,
    l_ex: int = 4096,
    mode: str = "pmax",
    n_tr: int = 4,
    n_ex: int = 1,
    grid: Iterable[float] = PAPER_GRID,
    lo: float = 0.05,
    hi: float = 1.0,
    tol: float = 1e-3,
    layers: list[str] | None = None,
    progress: bool = True,
) -> dict:
    """Algorithm 1 (grid and continuous) plus every rule on the model ``lm``."""
    from empirical.capture.measure import collect_stats, sequences
    from empirical.capture.positions import check_length, text_attention_names

    if mode not in ("pmax", "entropy"):
        raise ValueError(f"mode must be pmax or entropy, not {mode!r}")
    if n_tr < 1 or n_ex < 1:
        raise ValueError(f"need at least one sequence per length (n_tr {n_tr}, n_ex {n_ex})")
    check_length(lm.model, max(l_tr, l_ex), "--L-ex")
    t0 = time.perf_counter()
    s_tr, s_ex = sequences(lm, corpus, l_tr, n_tr), sequences(lm, corpus, l_ex, n_ex, offset=1)
    first = text_attention_names(lm.model)[0]
    from theory.core.progress import Progress

    label = Progress("Algorithm 1 forward passes", unit="passes", leave=False) if progress else None

    def overall(st):
        if layers:
            sub = {k: v for k, v in st.layers.items() if k in layers}
            if not sub:
                raise ValueError(f"none of the layers {layers} was captured")
            st.layers, st.order = sub, [k for k in st.order if k in sub]
        return st.overall(mode)

    tr = collect_stats(lm.model, s_tr, 1.0, sorted_layers=[first], progress=label)
    stat = CachedStat(
        lambda tau: collect_stats(lm.model, s_ex, tau, sorted_layers=[first], progress=label),
        lambda st: overall(st),
    )
    ex1 = stat.result(1.0)
    meas = {"tr": tr.layers[first].summary(), "ex": ex1.layers[first].summary()}
    target = overall(tr)
    found = search(stat, target, grid, lo, hi, tol)
    if label is not None:
        label.close()
    return {
        "model": lm.description,
        "corpus": corpus,
        "mode": mode,
        "L_tr": l_tr,
        "L_ex": l_ex,
        "n_tr": n_tr,
        "n_ex": n_ex,
        "layers": layers or "all",
        "target_S_tr_1": target,
        "S_ex_1": stat(1.0),
        **found,
        "first_layer": first,
        "first_layer_measured": {
            k: {q: v[q] for q in ("pmax", "entropy", "sigma", "lmax", "lmax_raw")}
            for k, v in meas.items()
        },
        "predictions": rule_predictions(
            l_tr, l_ex, meas["tr"], meas["ex"], head_dim(lm.model, first)
        ),
        "forward_passes": len(stat.cache) * n_ex + n_tr,
        "seconds": round(time.perf_counter() - t0, 2),
    }
