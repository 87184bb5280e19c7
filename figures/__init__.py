"""Figure reproductions: ``python -m figures NAME`` or ``python -m figures all``.

Each figure module registers a function with :func:`figures.registry.figure`; it writes
a PNG and the data behind it (CSV or JSON) and returns a dict describing the agreement
between theory and experiment.
"""

from theory.core.startup import interrupt_well_while_starting

interrupt_well_while_starting()
