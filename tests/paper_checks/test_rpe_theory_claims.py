"""RPE paper theory claims: each check returns the verdict we determined (a change that
hides a finding fails), and the independent TRF reference agrees with closed forms,
brute force, and the project's engine."""

import math

import mpmath as mp
import pytest

from paper_checks.evidence import DEPENDS, TYPO, UNASSESSED
from paper_checks.registry import CANNOT, FAILS, HOLDS, load_all, verdict_of
from theory.series import reference as ref

FAILS_TYPO, FAILS_UNASSESSED = f"{FAILS} ({TYPO})", f"{FAILS} ({UNASSESSED})"
SHIFTED = "shifted: n = t + 1 (n = t + 2 for 1/(n ln n))"
# claim id -> verdict label determined in our review of the paper (regression data; the
# verdicts themselves are judged from each check's evidence)
EXPECTED = {
    "rpe-eq5": HOLDS,
    "rpe-eq11": FAILS_TYPO,  # sign flipped; Eq. 13 uses only the norm
    "rpe-eq12-13": HOLDS,
    "rpe-eq15": HOLDS,
    "rpe-lemma3.2-proof-eq14": HOLDS,  # true with Toeplitz b, bounded a; reason thin
    "rpe-lemma3.2": HOLDS,  # in the paper's setting
    "rpe-eq17": FAILS_TYPO,  # exp(d^2) is not a bound; exp(l^2/sqrt d) is
    "rpe-thm3.3-proof-limit": FAILS_TYPO,  # C_ii need not converge; sup C_ii suffices
    "rpe-thm3.3": HOLDS,
    "rpe-thm3.4": HOLDS,
    # n = t + 1 reproduces Eq. 29's first term 1/(0+1)^2 = 1 (score 0); n = t gives inf
    "rpe-index-convention": f"{HOLDS} (depends on the reading; best-scoring: {SHIFTED!r})",
    "rpe-necessity-eq9": HOLDS,  # we prove necessity for Eq. 9
    "rpe-thm3.4-extrapolation": FAILS_UNASSESSED,  # Eq. 9 is not Def. 2.1
    "rpe-eq8": FAILS_TYPO,  # window of w + 1 tokens (off by one)
    "rpe-sec3.3-trf-erf": DEPENDS,  # literal bound fails; the estimate within rho holds
    "rpe-appB-kerple-trained": CANNOT,  # the Kerple authors' checkpoints
    "rpe-thm3.5": HOLDS,  # with Eq. 22's two forms and Eqs. 25-28
    "rpe-thm3.5-proof-eq26": FAILS_TYPO,  # n_beta need not take the value t0
    "rpe-thm3.5-remark": DEPENDS,  # Thm 3.5's sense holds; literal reading false
    "rpe-eq29": FAILS_TYPO,  # B = pi^2/6, not 1; Theta(1/eps) survives
    "rpe-type1-vs-type2": HOLDS,
    "rpe-type2-trf-analytic": FAILS_TYPO,  # erfc form reproduces the exact TRF
    "rpe-inv-n-diverges": HOLDS,
    "rpe-inv-nlogn-diverges": HOLDS,
    "rpe-appB-alibi": HOLDS,
    "rpe-appB-kerple-log": HOLDS,
    "rpe-appB-kerple-log-necessity": HOLDS,  # necessary for Eq. 9 (rpe-necessity-eq9)
    "rpe-appB-kerple-power-eq35": FAILS_TYPO,  # false for r < 1; Eq. 36 still converges
    "rpe-appB-kerple-power": HOLDS,
    "rpe-appB-sandwich-eq37-39": FAILS_TYPO,  # Eq. 39 only for r > 1 (r = 1e4 used)
    "rpe-appB-sandwich-eq41": FAILS_UNASSESSED,
    "rpe-appB-sandwich-eq43": FAILS_UNASSESSED,
    "rpe-appB-sandwich-eq44": HOLDS,
    "rpe-appB-sandwich-eq45": FAILS_UNASSESSED,  # Raabe direction reversed
    "rpe-appB-sandwich": FAILS_UNASSESSED,  # the series diverges
    "rpe-appC-alibi-trf": HOLDS,
    "rpe-appE-trf": FAILS_UNASSESSED,
    "rpe-fig5": FAILS_TYPO,  # Type 1 larger only at small eps (Thm 3.5)
    "rpe-fig7": FAILS_TYPO,  # not within 1-2 tokens; yes from 3 on
    "rpe-fig8": HOLDS,
    "rpe-hyp3.1": CANNOT,  # the paper's trained models
}
# ambiguous statements: reading -> verdict label
EXPECTED_READINGS = {
    "rpe-index-convention": {
        "literal: n = t": FAILS_UNASSESSED,
        SHIFTED: HOLDS,
    },
    "rpe-thm3.5-remark": {
        "literal: a termwise smaller series has the smaller TRF": FAILS_UNASSESSED
    },
    "rpe-sec3.3-trf-erf": {"literal: C_ij <= B_ij": FAILS_UNASSESSED},
}


