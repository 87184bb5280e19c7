"""Parametrisations split between the fast suite and ``-m slow``."""

from __future__ import annotations

import pytest


def fast_first(items: list, k: int) -> list:
    """The first ``k`` items in the fast suite, the rest under ``-m slow`` (for cases that
    each run the whole analysis, seconds apiece)."""
    return [x if i < k else pytest.param(x, marks=pytest.mark.slow) for i, x in enumerate(items)]
