"""The catalogue of contrasts (``empirical.agreement.catalogue``) is complete and consistent:
unique keys, a reason for every declared number, and every paper check it names exists."""

from __future__ import annotations

import inspect

from empirical.agreement.catalogue import CATALOGUE, ENTRIES, for_check


def test_keys_are_unique_and_reasons_stated():
    assert len(ENTRIES) == len(CATALOGUE)
    for e in CATALOGUE:
        assert e.tolerance.reason.strip() and e.margin.reason.strip(), e.key
        assert e.place and e.key.split("-")[0] in ("rpe", "align", "infoscale"), e.key


def test_every_entry_calls_its_function_with_the_declared_thresholds():
    for e in CATALOGUE:
        params = list(inspect.signature(e.compute).parameters)
        assert params[0] == "b" and len(params) >= len(e.args) + 3, e.key


def test_every_check_is_a_registered_claim_and_each_training_claim_has_rows():
    from paper_checks.registry import load_all

    reg = load_all()
    checks = {e.check for e in CATALOGUE}
    assert checks <= set(reg), checks - set(reg)
    for cid in reg:
        if "-train-" in cid:
            assert for_check(cid), cid