@pytest.fixture(scope="module")
def registry():
    return load_all()


@pytest.fixture(scope="module")
def rows(registry, evidence_of):
    """Each rpe theory claim judged from its (session-cached) evidence, as a report row."""
    out = {}
    for cid in EXPECTED:
        c = registry[cid]
        v = verdict_of(c, evidence_of(cid))
        out[cid] = {
            "label": v.label,
            "summary": v.summary,
            "readings": v.readings,
            "missing": v.missing,
            "evidence": v.evidence,
            "table": v.table,
            "crashed": False,
        }
    return out


def test_every_rpe_theory_claim_is_listed(registry):
    mine = {
        c.id
        for c in registry.values()
        if c.check.__module__.startswith("paper_checks.rpe.")
        and not c.check.__module__.endswith(("empirical_claims", "training_claims"))
    }
    assert mine == set(EXPECTED)


@pytest.mark.parametrize("claim_id", sorted(EXPECTED))
def test_claim_verdict(claim_id, rows):
    row = rows[claim_id]
    assert not row["crashed"], row["summary"]
    assert row["label"] == EXPECTED[claim_id], row["summary"]


@pytest.mark.parametrize("claim_id", sorted(EXPECTED_READINGS))
def test_readings(claim_id, rows):
    got = {r["reading"]: r["verdict"] for r in rows[claim_id]["readings"]}
    for reading, label in EXPECTED_READINGS[claim_id].items():
        assert got[reading] == label


def test_cannot_names_what_is_missing(rows):
    for cid, label in EXPECTED.items():
        if label == CANNOT:
            assert rows[cid]["missing"] and all(len(m) > 15 for m in rows[cid]["missing"])


def test_corrected_erf_trf_sandwich_holds(rows):
    # our corrected statement: rowTRF(eps*rho) <= ERF(eps) <= TRF(eps/rho); and at the
    # same eps the ERF lies on both sides of the TRF (the disagreement with a same-eps bound)
    row = rows["rpe-sec3.3-trf-erf"]
    data = row["evidence"]["data"]["rows"]
    assert all(r["row_TRF(eps*rho)"] <= r["ERF"] <= r["TRF(eps/rho)"] for r in data)
    assert any(rw["ERF"] > rw["TRF(eps)"] for rw in data)
    assert any(rw["ERF"] < rw["TRF(eps)"] for rw in data)


# ----------------------------------------------- reference against closed forms
@pytest.mark.parametrize("k,eps", [(1.0, 0.01), (0.5, 1e-3), (2.0, 1e-9), (1 / 3, 0.2)])
def test_alibi_trf_closed_form(k, eps):
    # e^{-kj}/(1-e^{-k}) < eps/(1-e^{-k})  <=>  j > ln(1/eps)/k   (App. C, Eq. 47)
    assert ref.exact_trf("alibi", {"k": k}, eps) == math.floor(math.log(1 / eps) / k) + 1


@pytest.mark.parametrize(
    "name,B",
    [
        ("type1", mp.pi**2 / 6),  # zeta(2)
        ("alibi", 1 / (1 - mp.exp(-1))),  # geometric, App. C Eq. 46
        ("kerple-log", mp.zeta(1.5)),  # k = 1, r = 1.5
        ("type2", None),
        ("kerple-power", None),  # mpmath nsum, dps 30
    ],
)
def test_total_B(name, B):
    with mp.workdps(30):
        if B is None:
            f = (
                (lambda x: mp.exp(-(mp.log(x + 1) ** 2)))
                if name == "type2"
                else (lambda x: mp.exp(-mp.sqrt(x)))
            )
            B = mp.nsum(f, [0, mp.inf])
        assert abs(ref.total(name) - B) < mp.mpf(10) ** -13 * B


def test_kerple_power_slow_B_against_direct_sum_plus_gamma_tail():
    # r = 1/4 (reported by rpe-appB-kerple-power): sum_{t<40000} e^{-t^r} plus the tail
    # int_N^inf e^{-t^r} dt = Gamma(1/r, N^r)/r + f(N)/2 + 3 Euler-Maclaurin terms
    # (mpmath dps 30, independent script) = 24.735683853863612921.  mp.nsum gives
    # 24.6738 here (its extrapolation fails on this slow tail), so it is not the reference.
    with mp.workdps(30):
        assert (
            abs(ref.total("kerple-power", {"k": 1.0, "r": 0.25}) - mp.mpf("24.735683853863612921"))
            < mp.mpf(10) ** -15
        )


