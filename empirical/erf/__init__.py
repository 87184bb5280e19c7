"""The ``python -m empirical.erf`` command (``lengthx erf``): the empirical receptive field of
trained runs against their TRF (:mod:`empirical.training.erf`), in :mod:`empirical.erf.cli`."""
