"""Temperature rules, Prop. 1/2 algebra by independent routes, Algorithm 1, table rows."""

import math

import numpy as np
import pytest

from paper_checks.align.tables import (
    average_consistent,
    difference_consistent,
    implied_lengths,
    log_row,
    log_rule_table_check,
    table4_averages,
    table5_checks,
)
from theory.papers.align import TABLE3, TABLE8, TABLE9, TABLE10, TABLE11
from theory.temperature.rules import (
    PAPER_GRID,
    TemperatureInputError,
    algorithm1,
    algorithm1_continuous,
    algorithm1_grid,
    infoscale_temperature,
    log_rule_temperature,
    longrope_temperature,
    prop1_coefficients,
    prop1_temperature,
    prop2_temperature,
    softmax_pmax_entropy,
    temperature_rules,
    yarn_temperature,
)

TABLE8_LOG, TABLE9_LOG, TABLE10_LOG, TABLE11_LOG = map(log_row, (TABLE8, TABLE9, TABLE10, TABLE11))

# (L_tr, L_ex, sigma_tr, sigma_ex, P): points where Prop. 1 has a real root in (0, 1]
PROP1_CASES = [
    (512, 2048, 1.0, 1.0, 0.3),
    (512, 15000, 1.0, 0.8, 0.2),
    (1024, 4096, 1.5, 1.2, 0.4),
    (512, 1024, 0.5, 0.5, 0.1),
]


def _p_ex_model(L_tr, L_ex, s_tr, s_ex, p, tau):
    # last line of App. A.2 (paper): (P L_tr e^{s_tr^2/2})^{1/tau} / (L_ex e^{s_ex^2/(2 tau^2)})
    return (p * L_tr * math.exp(s_tr**2 / 2)) ** (1 / tau) / (
        L_ex * math.exp(s_ex**2 / (2 * tau**2))
    )


@pytest.mark.parametrize("case", PROP1_CASES)
def test_prop1_tau_aligns_the_model_pmax(case):
    r = prop1_temperature(*case)
    assert r.tau is not None and 0 < r.tau <= 1, r.note
    # independent route 1: A.2's model P_ex(tau) equals P
    assert math.isclose(_p_ex_model(*case, r.tau), case[-1], rel_tol=1e-10)
    # independent route 2: numpy's polynomial roots, larger one
    A, B, C = prop1_coefficients(*case)
    assert math.isclose(max(np.roots([A, -B, C]).real), r.tau, rel_tol=1e-10)
    # the fixed-point form of Prop. 1
    assert math.isclose(r.tau, B / (A + C / r.tau**2), rel_tol=1e-10)


def test_prop1_identity_when_lengths_equal_and_sigma_small():
    assert prop1_temperature(512, 512, 1.0, 1.0, 0.3).tau == pytest.approx(1.0, abs=1e-12)


def test_prop1_larger_root_rule_fails_when_sigma_large():
    # L_ex = L_tr, sigma^2/2 = 6.125 > log(512*0.28) = 4.97: roots 1 and C/A = 1.23;
    # the paper's "larger root" is 1.23, not the correct 1 -> reported, not returned
    r = prop1_temperature(512, 512, 3.5, 3.5, 0.28)
    assert r.tau is None and "outside (0, 1]" in r.note
    assert max(r.details["roots"]) == pytest.approx(6.125 / math.log(512 * 0.28))
    assert min(r.details["roots"]) == pytest.approx(1.0)


def test_prop1_no_real_root_at_paper_operating_point():
    # sigma_tr from Eq. 2 with Table 1 (P=0.28) and Table 7 (l_max=8.61): 2.70
    s = math.sqrt(2 * (8.61 - math.log(0.28 * 512)))
    r = prop1_temperature(512, 15000, s, s, 0.28)
    assert r.tau is None and "no real root" in r.note and r.details["discriminant"] < 0


@pytest.mark.parametrize(
    "L_tr,L_ex,s_tr,s_ex", [(512, 15000, 1.0, 1.0), (512, 2048, 2.7, 2.1), (768, 16000, 0.4, 3)]
)
def test_prop2_solves_the_entropy_equation(L_tr, L_ex, s_tr, s_ex):
    tau = prop2_temperature(L_tr, L_ex, s_tr, s_ex).tau
    # App. A.3: log L_ex - s_ex^2/(2 tau^2) = log L_tr - s_tr^2/2
    assert math.isclose(
        math.log(L_ex) - s_ex**2 / (2 * tau**2), math.log(L_tr) - s_tr**2 / 2, rel_tol=1e-12
    )