@pytest.mark.parametrize("name", ["alibi", "kerple-power", "type1", "type2"])
@pytest.mark.parametrize("eps", [0.3, 0.01, 1e-3])
def test_exact_trf_equals_float64_brute_force(name, eps):
    b = ref.terms_array(name, 300_000)
    assert ref.exact_trf(name, None, eps) == ref.brute_force_trf(b, float(ref.total(name)), eps)


def test_exact_trf_many_matches_bisection():
    eps = [0.5, 0.07, 3e-3, 1e-5]
    for name in ("kerple-log", "type2", "type1"):
        assert ref.exact_trf_many(name, None, eps) == [ref.exact_trf(name, None, e) for e in eps]


def test_type1_trf_asymptotic_constant():
    # tail = trigamma(j+1) ~ 1/j, so eps*TRF -> 1/B = 6/pi^2 (not 1 as Eq. 29 says)
    assert ref.exact_trf("type1", None, 1e-10) * 1e-10 == pytest.approx(6 / math.pi**2, rel=1e-8)


def test_divergent_families_have_no_trf():
    for name in ("inv-n", "inv-nlogn", "sandwich"):
        assert ref.exact_trf(name, None, 0.1) == math.inf


def test_sandwich_terms_bounded_below():
    # b_t >= exp(-k d) for every t: the Sandwich series diverges (App. B is wrong)
    p = ref.params_of("sandwich")
    b = ref.terms_array("sandwich", 50_000)
    assert b.min() >= math.exp(-p["k"] * p["d"]) * (1 - 1e-12)


def test_appendix_e_port_matches_vectorised_version():
    arr = ref.terms_array("type2", 512)
    norm, eps = ref.appendix_e_draw(arr, n=50)
    for e, x in zip(eps[:-1], norm[:-1]):
        assert round(float(x) * 512) == ref.truncated_trf(arr, float(e))
    assert norm[-1] == 1.0  # eps = 0 -> m


# ------------------------------------------------------ the project's engine
ENGINE_CASES = [  # (expression in n, start, converges) -- App. B, Sec. 3.4, Sec. 4
    ("exp(-n)", 0, True),
    ("(1+n)**(-1.5)", 0, True),
    ("(1+n)**(-1)", 0, False),
    ("exp(-n**0.5)", 0, True),
    ("1/n**2", 1, True),
    ("exp(-ln(n)**2)", 1, True),
    ("1/n", 1, False),
    ("1/(n*ln(n))", 3, False),
    ("exp(cos(n/10) - 1)", 0, False),
    ("exp(cos(n/sqrt(10)) + cos(n/10) - 2)", 0, False),
]


@pytest.mark.parametrize("text,start,converges", ENGINE_CASES)
def test_engine_decides_paper_families(text, start, converges):
    sc = pytest.importorskip("theory.series.convergence")
    from theory.series.expressions import parse_expression

    assert sc.decide(parse_expression(text), start=start).converges is converges


TRF_CASES = [  # (family, engine expression, start) -- same sequence, two indexings
    ("alibi", "exp(-n)", 0),
    ("type1", "1/n**2", 1),
    ("type2", "exp(-ln(n)**2)", 1),
    ("kerple-log", "(1+n)**(-1.5)", 0),
    ("kerple-power", "exp(-n**0.5)", 0),
]


@pytest.mark.parametrize("name,text,start", TRF_CASES)
def test_engine_trf_equals_reference(name, text, start):
    rf = pytest.importorskip("theory.series.trf_search")
    from theory.series.expressions import parse_expression

    eps = [0.1, 1e-3, 1e-6]
    got = rf.trf_table(parse_expression(text), eps, start=start)
    assert all(res.exact for res in got)
    assert [int(res.value) for res in got] == ref.exact_trf_many(name, None, eps)


def test_eq29_derivation_steps(rows):
    # the steps of Eq. 29 as judged in rpe-eq29's (session-cached) evidence: the partial
    # sum is 60% off the integral at j = 2 (1.25 vs 0.5, relative to the larger), beyond
    # the declared 5% band; B = 1 is refuted (pi^2/6); the corrected B is proved
    steps = [r for r in rows["rpe-eq29"]["table"] if "step" in r]
    assert [r["step"] for r in steps] == ["refuted", "refuted", "proved"]
    assert steps[0]["error"] == pytest.approx(0.6)
    assert "step 'partial sum ~ integral' (Eq. 29): refuted" in rows["rpe-eq29"]["summary"]


