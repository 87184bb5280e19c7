"""``python -m empirical.bundle --profile NAME``: train and measure the seeded bundle of
:mod:`empirical.training.profile_bundle` (command in :mod:`empirical.bundle.cli`)."""
