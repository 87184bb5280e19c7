"""The agreement tests: theory against the seeded bundle of tiny models trained here.

Every test is a contrast (``empirical.agreement.contrast.Contrast``): the theory's error
and a sceptic's alternatives' errors, per seed, with the tolerance and margin the catalogue
(``empirical.agreement.catalogue``) declares before the bundle is read.  ``b`` is the session's bundle (built
once by ``tests/conftest.py::agreement_bundle`` when absent).
"""

import pytest


@pytest.fixture
def b(agreement_bundle):
    return agreement_bundle
