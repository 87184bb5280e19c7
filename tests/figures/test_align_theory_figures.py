"""The two theory figures at small size: files written, and the agreement (or the
disagreement) each figure shows."""

import json

from figures.align_theory import lln_error_grid, make_lln_map, prop_curves


def test_lln_map_quick(tmp_path):
    res = make_lln_map(tmp_path, quick=True)
    assert all(
        (tmp_path / f).exists()
        for f in ("align-lln-error-map.png", "align-lln-error-map.csv", "align-lln-error-map.json")
    )
    # Monte Carlo spot checks agree with the quadrature behind the map
    for s in res["comparison"]["mc_spot_checks"]:
        assert abs(s["mc_logD"] - s["quad_logD"]) < 4 * s["mc_logD_se"] + 1e-12
        assert abs(s["mc_H"] - s["quad_H"]) < 4 * s["mc_H_se"] + 1e-12
    data = json.loads((tmp_path / "align-lln-error-map.json").read_text())
    assert len(data["grid"]) == 16


def test_map_shows_where_eq1_holds_and_breaks():
    rows = lln_error_grid([64, 10**6], [0.1, 6.0])["rows"]
    err = {(r["L"], r["sigma"]): r["rel_err_logD"] for r in rows}
    assert abs(err[(10**6, 0.1)]) < 1e-6  # L >> e^{sigma^2}: exact
    assert err[(64, 6.0)] > 0.3  # sigma > sqrt(2 ln 64): off by >30%


def test_prop_vs_mc_agreement_and_disagreement():
    (r,) = prop_curves(1.0, 512, [2048], draws=64, seed=0)
    # Prop. 2 agrees with the exact entropy alignment at sigma = 1 ...
    assert abs(r["prop2"] - r["exact_entropy_aligned"]) < 0.01
    assert abs(r["mc_entropy_aligned"] - r["exact_entropy_aligned"]) < 0.03
    # ... the Monte Carlo P_max alignment agrees with the exact (quadrature) one ...
    assert abs(r["mc_pmax_aligned"] - r["exact_pmax_aligned"]) < 0.05
    # ... while Prop. 1 (Assumption 2: l_max fixed) over-sharpens vs the truth
    assert r["exact_pmax_aligned"] - r["prop1"] > 0.1
