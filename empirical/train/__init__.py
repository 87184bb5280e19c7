"""The ``python -m empirical.train`` command (``lengthx train``): train a tiny language model
with any RPE (:mod:`empirical.training.train`), in :mod:`empirical.train.cli`."""
