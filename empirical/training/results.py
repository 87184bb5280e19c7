"""Cached bundle results for figures and paper checks.

``bundle_results(quick, workdir)`` returns the bundle summary, perplexity rows and ERF
results from ``$LENGTHX_BUNDLE`` or ``runs/bundle`` when a finished bundle is there
(any budget); otherwise it trains one with the quick budget (60 steps per RPE) under
``workdir/bundle_quick`` -- a few minutes on 2 cores.

The seeded bundle (``python -m empirical.bundle --profile ci|paper``) is read by
:func:`load_profile_bundle`.  It holds measurements only; the functions below compute
every theory number when they run (``theory.series``, ``theory.temperature``,
``theory.infoscale``) and return :class:`Contrast` objects: the theory's error and
those of a sceptic's alternatives, per seed, as :class:`Interval` (mean and Student-t
interval over seeds).  The agreement tests declare the tolerances and margins.
"""

from __future__ import annotations

import csv
import functools
import json
import math
import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field
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
        return f"{self.mean:.4g} [{self.lo:.4g}, {self.hi:.4g}]"


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


def bundle_format(folder: str | Path) -> int | None:
    """The measurement format recorded in ``folder/bundle.json`` (None if older)."""
    return json.loads((Path(folder) / "bundle.json").read_text()).get("format")


def seeds(b: dict, model: str) -> list[str]:
    return sorted(b["results"][model], key=int)


def train_len(b: dict) -> int:
    return int(b["settings"]["seq_len"])


# ------------------------------------------------------------------------ contrasts
@dataclass
class Contrast:
    """Theory against a sceptic's alternatives on one measured quantity.

    ``errors[name]`` is the per-seed error of candidate ``name`` (the theory first);
    the theory *agrees* when the upper end of its error interval is at most
    ``tolerance``, and *beats* an alternative when the lower end of the paired (same
    seed) interval of ``error(alternative) - error(theory)`` exceeds ``margin``.
    Both thresholds are declared by the caller (the test) before the measurement.

    >>> c = Contrast("demo", "|x - x_pred|", "theory",
    ...              {"theory": seed_interval([0.1, 0.2, 0.15]),
    ...               "null": seed_interval([1.0, 1.1, 0.9])}, tolerance=0.5, margin=0.3)
    >>> c.agrees(), c.beats("null")
    (True, True)
    """

    title: str
    quantity: str
    theory: str
    errors: dict
    tolerance: float
    margin: float
    measured: Interval | None = None
    predictions: dict = field(default_factory=dict)
    notes: list = field(default_factory=list)
    relative_to: str | None = None  # tolerance on error(theory) / error(this), per seed
    beside: tuple = ()  # shown for comparison under their own names, not alternatives

    @property
    def alternatives(self) -> list[str]:
        return [k for k in self.errors if k != self.theory and k not in self.beside]

    def gap(self, alt: str) -> Interval:
        """Paired per-seed ``error(alt) - error(theory)``."""
        return seed_interval(
            [a - t for a, t in zip(self.errors[alt].values, self.errors[self.theory].values)]
        )

    def theory_error(self) -> Interval:
        """The theory's error, or its per-seed ratio to ``relative_to``'s error."""
        if self.relative_to is None:
            return self.errors[self.theory]
        return seed_interval(
            [
                t / r
                for t, r in zip(
                    self.errors[self.theory].values, self.errors[self.relative_to].values
                )
            ]
        )

    def agrees(self) -> bool:
        return self.theory_error().hi <= self.tolerance

    def beats(self, alt: str) -> bool:
        return self.gap(alt).lo > self.margin

    def losers(self) -> list[str]:
        """Alternatives the theory does not beat by the margin."""
        return [a for a in self.alternatives if not self.beats(a)]

    def table(self) -> str:
        """Plain-text table: measured, each candidate's prediction and error, the gaps."""
        n = self.errors[self.theory].n
        lines = [f"{self.title}  ({self.quantity}; {n} seeds, 95% Student-t)"]
        if self.measured is not None:
            lines.append(f"  measured: {self.measured}")
        lines.append(f"  {'candidate':<28} {'prediction':<28} {'error':<28} gap to theory")
        for k, err in self.errors.items():
            pred = self.predictions.get(k, "")
            gap = "" if k == self.theory else str(self.gap(k))
            tag = " (theory)" if k == self.theory else " (beside)" if k in self.beside else ""
            lines.append(f"  {k + tag:<28} {str(pred):<28} {str(err):<28} {gap}")
        rel = f" x error({self.relative_to})" if self.relative_to else ""
        if self.relative_to:
            lines.append(f"  theory error / error({self.relative_to}): {self.theory_error()}")
        lines.append(
            f"  declared: theory error <= {self.tolerance:g}{rel}; gap to each alternative "
            f"> {self.margin:g}.  agrees: {self.agrees()}; loses to: {self.losers() or 'none'}"
        )
        lines += [f"  note: {x}" for x in self.notes]
        return "\n".join(lines)

    def as_dict(self) -> dict:
        return {
            "title": self.title,
            "quantity": self.quantity,
            "theory": self.theory,
            "tolerance": self.tolerance,
            "margin": self.margin,
            "measured": None if self.measured is None else self.measured.as_dict(),
            "errors": {k: v.as_dict() for k, v in self.errors.items()},
            "gaps": {k: self.gap(k).as_dict() for k in self.alternatives},
            "relative_to": self.relative_to,
            "theory_error": self.theory_error().as_dict(),
            "agrees": self.agrees(),
            "losers": self.losers(),
            "notes": list(self.notes),
        }


