"""InfoScale: formulas, exact entropy by independent routes, drift, derivation, CLI."""

import json
import math

import mpmath as mp
import numpy as np
import pytest

from theory.infoscale import cli as infoscale_cli
from theory.infoscale import infoscale as I
from theory.infoscale.hypersphere_entropy import (
    cos_moments,
    kl_deficit,
    lln_entropy,
    mc_lln_entropy,
    mc_softmax_entropy,
    sample_cosines,
    sphere_normaliser,
)


# ------------------------------------------------------------------ exact integrals
def _closed_form_logm(alpha, d):
    # von Mises-Fisher normaliser: E[e^{alpha eta}] = Gamma(d/2) (2/alpha)^{d/2-1} I_{d/2-1}(alpha)
    # (DLMF 10.32.2), evaluated independently here at 40 digits
    with mp.workdps(40):
        nu = mp.mpf(d) / 2 - 1
        return mp.log(mp.gamma(nu + 1) * (2 / mp.mpf(alpha)) ** nu * mp.besseli(nu, alpha))


EXACT_CASES = [  # (d, alpha): from the paper's range (d = head dim, alpha = lambda v d)
    (4, 3.0),
    (16, 8.0),
    (32, 15.3),
    (64, 22.3),
    (128, 32.1),
    (128, 100.0),
    (768, 79.7),
    (768, 300.0),
]


@pytest.mark.parametrize("d,alpha", EXACT_CASES)
@pytest.mark.parametrize("method", ["theta", "eta"])
def test_quadrature_matches_closed_form(d, alpha, method):
    logm, mean = cos_moments(alpha, d, method)
    assert abs(logm - _closed_form_logm(alpha, d)) < 1e-11 * max(1, abs(logm))
    with mp.workdps(40):  # E_tilted[eta] = I_{d/2}/I_{d/2-1} (DLMF 10.29.1)
        ref = mp.besseli(mp.mpf(d) / 2, alpha) / mp.besseli(mp.mpf(d) / 2 - 1, alpha)
    assert abs(mean - ref) < 1e-11


def test_theta_and_eta_routes_agree_at_high_precision():
    with mp.workdps(30):
        a = lln_entropy(512, 128, 39.0, "theta")
        b = lln_entropy(512, 128, 39.0, "eta")
        assert abs(a - b) < mp.mpf(10) ** -25


def test_small_alpha_limit():
    # E[eta^2] = 1/d for the uniform sphere, so KL ~ alpha^2/(2d) as alpha -> 0
    for d in (16, 128):
        assert float(kl_deficit(1e-3, d)) == pytest.approx(1e-6 / (2 * d), rel=1e-3)


def test_d3_is_uniform_cosine():
    # d = 3: eta uniform on [-1, 1], E[e^{a eta}] = sinh(a)/a exactly
    logm, _ = cos_moments(2.5, 3, "eta")
    assert float(logm) == pytest.approx(math.log(math.sinh(2.5) / 2.5), rel=1e-12)


def test_sphere_normaliser_closed_form():
    # int_0^pi sin^2 = pi/2 (d = 4), int_0^pi sin^6 = 5 pi / 16 (d = 8)
    assert float(sphere_normaliser(4)) == pytest.approx(math.pi / 2, rel=1e-14)
    assert float(sphere_normaliser(8)) == pytest.approx(5 * math.pi / 16, rel=1e-14)


@pytest.mark.parametrize("d,alpha", [(32, 5.0), (128, 10.0), (128, 20.0)])
def test_monte_carlo_within_standard_error(d, alpha):
    r = mc_lln_entropy(64, d, alpha, samples=200_000, seed=3)
    assert r["ess"] > 1000
    assert abs(r["entropy"] - float(lln_entropy(64, d, alpha))) < 4 * r["stderr"]


def test_random_unit_vectors_and_chi2_route_same_law():
    from scipy.stats import ks_2samp

    rng = np.random.default_rng(0)
    a = sample_cosines(64, 20_000, rng, "vectors")
    b = sample_cosines(64, 20_000, rng, "chi2")
    assert ks_2samp(a, b).pvalue > 1e-3
    assert abs(a.var() - 1 / 64) < 0.001  # Var(eta) = 1/d on the sphere


def test_lln_fails_at_training_length():
    """Assumption 3.1 is far off at n_tr = 64, d = 128 (finding infoscale-assumption3.1)."""
    a0 = I.training_alpha(64, 128)
    mc = mc_softmax_entropy(64, 128, a0, trials=60, seed=0)
    assert mc["entropy"] - float(lln_entropy(64, 128, a0)) > 1.0


