"""Cached bundle results for figures and paper checks.

``bundle_results(quick, workdir)`` returns the bundle summary, perplexity rows and ERF
results from ``$LENGTHX_BUNDLE`` or ``runs/bundle`` when a finished bundle is there
(any budget); otherwise it trains one with the quick budget (60 steps per RPE) under
``workdir/bundle_quick`` -- a few minutes on 2 cores.

The seeded bundle (``python -m empirical.bundle --profile ci|paper``) is read by
:func:`load_profile_bundle`; the functions below it return its numbers as
:class:`Interval` (mean and Student-t interval over seeds), the theory side recomputed
now from ``theory`` (never stored in the bundle).
"""

from __future__ import annotations

import csv
import json
import math
import os
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from theory.core.cli import CommandParser, command, fail

CANDIDATES = ("runs/bundle", "runs/bundle_quick")


def _load(folder: Path) -> dict:
    summary = json.loads((folder / "summary.json").read_text())
    with open(folder / "ppl_rows.csv") as fh:
        rows = [
            {
                k: (
                    float(v)
                    if k in ("nll", "ppl")
                    else int(v)
                    if k in ("length", "train_len", "predictions")
                    else v
                )
                for k, v in r.items()
            }
            for r in csv.DictReader(fh)
        ]
    erf = json.loads((folder / "erf.json").read_text())
    return {
        "folder": str(folder),
        "summary": summary,
        "rows": rows,
        "erf": erf,
        "budget_steps": summary["settings"]["budget_steps"],
    }


def find_bundle() -> Path | None:
    env = os.environ.get("LENGTHX_BUNDLE")
    for c in ([env] if env else []) + list(CANDIDATES):
        if c and (Path(c) / "summary.json").exists():
            return Path(c)
    return None


def bundle_results(quick: bool = True, workdir: str | Path | None = None) -> dict:
    """Cached results if present, else a quick bundle trained now under ``workdir``."""
    found = find_bundle()
    if found is not None:
        return _load(found)
    from empirical.training.bundle import main as bundle_main

    out = Path(workdir or "runs") / "bundle_quick"
    argv = ["--quick", "--out", str(out), "--quiet", "--eval-tokens", "4096"]
    if bundle_main(argv) != 0:
        raise RuntimeError("quick bundle failed")
    return _load(out)


# ------------------------------------------------------- the seeded agreement bundle
#: where the seeded bundle is looked for (paper profile first); ``$LENGTHX_AGREEMENT``
#: overrides
PROFILE_CANDIDATES = ("runs/paper", "runs/ci")
CONVERGENT_RPES = ("alibi", "kerple_log", "kerple_power", "sandwich", "type1", "type2")


@dataclass(frozen=True)
class Interval:
    """Mean over seeds with a two-sided Student-t confidence interval (``level``).

    >>> iv = seed_interval([1.0, 2.0, 3.0])
    >>> iv.mean, round(iv.lo, 4), round(iv.hi, 4), iv.n
    (2.0, -0.4841, 4.4841, 3)
    """

    mean: float
    lo: float
    hi: float
    n: int
    values: tuple
    level: float = 0.95

    def as_dict(self) -> dict:
        return {
            "mean": self.mean,
            "lo": self.lo,
            "hi": self.hi,
            "n": self.n,
            "values": list(self.values),
            "level": self.level,
        }

    def __str__(self) -> str:
        return f"{self.mean:.4g} [{self.lo:.4g}, {self.hi:.4g}] ({self.n} seeds, {self.level:.0%})"


def seed_interval(values: Iterable[float], level: float = 0.95) -> Interval:
    """Student-t interval of the mean of per-seed values (n >= 2; zero width if constant)."""
    from scipy.stats import t as student_t

    v = np.asarray([float(x) for x in values], dtype=float)
    if len(v) < 2 or not np.all(np.isfinite(v)):
        raise ValueError(f"need >= 2 finite per-seed values, got {list(v)}")
    half = float(student_t.ppf(0.5 + level / 2, len(v) - 1) * v.std(ddof=1) / math.sqrt(len(v)))
    return Interval(
        float(v.mean()),
        float(v.mean()) - half,
        float(v.mean()) + half,
        len(v),
        tuple(float(x) for x in v),
        level,
    )


def find_profile_bundle() -> Path | None:
    """Folder of the seeded bundle: ``$LENGTHX_AGREEMENT``, else runs/paper, else runs/ci."""
    env = os.environ.get("LENGTHX_AGREEMENT")
    for c in [env] if env else list(PROFILE_CANDIDATES):
        if c and (Path(c) / "bundle.json").exists():
            return Path(c)
    return None


