"""The ``python -m empirical.extrapolate`` command (``lengthx extrapolate``): perplexity of
trained runs beyond their training length (:mod:`empirical.training.extrapolate`), in
:mod:`empirical.extrapolate.cli`."""