# ------------------------------------------------------------------------ formulas
INFOSCALE_CASES = [  # (n, n_tr, d, eps, expected) -- hand evaluation of Eq. 15
    (64, 64, 128, 0.0, 1.0),
    (4096, 64, 128, 0.0, math.sqrt((1 - 4096 ** (-2 / 128)) / (1 - 64 ** (-2 / 128)))),
    (
        4096,
        512,
        64,
        1.0,
        math.sqrt(
            (1 - math.exp(2 / 64) * 4096 ** (-2 / 64)) / (1 - math.exp(2 / 64) * 512 ** (-2 / 64))
        ),
    ),
    (32, 64, 128, 0.0, math.sqrt((1 - 32 ** (-2 / 128)) / (1 - 64 ** (-2 / 128)))),
]


@pytest.mark.parametrize("n,n_tr,d,eps,expected", INFOSCALE_CASES)
def test_infoscale_values(n, n_tr, d, eps, expected):
    assert I.infoscale(n, n_tr, d, eps=eps) == pytest.approx(expected, rel=1e-14)


@pytest.mark.parametrize(
    "args", [(0, 64, 128), (4096, 64, 0), (4096, 1, 128), (4096, float("nan"), 128)]
)
def test_infoscale_rejects_bad_input(args):
    with pytest.raises(ValueError):
        I.infoscale(*args)


def test_infoscale_rejects_eps_beyond_ntr():
    with pytest.raises(ValueError):  # n_tr <= e^eps: radicand of the denominator <= 0
        I.infoscale(4096, 64, 128, eps=5.0)


def test_infoscale_large_d_limit_is_log_ratio_sqrt():
    # 1 - n^{-2/d} ~ 2 ln n / d, so InfoScale -> sqrt(ln n / ln n_tr) as d -> infinity
    assert I.infoscale(4096, 64, 1e7) == pytest.approx(math.sqrt(2.0), rel=1e-5)


def test_calibration_makes_eq12_equal_eps():
    for eps in (-0.5, 0.0, 1.0):
        a0 = I.training_alpha(512, 128, eps)
        assert float(I.eq12_entropy(512, 128, a0)) == pytest.approx(eps, abs=1e-12)
        assert I.consistent_eps(512, 128, a0) == pytest.approx(eps, abs=1e-12)


def test_laplace_entropy_is_exact_algebra_of_appendix_form():
    # log n + d log sin theta* + 1/2 log(d / (alpha (c + 1/c))), c from alpha(1-c^2) = d c
    n, d, a = 300, 96, 40.0
    c = (-d + math.sqrt(d * d + 4 * a * a)) / (2 * a)
    direct = math.log(n) + d * 0.5 * math.log(1 - c * c) + 0.5 * math.log(d / (a * (c + 1 / c)))
    assert float(I.laplace_entropy(n, d, a)) == pytest.approx(direct, rel=1e-13)


def test_eq10_without_taylor_factor_solves_eq10():
    # Eq. 10 = eps at both lengths with alpha = factor * alpha_tr (eq10 calibration)
    n, nt, d = 8192, 128, 64
    a0 = I.training_alpha_eq10(nt, d)
    a = I.infoscale_eq10(n, nt, d) * a0
    assert float(I.eq10_entropy(nt, d, a0)) == pytest.approx(0.0, abs=1e-10)
    assert float(I.eq10_entropy(n, d, a)) == pytest.approx(0.0, abs=1e-10)


# ------------------------------------------------------------------ drift (the finding)
def test_invariant_scale_is_a_root():
    a0 = I.training_alpha(64, 128)
    s = I.invariant_scale(4096, 64, 128, a0)
    assert float(
        lln_entropy(4096, 128, s * a0, "eta") - lln_entropy(64, 128, a0, "eta")
    ) == pytest.approx(0.0, abs=1e-9)


def _ref_drift(n, n_tr, d):
    """InfoScale's exact Eq. 9 drift from hand formulas (Eq. 14, Eq. 15, vMF/Bessel,
    DLMF 10.29.1) at 40 digits, without theory.infoscale."""
    with mp.workdps(40):
        c = lambda x: 1 - mp.mpf(x) ** (-mp.mpf(2) / d)  # noqa: E731  (eps = 0)
        a0 = d * mp.sqrt(c(n_tr))  # alpha_tr = lambda v d, Eq. 14
        a = a0 * mp.sqrt(c(n) / c(n_tr))  # times InfoScale, Eq. 15

        def h(m, al):
            nu = mp.mpf(d) / 2 - 1
            return (
                mp.log(m)
                + _closed_form_logm(al, d)
                - al * mp.besseli(nu + 1, al) / mp.besseli(nu, al)
            )

        return float(h(n, a) - h(n_tr, a0))


