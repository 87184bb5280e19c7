"""The ``python -m theory.trf`` command (``lengthx trf``): the convergence verdict, the sum B
and the TRF of a series of exp(RPE) (RPE paper Thm 3.4, Eq. 22), in :mod:`theory.trf.cli`."""
