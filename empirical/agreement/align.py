"""The attention-alignment paper's contrasts on the seeded bundle (T5-bias and NoPE models).

Assumption 1 (Gaussian logits) per head in its regime e^(sigma^2) < L, the dispersion
of attention beyond the training length (Sec. 3), Eq. 2's E[P_max] at initial weights
(App. A.2), Algorithm 1 over the stored temperature grid (Sec. 4) and Props. 1-2 per
head; every theory number is computed when the contrast runs, by
``theory.temperature.gaussian_softmax`` and ``theory.temperature.rules``.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import numpy as np

from empirical.agreement.bundle_io import heads, seeds, tau_grid, train_len
from empirical.agreement.contrast import Contrast, contrast_of_errors, seed_interval
from theory.temperature import rules
from theory.temperature.finite_vocab import finite_vocab_pmax
from theory.temperature.gaussian_softmax import (
    approx_pmax,
    expected_entropy,
    expected_max_std_normal,
    expected_pmax,
)
from theory.temperature.rules import (
    algorithm1_continuous,
    algorithm1_grid,
    log_rule_temperature,
    prop1_temperature,
)


def head_mean(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Mean over layers and heads of a window statistic at length L."""
    return float(np.mean([h[key] for h in heads(b, seed, L, model)]))


def gaussian_prediction(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Gaussian-logit value (``theory.temperature.gaussian_softmax``) per head from its
    measured sigma and key count, averaged like :func:`head_mean`."""

    f = expected_entropy if key == "entropy" else expected_pmax
    return float(np.mean([f(h["keys"], h["sigma"]) for h in heads(b, seed, L, model)]))


def dispersion(b: dict, factor: int = 8, key: str = "entropy", model: str = "t5") -> dict:
    """Change of a window statistic from m to factor*m: measured and Gaussian-predicted
    (the figure ``align-dispersion``)."""
    m, meas, pred = train_len(b), [], []
    for s in seeds(b, model):
        meas.append(head_mean(b, model, s, factor * m, key) - head_mean(b, model, s, m, key))
        pred.append(
            gaussian_prediction(b, model, s, factor * m, key)
            - gaussian_prediction(b, model, s, m, key)
        )
    return {"measured": seed_interval(meas), "gaussian": seed_interval(pred)}


def gaussian_regime(h: dict) -> bool:
    """Assumption 1's LLN regime: e^{sigma^2} < L (the log-normal sum's law of large
    numbers; ``theory.temperature.gaussian_softmax`` module notes)."""
    return math.exp(h["sigma"] ** 2) < h["keys"]


def gaussian_stat_contrast(
    b: dict, key: str, inside: bool, tolerance: float, margin: float, model: str = "t5"
) -> Contrast:
    """Window entropy (or P_max) of each head at m..8m against the exact Gaussian-logit
    value from its measured sigma and key count (``expected_entropy`` / ``expected_pmax``),
    for the heads inside (or outside) the regime e^{sigma^2} < L.  Error: mean absolute
    error over those heads.  Alternatives: uniform attention (log L resp. 1/L), and the
    Gaussian formula with the variance doubled (the neighbouring wrong form)."""

    f = expected_entropy if key == "entropy" else expected_pmax
    null = (lambda h: math.log(h["keys"])) if key == "entropy" else (lambda h: 1 / h["keys"])
    m, per_seed, count = train_len(b), {}, []
    names = ("Gaussian logits", "uniform attention", "Gaussian, variance doubled")
    for k in names:
        per_seed[k] = []
    for s in seeds(b, model):
        hs = [
            h
            for L in (m, 2 * m, 4 * m, 8 * m)
            for h in heads(b, s, L, model)
            if gaussian_regime(h) == inside
        ]
        count.append(len(hs))
        if not hs:
            for k in names:
                per_seed[k].append(math.nan)
            continue
        meas = np.array([h[key] for h in hs])
        preds = {
            names[0]: [f(h["keys"], h["sigma"]) for h in hs],
            names[1]: [null(h) for h in hs],
            names[2]: [f(h["keys"], math.sqrt(2) * h["sigma"]) for h in hs],
        }
        for k, v in preds.items():
            per_seed[k].append(float(np.mean(np.abs(meas - np.array(v)))))
    where = "inside" if inside else "outside"
    return contrast_of_errors(
        f"align paper Assumption 1: window {key} per head, {where} e^(sigma^2) < L",
        f"mean |measured - predicted| {key} over heads at m..8m",
        names[0],
        per_seed,
        tolerance,
        margin,
        notes=[f"heads (layer x head x length) per seed: {count}"],
        relative_to=names[1],
    )


def pmax_candidates(keys: Sequence[int], s: float) -> dict:
    """Every candidate mean P_max over rows with the key counts ``keys`` and logit std
    ``s`` (each row's value averaged over ``keys``), computed now (theory first)."""

    exact = [expected_pmax(k, s) for k in keys]
    out = {
        "Gaussian E[P_max]": exact,
        "uniform 1/L": [1.0 / k for k in keys],
        "E[P_max] halved": [0.5 * e for e in exact],
        "E[P_max] x 2/3": [2.0 / 3.0 * e for e in exact],
        # N^L in the integrand for N^(L-1): L/(L+1) E[P_max] at L+1 keys, exactly
        "N^L for N^(L-1)": [k / (k + 1) * expected_pmax(k + 1, s) for k in keys],
        "variance doubled": [expected_pmax(k, math.sqrt(2) * s) for k in keys],
        # the paper's e^{l_max}/(L e^{s^2/2}) with l_max its Gaussian mean s E[max Z]
        "paper's approximation": [
            float(approx_pmax(k, s, 1.0, s * expected_max_std_normal(k))) for k in keys
        ],
    }
    return {name: float(np.mean(v)) for name, v in out.items()}


#: the theory's candidate name in the E[P_max] contrast, and the paper's distinct-key value
PMAX_THEORY = "Gaussian E[P_max], V tokens"
PMAX_PAPER = "Gaussian E[P_max], distinct keys"
#: rows of the seeded Monte Carlo of the finite-vocabulary E[P_max] per length
PMAX_MC_ROWS = 2**16


def vocab_size(b: dict) -> int:
    """The rung's vocabulary (``data.vocab_size``; 256 byte tokens where not recorded)."""
    return int((b.get("data") or {}).get("vocab_size", 256))


def finite_vocab_candidates(keys: Sequence[int], scales: Sequence[float], vocab: int) -> tuple:
    """Mean P_max over rows with the key counts ``keys`` (evenly) for each logit std of
    ``scales``, the keys drawn with replacement from ``vocab`` tokens, one i.i.d. Gaussian
    logit per distinct token (``theory.temperature.finite_vocab``, seeded Monte Carlo):
    ``({candidate: [value per s]}, [standard error of the theory per s])``, the theory
    first, then the wrong forms of :func:`pmax_candidates` applied to the same model
    (halved, x 2/3, variance doubled, N^L for N^(L-1) as L/(L+1) E at L+1 keys)."""
    s = list(scales)
    seed = int(max(keys))
    both, se = finite_vocab_pmax(keys, s + [math.sqrt(2) * x for x in s], vocab, PMAX_MC_ROWS, seed)
    nxt, _ = finite_vocab_pmax([k + 1 for k in keys], s, vocab, PMAX_MC_ROWS, seed)
    theory, doubled = both[: len(s)], both[len(s) :]
    shrink = float(np.mean([k / (k + 1) for k in keys]))  # rows' L/(L+1), key counts even
    out = {
        PMAX_THEORY: theory.tolist(),
        "E[P_max] halved": (0.5 * theory).tolist(),
        "E[P_max] x 2/3": (2.0 / 3.0 * theory).tolist(),
        "N^L for N^(L-1)": (shrink * nxt).tolist(),
        "variance doubled": doubled.tolist(),
    }
    return out, se[: len(s)].tolist()


def paper_pmax(keys: Sequence[int], s: float) -> dict:
    """The paper's values of the mean P_max over rows with the key counts ``keys``: the
    exact i.i.d.-Gaussian E[P_max] at distinct keys, uniform attention and the paper's
    approximation (Eq. 2 with the Gaussian mean maximum), each averaged over ``keys``."""
    out = {
        PMAX_PAPER: [expected_pmax(k, s) for k in keys],
        "uniform 1/L": [1.0 / k for k in keys],
        "paper's approximation": [
            float(approx_pmax(k, s, 1.0, s * expected_max_std_normal(k))) for k in keys
        ],
    }
    return {name: float(np.mean(v)) for name, v in out.items()}


def gaussian_pmax_contrast(
    b: dict, tolerance: float, margin: float, model: str = "nope"
) -> Contrast:
    """Attention-alignment paper, Eq. 2 and App. A.2 in their own regime: the dot-product
    NoPE model at its initial weights on uniformly random tokens, first layer, rows brought
    to the logit std s (``profile_bundle.init_pmax``).  Measured: the mean P_max of each
    head's window rows per length and s.  Error: mean abs(ln measured - ln predicted) over
    lengths, s and heads.

    The theory is Assumption 1 (i.i.d. N(0, s^2) logits) for the measurement as it is
    made: a row's keys are tokens drawn uniformly *with replacement* from the model's V
    tokens (256 bytes, or a BPE's vocabulary), so keys repeat and their logits coincide;
    one i.i.d. Gaussian logit per distinct token
    (:func:`theory.temperature.finite_vocab.finite_vocab_pmax`, a seeded Monte Carlo whose
    standard error is carried into the theory's error: each seed's error is raised by
    1.96 times the mean relative standard error over the cells, a bound on how far the
    Monte Carlo can move it).  Beside it, the paper's own value, the exact i.i.d.-Gaussian
    E[P_max] at L distinct keys (its V -> oo limit, ``expected_pmax``):

    .. math:: E[P_{max}] = L\\int\\varphi_s(x)\\,e^x\\int_0^\\infty e^{-t e^x}
              N(x, t)^{L-1}\\,dt\\,dx,\\quad N(x, t) = E[e^{-t e^y}; y < x].

    Alternatives: uniform attention, the paper's approximation (Eq. 2 with the Gaussian
    mean maximum) and the neighbouring wrong forms applied to the theory's model
    (:func:`finite_vocab_candidates`).
    """
    vocab, per_seed, measured, signed, se_rel = vocab_size(b), {}, [], [], []
    rec0 = b["results"][model][seeds(b, model)[0]]["init_pmax"]
    scales = list(rec0["scales"])
    model_of, paper_of = {}, {}
    for L, cell in rec0["length"].items():
        model_of[L], se = finite_vocab_candidates(cell["keys"], scales, vocab)
        se_rel += [e / v for e, v in zip(se, model_of[L][PMAX_THEORY])]
        paper_of[L] = [paper_pmax(cell["keys"], s) for s in scales]
    mc_bound = 1.96 * float(np.mean(se_rel))
    for sd in seeds(b, model):
        rec, errs, logs = b["results"][model][sd]["init_pmax"], {}, []
        for L, cell in rec["length"].items():
            for j, _ in enumerate(rec["scales"]):
                preds = {PMAX_THEORY: model_of[L][PMAX_THEORY][j], **paper_of[L][j]}
                preds.update({k: v[j] for k, v in model_of[L].items() if k != PMAX_THEORY})
                for head in cell["pmax"]:
                    logs.append(math.log(head[j]))
                    for k, v in preds.items():
                        errs.setdefault(k, []).append(abs(math.log(head[j] / v)))
                    signed.append(math.log(head[j] / preds[PMAX_THEORY]))
        measured.append(float(np.mean(logs)))
        for k, v in errs.items():
            per_seed.setdefault(k, []).append(
                float(np.mean(v)) + (mc_bound if k == PMAX_THEORY else 0.0)
            )
    return contrast_of_errors(
        f"align paper Eq. 2: E[P_max] on {model} at initial weights (uniform random tokens, "
        f"V = {vocab}), L = {', '.join(rec0['length'])}, "
        f"s = {', '.join(f'{s:g}' for s in scales)}",
        "mean |ln measured - ln predicted| P_max over lengths, logit stds and heads",
        PMAX_THEORY,
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(measured),
        beside=(PMAX_PAPER,),
        notes=[
            "measured: mean ln P_max per seed; mean ln(measured / theory) over all cells "
            f"and seeds {float(np.mean(signed)):+.4f}",
            f"theory: keys drawn with replacement from V = {vocab} tokens, one Gaussian logit "
            f"per distinct token, seeded Monte Carlo of {PMAX_MC_ROWS} rows per length; its "
            f"error includes the Monte Carlo bound 1.96 x mean relative s.e. = {mc_bound:.2g}",
            f"{PMAX_PAPER}: the paper's exact i.i.d. value (every key its own logit), shown "
            "beside for comparison (the V -> oo limit of the theory)",
        ],
    )


def dispersion_contrast(
    b: dict, factor: int, tolerance: float, margin: float, model: str = "t5"
) -> Contrast:
    """Sec. 3: the change of the mean window entropy from m to factor*m, measured,
    against the Gaussian-logit prediction from the measured sigmas and key counts;
    alternative: uniform attention (the change is the log of the key-count ratio) and
    no change (attention does not disperse)."""

    m, per_seed, meas = (
        train_len(b),
        {"Gaussian logits": [], "uniform attention": [], "no change": []},
        [],
    )
    for s in seeds(b, model):
        h0, h1 = heads(b, s, m, model), heads(b, s, factor * m, model)
        d = np.mean([h["entropy"] for h in h1]) - np.mean([h["entropy"] for h in h0])
        g = np.mean([expected_entropy(h["keys"], h["sigma"]) for h in h1]) - np.mean(
            [expected_entropy(h["keys"], h["sigma"]) for h in h0]
        )
        u = np.mean([math.log(h["keys"]) for h in h1]) - np.mean([math.log(h["keys"]) for h in h0])
        meas.append(d)
        per_seed["Gaussian logits"].append(abs(d - g))
        per_seed["uniform attention"].append(abs(d - u))
        per_seed["no change"].append(abs(d))
    return contrast_of_errors(
        f"align paper Sec. 3: entropy change m -> {factor}m",
        "|measured - predicted| change of the mean window entropy (nats)",
        "Gaussian logits",
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(meas),
    )


def alg1_tau(b: dict, seed: str, L: int, mode: str, model: str = "t5") -> float:
    """Algorithm 1 (``theory.temperature.rules.algorithm1_grid``) over the stored grid:
    the tau whose mean window statistic at L is closest to the mean at m with tau = 1."""

    grid = tau_grid(b, seed, model)
    vals = np.mean(b["results"][model][seed]["grid"][str(L)][mode], axis=1)
    target = float(np.mean([h[mode] for h in heads(b, seed, train_len(b), model)]))
    lookup = dict(zip(grid.tolist(), vals.tolist()))
    return algorithm1_grid(lambda t: lookup[t], target, grid.tolist()).tau


def ppl_at_tau(b: dict, seed: str, L: int, tau: float, model: str = "t5") -> float:
    """Stored perplexity at L, interpolated (in log) on the temperature grid."""
    grid = tau_grid(b, seed, model)
    p = np.log(np.asarray(b["results"][model][seed]["grid_ppl"][str(L)]))
    if not grid[0] <= tau <= grid[-1]:
        raise ValueError(f"tau {tau:.4g} outside the stored grid [{grid[0]}, {grid[-1]}]")
    return float(math.exp(np.interp(tau, grid, p)))


def alg1_ppl_contrast(
    b: dict, factor: int, mode: str, tolerance: float, margin: float, model: str = "t5"
) -> Contrast:
    """Sec. 4: perplexity at factor*m with Algorithm 1's tau (``mode`` alignment) against
    tau = 1, the log rule and a constant tau = 0.6.  Error: ln ppl(tau) - ln ppl(best tau
    on the grid) (0 for the best temperature there is)."""

    m = train_len(b)
    L = factor * m
    per_seed = {"Algorithm 1": [], "tau = 1": [], "log rule": [], "tau = 0.6": []}
    taus = []
    for s in seeds(b, model):
        best = min(b["results"][model][s]["grid_ppl"][str(L)])
        keys = [np.mean([h["keys"] for h in heads(b, s, x, model)]) for x in (m, L)]
        cand = {
            "Algorithm 1": alg1_tau(b, s, L, mode, model),
            "tau = 1": 1.0,
            "log rule": log_rule_temperature(*keys).tau,
            "tau = 0.6": 0.6,
        }
        taus.append(cand["Algorithm 1"])
        for k, t in cand.items():
            per_seed[k].append(math.log(ppl_at_tau(b, s, L, t, model) / best))
    return contrast_of_errors(
        f"align paper Algorithm 1 ({mode} alignment): perplexity at {factor}m",
        "ln ppl(tau) - ln min_grid ppl",
        "Algorithm 1",
        per_seed,
        tolerance,
        margin,
        predictions={"Algorithm 1": seed_interval(taus)},
        relative_to="tau = 1",
    )


def head_alg1_tau(b: dict, seed: str, L: int, mode: str, j: int, model: str = "t5") -> float | None:
    """Algorithm 1 for head ``j`` alone: ``algorithm1_continuous`` on its statistic at L,
    linearly interpolated on the stored grid, aligned with its own value at m."""

    grid = tau_grid(b, seed, model)
    vals = np.asarray(b["results"][model][seed]["grid"][str(L)][mode])[:, j]
    target = heads(b, seed, train_len(b), model)[j][mode]
    r = algorithm1_continuous(
        lambda t: float(np.interp(t, grid, vals)), target, lo=grid[0], hi=grid[-1], tol=None
    )
    return r.tau


def prop_contrast(
    b: dict, prop: str, factor: int, tolerance: float, margin: float, model: str = "t5"
) -> Contrast:
    """Props. 1-2 per head against that head's Algorithm 1 temperature at factor*m.

    Prop. 2 (entropy alignment) on every head whose Algorithm 1 answer is bracketed by
    the grid; Prop. 1 (P_max alignment) on the heads where its quadratic has a real root
    in (0, 1] (``prop1_temperature`` decides), the others counted in the notes.
    Error: mean of abs(tau_candidate - tau_alg1) over those heads.  Alternatives: the log
    rule, a constant tau = 0.6, tau = 1, and the neighbouring forms of Prop. 2 with 1 or 3
    in place of the factor 2 in 2 log(L_ex/L_tr)."""

    m, L = train_len(b), factor * train_len(b)
    mode = "pmax" if prop == "prop1" else "entropy"
    names = (
        prop,
        "log rule",
        "tau = 0.6",
        "tau = 1",
        "Prop. 2 without the 2",
        "Prop. 2 with 3 log",
    )
    per_seed = {k: [] for k in names}
    used, skipped = [], []
    for s in seeds(b, model):
        errs = {k: [] for k in names}
        for j, (h0, h1) in enumerate(zip(heads(b, s, m, model), heads(b, s, L, model))):
            a = head_alg1_tau(b, s, L, mode, j, model)
            if prop == "prop1":
                t = rules.prop1_temperature(
                    h0["keys"], h1["keys"], h0["sigma"], h1["sigma"], h0["pmax"]
                ).tau
            else:
                t = rules.prop2_temperature(h0["keys"], h1["keys"], h0["sigma"], h1["sigma"]).tau
            if a is None or t is None:
                continue
            cand = {
                prop: t,
                "log rule": rules.log_rule_temperature(h0["keys"], h1["keys"]).tau,
                "tau = 0.6": 0.6,
                "tau = 1": 1.0,
                "Prop. 2 without the 2": h1["sigma"]
                / math.sqrt(h0["sigma"] ** 2 + math.log(h1["keys"] / h0["keys"])),
                "Prop. 2 with 3 log": h1["sigma"]
                / math.sqrt(h0["sigma"] ** 2 + 3 * math.log(h1["keys"] / h0["keys"])),
            }
            for k, v in cand.items():
                errs[k].append(abs(v - a))
        used.append(len(errs[prop]))
        skipped.append(len(heads(b, s, m, model)) - len(errs[prop]))
        for k in names:
            per_seed[k].append(float(np.mean(errs[k])) if errs[k] else math.nan)
    # a seed none of whose heads is usable has no error to compare: it is left out of every
    # candidate alike (the intervals stay paired), and the notes say which
    empty = [s for s, n in zip(seeds(b, model), used) if n == 0]
    keep = [i for i, n in enumerate(used) if n > 0]
    per_seed = {k: [v[i] for i in keep] for k, v in per_seed.items()}
    return contrast_of_errors(
        f"align paper {prop} per head vs the head's Algorithm 1 tau at {factor}m",
        f"mean |tau - tau_alg1({mode})| over heads",
        prop,
        per_seed,
        tolerance,
        margin,
        notes=[
            f"heads used per seed: {used}; without a root / unbracketed: {skipped}"
            + (f"; seeds with no usable head, left out: {empty}" if empty else "")
        ],
    )


def prop1_root_heads(b: dict, factor: int, model: str = "t5") -> list[int]:
    """Per seed, the number of heads where Prop. 1 has a real root in (0, 1] at factor*m
    (``theory.temperature.rules.prop1_temperature``)."""

    m, out = train_len(b), []
    for s in seeds(b, model):
        out.append(
            sum(
                prop1_temperature(h0["keys"], h1["keys"], h0["sigma"], h1["sigma"], h0["pmax"]).tau
                is not None
                for h0, h1 in zip(heads(b, s, m, model), heads(b, s, factor * m, model))
            )
        )
    return out
