"""Every checkable claim of the three papers, registered with an id and checked.

Run ``python -m paper_checks`` for the report.  Claims live in ``paper_checks/claims/``,
one module per area; each registers its checks with :func:`paper_checks.registry.claim`.
"""
