"""Series of exp(RPE) (RPE paper, Sec. 3): the whitelist expression parser
(``expressions``), convergence verdicts (``convergence``), B and its guaranteed
enclosure (``sums``, ``enclosure`` with the ball-arithmetic evaluator ``arb_eval``), the
Euler-Maclaurin tail estimates (``tails``), the Theoretical Receptive Field (``trf_search``, the
paper's truncated variant ``truncated``, ``asymptotics``, Thm 3.5 in ``comparison``), the named RPEs (``rpe_library``), an
independent mpmath reference for the paper's families (``reference``; the engine never
imports it); the ``python -m theory.trf`` command is :mod:`theory.trf`."""