def load_profile_bundle(folder: str | Path | None = None) -> dict:
    """``bundle.json`` of the seeded bundle (``FileNotFoundError`` when there is none)."""
    folder = Path(folder) if folder else find_profile_bundle()
    if folder is None:
        raise FileNotFoundError(
            "no seeded bundle (python -m empirical.bundle --profile ci --out runs/ci)"
        )
    b = json.loads((folder / "bundle.json").read_text())
    b["folder"] = str(folder)
    return b


def seeds(b: dict, model: str) -> list[str]:
    return sorted(b["results"][model], key=int)


def train_len(b: dict) -> int:
    return int(b["settings"]["seq_len"])


def ppl_ratio(b: dict, model: str, factor: int = 16) -> Interval:
    """ppl(factor * m) / ppl(m) across seeds (RPE paper Def. 2.1's ratio)."""
    m = train_len(b)
    r = b["results"][model]
    return seed_interval(
        [r[s]["ppl"][str(factor * m)] / r[s]["ppl"][str(m)] for s in seeds(b, model)]
    )


def log_growth(b: dict, model: str, seed: str, factors: Sequence[int] = (16, 32, 64)) -> float:
    """Mean over L = factor * m of ln(ppl(L) / ppl(m))."""
    m, p = train_len(b), b["results"][model][seed]["ppl"]
    return float(np.mean([math.log(p[str(f * m)] / p[str(m)]) for f in factors]))


def growth_difference(b: dict, a: str, ref: str, factors: Sequence[int] = (16, 32, 64)) -> Interval:
    """Paired (same seed) difference of :func:`log_growth`: model ``a`` minus ``ref``."""
    return seed_interval(
        [log_growth(b, a, s, factors) - log_growth(b, ref, s, factors) for s in seeds(b, a)]
    )


def windowed_trf(b: dict, model: str, seed: str) -> dict:
    """TRF on the ERF's axes, recomputed now from the run's (learned) RPE
    (:func:`empirical.training.erf.rpe_only_attention`): ``{"eps": [...], "n_the": [...]}``."""
    from empirical.training.erf import receptive_field, rpe_only_attention
    from empirical.training.train import load_model

    e = b["results"][model][seed]["erf"]
    rpe_model, _ = load_model(Path(b["folder"]) / model / f"seed{seed}")
    m = train_len(b)
    a0 = rpe_only_attention(rpe_model, e["length"], first_query=min(m, e["length"] - 1))
    return {"eps": e["eps"], "n_the": receptive_field(a0, e["eps"]).tolist()}


def erf_trf_spearman(
    b: dict, eps: float = 0.1, models: Sequence[str] = CONVERGENT_RPES
) -> Interval:
    """Spearman rank correlation over ``models`` of ERF n_emp(eps) and the windowed TRF,
    one value per seed (RPE paper Figs. 5-6)."""
    from scipy.stats import spearmanr

    rhos = []
    for s in seeds(b, models[0]):
        emp, the = [], []
        for mdl in models:
            e, t = b["results"][mdl][s]["erf"], windowed_trf(b, mdl, s)
            k = min(range(len(e["eps"])), key=lambda i: abs(e["eps"][i] - eps))
            emp.append(e["n_emp"][k])
            the.append(t["n_the"][k])
        rhos.append(spearmanr(emp, the).statistic)
    return seed_interval(rhos)


