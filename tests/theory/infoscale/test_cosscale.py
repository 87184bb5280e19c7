"""CosScale: eta* (Eq. 18) against independent routes; scaled cosine logits."""

import math

import mpmath as mp
import numpy as np
import pytest

from theory.cosscale import cli as cosscale_cli
from theory.infoscale import cosscale as C

# (alpha, d, eta*) -- eta* from mpmath findroot of alpha (1 - eta^2) - (d - 3) eta = 0
# (the stationarity condition of App. A.5), computed at 30 digits in the test itself
GRID = [(a, d) for a in (8, 16, 32, 64, 96, 128, 256) for d in (4, 16, 32, 128)]


@pytest.mark.parametrize("alpha,d", GRID)
def test_eta_star_matches_root_and_numeric_mode(alpha, d):
    with mp.workdps(30):
        root = mp.findroot(lambda e: alpha * (1 - e * e) - (d - 3) * e, 0.5)
    assert C.eta_star(alpha, d) == pytest.approx(float(root), abs=1e-14)
    assert C.tilted_mode_numeric(alpha, d) == pytest.approx(float(root), abs=1e-7)


def test_eta_star_paper_form_equals_stable_form():
    for a, d in GRID:
        paper = (-(d - 3) + math.sqrt((d - 3) ** 2 + 4 * a * a)) / (2 * a)  # Eq. 18 as printed
        assert C.eta_star(a, d) == pytest.approx(paper, rel=1e-12)


def test_eta_star_monotone_and_limit():
    vals = [C.eta_star(a, 128) for a in np.geomspace(1, 1e7, 60)]
    assert all(np.diff(vals) > 0)
    assert 1 - vals[-1] < 1e-5


@pytest.mark.parametrize("bad", [(-1, 128), (8, 2), (float("inf"), 128)])
def test_eta_star_rejects(bad):
    with pytest.raises(ValueError):
        C.eta_star(*bad)


def test_symbolic_derivation():
    r = C.eta_star_symbolic()
    assert r["matches_eq18"] and r["limit"] == 1
    a, d = C._al, C._d
    lead = (d - 3) / (2 * a) - (d - 3) ** 2 / (8 * a**2)
    import sympy as sp

    # the two leading terms of 1 - eta*; the next is O(alpha^-4) (no alpha^-3 term)
    rest = sp.expand(r["one_minus_series"] - lead)
    assert sp.simplify(rest * a**3).subs(a, sp.oo) == 0


@pytest.mark.parametrize("alpha", [256, 1024, 8192])
def test_large_alpha_expansion(alpha):
    ex = 1 - C.eta_star(alpha, 128)
    m = 125
    assert abs(C.eta_star_series(alpha, 128, 2) - ex) < 2 * m**4 / (128 * alpha**4)
    # the leading term alone is off by ~ (d-3)/(4 alpha) relatively: 12% at alpha = 256
    assert C.eta_star_series(alpha, 128, 1) / ex - 1 == pytest.approx(m / (4 * alpha), rel=0.15)


def test_small_alpha_expansion():
    assert C.eta_star_series(2, 128, 2, "small") == pytest.approx(C.eta_star(2, 128), rel=1e-6)


@pytest.mark.parametrize("alpha,d", [(8, 128), (64, 128), (256, 128), (32, 16)])
def test_mc_peak_vmf_wood_within_error(alpha, d):
    r = C.mc_peak(alpha, d, samples=60_000, replicates=8, seed=2, method="wood")
    assert abs(r["peak"] - r["kde_bias"] - r["eta_star"]) < 4 * r["stderr"]
    assert abs(r["kde_bias"]) < r["stderr"]  # smoothing does not move the mode visibly


def test_scipy_vmf_and_wood_sample_the_same_law():
    from scipy.stats import ks_2samp

    a, _ = C.tilted_samples(40.0, 32, 5000, 1, "vmf")
    b, _ = C.tilted_samples(40.0, 32, 5000, 2, "wood")
    assert ks_2samp(a, b).pvalue > 1e-3
    # mean of the cosine under vMF: I_{d/2}(a)/I_{d/2-1}(a) (DLMF 10.29.1), mpmath
    ref = float(mp.besseli(16, 40) / mp.besseli(15, 40))
    assert abs(b.mean() - ref) < 5 * b.std() / math.sqrt(len(b))


def test_reweighting_random_vectors_collapses_at_large_alpha():
    """ESS ~ N exp(-alpha^2/d): reweighted uniform vectors cannot see the peak at d=128."""
    good = C.mc_peak(8, 128, 50_000, 4, 0, "reweight")
    bad = C.mc_peak(256, 128, 50_000, 4, 0, "reweight")
    assert good["ess_min"] > 10_000 and abs(good["peak"] - good["eta_star"]) < 0.02
    assert bad["ess_min"] < 10 and bad["eta_star"] - bad["peak"] > 0.2


def test_cosscale_logits():
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((2, 3, 8)), rng.standard_normal((2, 5, 8))
    got = C.cosscale_logits(q, k, 16.0)
    nq = np.linalg.norm(q, axis=-1)[..., :, None]
    nk = np.linalg.norm(k, axis=-1)[..., None, :]
    ref = 16 * np.einsum("bid,bjd->bij", q, k) / (nq * nk)
    assert got.shape == (2, 3, 5)
    assert np.allclose(got, ref)
    assert np.all(np.abs(got) <= 16 + 1e-12)
    with pytest.raises(ValueError):
        C.cosscale_logits(np.zeros((1, 8)), k[0], 1.0)


def test_cli(capsys):
    import json

    assert cosscale_cli.main(["--d", "128", "--alpha", "8", "256", "--json"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["rows"][1]["eta_star"] == pytest.approx(C.eta_star(256, 128))


@pytest.mark.parametrize(
    "argv", [["--d", "2", "--alpha", "8"], ["--d", "128", "--alpha", "0"], ["--alpha", "8"]]
)
def test_cli_bad_input(argv, capsys):
    try:
        code = cosscale_cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error:")
