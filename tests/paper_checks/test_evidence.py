"""paper_checks.evidence: judge() on a declared table of evidence (one case a row: items,
tolerances, the verdict label they must give), and perturb() on the same table."""

import pytest
import sympy as sp
from evidence_perturbation import perturb

from paper_checks.evidence import (
    APPROX,
    CANNOT,
    CHANGES,
    DEPENDS,
    FAILS,
    HOLDS,
    OTHER_CAUSE,
    TYPO,
    UNASSESSED,
    Counterexample,
    DerivationStep,
    Equal,
    Evidence,
    Identity,
    Inequality,
    MissingInput,
    Reading,
    Reported,
    Tol,
    consistency_score,
    judge,
)

x = sp.Symbol("x")
R1 = Tol(rtol=1e-9)
NEAR = Tol(rtol=1e-9, approx_rtol=0.05)

# (name, items, tolerances, expected label)
CASES = [
    ("equal within rtol", [Equal("B", 1.6449340668, paper=1.644934066848)], {"B": R1}, HOLDS),
    (
        "equal outside rtol",
        [Equal("B", 1.6449340668, paper=1.0)],
        {"B": R1},
        f"{FAILS} ({UNASSESSED})",
    ),
    ("integer exact by default", [Equal("TRF", 7, paper=7)], {}, HOLDS),
    ("integer off by one", [Equal("TRF", 7, paper=8)], {}, f"{FAILS} ({UNASSESSED})"),
    ("approximation band", [Equal("ratio", 1.03, paper=1.0)], {"ratio": NEAR}, APPROX),
    (
        "beyond the band",
        [Equal("ratio", 1.2, paper=1.0)],
        {"ratio": NEAR},
        f"{FAILS} ({UNASSESSED})",
    ),
    ("array elementwise", [Equal("row", [1.0, 2.0, 3.0], paper=[1.0, 2.0, 3.0])], {}, HOLDS),
    ("inequality", [Inequality("ratio", 44.35, paper=44, relation=">")], {}, HOLDS),
    (
        "inequality violated",
        [Inequality("max ratio", 1.2, paper=1.0)],
        {},
        f"{FAILS} ({UNASSESSED})",
    ),
    (
        "counterexample found",
        [
            Counterexample(
                "q^T k - d^2", 3.0, paper=0.0, searched="d=1, |q|,|k|<=2", witness="q=k=2"
            )
        ],
        {},
        f"{FAILS} ({UNASSESSED})",
    ),
    (
        "no counterexample",
        [Counterexample("q^T k - l^2", -1e-17, paper=0.0, searched="random")],
        {"q^T k - l^2": Tol(atol=1e-12)},
        HOLDS,
    ),
    (
        "identity",
        [
            Identity(
                "square",
                lhs="(x+1)**2",
                rhs="x**2+2*x+1",
                residual=sp.expand((x + 1) ** 2 - x**2 - 2 * x - 1),
            )
        ],
        {},
        HOLDS,
    ),
    (
        "sign flip, conclusion unaffected",
        [
            Identity("Eq. 11", lhs="a", rhs="-a", residual=2 * x),
            Equal("norm used in Eq. 13", 1.0, paper=1.0, role="consequence"),
        ],
        {},
        f"{FAILS} ({TYPO})",
    ),
    (
        "conclusion also wrong, and repairing this claim alone repairs it",
        [
            Equal("bound", 2.0, paper=1.0),
            Equal("use", 3.0, paper=1.0, role="consequence", repaired=1.0),
        ],
        {},
        f"{FAILS} ({CHANGES})",
    ),
    (
        "conclusion also wrong, but it still fails with this claim repaired",
        [
            Equal("bound", 2.0, paper=1.0),
            Equal("use", 3.0, paper=1.0, role="consequence", repaired=2.9),
        ],
        {},
        f"{FAILS} ({OTHER_CAUSE})",
    ),
    (
        "conclusion also wrong, no counterfactual: the cause is not assessed",
        [Equal("bound", 2.0, paper=1.0), Equal("use", 3.0, paper=1.0, role="consequence")],
        {},
        f"{FAILS} ({UNASSESSED})",
    ),
    ("missing input", [MissingInput("ERF of Flan-T5", missing="Flan-T5-XL weights")], {}, CANNOT),
    (
        "missing but a computed part disagrees",
        [MissingInput("PPL", missing="Wikitext-103"), Equal("paper's own delta", 0.12, paper=1.0)],
        {},
        f"{FAILS} ({UNASSESSED})",
    ),
    ("proved step", [DerivationStep("s", [1.0, 2.0], paper=[1.0, 2.0], symbolic=True)], {}, HOLDS),
    (
        "numerically verified step counts the same",
        [DerivationStep("s", [1.0], paper=[1.0])],
        {},
        HOLDS,
    ),
    (
        "approximate step",
        [DerivationStep("s", [1.0, 2.0], paper=[1.01, 2.0], kind="approx")],
        {"s": Tol(approx_rtol=0.02)},
        APPROX,
    ),
    (
        "approximate step too coarse",
        [DerivationStep("s", [1.0], paper=[1.5], kind="approx")],
        {"s": Tol(approx_rtol=0.02)},
        f"{FAILS} ({UNASSESSED})",
    ),
    ("refuted step", [DerivationStep("s", [1.0], paper=[2.0])], {}, f"{FAILS} ({UNASSESSED})"),
    ("reported numbers do not count", [Reported("n", 3), Equal("a", 1, paper=1)], {}, HOLDS),
]


