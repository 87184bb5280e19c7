"""Theory against tiny models trained here (the seeded bundle of ``empirical.training.bundle
--profile ci|paper``): every assertion is on a Student-t interval over the seeds, with a
threshold taken from the theory (or the paper's own definition), the theory side
recomputed now from ``theory`` / the runs' RPEs, never read from the bundle.

Run after ``python -m empirical.bundle --profile ci --out runs/ci``:
``python -m pytest -m agreement``.  Skipped when no bundle is there.
"""

import pytest

pytest.importorskip("torch")

from empirical.training import results as R  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]

# RPE paper Def. 2.1: extrapolation is "stable" when |ppl_n - ppl_m| / ppl_m < delta; the
# paper's Fig. 3 discussion uses delta = 0.1 (also paper_checks.rpe.empirical_claims.STABLE)
STABLE_DELTA = 0.10
# Declared tolerance on (measured change) / (Gaussian-logit predicted change) of the
# window entropy and P_max (Assumption 1 of the attention-alignment paper is an
# approximation; 25% declared before the runs, not fitted)
GAUSSIAN_TOL = 0.25
BUNDLE = R.find_profile_bundle()
needs_bundle = pytest.mark.skipif(
    BUNDLE is None,
    reason="no seeded bundle: run `python -m empirical.bundle --profile ci "
    "--out runs/ci` first (or set LENGTHX_AGREEMENT)",
)


@pytest.fixture(scope="module")
def b():
    return R.load_profile_bundle()


def report(name, **numbers):
    """One line per test on stdout (pytest -s / -rA shows it)."""
    print(f"\n[{name}] " + "; ".join(f"{k} = {v}" for k, v in numbers.items()))


# ------------------------------------------------------------------------ RPE paper
@needs_bundle
@pytest.mark.parametrize("rpe", R.CONVERGENT_RPES)
def test_thm34_convergent_rpe_is_stable_to_16m(b, rpe):
    """Thm. 3.4: a convergent series extrapolates; ppl(16m)/ppl(m) < 1 + delta."""
    iv = R.ppl_ratio(b, rpe, 16)
    report(f"fig3 {rpe}", ratio_16m=iv, bound=1 + STABLE_DELTA)
    assert iv.hi < 1 + STABLE_DELTA


@needs_bundle
def test_fig3_sinusoidal_is_not_stable(b):
    """Fig. 3: sinusoidal (no convergent bias) grows beyond 1 + delta at 16m."""
    iv = R.ppl_ratio(b, "sinusoidal", 16)
    report("fig3 sinusoidal", ratio_16m=iv, bound=1 + STABLE_DELTA)
    assert iv.lo > 1 + STABLE_DELTA


@needs_bundle
def test_fig4_divergent_inv_n_grows_more_than_type1(b):
    """Fig. 4 / Sec. 4: the divergent 1/n grows more than the convergent Type1 over
    16m-64m (mean log ppl ratio to m, paired by seed): the sign is asserted."""
    iv = R.growth_difference(b, "inv_n", "type1")
    other = R.growth_difference(b, "inv_nlogn", "type1")
    report(
        "fig4",
        inv_n_minus_type1=iv,
        inv_nlogn_minus_type1=other,
        ratio64_inv_n=R.ppl_ratio(b, "inv_n", 64),
        ratio64_type1=R.ppl_ratio(b, "type1", 64),
    )
    assert iv.lo > 0


@needs_bundle
@pytest.mark.parametrize("eps", [0.5, 0.1])
def test_fig6_erf_ranks_like_trf(b, eps):
    """Figs. 5-6: the TRF of the RPE predicts the order of the trained models' ERF:
    Spearman rank correlation over the convergent RPEs is positive."""
    iv = R.erf_trf_spearman(b, eps)
    report(f"fig6 eps={eps}", spearman=iv)
    assert iv.lo > 0


# ------------------------------------------------------ attention-alignment paper
@needs_bundle
@pytest.mark.parametrize("factor", [4, 8])
def test_t5_dispersion_beyond_training_length(b, factor):
    """Sec. 3: beyond L_tr the T5-bias model's attention disperses (entropy up, P_max
    down), by the amount the Gaussian-logit theory predicts from the measured sigmas."""
    ent, pmx = R.dispersion(b, factor, "entropy"), R.dispersion(b, factor, "pmax")
    report(
        f"t5 dispersion x{factor}",
        entropy=ent["measured"],
        entropy_gauss=ent["gaussian"],
        pmax=pmx["measured"],
        pmax_gauss=pmx["gaussian"],
        entropy_ratio=ent["ratio"],
        pmax_ratio=pmx["ratio"],
    )
    assert ent["measured"].lo > 0 and pmx["measured"].hi < 0
    assert 1 - GAUSSIAN_TOL < ent["ratio"].lo and ent["ratio"].hi < 1 + GAUSSIAN_TOL


