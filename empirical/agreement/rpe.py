"""The RPE paper's contrasts on the seeded bundle: stability and receptive fields.

Which trained RPEs converge is decided when the contrast runs, by
``theory.series.convergence.decide`` on each head's learned series (Thm. 3.4); the TRF
(Eq. 22) of each head is certified by ``theory.series.trf_search``; the ERF (Sec. 3.3)
is read from the stored attention by distance.  :func:`stability_contrast` sets the
labels against Def. 2.1's stable band, :func:`erf_trf_contrast` the TRF against the ERF
(Figs. 5-6).
"""

from __future__ import annotations

import functools
import json
import math
from collections.abc import Sequence

import numpy as np
from scipy.stats import spearmanr

from empirical.agreement.bundle_io import seeds, train_len
from empirical.agreement.contrast import Contrast, Interval, contrast_of_errors, seed_interval
from empirical.training.rpe_theory import series_of_spec
from theory.series.convergence import decide
from theory.series.trf_search import trf_table

#: the RPE paper's set with a bias (sinusoidal has none); which of them converge is decided
#: at run time by :func:`convergence_label` (``theory.series``), never listed here
BIAS_RPES = (
    "alibi",
    "kerple_log",
    "kerple_power",
    "sandwich",
    "type1",
    "type2",
    "inv_n",
    "inv_nlogn",
)


def ppl_ratio(b: dict, model: str, factor: int = 16) -> Interval:
    """ppl(factor * m) / ppl(m) across seeds (RPE paper Def. 2.1's ratio)."""
    m = train_len(b)
    r = b["results"][model]
    return seed_interval(
        [r[s]["ppl"][str(factor * m)] / r[s]["ppl"][str(m)] for s in seeds(b, model)]
    )


@functools.cache
def _spec_converges(spec: str) -> bool | None:
    expr, start = series_of_spec(json.loads(spec))
    return decide(expr, start).converges


def convergence_label(b: dict, model: str) -> bool | None:
    """Whether the series of the trained RPE converges, decided now by
    ``theory.series.convergence.decide`` for every head of every seed (learned values):
    True if all heads converge, False if any diverges, else None (undecided)."""
    verdicts = [
        _spec_converges(json.dumps(spec, sort_keys=True))
        for s in seeds(b, model)
        for spec in b["results"][model][s]["erf"]["series"]
    ]
    if False in verdicts:
        return False
    return True if all(v is True for v in verdicts) else None


def convergence_labels(b: dict, models: Sequence[str] = BIAS_RPES) -> dict:
    return {mdl: convergence_label(b, mdl) for mdl in models if mdl in b["results"]}


def convergent_rpes(b: dict) -> list[str]:
    """The trained RPEs whose learned series ``theory.series`` proves convergent."""
    return [r for r, v in convergence_labels(b).items() if v is True]


def stability_contrast(b: dict, delta: float, tolerance: float, margin: float) -> Contrast:
    """Thm. 3.4 / Def. 2.1: a convergent RPE keeps ppl(16m)/ppl(m) below 1 + delta and a
    divergent one need not.  Error of a labelling, per seed: the number of RPEs it calls
    convergent whose ratio is >= 1 + delta plus the number it calls divergent whose
    ratio is < 1 + delta, divided by the number of RPEs (a misclassification rate).
    Alternatives: every biased RPE converges (a decaying bias is enough), the labels
    negated, and the list that calls Sandwich convergent."""
    labels = convergence_labels(b)
    known = [r for r, v in labels.items() if v is not None]
    candidates = {
        "theory.series": {r: labels[r] for r in known},
        "all converge": {r: True for r in known},
        "labels negated": {r: not labels[r] for r in known},
        "fixed list (Sandwich convergent)": {r: r not in ("inv_n", "inv_nlogn") for r in known},
    }
    per_seed = {k: [] for k in candidates}
    for s in seeds(b, known[0]):
        m = train_len(b)
        stable = {
            r: b["results"][r][s]["ppl"][str(16 * m)] / b["results"][r][s]["ppl"][str(m)]
            < 1 + delta
            for r in known
        }
        for k, lab in candidates.items():
            per_seed[k].append(sum(lab[r] != stable[r] for r in known) / len(known))
    return contrast_of_errors(
        "RPE paper Thm. 3.4: convergent series <=> ppl(16m)/ppl(m) < 1 + delta",
        "misclassification rate over the biased RPEs",
        "theory.series",
        per_seed,
        tolerance,
        margin,
        predictions={k: " ".join(r for r in known if v[r]) for k, v in candidates.items()},
        notes=[f"labels: {labels}"],
    )


