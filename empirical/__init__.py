"""Measurements on real PyTorch models (needs the ``empirical`` extra: torch,
transformers).  May import :mod:`theory`; never ``figures`` or ``paper_checks``."""

from theory.core.cli import fail_well_on_missing_packages
from theory.core.startup import interrupt_well_while_starting

interrupt_well_while_starting()
fail_well_on_missing_packages()
