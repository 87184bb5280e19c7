"""``python -m empirical.results``: the seeded bundle's measurements and the contrasts of
:mod:`empirical.agreement` (command in :mod:`empirical.results.cli`)."""
