"""Measurements on real PyTorch models (needs the ``empirical`` extra: torch,
transformers).  May import :mod:`theory`; never ``figures`` or ``paper_checks``."""