def test_prop2_identity():
    assert prop2_temperature(512, 512, 1.3, 1.3).tau == pytest.approx(1.0)


def test_other_rules_by_independent_formulas():
    L_tr, L_ex = 512, 15000
    s = L_ex / L_tr
    assert log_rule_temperature(L_tr, L_ex).tau == pytest.approx(math.log(512, 15000))
    # LongRoPE applied to q and k equals the log rule exactly
    assert longrope_temperature(L_tr, L_ex).tau == pytest.approx(math.log(512, 15000))
    # YaRN: logits multiplied by (0.1 ln s + 1)^2
    assert yarn_temperature(L_tr, L_ex).tau == pytest.approx((0.1 * math.log(s) + 1) ** -2)
    # InfoScale, d -> infinity: n^{-2/d} ~ 1 - 2 ln n / d, so tau -> sqrt(log rule)
    assert infoscale_temperature(L_tr, L_ex, 10**7).tau == pytest.approx(
        math.sqrt(math.log(512) / math.log(15000)), rel=1e-5
    )
    assert infoscale_temperature(L_tr, L_tr, 64).tau == pytest.approx(1.0)


def test_temperature_rules_contract():
    r = temperature_rules(512, 4096)
    assert set(r) == {"prop1", "prop2", "log_rule", "infoscale", "yarn", "longrope"}
    assert r["prop1"].tau is None and "needs" in r["prop1"].note
    assert r["infoscale"].tau is None and "d" in r["infoscale"].note
    full = temperature_rules(512, 4096, 1.0, 1.0, 0.3, 64)
    assert all(v.tau is not None and v.source for v in full.values())


@pytest.mark.parametrize("args", [(512, 100), (1, 10), (512, float("nan"))])
def test_bad_lengths_raise(args):
    with pytest.raises(TemperatureInputError):
        log_rule_temperature(*args)


@pytest.mark.parametrize(
    "kw", [dict(sigma_tr=0.0), dict(sigma_ex=-1.0), dict(pmax_tr=1.0), dict(pmax_tr=0.0)]
)
def test_bad_sigma_or_probability_raise(kw):
    args = dict(L_tr=512, L_ex=1024, sigma_tr=1.0, sigma_ex=1.0, pmax_tr=0.3) | kw
    with pytest.raises(TemperatureInputError):
        prop1_temperature(**args)


def test_softmax_stats_match_scipy():
    from scipy.special import softmax
    from scipy.stats import entropy

    x = np.random.default_rng(0).normal(size=(5, 40)) * 2
    p, h = softmax_pmax_entropy(x, 0.7)
    q = softmax(x / 0.7, axis=1)
    assert np.allclose(p, q.max(axis=1)) and np.allclose(h, entropy(q, axis=1))
    # masked entries (-inf) get probability 0 and do not produce NaN
    pm, hm = softmax_pmax_entropy([0.0, 0.0, -np.inf], 1.0)
    assert pm == pytest.approx(0.5) and hm == pytest.approx(math.log(2))


def test_algorithm1_grid_and_continuous():
    assert PAPER_GRID == (1.0, 0.95, 0.9, 0.85, 0.8, 0.75, 0.7, 0.65, 0.6, 0.55, 0.5)
    g = algorithm1_grid(lambda t: t**2, 0.3)  # sqrt(0.3) = 0.548 -> 0.55
    assert g.tau == 0.55 and g.details["bracketed"]
    cens = algorithm1_grid(lambda t: t, 0.2)  # below the grid: censored at 0.5
    assert cens.tau == 0.5 and not cens.details["bracketed"]
    c = algorithm1_continuous(lambda t: t**2, 0.3)
    assert abs(c.tau**2 - 0.3) <= 1e-6 and c.tau == pytest.approx(math.sqrt(0.3))
    none = algorithm1_continuous(lambda t: t, 5.0)
    assert none.tau is None and "not bracketed" in none.note