@needs_bundle
@pytest.mark.parametrize("factor", [4, 8])
def test_alg1_temperature_reduces_perplexity_gap(b, factor):
    """Sec. 4 / Tables 2-3: Algorithm 1's temperature (P_max alignment) lowers the
    perplexity at factor*L_tr below tau = 1 (paired by seed)."""
    g = R.temperature_gain(b, factor, "pmax")
    e = R.temperature_gain(b, factor, "entropy")
    report(
        f"alg1 x{factor}",
        pmax_ppl_difference=g["ppl_difference"],
        pmax_tau=g["tau"],
        gap_tau1=g["gap_tau1"],
        entropy_ppl_difference=e["ppl_difference"],
        entropy_tau=e["tau"],
    )
    assert g["ppl_difference"].hi < 0


@needs_bundle
@pytest.mark.parametrize("factor", [4, 8])
@pytest.mark.parametrize("prop", ["prop1", "prop2"])
def test_props_predict_alg1_temperature(b, prop, factor):
    """Props. 1-2 from the measured sigmas account for at least half of the temperature
    change that Algorithm 1 makes (P_max resp. entropy alignment):
    |tau_prop - tau_alg1| < |1 - tau_alg1| / 2, on the seed interval of the difference.
    Where Prop. 1's quadratic has no real root (its LLN approximation fails at this
    length), the exact Gaussian-logit P_max alignment is the theory's answer instead."""
    r = R.prop_temperatures(b, factor)
    key = prop if prop in r else "gauss_pmax"
    diff = R.seed_interval(
        [a - c / 2 for a, c in zip(r[f"{key}_error"].values, r[f"{key}_tau1_error"].values)]
    )
    mode = "alg1_pmax" if prop == "prop1" else "alg1_entropy"
    report(
        f"{prop} x{factor}",
        used=key,
        prop1_real_roots=r["prop1_roots"],
        tau=r[key],
        alg1=r[mode],
        error_minus_half_tau1_error=diff,
    )
    assert diff.hi < 0


# ---------------------------------------------------------------- InfoScale paper
@needs_bundle
@pytest.mark.parametrize(
    "model,rule", [("nope", "infoscale"), ("nope", "log_n"), ("nope_cosscale", "infoscale")]
)
def test_scaling_reduces_entropy_drift(b, model, rule):
    """Sec. 3.1: InfoScale (Eq. 15) and the log_n rule raise the logit scale beyond
    n_tr, so the window entropy drifts less from m to 16m than with no scaling."""
    d = R.paired_difference(b, R.entropy_drift, (model, rule), (model, "none"))
    report(
        f"drift {model}/{rule}",
        drift=R.entropy_drift(b, model, rule),
        drift_none=R.entropy_drift(b, model, "none"),
        difference=d,
        ppl_ratio_16m=R.scaled_ppl_ratio(b, model, rule),
        ppl_ratio_16m_none=R.scaled_ppl_ratio(b, model, "none"),
    )
    assert d.hi < 0


@needs_bundle
@pytest.mark.xfail(
    strict=True,
    reason="ci profile: the peak rises with alpha in every seed, "
    "but the 95% interval of the difference (3 seeds, alpha 4 vs 16) includes 0; "
    "the peaks also lie far above eta* (trained q, k are not uniform on the "
    "sphere, Assumption 3.2). An unexpected pass fails this test (strict).",
)
def test_cosscale_peak_moves_toward_one_with_alpha(b):
    """Thm. 3.4 (InfoScale paper): the peak of the attention-weighted cosine moves toward
    1 as alpha grows, as Eq. 18's eta*(alpha, d) does."""
    hi, lo = R.cos_peak(b, "nope_cosscale"), R.cos_peak(b, "nope_cosscale_low")
    d = R.seed_interval([x - y for x, y in zip(hi["peak"].values, lo["peak"].values)])
    report(
        "cosscale peak",
        alpha_hi=hi["alpha"],
        peak_hi=hi["peak"],
        eta_star_hi=hi["eta_star"],
        alpha_lo=lo["alpha"],
        peak_lo=lo["peak"],
        eta_star_lo=lo["eta_star"],
        difference=d,
        eta_star_difference=hi["eta_star"] - lo["eta_star"],
    )
    assert hi["eta_star"] > lo["eta_star"]
    assert d.lo > 0
