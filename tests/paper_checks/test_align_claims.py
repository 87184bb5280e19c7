"""Verdicts of the attention-alignment theory claims and the numbers that decide them,
re-derived by hand from the paper's tables and formulas (source in each comment)."""

import math

import pytest

from paper_checks.align.early_version import early_display_source, extraction_damage
from paper_checks.align.operating_point import sigma_ex_readings
from paper_checks.evidence import judge
from paper_checks.registry import load_all
from theory.papers.align import EARLY_DISPLAY

TYPO, UNASSESSED, EVERY_FAILS = (
    "does not hold (typo; conclusion unaffected)",
    "does not hold (severity not assessed)",
    "does not hold under every reading (severity not assessed)",
)
EXPECTED = {
    "align-prop1": "holds",  # every algebra step proved by sympy
    "align-eq3": "holds",
    "align-prop2": "holds",
    # the best reading changes with the scale (log/nats vs relative), so none decides
    "align-prop1-real-root": "depends on the reading",
    "align-a2-early-version-typo": TYPO,  # sigma_ex^2/(2 tau^2) for sigma_tr^2/2
    "align-table5-improvement": TYPO,  # 44.5 - 42.0 = 2.5, printed +1.5
    "align-assumption1-regime": EVERY_FAILS,  # e^(2.70^2) = 1465 > 512
    "align-rem-breakdown": UNASSESSED,  # H off by 0.83 nats at L = 512, s = 2.75
    "align-eq1-lln": "holds approximately",
    "align-table8-log-rule": "holds",
    "align-table3-averages": "holds",
    # Gaussian top entry grows 30% (one sigma) or falls 17-45% (Eq. 2 sigma); Table 7: +1-3%
    "align-assumption2-vs-a1": EVERY_FAILS,
    "align-sigma-vs-table7": UNASSESSED,
}


@pytest.fixture(scope="module")
def registry():
    return load_all()


@pytest.fixture
def verdict(registry, evidence_of):
    """``verdict(claim_id)``: judge() of the claim's (session-cached) evidence."""
    return lambda cid: judge(evidence_of(cid), registry[cid].tolerances)


@pytest.mark.parametrize("cid,expected", sorted(EXPECTED.items()))
def test_claim_verdict(cid, expected, verdict):
    assert verdict(cid).label == expected


def test_prop1_real_root_depends_on_the_reading():
    r = sigma_ex_readings()["topic"]
    # Eq. 2 (Tables 1, 7): sigma_tr^2 = 2 (8.61 - ln(0.28 * 512)) = 7.289
    assert r["sigma_tr"] ** 2 == pytest.approx(2 * (8.61 - math.log(0.28 * 512)))
    # a real root needs sigma_ex <= B / sqrt(2A), B = 8.61, A = ln(15000 * 0.28) = 8.343
    assert r["sigma_ex_max"] == pytest.approx(8.61 / math.sqrt(2 * math.log(15000 * 0.28)))
    # one sigma: 2.70 > 2.11, no root; Eq. 2 at 15k: sigma_ex^2 = 2 (8.80 - ln(0.12 * 15000))
    assert r["fixed_sigma"]["tau"] is None
    assert r["eq2_at_L_ex"]["sigma_ex"] ** 2 == pytest.approx(2 * (8.80 - math.log(1800)))
    assert r["eq2_at_L_ex"]["tau"] == pytest.approx(
        (8.61 + math.sqrt(8.61**2 - 2 * math.log(4200) * r["eq2_at_L_ex"]["sigma_ex"] ** 2))
        / (2 * math.log(4200))
    )


def test_prop1_real_root_readings_differ(verdict):
    v = verdict("align-prop1-real-root")
    by = {r["reading"]: r["verdict"] for r in v.readings}
    assert sum(x == "holds" for x in by.values()) == 1 and len(by) == 4


