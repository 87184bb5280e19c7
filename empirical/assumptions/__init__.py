"""The ``python -m empirical.assumptions`` command (``lengthx assumptions``): Assumptions
1-2 of the attention-alignment paper on a model (:mod:`empirical.audit.assumptions`), in
:mod:`empirical.assumptions.cli`."""
