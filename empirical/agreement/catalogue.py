"""The catalogue of contrasts: every theory-against-measurement comparison of the three papers.

One row per contrast (:class:`Entry`): its key, the paper and place it tests, the function
that computes it from the seeded bundle, that function's arguments, the declared tolerance
and margin (each a :class:`Threshold` with the reason for its value) and the paper check
(claim id in ``paper_checks``) it decides.  The agreement tests (``tests/agreement``),
``python -m empirical.results --contrasts``, the paper checks, the figures and the
markdown all read this table; no tolerance is passed anywhere else.

A tolerance bounds the theory's error (the upper end of its 95% Student-t interval over
the seeds) or, where the contrast is ``relative_to`` a null model, its per-seed ratio to
that null's error; a margin bounds from below the paired interval of
``error(alternative) - error(theory)``.  They were set for the measurements of
:mod:`empirical.training.profile_bundle` (format 4) by the rules stated in their reasons;
changing one is a change to a claim, not a fix.

>>> entry("rpe-stability").check, entry("rpe-stability").tolerance.value
('rpe-train-fig3', 0.1)
>>> [e.key for e in for_check("align-train-temperature")]
['align-alg1-4m', 'align-alg1-8m']
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from empirical.agreement import align, infoscale, rpe
from empirical.agreement.contrast import Contrast


@dataclass(frozen=True)
class Threshold:
    """A declared number and the reason it has its value."""

    value: float
    reason: str


@dataclass(frozen=True)
class Entry:
    """One contrast: ``compute(b, *args, tolerance.value, margin.value)`` decides ``check``."""

    key: str
    place: str
    compute: Callable[..., Contrast]
    args: tuple
    tolerance: Threshold
    margin: Threshold
    check: str

    def contrast(self, b: dict) -> Contrast:
        """The contrast on bundle ``b`` with the declared tolerance and margin."""
        return self.compute(b, *self.args, self.tolerance.value, self.margin.value)


# ------------------------------------------------------------------ declared numbers
DELTA = Threshold(0.10, "RPE paper Def. 2.1 with the paper's delta = 0.1 (Fig. 3 discussion)")
#: Def. 2.1's delta: "stable" is ppl(16m)/ppl(m) < 1 + STABLE_DELTA
STABLE_DELTA = DELTA.value
STABLE_TOL = Threshold(
    0.1,
    "a misclassification rate of at most 0.1 over the biased RPEs on the upper end of the "
    "seed interval: fewer than one of the eight mislabelled (1/8 = 0.125)",
)
STABLE_MARGIN = Threshold(
    0.0, "the labels beat an alternative when they misclassify fewer RPEs on the paired interval"
)
ERF_TOL = Threshold(
    0.20, "ERF vs certified TRF: Spearman's rho >= 0.8 over (RPE, eps) pairs (error 1 - rho <= 0.2)"
)
ERF_MARGIN = Threshold(
    0.20, "rho at least 0.2 above each alternative's on the paired seed interval"
)

GAUSS_REL_TOL = Threshold(
    1 / 3,
    "Assumption 1 (heads with e^{sigma^2} < L, at m..8m): the exact Gaussian value explains "
    "at least two thirds of the uniform-attention null's error (error <= 1/3 of the null's, "
    "per seed)",
)
GAUSS_MARGIN = Threshold(0.0, "each alternative is worse on the paired interval (margin 0)")
DISP_TOL = Threshold(
    0.10,
    "dispersion: the Gaussian-predicted entropy change m -> f m within 0.1 nats (the LLN error "
    "at these sigmas is below 0.05 nats, the seed interval of the change about 0.02-0.05)",
)
DISP_MARGIN = Threshold(0.0, "each alternative is worse on the paired interval (margin 0)")
ALG1_REL_TOL = Threshold(
    0.5,
    "Algorithm 1 (P_max alignment): ln ppl at its tau at most half of tau = 1's excess over "
    "the grid's best (it recovers at least half of the available gain)",
)
ALG1_MARGIN = Threshold(0.0, "each alternative is worse on the paired interval (margin 0)")
PMAX_TOL = Threshold(
    0.03,
    "Gaussian E[P_max] at initial weights (dot-product NoPE, first layer, uniform random "
    "bytes, m/4..m, logit std 0.5..3): mean |ln measured - ln E[P_max]| over (length, std, "
    "head) at most 0.03: the keys are draws from the query's 256 logits against the byte "
    "alphabet, a finite population whose missing tail lowers P_max (for populations of 256 "
    "Gaussian draws by up to 0.6%, 1% and 2.5% at m/4, m/2, m, about 1% on average over the "
    "grid), the logits are projections of a LayerNormed 64-vector (near Gaussian, slightly "
    "lighter tails), the row noise of 2^15 rows per head is about 0.3% and the quadrature "
    "about 1e-6: about 0.015 in all, doubled",
)
PMAX_MARGIN = Threshold(
    0.02,
    "each wrong form at least 0.02 further on the paired interval (N^L for N^(L-1), the "
    "nearest, moves ln E[P_max] by 0.036 to 0.21 on this grid)",
)
PROP_TOL = Threshold(
    0.12,
    "Props. 1-2 per head against the head's own Algorithm 1 tau: within 0.12 in tau (the "
    "props' LLN step; about two grid steps of 0.05 plus interpolation)",
)
PROP_MARGIN = Threshold(0.0, "each alternative is worse on the paired interval (margin 0)")

ETA_TOL = Threshold(
    0.08,
    "eta*: the smoothed histogram mode (bins 0.0025, kernel 0.02) within 0.08 of Eq. 18 at "
    "initial weights, mean over alpha = 1..16 (a NoPE model's q, k take one value per byte: "
    "about 10^4 distinct pairs, a mode noise near 0.05)",
)
ETA_MARGIN = Threshold(0.0, "alternatives worse on the paired interval (margin 0)")
DRIFT_TOL = Threshold(
    0.5, "InfoScale (theory: the entropy is invariant): at most half the drift left (error <= 0.5)"
)
DRIFT_MARGIN = Threshold(0.05, "0.05 of the drift to each alternative on the paired interval")
PART = Threshold(0.05, "'part of the drift': the fraction left by InfoScale lies in (0.05, 0.95)")
#: the margin of "InfoScale removes part of the drift" (tests/agreement)
PART_MARGIN = PART.value
FACTOR_SLACK = Threshold(
    0.05,
    "InfoScale's invariant factor s* at initial weights (CosScale, a_tr <= 4): Eq. 15 within "
    "its own admitted error (mean |ln Eq. 15 - ln Eq. 9|, computed when the contrast runs) "
    "plus a slack of 0.05 in ln s for what the comparison adds (linear interpolation of H on "
    "the stored 0.25-step scale grid, the finite-window bias of Assumption 3.1's law of "
    "large numbers)",
)
FACTOR_MARGIN = Threshold(
    0.05, "each wrong form at least 0.05 further in ln s (5% of the factor) on the paired interval"
)

# ------------------------------------------------------------------------ the table
RPE, ALIGN, INFO = "RPE paper", "align paper", "InfoScale paper"
CATALOGUE: tuple[Entry, ...] = (
    Entry("rpe-stability", f"{RPE} Thm. 3.4, Def. 2.1, Fig. 3", rpe.stability_contrast,
          (STABLE_DELTA,), STABLE_TOL, STABLE_MARGIN, "rpe-train-fig3"),
    Entry("rpe-erf-trf", f"{RPE} Figs. 5-6, Eq. 22", rpe.erf_trf_contrast,
          (), ERF_TOL, ERF_MARGIN, "rpe-train-fig6"),
    Entry("align-gauss-entropy", f"{ALIGN} Assumption 1 (entropy)", align.gaussian_stat_contrast,
          ("entropy", True), GAUSS_REL_TOL, GAUSS_MARGIN, "align-train-dispersion"),
    Entry("align-gauss-pmax", f"{ALIGN} Assumption 1 (P_max)", align.gaussian_stat_contrast,
          ("pmax", True), GAUSS_REL_TOL, GAUSS_MARGIN, "align-train-dispersion"),
    Entry("align-pmax-init", f"{ALIGN} Eq. 2, App. A.2", align.gaussian_pmax_contrast,
          (), PMAX_TOL, PMAX_MARGIN, "align-train-pmax-init"),
    Entry("align-dispersion-2m", f"{ALIGN} Sec. 3 (m -> 2m)", align.dispersion_contrast,
          (2,), DISP_TOL, DISP_MARGIN, "align-train-dispersion"),
    Entry("align-dispersion-4m", f"{ALIGN} Sec. 3 (m -> 4m)", align.dispersion_contrast,
          (4,), DISP_TOL, DISP_MARGIN, "align-train-dispersion"),
    Entry("align-dispersion-8m", f"{ALIGN} Sec. 3 (m -> 8m)", align.dispersion_contrast,
          (8,), DISP_TOL, DISP_MARGIN, "align-train-dispersion"),
    Entry("align-alg1-4m", f"{ALIGN} Algorithm 1, Sec. 4 (4m)", align.alg1_ppl_contrast,
          (4, "pmax"), ALG1_REL_TOL, ALG1_MARGIN, "align-train-temperature"),
    Entry("align-alg1-8m", f"{ALIGN} Algorithm 1, Sec. 4 (8m)", align.alg1_ppl_contrast,
          (8, "pmax"), ALG1_REL_TOL, ALG1_MARGIN, "align-train-temperature"),
    Entry("align-prop2-2m", f"{ALIGN} Prop. 2 (2m)", align.prop_contrast,
          ("prop2", 2), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("align-prop2-4m", f"{ALIGN} Prop. 2 (4m)", align.prop_contrast,
          ("prop2", 4), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("align-prop2-8m", f"{ALIGN} Prop. 2 (8m)", align.prop_contrast,
          ("prop2", 8), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("align-prop1-2m", f"{ALIGN} Prop. 1 (2m)", align.prop_contrast,
          ("prop1", 2), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("align-prop1-4m", f"{ALIGN} Prop. 1 (4m)", align.prop_contrast,
          ("prop1", 4), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("align-prop1-8m", f"{ALIGN} Prop. 1 (8m)", align.prop_contrast,
          ("prop1", 8), PROP_TOL, PROP_MARGIN, "align-train-props"),
    Entry("infoscale-drift", f"{INFO} Sec. 3.1, Eq. 15", infoscale.infoscale_drift_contrast,
          (), DRIFT_TOL, DRIFT_MARGIN, "infoscale-train-drift"),
    Entry("infoscale-factor", f"{INFO} Eqs. 9-15", infoscale.infoscale_factor_contrast,
          (), FACTOR_SLACK, FACTOR_MARGIN, "infoscale-train-factor"),
    Entry("infoscale-eta-init", f"{INFO} Thm. 3.4, Eq. 18 (initial weights)",
          infoscale.eta_star_contrast, ("init",), ETA_TOL, ETA_MARGIN, "infoscale-train-cospeak"),
    Entry("infoscale-eta-trained", f"{INFO} Thm. 3.4, Eq. 18 (trained)",
          infoscale.eta_star_contrast, ("trained",), ETA_TOL, ETA_MARGIN,
          "infoscale-train-cospeak"),
)  # fmt: skip
ENTRIES = {e.key: e for e in CATALOGUE}


def entry(key: str) -> Entry:
    """The catalogue row ``key`` (``KeyError`` naming the known keys otherwise)."""
    if key not in ENTRIES:
        raise KeyError(f"no contrast {key!r} (known: {', '.join(ENTRIES)})")
    return ENTRIES[key]


def compute(b: dict, key: str) -> Contrast:
    """The contrast ``key`` on bundle ``b`` with its declared thresholds."""
    return entry(key).contrast(b)


def for_check(check: str) -> list[Entry]:
    """The rows that decide paper check ``check``, in catalogue order."""
    return [e for e in CATALOGUE if e.check == check]


def all_contrasts(b: dict) -> list[Contrast]:
    """Every contrast of the catalogue on bundle ``b``, in catalogue order."""
    return [e.contrast(b) for e in CATALOGUE]
