"""The agreement tests: theory against the seeded bundle of tiny models trained here.

Every test is a contrast (``empirical.training.results.Contrast``): the theory's error
and a sceptic's alternatives' errors, per seed, with a tolerance and a margin the test
declares as constants before reading the bundle.  ``b`` is the session's bundle (built
once by ``tests/conftest.py::agreement_bundle`` when absent).
"""

import pytest


@pytest.fixture
def b(agreement_bundle):
    return agreement_bundle
