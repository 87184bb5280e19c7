"""InfoScale paper: Eq. 15's factor against the invariant factor measured on the CosScale
model at its initial weights (Eq. 15's own regime) and against the entropy drift of the
NoPE model, and
Eq. 18's eta* against the attention-weighted cosines of the CosScale model, at its
initial weights (q, k near uniform on the sphere: Assumption 3.2 holds) and trained.

Tolerances and margins: ``empirical.agreement.catalogue`` (each with its reason).
"""

import pytest
from agreement_asserts import assert_agrees, assert_beats, contrast

pytest.importorskip("torch")

from empirical.agreement.catalogue import PART_MARGIN  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]


def eta(b, which):
    return contrast(b, f"infoscale-eta-{which}")


def test_eta_star_at_initial_weights_agrees(b):
    assert_agrees(eta(b, "init"))


@pytest.mark.parametrize(
    "alt",
    [
        "d - 1 for d - 3",
        "d for d - 3",
        "d = d_model",
        "alpha = 0",
    ],
)
def test_eta_star_at_initial_weights_beats(b, alt):
    assert_beats(eta(b, "init"), alt)


def test_eta_star_trained_agrees(b):
    assert_agrees(eta(b, "trained"))


def drift(b):
    return contrast(b, "infoscale-drift")


def test_infoscale_removes_part_of_the_drift(b):
    """The fraction of the entropy drift m -> 16m left with Eq. 15's factor is strictly
    between 0 and 1 by the declared margin (it removes some and not all), i.e. InfoScale
    beats no scaling and does not overshoot."""
    c = drift(b)
    frac = c.errors["InfoScale"]
    assert PART_MARGIN < frac.lo and frac.hi < 1 - PART_MARGIN, f"fraction left {frac}"
    assert_beats(c, "no scaling")


def test_infoscale_keeps_entropy(b):
    assert_agrees(drift(b))


@pytest.mark.parametrize(
    "alt",
    [
        "log-n rule",
        "InfoScale with d = d_model",
    ],
)
def test_infoscale_beats(b, alt):
    assert_beats(drift(b), alt)


def factor(b):
    return contrast(b, "infoscale-factor")


def test_infoscale_factor_agrees(b):
    assert_agrees(factor(b))


@pytest.mark.parametrize(
    "alt",
    [
        "Eq. 15, eps = 0",
        "no scaling",
        "log-n rule",
        "d = d_model",
        "n^(-1/d)",
        "no square root",
        "inverted ratio",
    ],
)
def test_infoscale_factor_beats(b, alt):
    assert_beats(factor(b), alt)