@pytest.mark.parametrize("name,items,tols,label", CASES, ids=[c[0] for c in CASES])
def test_judge(name, items, tols, label):
    assert judge(Evidence(items), tols).label == label


@pytest.mark.parametrize("name,items,tols,label", CASES, ids=[c[0] for c in CASES])
def test_perturbation_changes_verdict_only_beyond_tolerance(name, items, tols, label):
    ev = Evidence(items)
    assert judge(perturb(ev, tols, "within"), tols).label == label
    if label != CANNOT:
        assert judge(perturb(ev, tols, "beyond"), tols).status != judge(ev, tols).status


def test_within_moves_the_paper_value_when_the_tolerance_allows():
    ev = Evidence([Equal("B", 1.0, paper=1.0 + 1e-12)])
    moved = perturb(ev, {"B": R1}, "within").items[0].paper
    assert (
        moved != 1.0 + 1e-12
        and judge(Evidence([Equal("B", 1.0, paper=moved)]), {"B": R1}).status == HOLDS
    )


def test_summary_is_formatted_from_the_numbers():
    v = judge(Evidence([Equal("B", 1.6449340668, paper=1, source="Eq. 29")]), {})
    assert "computed 1.64493 vs paper 1 (Eq. 29)" in v.summary


def test_approx_carries_error_and_range():
    v = judge(Evidence([Equal("r", 1.03, paper=1.0, where="L in [64, 1e6]")]), {"r": NEAR})
    assert v.error == pytest.approx(0.03) and v.measured_range == "L in [64, 1e6]"


def _readings(*scored):
    """Readings named r0, r1, ... each with one item (computed vs paper 1) and, when its
    score is given, one consistency item whose relative residual is that score."""
    return Evidence(
        readings=[
            Reading(
                f"r{i}",
                (Equal("b_0", value, paper=1.0),),
                consistency=() if score is None else (Equal("printed", 1 + score, paper=1.0),),
            )
            for i, (value, score) in enumerate(scored)
        ]
    )


def test_readings_best_score_decides_and_every_reading_is_listed():
    ev = _readings((float("inf"), 0.5), (1.0, 0.0))  # literal b_0 = inf; shifted b_0 = 1
    v = judge(ev, {})
    assert v.status == HOLDS and v.over_readings == DEPENDS and v.best_reading == "r1"
    assert [r["verdict"] for r in v.readings] == [f"{FAILS} ({UNASSESSED})", HOLDS]
    assert [r["score"] for r in v.readings] == [0.5, 0.0]
    assert "depends on the reading" in v.label
    # the other reading scoring better moves the verdict with it
    assert judge(_readings((float("inf"), 0.0), (1.0, 0.5)), {}).status == FAILS


def test_readings_without_scores_or_tied_leave_it_to_no_reading():
    assert judge(_readings((2.0, None), (1.0, None)), {}).status == DEPENDS
    assert judge(_readings((2.0, 0.1), (1.0, 0.1)), {}).status == DEPENDS
    assert judge(_readings((2.0, 0.1), (1.0, None)), {}).status == DEPENDS


def test_readings_that_agree_say_so():
    v = judge(_readings((1.0, None), (1.0, None)), {})
    assert v.status == HOLDS and v.label == "holds under every reading"
    v = judge(_readings((2.0, 0.3), (3.0, 0.1)), {})
    assert v.status == FAILS and v.label.startswith("does not hold under every reading")


def test_outside_the_setting_is_judged_separately():
    ev = Evidence(
        [
            Equal("at the paper's d", 1.0, paper=1.0),
            Equal("at d = 7", 2.0, paper=1.0, outside="d = 7 is not a d the paper uses"),
        ]
    )
    v = judge(ev, {})
    assert v.status == HOLDS and v.outside["verdict"].startswith(FAILS)
    only = judge(Evidence([Equal("at d = 7", 2.0, paper=1.0, outside="d = 7")]), {})
    assert only.status == CANNOT and "outside" in only.summary


def test_tolerance_shows_its_source():
    assert "printed precision" in Tol.printed(2, "Table 7").as_text()
    assert Tol(rtol=0.05, reason="why").as_text() == "rtol=0.05 [project: why]"
    with pytest.raises(ValueError):
        Tol(rtol=1, basis="guess")


