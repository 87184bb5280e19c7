"""``python -m empirical.bundle --profile ci|paper``: train and measure the seeded bundle of
:mod:`empirical.training.profile_bundle` (command in :mod:`empirical.bundle.cli`)."""