# ---------------------------------------------- attention-alignment paper (T5 bias)
def head_mean(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Mean over layers and heads of a window statistic at length L."""
    hs = b["results"][model][seed]["heads"][str(L)]
    return float(np.mean([h[key] for h in hs]))


def gaussian_prediction(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Gaussian-logit theory (``theory.temperature.gaussian_softmax``) per head from its
    measured sigma and key count, averaged like :func:`head_mean`."""
    from theory.temperature.gaussian_softmax import expected_entropy, expected_pmax

    f = expected_entropy if key == "entropy" else expected_pmax
    hs = b["results"][model][seed]["heads"][str(L)]
    return float(np.mean([f(h["keys"], h["sigma"]) for h in hs]))


def dispersion(b: dict, factor: int = 8, key: str = "entropy", model: str = "t5") -> dict:
    """Change of a window statistic from m to factor*m: measured and Gaussian-predicted."""
    m = train_len(b)
    meas, pred = [], []
    for s in seeds(b, model):
        meas.append(head_mean(b, model, s, factor * m, key) - head_mean(b, model, s, m, key))
        pred.append(
            gaussian_prediction(b, model, s, factor * m, key)
            - gaussian_prediction(b, model, s, m, key)
        )
    return {
        "measured": seed_interval(meas),
        "gaussian": seed_interval(pred),
        "ratio": seed_interval([a / c for a, c in zip(meas, pred)]),
    }


def temperature_gain(b: dict, factor: int, mode: str = "pmax", model: str = "t5") -> dict:
    """ppl(factor*m) with Algorithm 1's tau minus ppl with tau = 1 (paired), and the tau."""
    m = train_len(b)
    r = b["results"][model]
    diff = [
        r[s]["alg1"][str(factor * m)][f"ppl_{mode}"] - r[s]["ppl"][str(factor * m)]
        for s in seeds(b, model)
    ]
    gap1 = [r[s]["ppl"][str(factor * m)] - r[s]["ppl"][str(m)] for s in seeds(b, model)]
    taus = [r[s]["alg1"][str(factor * m)][f"tau_{mode}"] for s in seeds(b, model)]
    return {
        "ppl_difference": seed_interval(diff),
        "gap_tau1": seed_interval(gap1),
        "tau": seed_interval(taus),
    }


def prop_temperatures(b: dict, factor: int, model: str = "t5") -> dict:
    """Props. 1-2 (``theory.temperature.rules``) and the exact Gaussian-logit alignment
    (``theory.temperature.gaussian_softmax``) from the measured sigmas (mean over heads;
    lengths = mean visible keys in the window), beside Algorithm 1's tau.  A Prop. 1
    without a real root is left out (``prop1_roots`` counts the seeds that had one)."""
    from theory.temperature.gaussian_softmax import (
        entropy_alignment_tau_exact,
        pmax_alignment_tau_exact,
    )
    from theory.temperature.rules import prop1_temperature, prop2_temperature

    m = train_len(b)
    out = {
        k: []
        for k in ("prop1", "prop2", "gauss_pmax", "gauss_entropy", "alg1_pmax", "alg1_entropy")
    }
    for s in seeds(b, model):
        st, se = (head_mean(b, model, s, L, "sigma") for L in (m, factor * m))
        lt, le = (head_mean(b, model, s, L, "keys") for L in (m, factor * m))
        out["prop1"].append(
            prop1_temperature(lt, le, st, se, head_mean(b, model, s, m, "pmax")).tau
        )
        out["prop2"].append(prop2_temperature(lt, le, st, se).tau)
        out["gauss_pmax"].append(pmax_alignment_tau_exact(lt, le, st, se))
        out["gauss_entropy"].append(entropy_alignment_tau_exact(lt, le, st, se))
        for mode in ("pmax", "entropy"):
            out[f"alg1_{mode}"].append(
                b["results"][model][s]["alg1"][str(factor * m)][f"tau_{mode}"]
            )
    res = {k: seed_interval(v) for k, v in out.items() if None not in v}
    res["prop1_roots"] = sum(v is not None for v in out["prop1"])
    for p in ("prop1", "prop2", "gauss_pmax", "gauss_entropy"):
        mode = "pmax" if p in ("prop1", "gauss_pmax") else "entropy"
        if p in res:
            a = out[f"alg1_{mode}"]
            res[f"{p}_error"] = seed_interval([abs(x - y) for x, y in zip(out[p], a)])
            res[f"{p}_tau1_error"] = seed_interval([abs(1 - y) for y in a])
    return res


# ------------------------------------------------------------- InfoScale paper
def entropy_drift(b: dict, model: str, rule: str = "none", factor: int = 16) -> Interval:
    """Window entropy at factor*m minus at m for a model under an inference rule."""
    m, r = train_len(b), b["results"][model]
    return seed_interval(
        [
            r[s]["rules"][rule]["window"][str(factor * m)]["entropy"]
            - r[s]["rules"][rule]["window"][str(m)]["entropy"]
            for s in seeds(b, model)
        ]
    )


def scaled_ppl_ratio(b: dict, model: str, rule: str = "none", factor: int = 16) -> Interval:
    """ppl(factor*m) / ppl(m) for a model under an inference rule."""
    m, r = train_len(b), b["results"][model]
    return seed_interval(
        [
            r[s]["rules"][rule]["ppl"][str(factor * m)] / r[s]["rules"][rule]["ppl"][str(m)]
            for s in seeds(b, model)
        ]
    )


def paired_difference(b: dict, fn: Callable[..., Interval], a: tuple, c: tuple) -> Interval:
    """Per-seed ``fn(model, rule)`` values of a minus those of c (same seeds)."""
    va, vc = fn(b, *a).values, fn(b, *c).values
    return seed_interval([x - y for x, y in zip(va, vc)])


def cos_peak(b: dict, model: str = "nope_cosscale") -> dict:
    """Measured peak of the attention-weighted cosine (mean over layers) and Eq. 18's
    eta*(alpha, d_head) (``theory.infoscale.cosscale.eta_star``)."""
    from theory.infoscale.cosscale import eta_star

    r = b["results"][model]
    cp = r[seeds(b, model)[0]]["cos_peak"]
    peaks = [
        float(np.mean([x["weighted_mode"] for x in r[s]["cos_peak"]["layers"]]))
        for s in seeds(b, model)
    ]
    unweighted = [
        float(np.mean([x["unweighted_mode"] for x in r[s]["cos_peak"]["layers"]]))
        for s in seeds(b, model)
    ]
    return {
        "alpha": cp["alpha"],
        "d_head": cp["d_head"],
        "peak": seed_interval(peaks),
        "unweighted_peak": seed_interval(unweighted),
        "eta_star": eta_star(cp["alpha"], cp["d_head"]),
    }


# ------------------------------------------------------------------- summary / CLI
def agreement_summary(b: dict) -> dict:
    """Every number the agreement tests assert on, as ``Interval.as_dict()`` (JSON-able)."""
    out = {
        "profile": b["profile"],
        "seeds": list(b["settings"]["seeds"]),
        "settings": b["settings"],
        "folder": b["folder"],
        "wall_s": b.get("wall_s"),
    }
    out["ppl_ratio_16m"] = {
        r: ppl_ratio(b, r, 16).as_dict() for r in ("sinusoidal",) + CONVERGENT_RPES
    }
    out["growth_vs_type1_16_64m"] = {
        r: growth_difference(b, r, "type1").as_dict() for r in ("inv_n", "inv_nlogn")
    }
    out["ppl_ratio_64m"] = {
        r: ppl_ratio(b, r, 64).as_dict() for r in ("inv_n", "inv_nlogn", "type1")
    }
    out["spearman_erf_trf"] = {str(e): erf_trf_spearman(b, e).as_dict() for e in (0.5, 0.2, 0.1)}
    out["t5"] = {
        f"x{f}": {
            "dispersion": {
                k: {kk: v.as_dict() for kk, v in dispersion(b, f, k).items()}
                for k in ("entropy", "pmax")
            },
            "gain": {
                mode: {k: v.as_dict() for k, v in temperature_gain(b, f, mode).items()}
                for mode in ("pmax", "entropy")
            },
            "taus": {
                k: (v.as_dict() if isinstance(v, Interval) else v)
                for k, v in prop_temperatures(b, f).items()
            },
        }
        for f in (4, 8)
    }
    rules = [
        ("nope", "none"),
        ("nope", "infoscale"),
        ("nope", "log_n"),
        ("nope_log_n", "none"),
        ("nope_cosscale", "none"),
        ("nope_cosscale", "infoscale"),
    ]
    out["infoscale"] = {
        f"{m}/{r}": {
            "entropy_drift_16m": entropy_drift(b, m, r).as_dict(),
            "ppl_ratio_16m": scaled_ppl_ratio(b, m, r).as_dict(),
        }
        for m, r in rules
    }
    out["cos_peak"] = {
        mdl: {
            k: (v.as_dict() if isinstance(v, Interval) else v) for k, v in cos_peak(b, mdl).items()
        }
        for mdl in ("nope_cosscale_low", "nope_cosscale")
    }
    return out


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.results",
        description="Numbers of the seeded "
        "bundle with their seed intervals (runs/paper or runs/ci).",
        epilog="examples:\n  python -m empirical.results --json\n"
        "  python -m empirical.results --bundle runs/ci",
    )
    p.add_argument("--bundle", default=None, help="bundle folder (default runs/paper, runs/ci)")
    p.add_argument("--json", action="store_true")
    args = p.parse_args(argv)
    try:
        s = agreement_summary(load_profile_bundle(args.bundle))
    except (FileNotFoundError, KeyError, ValueError) as exc:
        return fail(exc)
    if args.json:
        print(json.dumps(s))
        return 0
    lines = [f"profile {s['profile']}, seeds {s['seeds']}, {s['folder']}"]
    for sec in ("ppl_ratio_16m", "growth_vs_type1_16_64m", "ppl_ratio_64m", "spearman_erf_trf"):
        lines += [
            f"{sec:>24} {k:>14}: {v['mean']:.4g} [{v['lo']:.4g}, {v['hi']:.4g}]"
            for k, v in s[sec].items()
        ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
