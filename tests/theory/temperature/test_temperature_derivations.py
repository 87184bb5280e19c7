"""Each step of the Prop. 1 / Prop. 2 derivations gets the verdict it should: algebra
proved, approximations measured, the 'larger root' rule refuted with a counterexample."""

import random

import pytest

from theory.core.derivation import verify_step
from theory.temperature.derivations import prop1_derivation, prop2_derivation

# label prefix -> expected verdict (the moment integrals are checked at 30 digits in
# test_gaussian_softmax and, in full, by the slow test below)
PROP1 = {
    "Assumption 1: averaged": "assumed",
    "Assumption 2: l_max": "assumed",
    "Softmax is shift-invariant": "proved",
    "Eq. 1: law of large": "approximation",
    "Eq. 2": "proved",
    "A.2: substitute Eq. 2": "proved",
    "Align P_ex = P": "proved",
    "Prop. 1: B/(A": "proved",
    "tau(A tau^2 + C)": "proved",
    "larger root solves": "proved",
    "'pick the larger root'": "refuted",
    "Assumption 1-2 vs i.i.d.": "approximation",
}
PROP2 = {
    "Entropy of a softmax": "proved",
    "combine Eq. 1 and Eq. 3": "proved",
    "Prop. 2 solves": "proved",
    "entropy approximation": "approximation",
    "ratio of sums": "approximation",
}
STEPS = [("prop1", k, v) for k, v in PROP1.items()] + [("prop2", k, v) for k, v in PROP2.items()]
_DERIV = {"prop1": prop1_derivation(fast=True), "prop2": prop2_derivation(fast=True)}


def _step(name, prefix):
    hits = [s for s in _DERIV[name].steps if s.label.startswith(prefix)]
    assert len(hits) == 1, (name, prefix, [s.label for s in _DERIV[name].steps])
    return hits[0]


@pytest.mark.parametrize("name,prefix,verdict", STEPS)
def test_step_verdict(name, prefix, verdict):
    r = verify_step(_step(name, prefix), random.Random(0), 4, 30)
    assert r.verdict == verdict, r.as_dict()


def test_larger_root_counterexample_is_the_sigma_large_point():
    r = verify_step(_step("prop1", "'pick the larger root'"), random.Random(0), 4, 30)
    # worst point: C = 6.125 > A = log(512 * 0.28); the rule returns C/A = 1.233, not 1
    assert float(r.worst_point[next(k for k in r.worst_point if str(k) == "C")]) == 6.125
    assert r.max_error == pytest.approx(1 - 1 / 1.2336, abs=2e-3)


def test_assumption2_vs_iid_error_is_the_growth_of_the_expected_maximum():
    r = verify_step(_step("prop1", "Assumption 1-2 vs i.i.d."), random.Random(0), 4, 30)
    # E[max of 10^6 std normals] = 4.857 vs 3.044 at 512 (closed quadrature): rel. 0.373
    assert r.max_error == pytest.approx((4.857 - 3.044) / 4.857, abs=3e-3)


@pytest.mark.slow
@pytest.mark.parametrize("name", ["prop1", "prop2"])
def test_full_derivation_verdicts(name):
    rep = (prop1_derivation() if name == "prop1" else prop2_derivation()).verify(seed=0)
    got = {r.step.label: r.verdict for r in rep.results}
    expected = PROP1 if name == "prop1" else PROP2
    for prefix, verdict in expected.items():
        assert [v for k, v in got.items() if k.startswith(prefix)] == [verdict]
    moments = [v for k, v in got.items() if "Eq. 3" in k or "moment" in k]
    assert moments and all(v == "proved" for v in moments)
    assert "$$" in rep.to_markdown()
