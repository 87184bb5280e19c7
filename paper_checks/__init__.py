"""Every checkable claim of the three papers, registered with an id and checked.

Run ``python -m paper_checks`` for the report.  Each paper has its package
(``rpe``, ``align``, ``infoscale``) holding its claims and its tables; each claim module
registers its checks with :func:`paper_checks.registry.claim`.
"""