@pytest.mark.parametrize("mode,L_ex", [("pmax", 4096), ("entropy", 1024)])
def test_algorithm1_on_gaussian_logits(mode, L_ex):
    rng = np.random.default_rng(1)
    tr, ex = rng.normal(size=(32, 512)), rng.normal(size=(16, L_ex))
    c = algorithm1(tr, ex, mode, method="continuous")
    g = algorithm1(tr, ex, mode, method="grid")
    assert abs(c.details["residual"]) <= 1e-6
    assert g.details["bracketed"] and 0.5 < c.tau < 1
    assert abs(g.tau - c.tau) <= 0.025 + 1e-12  # grid step / 2


def test_table9_log_row_reproduced_from_stated_lengths():
    # Table 9: maximum lengths "around 14.5k to 15.5k"; last column printed 0.65
    for L in (14500, 15000, 15500):
        assert round(math.log(512) / math.log(L), 2) == 0.65
    r = implied_lengths(TABLE9_LOG)
    assert r["monotone"]
    assert all(c["consistent_with_stated_max"] for c in r["columns"] if c["last_of_task"])
    # first topic column 0.79 implies L_ex ~ 2.6k-2.8k tokens
    lo, hi = r["columns"][0]["implied_L_ex"]
    assert 2500 < lo < hi < 2900


@pytest.mark.parametrize("table", [TABLE8_LOG, TABLE10_LOG, TABLE11_LOG])
def test_log_rule_tables_reproduced(table):
    assert log_rule_table_check(table)["all_match"]


def test_log_rule_table_check_detects_a_wrong_entry():
    bad = {"L_tr": 512, "columns": [(1024, "0.8")]}
    assert not log_rule_table_check(bad)["all_match"]


def test_table3_averages_consistent_and_detector_works():
    assert all(average_consistent(v, a)["consistent"] for v, a in TABLE3.values())
    assert not average_consistent(["1.0", "2.0"], "1.7")["consistent"]


def test_infoscale_rule_is_eq15():
    """tau = 1/InfoScale with Eq. 15 (eps = 0) written out here at 30 digits."""
    import mpmath

    from theory.temperature.rules import infoscale_temperature

    for n, n_tr, d in [(15000, 512, 64), (4096, 512, 128), (512, 512, 32)]:
        with mpmath.workdps(30):
            f = mpmath.sqrt(
                (1 - mpmath.mpf(n) ** (-mpmath.mpf(2) / d))
                / (1 - mpmath.mpf(n_tr) ** (-mpmath.mpf(2) / d))
            )
        assert infoscale_temperature(n_tr, n, d).tau == pytest.approx(float(1 / f), rel=1e-13)


def test_table4_and_table5_arithmetic():
    assert all(v["consistent"] for v in table4_averages().values())
    t = table5_checks()
    assert all(v["consistent"] for v in t["avg30"].values())
    assert all(
        v["avg10"]["consistent"] and v["avg20"]["consistent"] and v["positions30_equal"]
        for v in t["vs_table14"].values()
    )


def test_table5_improvement_typo_is_detected():
    # Table 5, Flan-T5-Large, 30 docs, position 4: 44.5 - 42.0 = +2.5, printed +1.5
    bad = [
        (k, c) for k, v in table5_checks()["improvement"].items() for c in v if not c["consistent"]
    ]
    assert [(k, c["a"], c["b"], c["printed"]) for k, c in bad] == [
        ("Flan-T5-Large Improvement", "42.0", "44.5", "+1.5")
    ]
    assert difference_consistent("42.0", "44.5", "+2.5")["consistent"]


# ------------------------------------------------------------------ audit (Prop. 1)
def _sigma_ex_assumption2(L_tr, L_ex, s_tr):
    from theory.temperature.gaussian_softmax import expected_max_std_normal

    return s_tr * expected_max_std_normal(L_tr) / expected_max_std_normal(L_ex)