@functools.cache
def _spec_trf_table(spec: str, eps: tuple) -> tuple:
    """TRF(eps) (Eq. 22, full series) of one head from ``theory.series``, or () when the
    series does not converge."""
    expr, start = series_of_spec(json.loads(spec))
    if _spec_converges(spec) is not True:
        return ()
    return tuple(trf_table(expr, list(eps), start=start))


def _spec_trf(spec: str, eps: tuple) -> tuple:
    """TRF(eps) values of one head, or inf when its series diverges."""
    table = _spec_trf_table(spec, eps)
    return tuple(float(t.value) for t in table) if table else tuple(math.inf for _ in eps)


def uncertified_trfs(b: dict, eps: Sequence[float] = ()) -> list[str]:
    """The TRFs of the trained convergent RPEs (at :data:`CERT_EPS` by default) that
    ``theory.series`` did not certify exact (ball arithmetic proves R_j < B eps <=
    R_(j-1)), named by model, seed, head and eps; empty when every one is a certified
    integer."""
    eps = tuple(eps or CERT_EPS)
    out = []
    conv = convergent_rpes(b)
    for r in conv:
        for s in seeds(b, r):
            for h, sp_ in enumerate(b["results"][r][s]["erf"]["series"]):
                table = _spec_trf_table(json.dumps(sp_, sort_keys=True), eps)
                out += [f"{r} seed {s} head {h} eps {t.eps}" for t in table if not t.exact]
    return out


def model_trf(b: dict, model: str, seed: str, eps: Sequence[float]) -> list[float]:
    """TRF of a trained model's RPE: geometric mean over heads of the certified
    per-head TRF (``theory.series.trf_search``, learned values)."""
    specs = b["results"][model][seed]["erf"]["series"]
    per_head = np.array([_spec_trf(json.dumps(sp, sort_keys=True), tuple(eps)) for sp in specs])
    return np.exp(np.log(per_head).mean(axis=0)).tolist()


def erf_values(b: dict, model: str, seed: str, eps: Sequence[float]) -> list[float]:
    """ERF n_emp(eps) (Sec. 3.3) from the stored attention by distance."""
    from empirical.training.erf import receptive_field  # imports torch (optional)

    a = np.asarray(b["results"][model][seed]["erf"]["attention"])
    return receptive_field(a, eps).astype(float).tolist()


def rpe_only_values(b: dict, model: str, seed: str, eps: Sequence[float]) -> list[float]:
    """The same statistic of the stored RPE-only attention (content logits 0)."""
    from empirical.training.erf import receptive_field  # imports torch (optional)

    a = np.asarray(b["results"][model][seed]["erf"]["rpe_only_attention"])
    return receptive_field(a, eps).astype(float).tolist()


ERF_EPS = (0.5, 0.3, 0.1)
#: the compared eps and two small ones, whose TRFs of power-law RPEs lie beyond the terms
#: summed directly (the certified-tail path of the search)
CERT_EPS = ERF_EPS + (1e-3, 1e-6)


def erf_trf_contrast(b: dict, tolerance: float, margin: float) -> Contrast:
    """Figs. 5-6: the certified TRF of each convergent trained RPE predicts its ERF.

    Per seed, Spearman's rho between n_emp(eps) and the candidate, pooled over the
    RPEs ``theory.series`` calls convergent and eps in :data:`ERF_EPS`; error = 1 - rho.
    Alternatives: the TRF with head and tail swapped (TRF(1 - eps)), and a TRF that
    ignores the RPE (the same for every model: only eps orders the pairs).  The
    RPE-only attention of the model is shown beside it under its own name."""
    conv = convergent_rpes(b)
    flip = tuple(round(1 - e, 6) for e in ERF_EPS)
    per_seed = {
        k: [] for k in ("certified TRF", "TRF(1-eps)", "TRF without the RPE", "RPE-only attention")
    }
    for s in seeds(b, conv[0]):
        emp, cands = [], {k: [] for k in per_seed}
        for r in conv:
            emp += erf_values(b, r, s, ERF_EPS)
            cands["certified TRF"] += model_trf(b, r, s, ERF_EPS)
            cands["TRF(1-eps)"] += model_trf(b, r, s, flip)
            cands["TRF without the RPE"] += [1 / e for e in ERF_EPS]
            cands["RPE-only attention"] += rpe_only_values(b, r, s, ERF_EPS)
        for k, v in cands.items():
            rho = spearmanr(emp, v).statistic
            per_seed[k].append(1 - (0.0 if not np.isfinite(rho) else rho))
    return contrast_of_errors(
        "RPE paper Figs. 5-6: ERF vs certified TRF of the learned RPE",
        f"1 - Spearman rho over (convergent RPE, eps in {list(ERF_EPS)})",
        "certified TRF",
        per_seed,
        tolerance,
        margin,
        notes=[f"convergent per theory.series: {conv}"],
        beside=("RPE-only attention",),
    )
