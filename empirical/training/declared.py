"""The tolerances and margins of the agreement tests, declared in one place.

``tests/agreement`` asserts with these and ``paper_checks/*/training_claims.py`` judges the
same contrasts with them.  A tolerance bounds the theory's error (the upper end of its
95% Student-t interval over the seeds) or, where named ``*_REL_TOL``, its per-seed ratio
to the error of the null model; a margin bounds from below the paired interval of
``error(alternative) - error(theory)``.  Each comes with the reason it has its value.
They were set for the measurements of :mod:`empirical.training.profile_bundle` (format 4)
by the rules stated beside them; changing one is a change to a claim, not a fix.

>>> 0 < GAUSS_REL_TOL < 1 and PROP_TOL > 0
True
"""

# RPE paper Def. 2.1 with the paper's delta = 0.1 (Fig. 3 discussion)
STABLE_DELTA = 0.10
# ERF vs certified TRF: Spearman's rho >= 0.8 over (RPE, eps) pairs (error 1 - rho <= 0.2),
# and rho at least 0.2 above each alternative's on the paired seed interval
ERF_TOL, ERF_MARGIN = 0.20, 0.20

# Assumption 1 (heads with e^{sigma^2} < L, at m..8m): the exact Gaussian value explains at
# least two thirds of the uniform-attention null's error (error <= 1/3 of the null's, per
# seed); each alternative is worse on the paired interval (margin 0)
GAUSS_REL_TOL, GAUSS_MARGIN = 1 / 3, 0.0
# dispersion: the Gaussian-predicted entropy change m -> f m within 0.1 nats (the LLN error
# at these sigmas is below 0.05 nats, the seed interval of the change about 0.02-0.05)
DISP_TOL, DISP_MARGIN = 0.10, 0.0
# Algorithm 1 (P_max alignment): ln ppl at its tau at most half of tau = 1's excess over the
# grid's best (it recovers at least half of the available gain); margin 0
ALG1_REL_TOL, ALG1_MARGIN = 0.5, 0.0
# Gaussian E[P_max] at initial weights (dot-product NoPE, first layer, uniform random bytes,
# m/4..m, logit std 0.5..3): mean |ln measured - ln E[P_max]| over (length, std, head) at
# most 0.03: the keys are draws from the query's 256 logits against the byte alphabet, a
# finite population whose missing tail lowers P_max (for populations of 256 Gaussian draws
# by up to 0.6%, 1% and 2.5% at m/4, m/2, m, about 1% on average over the grid), the
# logits are projections of a LayerNormed 64-vector (near Gaussian, slightly lighter tails),
# the row noise of 2^15 rows per head is about 0.3% and the quadrature about 1e-6: about
# 0.015 in all, doubled; each wrong form at least 0.02 further on the paired interval
# (N^L for N^(L-1), the nearest, moves ln E[P_max] by 0.036 to 0.21 on this grid)
PMAX_TOL, PMAX_MARGIN = 0.03, 0.02
# Props. 1-2 per head against the head's own Algorithm 1 tau: within 0.12 in tau (the
# props' LLN step; about two grid steps of 0.05 plus interpolation); margin 0
PROP_TOL, PROP_MARGIN = 0.12, 0.0

# eta*: the smoothed histogram mode (bins 0.0025, kernel 0.02) within 0.08 of Eq. 18 at
# initial weights, mean over alpha = 1..16 (a NoPE model's q, k take one value per byte:
# about 10^4 distinct pairs, a mode noise near 0.05); alternatives worse (margin 0)
ETA_TOL, ETA_MARGIN = 0.08, 0.0
# InfoScale (theory: the entropy is invariant): at most half the drift left (error <= 0.5);
# margin 0.05 to each alternative; "part of the drift": the fraction left in (0.05, 0.95)
DRIFT_TOL, DRIFT_MARGIN, PART_MARGIN = 0.5, 0.05, 0.05
# InfoScale's invariant factor s* at initial weights (CosScale, a_tr <= 4): Eq. 15 within its
# own admitted error (mean |ln Eq. 15 - ln Eq. 9|, computed when the test runs) plus a slack
# of 0.05 in ln s for what the comparison adds (linear interpolation of H on the stored
# 0.25-step scale grid, the finite-window bias of Assumption 3.1's law of large numbers);
# each wrong form at least 0.05 further in ln s (5% of the factor) on the paired interval
FACTOR_SLACK, FACTOR_MARGIN = 0.05, 0.05
