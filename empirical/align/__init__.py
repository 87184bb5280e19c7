"""The ``python -m empirical.align`` command (``lengthx align``): Algorithm 1 and every
temperature rule on a model (:mod:`empirical.audit.align`), in :mod:`empirical.align.cli`."""
