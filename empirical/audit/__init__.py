"""The audit of a model's attention from its training length to long contexts.

* :mod:`~empirical.audit.command`: the audit's measurements, cached and resumable, and
  what is computed from them;
* :mod:`~empirical.audit.cli`: the command (``python -m empirical.audit``);
* :mod:`~empirical.audit.report`: its report, JSON and figures;
* :mod:`~empirical.audit.align`: Algorithm 1 and Props. 1-2 on a model
  (the command ``python -m empirical.align`` is :mod:`empirical.align`);
* :mod:`~empirical.audit.assumptions`: Assumptions 1-2 on a model
  (the command ``python -m empirical.assumptions`` is :mod:`empirical.assumptions`);
* :mod:`~empirical.audit.paper_runs`: the attention-alignment experiments that the paper
  checks and figures share.
"""