def _contrast(title, quantity, theory, per_seed, tolerance, margin, **kw) -> Contrast:
    """:class:`Contrast` from ``per_seed = {candidate: [error per seed]}``."""
    errors = {k: seed_interval(v) for k, v in per_seed.items()}
    return Contrast(title, quantity, theory, errors, tolerance, margin, **kw)


# ------------------------------------------------------------------------ RPE paper
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


@functools.cache
def _spec_converges(spec: str) -> bool | None:
    from empirical.training.rpe_theory import series_of_spec
    from theory.series.convergence import decide

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
    return _contrast(
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
    from empirical.training.rpe_theory import series_of_spec
    from theory.series.trf_search import trf_table

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
    from empirical.training.erf import receptive_field

    a = np.asarray(b["results"][model][seed]["erf"]["attention"])
    return receptive_field(a, eps).astype(float).tolist()


def rpe_only_values(b: dict, model: str, seed: str, eps: Sequence[float]) -> list[float]:
    """The same statistic of the stored RPE-only attention (content logits 0)."""
    from empirical.training.erf import receptive_field

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
    from scipy.stats import spearmanr

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
    return _contrast(
        "RPE paper Figs. 5-6: ERF vs certified TRF of the learned RPE",
        f"1 - Spearman rho over (convergent RPE, eps in {list(ERF_EPS)})",
        "certified TRF",
        per_seed,
        tolerance,
        margin,
        notes=[f"convergent per theory.series: {conv}"],
        beside=("RPE-only attention",),
    )


# ---------------------------------------------- attention-alignment paper (T5 bias)
def heads(b: dict, seed: str, L: int, model: str = "t5") -> list[dict]:
    return b["results"][model][seed]["heads"][str(L)]


def head_mean(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Mean over layers and heads of a window statistic at length L."""
    return float(np.mean([h[key] for h in heads(b, seed, L, model)]))


def gaussian_prediction(b: dict, model: str, seed: str, L: int, key: str) -> float:
    """Gaussian-logit value (``theory.temperature.gaussian_softmax``) per head from its
    measured sigma and key count, averaged like :func:`head_mean`."""
    from theory.temperature.gaussian_softmax import expected_entropy, expected_pmax

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
    from theory.temperature.gaussian_softmax import expected_entropy, expected_pmax

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
    return _contrast(
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
    from theory.temperature.gaussian_softmax import (
        approx_pmax,
        expected_max_std_normal,
        expected_pmax,
    )

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


def gaussian_pmax_contrast(
    b: dict, tolerance: float, margin: float, model: str = "nope"
) -> Contrast:
    """Attention-alignment paper, Eq. 2 and App. A.2 in their own regime: the dot-product
    NoPE model at its initial weights on uniformly random bytes, first layer, rows brought
    to the logit std s (``profile_bundle.init_pmax``).  Measured: the mean P_max of each
    head's window rows per length and s.  Theory: the exact i.i.d.-Gaussian E[P_max] at the
    rows' key counts and s (``expected_pmax``).  Error: mean abs(ln measured - ln predicted)
    over lengths, s and heads; alternatives: uniform attention and the neighbouring wrong
    forms of :func:`pmax_candidates`.  The theory, exact for Assumption 1's i.i.d. N(0, s^2)
    logits (what App. A.2's Eq. 2 approximates):

    .. math:: E[P_{max}] = L\\int\\varphi_s(x)\\,e^x\\int_0^\\infty e^{-t e^x}
              N(x, t)^{L-1}\\,dt\\,dx,\\quad N(x, t) = E[e^{-t e^y}; y < x].
    """
    per_seed, measured, signed, cache = {}, [], [], {}
    for sd in seeds(b, model):
        rec, errs, logs = b["results"][model][sd]["init_pmax"], {}, []
        for cell in rec["length"].values():
            for j, s in enumerate(rec["scales"]):
                key = (tuple(cell["keys"]), s)
                if key not in cache:
                    cache[key] = pmax_candidates(cell["keys"], s)
                for head in cell["pmax"]:
                    logs.append(math.log(head[j]))
                    for k, v in cache[key].items():
                        errs.setdefault(k, []).append(abs(math.log(head[j] / v)))
                    signed.append(math.log(head[j] / cache[key]["Gaussian E[P_max]"]))
        measured.append(float(np.mean(logs)))
        for k, v in errs.items():
            per_seed.setdefault(k, []).append(float(np.mean(v)))
    rec = b["results"][model][seeds(b, model)[0]]["init_pmax"]
    return _contrast(
        f"align paper Eq. 2: E[P_max] on {model} at initial weights (uniform random bytes), "
        f"L = {', '.join(rec['length'])}, s = {', '.join(f'{s:g}' for s in rec['scales'])}",
        "mean |ln measured - ln predicted| P_max over lengths, logit stds and heads",
        "Gaussian E[P_max]",
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(measured),
        notes=[
            "measured: mean ln P_max per seed; mean ln(measured / E[P_max]) over all cells "
            f"and seeds {float(np.mean(signed)):+.4f}"
        ],
    )


def dispersion_contrast(
    b: dict, factor: int, tolerance: float, margin: float, model: str = "t5"
) -> Contrast:
    """Sec. 3: the change of the mean window entropy from m to factor*m, measured,
    against the Gaussian-logit prediction from the measured sigmas and key counts;
    alternative: uniform attention (the change is the log of the key-count ratio) and
    no change (attention does not disperse)."""
    from theory.temperature.gaussian_softmax import expected_entropy

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
    return _contrast(
        f"align paper Sec. 3: entropy change m -> {factor}m",
        "|measured - predicted| change of the mean window entropy (nats)",
        "Gaussian logits",
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(meas),
    )


def _grid(b: dict, seed: str, model: str = "t5") -> np.ndarray:
    return np.asarray(b["results"][model][seed]["tau_grid"], dtype=float)


def alg1_tau(b: dict, seed: str, L: int, mode: str, model: str = "t5") -> float:
    """Algorithm 1 (``theory.temperature.rules.algorithm1_grid``) over the stored grid:
    the tau whose mean window statistic at L is closest to the mean at m with tau = 1."""
    from theory.temperature.rules import algorithm1_grid

    grid = _grid(b, seed, model)
    vals = np.mean(b["results"][model][seed]["grid"][str(L)][mode], axis=1)
    target = float(np.mean([h[mode] for h in heads(b, seed, train_len(b), model)]))
    lookup = dict(zip(grid.tolist(), vals.tolist()))
    return algorithm1_grid(lambda t: lookup[t], target, grid.tolist()).tau


def ppl_at_tau(b: dict, seed: str, L: int, tau: float, model: str = "t5") -> float:
    """Stored perplexity at L, interpolated (in log) on the temperature grid."""
    grid = _grid(b, seed, model)
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
    from theory.temperature.rules import log_rule_temperature

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
    return _contrast(
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
    from theory.temperature.rules import algorithm1_continuous

    grid = _grid(b, seed, model)
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
    import theory.temperature.rules as rules

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
    return _contrast(
        f"align paper {prop} per head vs the head's Algorithm 1 tau at {factor}m",
        f"mean |tau - tau_alg1({mode})| over heads",
        prop,
        per_seed,
        tolerance,
        margin,
        notes=[f"heads used per seed: {used}; without a root / unbracketed: {skipped}"],
    )


def prop1_root_heads(b: dict, factor: int, model: str = "t5") -> list[int]:
    """Per seed, the number of heads where Prop. 1 has a real root in (0, 1] at factor*m
    (``theory.temperature.rules.prop1_temperature``)."""
    from theory.temperature.rules import prop1_temperature

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


# ------------------------------------------------------------- InfoScale paper
def window(b: dict, model: str, seed: str, L: int) -> dict:
    return b["results"][model][seed]["window"][str(L)]


def entropy_at_tau(b: dict, model: str, seed: str, L: int, tau: float) -> float:
    """Stored window entropy at L, interpolated on the temperature grid."""
    w, grid = window(b, model, seed, L), _grid(b, seed, model)
    if not grid[0] <= tau <= grid[-1]:
        raise ValueError(f"tau {tau:.4g} outside the stored grid [{grid[0]}, {grid[-1]}]")
    return float(np.interp(tau, grid, w["entropy"]))


def infoscale_drift_contrast(
    b: dict, tolerance: float, margin: float, model: str = "nope", factor: int = 16
) -> Contrast:
    """InfoScale paper Sec. 3.1 / Eq. 15: InfoScale's factor (``theory.infoscale``, at the
    window's key count, d = head dimension) keeps the window entropy at factor*m equal to
    that at m.  Error: abs(H(factor*m, tau) - H(m)) / abs(H(factor*m, 1) - H(m)) (the fraction
    of the drift left).  Alternatives: no scaling, the log-n rule (tau = ln m / ln n),
    and Eq. 15 with d = d_model."""
    from theory.infoscale.infoscale import infoscale

    m = train_len(b)
    s = b["settings"]
    dh, dm = s["d_model"] // s["n_head"], s["d_model"]
    names = ("InfoScale", "no scaling", "log-n rule", "InfoScale with d = d_model")
    per_seed = {k: [] for k in names}
    drift = []
    for sd in seeds(b, model):
        h0 = window(b, model, sd, m)["entropy"][0]
        n = window(b, model, sd, factor * m)["keys"][0]
        none = entropy_at_tau(b, model, sd, factor * m, 1.0) - h0
        drift.append(none)
        cand = {
            "InfoScale": 1 / infoscale(n, m, dh),
            "no scaling": 1.0,
            "log-n rule": math.log(m) / math.log(n),
            "InfoScale with d = d_model": 1 / infoscale(n, m, dm),
        }
        for k, t in cand.items():
            per_seed[k].append(abs(entropy_at_tau(b, model, sd, factor * m, t) - h0) / abs(none))
    return _contrast(
        f"InfoScale paper Eq. 15 on {model}: entropy drift m -> {factor}m",
        "|H(16m, tau) - H(m)| / |H(16m, 1) - H(m)|",
        "InfoScale",
        per_seed,
        tolerance,
        margin,
        measured=seed_interval(drift),
    )


#: training logit scales of the invariant-factor contrast: t = (alpha/d_head)^2 <= 1/16, the
#: small-t regime of Eq. 15's Taylor step (lambda, v -> 0), up to the profile's cos_alpha_low
INVARIANT_ALPHAS = (1.0, 2.0, 3.0, 4.0)
#: (reference, inference) window lengths of that contrast, in units of m: steps of 4x, whose
#: root a* = s* a_tr (about 8) keeps several of the 256 byte keys near the tilted mode;
#: m -> 16m needs a* near 14, where the window's keys no longer sample the sphere's tail
INVARIANT_PAIRS = ((1, 4), (4, 16))


def invariant_factor(b: dict, model: str, seed: str, pair: tuple, layer: int, a_tr: float) -> float:
    """Measured s* with H(L1, s* a_tr) = H(L0, a_tr): the stored window entropies of
    ``softmax(a cos)`` at the initial weights, interpolated on the stored scale grid."""
    m, rec = train_len(b), b["results"][model][seed]["init_entropy"]
    grid = np.asarray(rec["scale_grid"])
    h0 = np.asarray(rec["length"][str(pair[0] * m)]["entropy"][layer])
    h1 = np.asarray(rec["length"][str(pair[1] * m)]["entropy"][layer])
    target = float(np.interp(a_tr, grid, h0))
    if not h1[-1] <= target <= h1[0]:
        raise ValueError(f"H({pair[0]}m, {a_tr}) = {target:.4g} outside H({pair[1]}m, .)'s range")
    return float(np.interp(-target, -h1, grid)) / a_tr  # H decreases in the scale


def infoscale_factor_candidates(n: float, n_tr: float, d: int, dm: int, a_tr: float) -> dict:
    """Every candidate factor of the invariant-factor contrast, computed now (theory first)."""
    from theory.infoscale.infoscale import (
        consistent_eps,
        infoscale,
        invariant_scale,
        softmax_plus_scale,
    )

    eq15 = infoscale(n, n_tr, d, consistent_eps(n_tr, d, a_tr))
    t = (a_tr / d) ** 2  # Eq. 12 holds at n_tr: e^{2 eps/d} n_tr^{-2/d} = 1 - t
    return {
        "Eq. 15": eq15,
        "Eq. 9 exact": invariant_scale(n, n_tr, d, a_tr),
        "Eq. 15, eps = 0": infoscale(n, n_tr, d),
        "no scaling": 1.0,
        "log-n rule": softmax_plus_scale(n, n_tr),
        "d = d_model": infoscale(n, n_tr, dm, consistent_eps(n_tr, dm, a_tr)),
        "n^(-1/d)": math.sqrt((1 - (1 - t) * (n_tr / n) ** (1.0 / d)) / t),
        "no square root": eq15**2,
        "inverted ratio": 1.0 / eq15,
    }


def infoscale_factor_contrast(
    b: dict, slack: float, margin: float, model: str = "nope_cosscale"
) -> Contrast:
    """InfoScale paper Eqs. 9-15 in their own regime: a CosScale model at its initial weights
    (q, k near uniform on the sphere, Assumption 3.2), logits a cos(q, k).  Measured: the
    factor s* with H(L1, s* a_tr) = H(L0, a_tr) (:func:`invariant_factor`) for each a_tr of
    :data:`INVARIANT_ALPHAS`, window pair of :data:`INVARIANT_PAIRS` and layer; n, n_tr are
    the windows' mean key counts and d the head dimension.  Error: mean abs(ln s* - ln s)
    over the sweep.  Theory: Eq. 15 with the eps that makes Eq. 12 hold at (n_tr, a_tr);
    beside it the exact Eq. 9 root.  Tolerance: ``slack`` plus the theory's own admitted
    error, the mean abs(ln Eq. 15 - ln Eq. 9) over the sweep (the Laplace and Taylor steps),
    computed now."""
    m, s = train_len(b), b["settings"]
    dh = s["d_model"] // s["n_head"]  # InfoScale's d: the head dimension
    per_seed, measured, admitted = {}, [], []
    for sd in seeds(b, model):
        rec, errs, sstar = b["results"][model][sd]["init_entropy"]["length"], {}, []
        for pair in INVARIANT_PAIRS:
            n_tr, n = (rec[str(f * m)]["keys"] for f in pair)
            for a in INVARIANT_ALPHAS:
                cand = infoscale_factor_candidates(n, n_tr, dh, s["d_model"], a)
                admitted.append(abs(math.log(cand["Eq. 15"] / cand["Eq. 9 exact"])))
                for layer in range(s["n_layer"]):
                    x = invariant_factor(b, model, sd, pair, layer, a)
                    sstar.append(math.log(x))
                    for k, v in cand.items():
                        errs.setdefault(k, []).append(abs(math.log(x / v)))
        measured.append(float(np.mean(sstar)))
        for k, v in errs.items():
            per_seed.setdefault(k, []).append(float(np.mean(v)))
    gap = float(np.mean(admitted))
    pairs = ", ".join(f"{a}m -> {c}m" for a, c in INVARIANT_PAIRS)
    return _contrast(
        f"InfoScale paper Eq. 15 on {model} (initial weights): invariant factor, {pairs}, "
        f"a_tr = {', '.join(f'{a:g}' for a in INVARIANT_ALPHAS)}",
        "mean |ln s* - ln s|, s*: H(L1, s* a_tr) = H(L0, a_tr)",
        "Eq. 15",
        per_seed,
        slack + gap,
        margin,
        measured=seed_interval(measured),
        beside=("Eq. 9 exact",),
        notes=[
            f"measured: mean ln s* over the sweep; tolerance = slack {slack:g} + Eq. 15's "
            f"admitted error {gap:.4f} (mean |ln Eq. 15 - ln Eq. 9|, computed now)"
        ],
    )


def tilted_mode(hist: np.ndarray, alpha: float, smooth: float = 0.02) -> float:
    """Mode of a cosine histogram on [-1, 1] weighted by e^{alpha (eta - 1)} (the
    attention mass of InfoScale paper Eq. 16), Gaussian-smoothed (``smooth`` in eta)."""
    hist = np.asarray(hist, dtype=float)
    centers = np.linspace(-1, 1, len(hist) + 1)
    centers = 0.5 * (centers[1:] + centers[:-1])
    w = hist * np.exp(alpha * (centers - 1.0))
    from theory.infoscale.cosscale import smoothed_mode

    return smoothed_mode(centers, w, smooth, reach=4.0)


#: the alpha sweep of the eta* contrast; beyond 16 the stored histograms have too few
#: pairs near the tilted mode (a NoPE model's q, k take one value per byte)
COS_ALPHAS = tuple(range(1, 17))


def eta_star_contrast(
    b: dict, which: str, tolerance: float, margin: float, model: str = "nope_cosscale"
) -> Contrast:
    """InfoScale paper Thm. 3.4 / Eq. 18: the mode of the attention-weighted cosine of a
    CosScale model is eta*(alpha, d), d = head dimension, over the sweep
    :data:`COS_ALPHAS` (the weights e^{alpha eta} re-weight the stored histogram).
    ``which="init"``: the model's initial weights (q, k near uniform on the sphere,
    Assumption 3.2); ``"trained"``: after training.  Error: mean abs(mode - candidate)
    over alpha and layers.  Alternatives: d - 1 or d in place of d - 3, d = d_model,
    and the unweighted mode."""
    from theory.infoscale.cosscale import eta_star

    s = b["settings"]
    dh, dm = s["d_model"] // s["n_head"], s["d_model"]
    names = ("eta*(alpha, d_head)", "d - 1 for d - 3", "d for d - 3", "d = d_model", "alpha = 0")
    per_seed = {k: [] for k in names}
    for sd in seeds(b, model):
        errs = {k: [] for k in names}
        for hist in b["results"][model][sd]["cos_hist"][which]:
            base = tilted_mode(hist, 0.0)
            for a in COS_ALPHAS:
                mode = tilted_mode(hist, a)
                cand = {
                    names[0]: eta_star(a, dh),
                    names[1]: eta_star(a, dh + 2),
                    names[2]: eta_star(a, dh + 3),
                    names[3]: eta_star(a, dm),
                    names[4]: base,
                }
                for k, v in cand.items():
                    errs[k].append(abs(mode - v))
        for k in names:
            per_seed[k].append(float(np.mean(errs[k])))
    return _contrast(
        f"InfoScale paper Eq. 18 on {model} ({which} weights), alpha = {COS_ALPHAS[0]}..{COS_ALPHAS[-1]}",
        "mean |weighted cosine mode - eta*| over alpha and layers",
        names[0],
        per_seed,
        tolerance,
        margin,
    )


# ------------------------------------------------------------------- summary / CLI
def measurement_summary(b: dict) -> dict:
    """The bundle's headline measurements with seed intervals (no theory)."""
    m = train_len(b)
    out = {
        "profile": b["profile"],
        "seeds": list(b["settings"]["seeds"]),
        "settings": b["settings"],
        "folder": b["folder"],
        "wall_s": b.get("wall_s"),
        "ppl_ratio_16m": {
            r: ppl_ratio(b, r, 16).as_dict()
            for r in ("sinusoidal",) + BIAS_RPES
            if r in b["results"]
        },
    }
    if "t5" in b["results"]:
        out["t5_entropy"] = {
            str(f): seed_interval(
                [np.mean([h["entropy"] for h in heads(b, s, f * m)]) for s in seeds(b, "t5")]
            ).as_dict()
            for f in (1, 2, 4, 8)
        }
    return out


def _md_interval(iv: Interval) -> str:
    return f"{iv.mean:.4g} [{iv.lo:.4g}, {iv.hi:.4g}]"


def _bundle_heading(b: dict, command: str) -> str:
    s = b["settings"]
    return (
        f"Generated by `{command}` from the {b['profile']} profile (m = {s['seq_len']}, "
        f"{s['steps']} steps, d {s['d_model']}, {s['n_layer']} layers, {s['n_head']} heads, "
        f"{s['eval_tokens']} test bytes), seeds {list(s['seeds'])}"
    )


def perplexity_markdown(b: dict) -> list[str]:
    """Test perplexity (bytes) of every model at each length it was evaluated at (blank
    where it was not), and ppl(16m)/ppl(m)."""
    m, res = train_len(b), b["results"]

    def at(r: str, L: int) -> str:
        vals = [res[r][s]["ppl"].get(str(L)) for s in seeds(b, r)]
        return "" if None in vals else _md_interval(seed_interval(vals))

    lengths = sorted({int(L) for r in res for s in seeds(b, r) for L in res[r][s]["ppl"]})
    lines = [
        "| model | " + " | ".join(f"L = {L}" for L in lengths) + " | ppl(16m)/ppl(m) |",
        "|---|" + "---|" * (len(lengths) + 1),
    ]
    for r in res:
        ratio = _md_interval(ppl_ratio(b, r, 16)) if at(r, 16 * m) else ""
        lines.append(f"| {r} | " + " | ".join(at(r, L) for L in lengths) + f" | {ratio} |")
    return lines


def learned_markdown(b: dict) -> list[str]:
    """The learned RPE parameters per head and seed (models whose RPE learns them)."""
    lines = []
    for r in b["results"]:
        for s in seeds(b, r):
            params = b["results"][r][s]["metrics"].get("rpe_params") or {}
            per_head = {k: v for k, v in params.items() if isinstance(v, list)}
            if per_head:
                vals = "; ".join(
                    f"{k} = " + ", ".join(f"{x:.3g}" for x in v) for k, v in per_head.items()
                )
                lines.append(f"* {r}, seed {s}, per head: {vals}")
    return lines


def speed_markdown(b: dict) -> list[str]:
    """Training speed as measured while the bundle was trained (machine-dependent)."""
    res = b["results"]

    def iv(r: str, get) -> str:
        return _md_interval(seed_interval([get(res[r][s]) for s in seeds(b, r)]))

    rows = [
        f"| {r} | {res[r][seeds(b, r)[0]]['metrics']['n_params']} | "
        f"{iv(r, lambda x: x['metrics']['steps_per_s'])} | {iv(r, lambda x: x['train_s'])} |"
        for r in res
    ]
    load = b.get("load_average")
    load = "not recorded" if load is None else f"{load} when training started"
    return [
        f"Machine-dependent: measured while the bundle was trained, {b.get('workers')} worker "
        f"processes of 1 torch thread on {b.get('cpu_count')} CPUs (load average {load}); "
        f"the whole bundle took {b.get('wall_s')} s of wall time.",
        "",
        "| model | parameters | steps/s | training time (s) |",
        "|---|---|---|---|",
        *rows,
    ]


def measurements_markdown(b: dict) -> str:
    """The bundle's measurements as a Markdown section (generated into the docs)."""
    head = _bundle_heading(b, "python -m empirical.results --markdown")
    lines = [
        head + "; mean [95% Student-t interval] over the seeds.  Machine-dependent: the "
        "stdlib corpus is the installed Python's standard library.",
        "",
        "Test perplexity (bytes, non-overlapping windows of length L):",
        "",
        *perplexity_markdown(b),
    ]
    learned = learned_markdown(b)
    if learned:
        lines += ["", "Learned RPE parameters:", "", *learned]
    lines += ["", *speed_markdown(b)]
    return "\n".join(lines) + "\n"


def all_contrasts(b: dict) -> list[Contrast]:
    """Every contrast of the agreement tests, with the declared thresholds
    (:mod:`empirical.training.declared`)."""
    from empirical.training import declared as D

    out = [
        stability_contrast(b, D.STABLE_DELTA, 0.1, 0.0),
        erf_trf_contrast(b, D.ERF_TOL, D.ERF_MARGIN),
    ]
    out += [
        gaussian_stat_contrast(b, k, True, D.GAUSS_REL_TOL, D.GAUSS_MARGIN)
        for k in ("entropy", "pmax")
    ]
    out += [gaussian_pmax_contrast(b, D.PMAX_TOL, D.PMAX_MARGIN)]
    out += [dispersion_contrast(b, f, D.DISP_TOL, D.DISP_MARGIN) for f in (2, 4, 8)]
    out += [alg1_ppl_contrast(b, f, "pmax", D.ALG1_REL_TOL, D.ALG1_MARGIN) for f in (4, 8)]
    out += [
        prop_contrast(b, p, f, D.PROP_TOL, D.PROP_MARGIN)
        for p in ("prop2", "prop1")
        for f in (2, 4, 8)
    ]
    out += [infoscale_drift_contrast(b, D.DRIFT_TOL, D.DRIFT_MARGIN)]
    out += [infoscale_factor_contrast(b, D.FACTOR_SLACK, D.FACTOR_MARGIN)]
    out += [eta_star_contrast(b, w, D.ETA_TOL, D.ETA_MARGIN) for w in ("init", "trained")]
    return out


def contrasts_markdown(b: dict) -> str:
    """The contrast tables as a Markdown section (generated into the docs)."""
    s = b["settings"]
    head = (
        f"Generated by `python -m empirical.results --contrasts --markdown` from the "
        f"{b['profile']} profile (m = {s['seq_len']}, {s['steps']} steps, d {s['d_model']}, "
        f"{s['n_layer']} layers, {s['n_head']} heads), seeds {list(s['seeds'])}; errors are "
        "mean [95% Student-t interval] over the seeds; thresholds from "
        "`empirical.training.declared`.\n\n"
    )
    return head + "\n\n".join("```text\n" + c.table() + "\n```" for c in all_contrasts(b)) + "\n"


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.results",
        description="Measurements of the seeded bundle with their seed intervals "
        "(runs/paper or runs/ci); the agreement tests compare them with the theory.",
        epilog="examples:\n  python -m empirical.results --json\n"
        "  python -m empirical.results --bundle runs/ci\n"
        "  python -m empirical.results --markdown\n"
        "  python -m empirical.results --contrasts --markdown",
    )
    p.add_argument(
        "--bundle", default=None, help="bundle folder (default: runs/paper, else runs/ci)"
    )
    p.add_argument("--json", action="store_true", help="one JSON object on stdout")
    p.add_argument(
        "--contrasts",
        action="store_true",
        help="every agreement contrast (theory against alternatives) instead",
    )
    p.add_argument(
        "--markdown",
        action="store_true",
        help="a Markdown section (the measurements, or with --contrasts the contrasts)",
    )
    args = p.parse_args(argv)
    try:
        b = load_profile_bundle(args.bundle)
        if args.contrasts:
            if args.markdown:
                print(contrasts_markdown(b), end="")
            elif args.json:
                print(json.dumps([c.as_dict() for c in all_contrasts(b)]))
            else:
                print("\n\n".join(c.table() for c in all_contrasts(b)))
            return 0
        if args.markdown:
            print(measurements_markdown(b), end="")
            return 0
        s = measurement_summary(b)
    except (FileNotFoundError, KeyError, ValueError) as exc:
        return fail(exc)
    if args.json:
        print(json.dumps(s))
        return 0
    lines = [f"profile {s['profile']}, seeds {s['seeds']}, {s['folder']}"]
    for sec in ("ppl_ratio_16m", "t5_entropy"):
        lines += [
            f"{sec:>14} {k:>12}: {v['mean']:.4g} [{v['lo']:.4g}, {v['hi']:.4g}]"
            for k, v in s.get(sec, {}).items()
        ]
    print("\n".join(lines))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