@pytest.mark.parametrize(
    "name,params",
    [
        ("alibi", {"k": 1}),
        ("kerple-log", {"k": 1, "r": 1.5}),
        ("type1", {}),
        ("type2", {}),
        ("inv-n", {}),
        ("inv-nlogn", {}),
        ("sandwich", {"k": 0.125}),
    ],
)
def test_engine_truncated_trf_equals_appendix_e_port(name, params):
    rf = pytest.importorskip("theory.series.trf_search")
    from theory.series.rpe_library import resolve_rpe

    rpe = resolve_rpe(name, params)
    arr = ref.terms_array(name, 512, {k: float(v) for k, v in params.items()})
    for eps in (0.5, 0.1, 1 / 49):
        assert rf.trf(rpe.b, eps, start=rpe.start, truncate=512).value == ref.truncated_trf(
            arr, eps
        )


def test_engine_thm35_type2_smaller_than_type1(rows):
    pytest.importorskip("theory.series.trf_search")
    engine = rows["rpe-thm3.5"]["evidence"]["data"]["engine"]
    assert engine.get("smaller") == 1, engine


def _kerple_log_trf_exact_rational(num, den, eps, lo, hi, steps=120):
    """Eq. 22 for (1+t)^-r, r = num/den exactly, by bisection on the Hurwitz-zeta tail
    (mpmath dps 40; r is built inside the precision context, not at import)."""
    with mp.workdps(40):
        r = mp.mpf(num) / den
        target = mp.zeta(r) * mp.mpf(float(eps))  # the engine gets the binary eps
        lo, hi = mp.mpf(lo), mp.mpf(hi)
        for _ in range(steps):
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if mp.zeta(r, mid + 1) < target else (mid, hi)
        return mp.floor(hi) + 1


@pytest.mark.parametrize(
    "text,num,den,eps,lo,hi",
    [
        pytest.param(
            "(1+n)**(-1.01)",
            101,
            100,
            "0.1",
            "5e99",
            "7e99",  # TRF ~ 5.6e99
            marks=pytest.mark.slow,
        ),
        # was an engine bug (53-bit value claimed 1e-20 accurate); fixed on branch trf:
        # below 1e30 the value is Eq. 22's integer floor(x) + 1, accuracy stated honestly
        ("(1+n)**(-1.5)", 3, 2, "1e-9", "5e17", "7e17"),  # TRF ~ 5.86e17
    ],
)
def test_engine_large_trf_meets_stated_accuracy(text, num, den, eps, lo, hi):
    rf = pytest.importorskip("theory.series.trf_search")
    from theory.series.expressions import parse_expression

    res = rf.trf(parse_expression(text), float(eps), start=0)
    exact = _kerple_log_trf_exact_rational(num, den, eps, lo, hi)
    with mp.workdps(40):
        rel = abs(mp.mpf(res.value) - exact) / exact
    assert rel <= res.relative_accuracy


@pytest.mark.slow
def test_engine_type2_deep_eps_equals_erfc_form():
    # erfc closed form (rpe-type2-trf-analytic) and our bisection: TRF(1e-30) = 5472
    # (also from an independent mpmath script: direct sum + Euler-Maclaurin tail, dps 40)
    rf = pytest.importorskip("theory.series.trf_search")
    from theory.series.expressions import parse_expression

    assert int(rf.trf(parse_expression("exp(-ln(n)**2)"), 1e-30, start=1).value) == 5472
    assert ref.exact_trf("type2", None, 1e-30) == 5472


def test_type2_trf_larger_intervals_closed_form(rows):
    # TRF <= j iff eps > 1 - P_j/B (Eq. 22).  Type 1: P_1 = 1, P_2 = 5/4, B = pi^2/6;
    # Type 2: P_1 = 1, P_2 = 1 + exp(-ln^2 2), B = 2.2381813067966930 (mpmath nsum,
    # dps 30).  Type 2's TRF is the larger one exactly on these two intervals.
    B1, B2 = math.pi**2 / 6, 2.2381813067966930
    want = [(1 - 1 / B1, 1 - 1 / B2), (1 - 1.25 / B1, 1 - (1 + math.exp(-(math.log(2) ** 2))) / B2)]
    got = rows["rpe-type1-vs-type2"]["evidence"]["data"]["eps_intervals_type2_trf_larger"]
    assert len(got) == 2
    for (a, b), (wa, wb) in zip(got, want):
        assert a == pytest.approx(wa, abs=1e-12) and b == pytest.approx(wb, abs=1e-12)
