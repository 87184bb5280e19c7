"""The ``python -m empirical.collect`` command (``lengthx collect``): mergeable attention
statistics of a model over sequences, on one process or under torchrun
(:mod:`empirical.capture.collect`), in :mod:`empirical.collect.cli`."""
