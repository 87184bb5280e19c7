import importlib.util
import os

import mpmath
import pytest

HAS_TORCH = importlib.util.find_spec("torch") is not None
if HAS_TORCH:
    import torch

    if not torch.cuda.is_available():  # the fused kernel's tests: Triton's CPU interpreter,
        os.environ.setdefault("TRITON_INTERPRET", "1")  # read when triton is first imported


@pytest.fixture(autouse=True)
def _reset_mpmath_precision():
    """Every test starts and ends at mpmath's default precision."""
    mpmath.mp.dps = 15
    yield
    mpmath.mp.dps = 15


def pytest_collection_modifyitems(config, items):
    if HAS_TORCH:
        return
    skip = pytest.mark.skip(reason="torch not installed (pip install .[empirical])")
    for item in items:
        if "empirical" in item.keywords:
            item.add_marker(skip)
