"""The ``python -m theory.cosscale`` command (``lengthx cosscale``): CosScale's attention peak
eta* (InfoScale paper Eq. 18), in :mod:`theory.cosscale.cli`."""
