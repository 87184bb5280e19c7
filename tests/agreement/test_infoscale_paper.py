"""InfoScale paper: Eq. 15's factor against the entropy drift of the NoPE model, and
Eq. 18's eta* against the attention-weighted cosines of the CosScale model, at its
initial weights (q, k near uniform on the sphere: Assumption 3.2 holds) and trained.

Tolerances and margins are declared here, before reading the bundle.
"""

import pytest

from agreement_asserts import assert_agrees, assert_beats_all, show

pytest.importorskip("torch")

from empirical.training import results as R  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]

# eta*: the KDE-smoothed histogram mode (bins 0.0025, kernel 0.02) is within 0.03 of
# Eq. 18 at initial weights; each alternative is 0.01 worse at least
ETA_TOL, ETA_MARGIN = 0.03, 0.01
# InfoScale: at most half the drift left (error <= 0.5), and 0.1 less than the alternatives
DRIFT_TOL, DRIFT_MARGIN = 0.5, 0.1


def test_eta_star_at_initial_weights(b):
    c = show(R.eta_star_contrast(b, "init", ETA_TOL, ETA_MARGIN))
    assert_agrees(c)
    assert_beats_all(c)


@pytest.mark.xfail(
    strict=True,
    reason="trained q, k are not uniform on the sphere (Assumption 3.2 fails): the "
    "weighted cosine peak lies far from eta* (gap printed)",
)
def test_eta_star_trained(b):
    c = show(R.eta_star_contrast(b, "trained", ETA_TOL, ETA_MARGIN))
    assert c.agrees()


def test_infoscale_keeps_entropy(b):
    c = show(R.infoscale_drift_contrast(b, DRIFT_TOL, DRIFT_MARGIN))
    assert_agrees(c)
    assert_beats_all(c)
