"""Exact i.i.d.-Gaussian softmax statistics against independent routes: mpmath
quadrature (30 digits for the moments; L = 2 closed forms), Monte Carlo, limits."""

import math

import mpmath as mp
import pytest
import sympy as sp

from theory.core.derivation import symbolic_zero
from theory.temperature.alignment_truth import prop2_vs_truth
from theory.temperature.gaussian_softmax import (
    expected_entropy,
    expected_log_partition,
    expected_max_std_normal,
    expected_pmax,
    laplace_integrals,
    lln_relative_error,
    mc_softmax_stats,
    pmax_alignment_tau_exact,
    rem_critical_s,
)

l = sp.Symbol("l", real=True)
sig, tau = sp.symbols("sigma tau", positive=True)
PHI = sp.exp(-(l**2) / (2 * sig**2)) / (sig * sp.sqrt(2 * sp.pi))

# (integrand times the density, closed form claimed by the paper)
MOMENTS = [
    (sp.exp(l / tau), sp.exp(sig**2 / (2 * tau**2))),  # Eq. 1
    (l * sp.exp(l), sig**2 * sp.exp(sig**2 / 2)),  # Eq. 3
    (l / tau * sp.exp(l / tau), sig**2 / tau**2 * sp.exp(sig**2 / (2 * tau**2))),
]


@pytest.mark.parametrize("integrand,closed", MOMENTS)
@pytest.mark.parametrize("sv,tv", [(0.7, 1.0), (2.7, 0.6)])
def test_gaussian_moments_sympy_vs_mpmath_30_digits(integrand, closed, sv, tv):
    sym = sp.integrate(integrand * PHI, (l, -sp.oo, sp.oo), conds="none")
    assert symbolic_zero(sym - closed) is True
    with mp.workdps(30):
        s, t = mp.mpf(sv), mp.mpf(tv)
        f = sp.lambdify(l, (integrand * PHI).subs({sig: s, tau: t}), "mpmath")
        quad = mp.quad(f, [-mp.inf, 0, s * s / t, mp.inf])  # mpmath, dps=30
        exact = sp.lambdify((sig, tau), closed, "mpmath")(s, t)
        assert abs(quad - exact) / exact < mp.mpf(10) ** -25


def _l2_truth(s):
    """L = 2: log D = max + log1p(e^{-|d|}), H = binary entropy of sigmoid(d),
    d = x1 - x2 ~ N(0, 2 s^2), E[max] = s/sqrt(pi) (mpmath quadrature)."""
    sd = s * mp.sqrt(2)
    pdf = lambda d: mp.npdf(d, 0, sd)  # noqa: E731
    logd = s / mp.sqrt(mp.pi) + mp.quad(
        lambda d: mp.log1p(mp.exp(-abs(d))) * pdf(d), [-mp.inf, 0, mp.inf]
    )

    def h(d):  # binary entropy of sigmoid(d), stable: log1p(e^-a) + a e^-a/(1+e^-a)
        a = abs(d)
        return mp.log1p(mp.exp(-a)) + a * mp.exp(-a) / (1 + mp.exp(-a))

    return logd, mp.quad(lambda d: h(d) * pdf(d), [-mp.inf, 0, mp.inf])


@pytest.mark.parametrize("s", [0.3, 1.0, 3.0])
def test_quadrature_matches_L2_closed_form(s):
    logd, h = _l2_truth(mp.mpf(s))
    assert expected_log_partition(2, s) == pytest.approx(float(logd), abs=1e-9)
    assert expected_entropy(2, s) == pytest.approx(float(h), abs=1e-9)


def test_limits():
    assert abs(expected_log_partition(1, 2.0)) < 1e-9  # log D = x, E = 0
    assert abs(expected_entropy(1, 2.0)) < 1e-9  # one token: H = 0
    assert expected_entropy(10**4, 1e-3) == pytest.approx(math.log(10**4), abs=1e-6)
    # deep LLN regime: Eq. 1 is essentially exact
    assert abs(lln_relative_error(10**6, 0.5)) < 1e-6


@pytest.mark.parametrize("L,s", [(64, 1.0), (512, 2.7), (4096, 4.0)])
def test_quadrature_matches_monte_carlo(L, s):
    mc = mc_softmax_stats(L, s, 1.0, 20000 // L * 10 + 50, seed=3)
    ld, sd = laplace_integrals(L, s)
    assert abs(mc["log_partition"][0] - ld) < 4 * mc["log_partition"][1]
    assert abs(mc["entropy"][0] - (ld - sd)) < 4 * mc["entropy"][1]


def test_expected_max():
    assert expected_max_std_normal(1) == pytest.approx(0.0, abs=1e-10)
    assert expected_max_std_normal(3) == pytest.approx(1.5 / math.sqrt(math.pi))  # closed form
    mc = mc_softmax_stats(512, 1.0, 1.0, 400, seed=0)["lmax"]
    assert abs(mc[0] - expected_max_std_normal(512)) < 4 * mc[1]


def test_rem_breakdown_entropy_approx_negative_beyond_sc():
    L = 512
    s = 1.5 * rem_critical_s(L)
    assert math.log(L) - s * s / 2 < 0 < expected_entropy(L, s)


def test_prop2_aligns_entropy_within_map_error_or_reports():
    # in the regime (sigma = 1): the Monte Carlo entropy mismatch left by Prop. 2 is
    # within the map's predicted error (+ 4 standard errors), and that error is small
    good = prop2_vs_truth(512, 2048, 1.0, 1.0, draws=200, seed=5)
    assert abs(good["predicted_mismatch"]) < 0.06
    assert abs(good["mismatch_mc"] - good["predicted_mismatch"]) < 4 * good["mismatch_mc_se"]
    assert abs(good["tau_prop2"] - good["tau_exact"]) < 0.01
    # outside (sigma = 2.7, the paper's implied sigma): Prop. 2 does NOT align the entropy;
    # the map predicts it and Monte Carlo confirms
    bad = prop2_vs_truth(512, 15000, 2.7, 2.7, draws=100, seed=5)
    assert bad["predicted_mismatch"] > 0.5
    assert abs(bad["mismatch_mc"] - bad["predicted_mismatch"]) < 4 * bad["mismatch_mc_se"]
    assert bad["mismatch_mc"] > 4 * bad["mismatch_mc_se"]  # detectably misaligned
    assert bad["tau_prop2"] - bad["tau_exact"] > 0.05


@pytest.mark.parametrize("s", [0.3, 1.0, 3.0])
def test_exact_pmax_matches_L2_closed_form(s):
    # L = 2: P_max = sigmoid(|d|), d ~ N(0, 2 s^2)  (mpmath quadrature)
    sd = s * mp.sqrt(2)
    ref = mp.quad(lambda d: mp.npdf(d, 0, sd) / (1 + mp.exp(-abs(d))), [-mp.inf, 0, mp.inf])
    assert expected_pmax(2, s) == pytest.approx(float(ref), abs=1e-8)


@pytest.mark.parametrize("L,s", [(512, 1.0), (512, 2.7), (64, 6.0)])
def test_exact_pmax_matches_monte_carlo(L, s):
    mc = mc_softmax_stats(L, s, 1.0, 2000, seed=4)["pmax"]
    assert abs(expected_pmax(L, s) - mc[0]) < 4 * mc[1]


def test_pmax_alignment_tau_exact_aligns():
    tau = pmax_alignment_tau_exact(512, 2048, 1.0, 1.0)
    assert expected_pmax(2048, 1.0 / tau) == pytest.approx(expected_pmax(512, 1.0), rel=1e-5)