def test_early_display_slip_is_in_the_source_not_the_extraction():
    # the extraction eats \b \a \f, blanks \t, breaks \r: it cannot turn sigma_tr into sigma_ex
    assert extraction_damage(early_display_source("\\sigma_{ex}^2/(2\\tau^2)")) == EARLY_DISPLAY
    assert extraction_damage(early_display_source("\\sigma_{tr}^2/2", "tr")) != EARLY_DISPLAY


def test_assumption2_fixed_sigma_reading(verdict):
    v = verdict("align-assumption2-vs-a1")
    fixed = next(r for r in v.readings if r["reading"] == "one sigma for every length")
    assert fixed["verdict"].startswith("does not hold")
    # E[max of 15000 std normals] / E[max of 512] = 3.9502 / 3.0439: +30%; Table 7 topic +2.2%
    assert fixed["table"][0]["computed"][0] == pytest.approx(1.2977, abs=1e-3)
    assert fixed["table"][0]["paper"][0] == pytest.approx(8.80 / 8.61)


def test_inferred_sigma_predicts_table7_top_logits_by_hand(verdict):
    # Eq. 2 at 15k, topic: sigma^2 = 2 (8.80 - ln(0.12 * 15000)) = 2.6089; sigma = 1.6152;
    # E[max of 15000 std normals] = 3.9502: top logit 6.380, where Table 7 prints 8.80
    v = verdict("align-sigma-vs-table7")
    row = next(r for r in v.table if r["quantity"].endswith("L = 15k"))
    s = math.sqrt(2 * (8.80 - math.log(0.12 * 15000)))
    assert row["computed"][0] == pytest.approx(s * 3.9502, rel=1e-4)
    assert row["paper"][0] == 8.80 and row["outcome"] == "disagrees"


def test_prop1_real_root_readings_are_scored(verdict):
    v = verdict("align-prop1-real-root")
    scores = {r["reading"]: r["score"] for r in v.readings}
    relative = {r["reading"]: r["relative score"] for r in v.readings}
    eq2 = "Eq. 2 applied at L_ex with Table 1's P_max and Table 7's l_max at 15k"
    # Eq. 2 at 15k reproduces Table 1's P_max by construction: that row is circular and
    # unscored; its score is the l_max residual in nats, largest for passkey:
    # sigma = sqrt(2 (8.85 - ln(0.24 * 15000))), top logit sigma * 3.9502 vs 8.85
    s_pk = math.sqrt(2 * (8.85 - math.log(0.24 * 15000)))
    assert scores[eq2] == pytest.approx(8.85 - s_pk * 3.9502, abs=2e-3)
    rows = next(r for r in v.readings if r["reading"] == eq2)["consistency"]
    assert rows[0]["outcome"].startswith("circular") and rows[0]["residual"] is None
    # relative scale: (8.80 - 6.380) / 8.80 = 0.275 topic, (8.85 - 4.543) / 8.85 = 0.487
    assert relative[eq2] == pytest.approx((8.85 - s_pk * 3.9502) / 8.85, abs=2e-3)
    assert min(relative, key=relative.get) == eq2 != min(scores, key=scores.get)
    # so no reading decides, and the threshold heads the summary: sigma_ex has a real root
    # iff sigma_ex <= B / sqrt(2A) = 8.61 / sqrt(2 ln(15000 * 0.28)) = 2.108 (topic)
    assert not v.best_reading and "depends on the scale" in v.summary
    assert f"{8.61 / math.sqrt(2 * math.log(15000 * 0.28)):.3f}" == "2.108"
    assert v.summary.startswith("decided by the largest sigma_ex with a real root, [2.108,")


def test_table5_improvement_finds_the_printed_1_5(verdict):
    v = verdict("align-table5-improvement")
    row = v.table[0]
    bad = [(c, p) for c, p in zip(row["computed"], row["paper"]) if abs(c - p) > 0.15]
    # Table 5, Flan-T5-Large, 30 docs at position 4: 44.5 - 42.0 = 2.5, printed +1.5
    assert bad == [(pytest.approx(2.5), 1.5)]
