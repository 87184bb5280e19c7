import importlib.util
import os
import sys

import mpmath
import pytest

HAS_TORCH = importlib.util.find_spec("torch") is not None
if HAS_TORCH:
    import torch

    if not torch.cuda.is_available():  # the fused kernel's tests: Triton's CPU interpreter,
        os.environ.setdefault("TRITON_INTERPRET", "1")  # read when triton is first imported


def pytest_addoption(parser):
    parser.addoption(
        "--rung",
        action="append",
        default=None,
        metavar="NAME",
        help="run the agreement tests on this rung of the ladder only (ci or a stored one, "
        "python -m empirical.results --scales lists them; repeatable); default: ci and "
        "every stored rung",
    )


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


@pytest.fixture(scope="session")
def agreement_bundle(request):
    """The ci bundle the agreement tests read on rung ci, built once per test run when
    absent.

    Looked up by ``empirical.agreement.bundle_io.find_profile_bundle`` ($LENGTHX_AGREEMENT,
    runs/ci); when none is there (or its measurement format is older than
    this code's), the ci profile is trained into runs/ci, with a progress line per
    model and seed on the terminal.  Without torch the tests are skipped, saying so.
    """
    if not HAS_TORCH:
        pytest.skip("torch not installed (pip install .[empirical]): no bundle can be trained")
    from pathlib import Path

    from empirical.agreement import bundle_io as results
    from empirical.training import profile_bundle

    found = results.find_profile_bundle()
    if found is not None and results.bundle_format(found) == results.FORMAT:
        return results.load_profile_bundle(found)
    out = Path(os.environ.get("LENGTHX_AGREEMENT") or "runs/ci")
    capman = request.config.pluginmanager.getplugin("capturemanager")
    with capman.global_and_fixture_disabled():
        print(
            f"\nagreement tests: training the seeded ci bundle into {out} "
            f"({'format outdated' if found else 'none found'}; once, minutes on 2 cores)",
            file=sys.stderr,
        )
        profile_bundle.run_profile("ci", out, workers=min(2, os.cpu_count() or 1))
    return results.load_profile_bundle(out)
