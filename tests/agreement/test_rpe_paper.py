"""RPE paper (convergent series of exp(RPE)) against the bundle's RPE set: which RPEs
converge is decided now by ``theory.series`` from each trained model's learned RPE, and
the ERF is compared with the certified TRF of that series (Eq. 22).

Tolerances and margins: ``empirical.agreement.catalogue`` (each with its reason).
"""

import pytest
from agreement_asserts import assert_agrees, assert_beats, contrast

pytest.importorskip("torch")

from empirical.agreement import rpe as R  # noqa: E402
from empirical.agreement.catalogue import STABLE_DELTA  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]


def test_convergent_rpes_are_stable(b):
    """Thm. 3.4: every RPE that theory.series calls convergent keeps ppl(16m)/ppl(m)
    below 1 + delta; the sceptic's alternative, sinusoidal positions (no bias series),
    does not."""
    labels = R.convergence_labels(b)
    conv = [r for r, v in labels.items() if v is True]
    print(f"\nconvergent per theory.series: {conv}; all labels {labels}")
    ratios = {r: R.ppl_ratio(b, r, 16) for r in conv + ["sinusoidal"]}
    for r, iv in ratios.items():
        print(f"  ppl(16m)/ppl(m) {r:>14}: {iv}")
    assert conv, "theory.series calls no trained RPE convergent"
    assert all(ratios[r].hi < 1 + STABLE_DELTA for r in conv)
    assert ratios["sinusoidal"].lo > 1 + STABLE_DELTA


def test_divergent_label_predicts_instability(b):
    c = contrast(b, "rpe-stability")
    assert_beats(c, "all converge")


def test_erf_compares_certified_trfs(b):
    """The TRF the ERF is compared with is a certified integer for every head, at the
    compared eps and at two small ones (ball arithmetic proves the crossing), not an
    estimate: a search that is off by more than the certifier's few steps fails here."""
    missing = R.uncertified_trfs(b)
    assert not missing, f"TRFs not certified exact: {missing[:5]} ({len(missing)} in all)"


def test_erf_follows_certified_trf(b):
    assert_agrees(contrast(b, "rpe-erf-trf"))


@pytest.mark.parametrize("alt", ["TRF(1-eps)", "TRF without the RPE"])
def test_erf_trf_beats(b, alt):
    assert_beats(contrast(b, "rpe-erf-trf"), alt)