DRIFT_CASES = [  # (d, n_tr, drift at 64 n_tr in nats); values from an independent audit
    # script (scipy quad of Eq. 9 in theta and mpmath Bessel agree to 1e-6), re-derived
    # in-test by _ref_drift
    (32, 512, 2.963537),
    (128, 64, 1.175636),
    (768, 64, 0.253828),
]


@pytest.mark.parametrize("d,n_tr,ref", DRIFT_CASES)
def test_infoscale_leaves_entropy_drift(d, n_tr, ref):
    r = I.drift_row(64 * n_tr, n_tr, d, method="bessel")
    assert r["drift"]["infoscale"] == pytest.approx(ref, abs=2e-6)  # not invariant
    assert r["drift"]["infoscale"] == pytest.approx(_ref_drift(64 * n_tr, n_tr, d), abs=1e-9)
    assert 0 < r["drift"]["infoscale"] < r["drift"]["none"]  # but better than nothing
    assert r["scale"]["infoscale"] < r["scale"]["invariant"]  # it under-scales
    assert abs(r["eq10_no_taylor"]["drift"]) < 0.04  # the Taylor step is the culprit


def test_drift_grid_quadrature_vs_bessel():
    q = I.drift_grid(ds=(64,), n_trs=(64,), multipliers=(8,), method="eta")[0]
    b = I.drift_grid(ds=(64,), n_trs=(64,), multipliers=(8,), method="bessel")[0]
    for k in I.SCALINGS:
        assert q["drift"][k] == pytest.approx(b["drift"][k], abs=1e-10)


# --------------------------------------------------------------------- derivation
@pytest.fixture(scope="module")
def derivation():
    from theory.infoscale.derivation import infoscale_derivation

    rep = infoscale_derivation(quick=True).verify(seed=0, samples=2)
    return {r.step.label: r for r in rep.results}, rep


EXPECTED_VERDICTS = {
    "attention entropy of softmax(lambda q k)": "proved",
    "Laplace point theta_1^*": "proved",
    "curvature at theta_1^*": "proved",
    "Gaussian integral": "proved",
    "Taylor series of sqrt(4t+1) - 1": "proved",
    "Eq. 11 remainder is o(t^3)": "refuted",  # the paper's o(t^3) is wrong
    "solve Eq. 12 = eps for lambda (Eq. 13)": "proved",
    "K from lambda = 1/sqrt(d) at n = n_tr (Eq. 14)": "proved",
    "InfoScale (Eq. 15)": "proved",  # squares of non-negative sides
    "sin^2 theta* = (sqrt(4t+1)-1)/(2t)": "proved",  # App. A.4, in s = sqrt(4t+1)
    "lambda v (cos theta* + 1/cos theta*) = sqrt(4t+1)": "proved",
    "substitute r^2 = v d (alpha = d sqrt(t))": "verified numerically",
    "hypersphere normaliser": "verified numerically",
    "E[e^{alpha cos theta}] integral in theta = closed form": "verified numerically",
    "same integral in eta = cos theta": "verified numerically",
}


@pytest.mark.parametrize("label,verdict", sorted(EXPECTED_VERDICTS.items()))
def test_derivation_verdicts(derivation, label, verdict):
    assert derivation[0][label].verdict == verdict


def test_derivation_measures_the_taylor_error(derivation):
    r = derivation[0]["Taylor step: Eq. 10 -> log n + d/2 log(1-t)"]
    assert r.verdict == "approximation" and r.max_error > 1.0  # nats, d t^2 is not small
    drop = derivation[0]["drop -1/4 log(4t+1) (Eq. 10)"]
    assert drop.max_error < 0.3


def test_derivation_markdown(derivation):
    md = derivation[1].to_markdown()
    assert "Eq. 15" in md and "refuted" in md


# --------------------------------------------------------------------------- CLI
def test_cli_json(capsys):
    assert infoscale_cli.main(["--d", "128", "--n-tr", "64", "--n", "4096", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["scale"]["infoscale"] == pytest.approx(I.infoscale(4096, 64, 128))
    assert out["drift"]["invariant"] == pytest.approx(0, abs=1e-9)


def test_cli_text(capsys):
    assert infoscale_cli.main(["--d", "64", "--n-tr", "512", "--n", "1024"]) == 0
    assert "InfoScale(n=1024" in capsys.readouterr().out


@pytest.mark.parametrize(
    "argv",
    [
        ["--d", "2", "--n-tr", "64", "--n", "128"],
        ["--d", "128", "--n-tr", "64"],
        ["--d", "x"],
        ["--d", "128", "--n-tr", "64", "--n", "4096", "--eps", "9"],
        ["--d", "128", "--n-tr", "1", "--n", "4096"],
    ],
)
def test_cli_bad_input_exits_2_with_one_error_line(argv, capsys):
    try:
        code = infoscale_cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error:")
