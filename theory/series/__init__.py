"""Series of exp(RPE) (RPE paper, Sec. 3): the whitelist expression parser
(``expressions``), convergence verdicts (``convergence``), sums, tail bounds and the
Theoretical Receptive Field (``receptive_field``), the named RPEs (``rpe_library``), an
independent mpmath reference for the paper's families (``reference``; the engine never
imports it) and the ``python -m theory.trf`` command (``cli``)."""
