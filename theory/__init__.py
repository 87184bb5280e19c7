"""Theory of Transformer length extrapolation, by topic:

* :mod:`theory.series`: series of exp(RPE), convergence, sums, receptive fields (RPE paper);
* :mod:`theory.temperature`: softmax temperature rules, Algorithm 1, Props. 1-2
  (attention-alignment paper);
* :mod:`theory.infoscale`: InfoScale and CosScale (infoscale-cosscale paper);
* :mod:`theory.core`: the derivation checker, budgets, the CLI parser and the registry.

This package imports nothing from ``empirical``, ``figures`` or ``paper_checks``.
Commands: ``python -m theory.trf``, ``python -m theory.temperature``,
``python -m theory.infoscale``, ``python -m theory.cosscale`` (each a package with its
``cli``); :mod:`theory.core.commands` lists every command of the project and is the
``lengthx`` console script.
"""

from theory.core.startup import interrupt_well_while_starting

interrupt_well_while_starting()
