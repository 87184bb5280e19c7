"""Perturbation at the source (source_perturbation.py beside this file): for every claim, a
number the paper prints is changed where the check reads it -- a table cell, or the
literal written in the check as the paper's value -- the check is re-run, and its
verdict must move; moved by a quarter of its last printed digit, it must stay.  No check
may crash on a moved value (it answers "cannot be checked here" with the reason).

The claims whose verdict no single moved value changes are listed here with the reason.
From the cells' side: every number of the printed modules (``theory/papers/<paper>.py``)
is read by some check, and the cells whose move changes no verdict of a
claim that reads them are listed, with the reason, in ``cells_that_move_no_verdict.py``.
"""

import pytest
from cells_that_move_no_verdict import STILL
from source_perturbation import moves_a_verdict, printed_cells, probe, probe_within, readers

from paper_checks.registry import Context, load_all

REGISTRY = load_all()
CLAIMS = [c for c in REGISTRY.values() if not c.empirical]
#: a single re-run costs seconds of CPU: these run in the slow suite
EXPENSIVE = {"align-fig1-bucket-formula", "rpe-fig5", "align-rem-breakdown", "align-pmax-approx"}
#: claims whose verdict no single moved printed value changes, and why
INSENSITIVE = {
    "infoscale-a4-v-to-zero": "the term the limit v -> 0 removes is compared with 0 at six "
    "settings spread over 0.5-3.3 nats: no one printed value makes all of them agree",
    "infoscale-eq12-eps": "H at n_tr against eps = 0 at three settings spread over 0.1-1 nats: "
    "no one value of eps makes all agree",
    "infoscale-method-count": "it fails on which methods Sec. 1 names (CLEX is evaluated "
    "nowhere): names, not numbers; moving its printed numbers ('eight', 'seven') only adds a "
    "disagreement to a claim that already does not hold",
    "rpe-appE-trf": "its one printed number (TRF(1) = 1 by Eq. 22's strict >) is one of two "
    "failing comparisons; the other (App. E's TRF against the exact Eq. 22, both computed) "
    "fails whatever the printed number is",
    "rpe-thm3.5": "the printed bound 0 on the difference of two TRFs (Thm 3.5): the largest "
    "difference stays below every moved bound tried (down to -1), so the theorem holds on",
}


def _ctx(tmp_path_factory):
    return Context(tmp_path_factory.mktemp("source"), quick=True, seed=0)


@pytest.mark.parametrize(
    "cid",
    [pytest.param(c.id, marks=pytest.mark.slow) if c.id in EXPENSIVE else c.id for c in CLAIMS],
)
def test_moving_a_printed_value_moves_the_verdict(cid, tmp_path_factory):
    p = probe(REGISTRY[cid], _ctx(tmp_path_factory))
    assert p.outcome != "crashed", p.detail
    if cid in INSENSITIVE:
        assert p.outcome == "insensitive", f"{cid} is listed as insensitive but {p.detail}"
    else:
        assert p.outcome in ("moved", "no paper value"), p.detail


@pytest.mark.parametrize("cid", [c.id for c in CLAIMS if c.id not in EXPENSIVE])
def test_a_move_within_the_printed_precision_keeps_the_verdict(cid, tmp_path_factory):
    assert probe_within(REGISTRY[cid], _ctx(tmp_path_factory)) == []


def test_insensitive_claims_are_few_and_say_why():
    assert len(INSENSITIVE) <= len(CLAIMS) // 8
    assert all(len(why) > 40 for why in INSENSITIVE.values())
    assert set(INSENSITIVE) <= set(REGISTRY)


#: printed values that no check reads when it runs, and why
UNREAD = {
    "align.ALG1_STEP": "Algorithm 1's grid step (0.05 in tau) sets the tolerances of the "
    "align claims (half a step in tau; the entropy band), fixed when they are registered",
}


def test_every_printed_cell_is_read_by_a_check():
    read = readers(list(REGISTRY.values()))
    unread = {src.where for src in printed_cells() if src.path not in read}
    assert unread == set(UNREAD)


@pytest.mark.slow
def test_the_cells_that_move_no_verdict_are_the_listed_ones(tmp_path_factory):
    """Each printed cell moved (to the value its check compared it with, then scaled)
    under every claim that reads it (empirical claims excepted): the cells whose move
    changes no verdict are exactly the listed ones, and no move crashes a check."""
    ctx, read = _ctx(tmp_path_factory), readers(CLAIMS)
    outcome = {
        src.where: moves_a_verdict(src, read.get(src.path, []), ctx) for src in printed_cells()
    }
    assert not [r for r in outcome.values() if r.startswith("crashed")]
    still = {where for where, r in outcome.items() if not r}
    assert still == {where for cells in STILL.values() for where in cells}
