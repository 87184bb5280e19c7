"""Each claim's evidence is computed once per test session and shared by the tests that
judge it (the verdict regression tables and the perturbation test)."""

from pathlib import Path

import pytest

from paper_checks.registry import Context, load_all


@pytest.fixture(scope="session")
def evidence_of(tmp_path_factory):
    """``evidence_of(claim_id)``: what the claim's check returns (quick mode, seed 0),
    computed on first use and cached."""
    registry, cache = load_all(), {}
    outdir = Path(tmp_path_factory.mktemp("claims"))

    def get(cid: str):
        if cid not in cache:
            cache[cid] = registry[cid].check(Context(outdir, quick=True, seed=0))
        return cache[cid]

    return get
