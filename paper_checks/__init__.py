"""Every checkable claim of the three papers, registered with an id and checked.

Run ``python -m paper_checks`` for the report.  Each paper has its package
(``rpe``, ``align``, ``infoscale``) holding its claims, one module per place in the paper,
and the numbers it prints (``printed``, read by every check); each claim module
registers its checks with :func:`paper_checks.registry.claim`.  :mod:`paper_checks.evidence` judges what a check
returns (every reading of an ambiguous statement, ranked by its consistency score),
:mod:`paper_checks.inferred` holds the quantities a paper uses but does not print.
"""

from theory.core.startup import interrupt_well_while_starting

interrupt_well_while_starting()