def test_prop1_accurate_where_both_assumptions_hold_and_off_where_a2_fails():
    from theory.temperature.gaussian_softmax import expected_pmax, pmax_alignment_tau_exact

    # i.i.d. N(0, s^2) logits with sigma_ex set so that E[l_max] is unchanged
    # (Assumption 2): Prop. 1's larger root is the exact P_max-aligning tau within 0.01
    # (exact tau by quadrature; independent numpy Monte Carlo, 800 draws: 0.612 vs
    # Prop. 1's 0.621)
    s_ex = _sigma_ex_assumption2(512, 2048, 1.0)
    p = expected_pmax(512, 1.0)
    tau = prop1_temperature(512, 2048, 1.0, s_ex, p).tau
    assert abs(tau - pmax_alignment_tau_exact(512, 2048, 1.0, s_ex)) < 0.01
    # fixed sigma violates Assumption 2 (l_max grows 3.04 -> 3.44 sigma): off by > 0.1
    tau_fixed = prop1_temperature(512, 2048, 1.0, 1.0, p).tau
    assert pmax_alignment_tau_exact(512, 2048, 1.0, 1.0) - tau_fixed > 0.1


def test_larger_root_is_the_right_branch_at_the_papers_inferred_sigma():
    # sigma_tr = 2.70 (Eq. 2 with Tables 1 and 7): C = 3.645 < A = log(512 * 0.28) = 4.965,
    # so at L_ex = L_tr the larger root is the correct tau = 1 (the smaller is C/A = 0.734)
    s = math.sqrt(2 * (8.61 - math.log(0.28 * 512)))
    r = prop1_temperature(512, 512, s, s, 0.28)
    assert r.tau == pytest.approx(1.0, abs=1e-12)


@pytest.mark.parametrize(
    "task,p,l_tr,l_ex,sign",
    [
        ("topic", 0.28, 8.61, 8.80, -1),
        ("line", 0.27, 8.71, 8.97, -1),
        ("passkey", 0.32, 8.75, 8.85, 1),
    ],
)
def test_prop1_discriminant_at_jointly_consistent_sigma_is_near_zero(task, p, l_tr, l_ex, sign):
    # Tables 1 and 7; sigma_tr by Eq. 2, sigma_ex from l_max^ex/l_max^tr =
    # (sigma_ex E[max_15000]) / (sigma_tr E[max_512]). Independent mpmath script
    # (audit): discriminants -1.31, -3.25, +1.37, i.e. within 5% of B^2 = l_max^2
    from theory.temperature.gaussian_softmax import expected_max_std_normal

    s_tr = math.sqrt(2 * (l_tr - math.log(p * 512)))
    s_ex = s_tr * (l_ex / l_tr) * expected_max_std_normal(512) / expected_max_std_normal(15000)
    A, B, C = prop1_coefficients(512, 15000, s_tr, s_ex, p)
    assert B == pytest.approx(l_tr)  # Eq. 2: B = l_max^tr
    d = B * B - 4 * A * C
    assert abs(d) < 0.05 * B * B and d * sign > 0


def test_log_rule_is_nearer_the_pmax_rows_of_tables_8_to_11():
    from paper_checks.align.tables import log_rule_nearest

    t = log_rule_nearest()
    # Table 10, Flan-T5-Large by hand: log .84 .77 .73, P_max .9 .85 .8, H .75 .65 .6
    assert t[("10", "Flan-T5-Large")]["closer_to_pmax"] == 3
    # Table 8, T5-XXL-LM by hand: log .9 .82 .75 .69 .65, P_max .9 .85 .65 .55 .5,
    # H .85 .7 .7 .55 .5: P_max nearer at 1024, 2048; H at 4096; ties at 8192, 15000
    assert (
        t[("8", "T5-XXL-LM")]["closer_to_pmax"],
        t[("8", "T5-XXL-LM")]["closer_to_entropy"],
    ) == (2, 1)
    assert sum(v["closer_to_pmax"] for v in t.values()) > 3 * sum(
        v["closer_to_entropy"] for v in t.values()
    )


def test_table9_log_row_reproduced_with_proportional_lengths():
    from paper_checks.align.tables import table9_proportional

    t = table9_proportional()
    # by hand: 200 of 680 lines at L_max = 15300 is L_ex = 4500, ln 512 / ln 4500 = 0.7416
    assert t["line"]["predicted"][0] == 0.74 and t["line"]["matches"] == 6
    assert t["passkey"]["matches"] == 5
    # topic, 5 of 25 topics: printed 0.79 needs L_ex <= 512^(1/0.785) = 2827
    assert t["topic"]["matches"] == 4 and t["topic"]["predicted"][0] == 0.78
