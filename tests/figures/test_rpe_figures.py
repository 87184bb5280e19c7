"""Figures 5, 7, 8 of the RPE paper: the data agrees with theory where theory says it
must (truncated TRF = exact TRF when the truncation is long enough) and disagrees where
our report says the paper's truncated method fails."""

import csv
import math

import numpy as np
import pytest

from figures.rpe_theory import fig5_data, heatmap_data, make_fig5, make_fig78
from theory.series import reference as ref

M = 512


@pytest.fixture(scope="module")
def data():
    return fig5_data(m=M, quick=True)


@pytest.mark.parametrize("name", ["alibi", "kerple-power", "type2"])
def test_fast_series_truncated_equals_exact_on_paper_grid(data, name):
    # tail beyond 512 terms < 1e-9 of B: App. E gives Eq. 22 exactly for 0 < eps < 1
    trunc = data["truncated"][name][1:-1]
    exact = data["exact_paper_grid"][name][1:-1]
    assert trunc == exact


def test_eps_one_off_by_one(data):
    # App. E uses >=: at eps = 1 it returns 0 terms; Eq. 22 (strict >) gives 1
    assert data["eps_paper_grid"][0] == 1.0
    assert all(data["truncated"][n][0] == 0 for n in data["truncated"])


@pytest.mark.parametrize(
    "name,eps,trunc,exact",
    [
        # m = 512, eps = 1/49 (smallest nonzero eps of the paper's grid); exact from
        # Hurwitz zeta (kerple-log k=1 r=1.5) and trigamma (type1) tails
        ("kerple-log", 1 / 49, 205, 1407),
        ("type1", 1 / 49, 28, 30),
    ],
)
def test_slow_series_truncated_differs_from_exact(data, name, eps, trunc, exact):
    idx = min(
        range(len(data["eps_paper_grid"])), key=lambda q: abs(data["eps_paper_grid"][q] - eps)
    )
    assert data["truncated"][name][idx] == trunc
    assert data["exact_paper_grid"][name][idx] == exact


def test_divergent_sandwich_gets_a_finite_truncated_trf(data):
    assert data["exact_paper_grid"]["sandwich"][1] == math.inf
    assert 0 < data["truncated"]["sandwich"][-2] <= M


@pytest.mark.parametrize(
    "name,eps", [("type1", 0.1), ("type1", 1 / 49), ("kerple-log", 0.5), ("alibi", 1e-3)]
)
def test_long_truncation_agrees(name, eps):
    # with 200k terms the neglected tail is below the TRF's resolution here
    arr = ref.terms_array(name, 200_000)
    assert ref.truncated_trf(arr, eps) == ref.exact_trf(name, None, eps)


def test_kerple_log_needs_more_than_200k_terms():
    # tail beyond 2e5 terms ~ 2/sqrt(2e5) = 0.0045 of B = 2.61: still wrong at eps = 0.1
    arr = ref.terms_array("kerple-log", 200_000)
    assert ref.truncated_trf(arr, 0.1) == 57
    assert ref.exact_trf("kerple-log", None, 0.1) == 59


def test_fig5_type1_above_type2_only_for_small_eps(data):
    eps = np.array(data["eps_paper_grid"])
    t1, t2 = np.array(data["truncated"]["type1"]), np.array(data["truncated"]["type2"])
    assert np.all(t1[eps < 0.05] >= t2[eps < 0.05])
    assert np.any(t1[(eps > 0.05) & (eps < 1)] < t2[(eps > 0.05) & (eps < 1)])


def test_fig5_files(tmp_path):
    res = make_fig5(tmp_path, quick=True)
    assert (tmp_path / "rpe-fig5.png").stat().st_size > 10_000
    rows = list(csv.DictReader(open(tmp_path / "rpe-fig5.csv")))
    assert {r["rpe"] for r in rows} == {
        "alibi",
        "kerple-log",
        "kerple-power",
        "sandwich",
        "type1",
        "type2",
    }
    comp = res["comparison"]
    assert comp["alibi"]["eps_agree"] == comp["alibi"]["eps_total"]
    assert comp["kerple-log"]["truncated_at_1e-6"] == M
    assert comp["sandwich"]["exact_at_1e-6"] == "inf"


def test_heatmaps_are_causal_toeplitz():
    mats = heatmap_data(16)
    for name, mat in mats.items():
        assert np.all(np.triu(mat, 1) == 0)
        b = ref.terms_array(name, 16)
        for off in range(16):
            assert np.allclose(np.diagonal(mat, -off), b[off])


def test_fig7_type2_brighter_than_type1_near_diagonal(tmp_path):
    res = make_fig78(tmp_path, quick=True)
    # exp(-ln^2 n) > n^-2 iff ln n < 2: distances t = n - 1 = 1..6
    assert res["comparison"]["type2_brighter_than_type1_at_distances"] == [1, 2, 3, 4, 5, 6]
    assert (tmp_path / "rpe-fig7-8.png").exists()