@pytest.mark.parametrize(
    "bad",
    [
        lambda: Equal("flag", True, paper=True),  # a boolean is not evidence
        lambda: MissingInput("x", missing=""),  # must name what is missing
        lambda: Evidence([]),  # nothing to judge
        lambda: Evidence(readings=[Reading("a", (Equal("a", 1, paper=1),))]),  # one reading
        lambda: Reading("a", (), consistency=(Reported("x", 1),)),  # consistency compares
        lambda: Inequality("a", 1, paper=2, relation="=<"),
    ],
)
def test_malformed_evidence_is_refused(bad):
    with pytest.raises((TypeError, ValueError)):
        bad()


def test_only_reported_numbers_is_not_a_verdict():
    with pytest.raises(ValueError, match="no item compares"):
        judge(Evidence([Reported("n", 3)]), {})


def test_inequality_approximation_band():
    ev = Evidence([Inequality("delta", 0.3, paper=1.0, relation=">")])
    assert judge(ev, {"delta": Tol(approx_atol=0.9)}).status == APPROX
    assert judge(ev, {}).status == FAILS


# (name, item, tolerances, text the summary must contain, text it must not contain)
DESCRIBED = [
    (
        "approximate step within its band reads as an approximation",
        DerivationStep("drop", [1.0], paper=[1.2], kind="approx", relative=False),
        {"drop": Tol(atol=1e-3, approx_atol=0.25)},
        "step 'drop': approximation",
        "refuted",
    ),
    (
        "exact step under a declared tolerance",
        DerivationStep("s", [1.0], paper=[1.0 + 1e-9]),
        {"s": Tol(rtol=1e-6)},
        "verified numerically",
        "refuted",
    ),
    (
        "agreeing search shows no counterexample",
        Counterexample("root - 1", 7.8e-16, paper=0.0, searched="L", witness="L = 64"),
        {"root - 1": Tol(atol=1e-12)},
        "worst 7.8e-16",
        "counterexample",
    ),
    (
        "a search that fails shows its witness",
        Counterexample("root - 1", 0.5, paper=0.0, searched="L", witness="L = 64"),
        {"root - 1": Tol(atol=1e-12)},
        "counterexample L = 64",
        "within",
    ),
    (
        "a search inside the band shows where, not a counterexample",
        Counterexample("root - 1", 0.01, paper=0.0, searched="L", witness="L = 64"),
        {"root - 1": Tol(atol=1e-12, approx_atol=0.1)},
        "worst at L = 64",
        "counterexample",
    ),
]


@pytest.mark.parametrize("name,item,tols,shown,hidden", DESCRIBED, ids=[c[0] for c in DESCRIBED])
def test_summary_follows_the_judged_outcome(name, item, tols, shown, hidden):
    summary = judge(Evidence([item]), tols).summary
    assert shown in summary and hidden not in summary, summary


def test_circular_consistency_rows_are_shown_and_not_scored():
    circ = Equal("P_max", 0.12, paper=0.12, scale="log", circular="sigma inferred from it")
    scored = Equal("l_max", 6.38, paper=8.8, scale="nats")
    ev = Evidence(
        readings=[
            Reading("inferred", (Equal("b", 1.0, paper=1.0),), consistency=(circ, scored)),
            Reading("other", (Equal("b", 2.0, paper=1.0),), consistency=(scored,)),
        ]
    )
    v = judge(ev, {})
    rows = v.readings[0]["consistency"]
    # the circular row is not scored: the score is the l_max residual in nats, 2.42
    assert v.readings[0]["score"] == pytest.approx(2.42)
    assert rows[0]["residual"] is None and rows[0]["outcome"].startswith("circular")
    # no consistency row is judged agree/disagree (identical numbers never "disagree")
    assert all(r["outcome"] in ("scored",) or "circular" in r["outcome"] for r in rows)
    only = Reading("c", (), consistency=(circ,))
    assert consistency_score(only) is None


def test_a_ranking_that_changes_with_the_scale_decides_nothing():
    # A: P_max predicted 0.06 for 0.12 (relative 0.5, log 0.69); B: l_max 8.0 for 8.8
    # (relative 0.09, nats 0.8).  Declared scales rank A first, the relative scale B.
    a = Reading(
        "A",
        (Equal("b", 1.0, paper=1.0),),
        consistency=(Equal("P_max", 0.06, paper=0.12, scale="log"),),
    )
    b = Reading(
        "B",
        (Equal("b", 2.0, paper=1.0),),
        consistency=(Equal("l_max", 8.0, paper=8.8, scale="nats"),),
    )
    v = judge(Evidence(readings=[a, b]), {})
    assert v.status == DEPENDS and not v.best_reading
    assert "depends on the scale" in v.summary
    # on one scale the same ranking: the best reading decides
    b2 = Reading("B", b.items, consistency=(Equal("l_max", 8.0, paper=8.8, scale="relative"),))
    a2 = Reading("A", a.items, consistency=(Equal("P_max", 0.06, paper=0.12),))
    assert judge(Evidence(readings=[a2, b2]), {}).best_reading == "B"


def test_a_deciding_threshold_heads_the_summary():
    ev = Evidence([Equal("x", 1.0, paper=1.0)], decided_by="the largest sigma_ex, 2.108")
    assert judge(ev, {}).summary.startswith("decided by the largest sigma_ex, 2.108")
