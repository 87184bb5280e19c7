"""The agreement tests: theory against the seeded bundles of tiny models trained here.

Every test is a contrast (``empirical.agreement.contrast.Contrast``): the theory's error
and a sceptic's alternatives' errors, per seed, with the tolerance and margin the catalogue
(``empirical.agreement.catalogue``) declares before any bundle is read.  Each test runs on
every rung of the ladder (``rung=NAME`` in its id): ci, built once by
``tests/conftest.py::agreement_bundle`` when absent, and every rung stored in
``empirical/agreement/rungs`` (``--rung NAME`` picks some).  ``b`` is that rung's bundle.
Where the theory loses at a rung, the test is a strict xfail there, with the measured gap
(``tests/agreement/lost.py``); on a stored rung, whose measurements are fixed in the
repository, the gap must also be the recorded one (its numbers to :data:`GAP_RTOL`), so
a change that deepens a loss fails as surely as one that flips an agreement.
"""

import re

import pytest
from gaps import failure_line, same_gap
from lost import LOST


def selected_rungs(config) -> list[str]:
    from empirical.agreement import bundle_io

    chosen = config.getoption("--rung")
    known = bundle_io.rung_names()
    for name in chosen or ():
        if name not in known:
            raise pytest.UsageError(f"--rung {name}: no such rung (known: {', '.join(known)})")
    return list(dict.fromkeys(chosen)) if chosen else known


def pytest_generate_tests(metafunc):
    if "b" in metafunc.fixturenames:
        pytest.importorskip("torch")
        rungs = selected_rungs(metafunc.config)
        metafunc.parametrize("rung", rungs, scope="session", ids=[f"rung={r}" for r in rungs])


def test_key(item) -> tuple[str, str] | None:
    """(rung, node id in tests/agreement without the rung) of a parametrized test."""
    spec = getattr(item, "callspec", None)
    if spec is None or "rung" not in spec.params:
        return None
    rung = spec.params["rung"]
    rest = re.sub(rf"(^|-)rung={re.escape(rung)}(?=-|$)", "", spec.id).strip("-")
    name = item.nodeid.split("tests/agreement/")[-1].split("[")[0]
    return rung, f"{name}[{rest}]" if rest else name


@pytest.hookimpl(tryfirst=True)
def pytest_collection_modifyitems(config, items):
    """Mark the tests of :data:`lost.LOST` strict xfails on their rung; refuse an entry of
    a collected file and rung that names no test (a stale table would hide nothing)."""
    seen, files, rungs = set(), set(), set()
    for item in items:
        key = test_key(item)
        if key is None:
            continue
        rung, name = key
        seen.add(key)
        files.add(name.split("::")[0])
        rungs.add(rung)
        reason = LOST.get(rung, {}).get(name)
        if reason is not None:
            item.add_marker(pytest.mark.xfail(strict=True, reason=f"at rung {rung}: {reason}"))
    if any("::" in str(a) for a in config.args):
        return  # single tests named: the table's other entries are not collected
    stale = [
        (r, n)
        for r, table in LOST.items()
        if r in rungs
        for n in table
        if n.split("::")[0] in files and (r, n) not in seen
    ]
    if stale:
        raise pytest.UsageError(f"tests/agreement/lost.py names no collected test: {stale[:3]}")


@pytest.hookimpl(hookwrapper=True)
def pytest_runtest_makereport(item, call):
    """On a stored rung, a recorded loss whose gap has changed is a failure."""
    outcome = yield
    report = outcome.get_result()
    key = test_key(item)
    if call.when != "call" or key is None or key[0] == "ci" or not hasattr(report, "wasxfail"):
        return
    rung, name = key
    recorded = LOST.get(rung, {}).get(name)
    if recorded is None or call.excinfo is None:
        return
    measured = failure_line(str(call.excinfo.value))
    if not same_gap(recorded, measured):
        report.outcome = "failed"
        del report.wasxfail
        report.longrepr = (
            f"the loss recorded at rung {rung} (tests/agreement/lost.py) has changed:\n"
            f"  recorded: {recorded}\n  measured: {measured}"
        )


@pytest.fixture
def b(rung, request):
    if rung == "ci":
        return request.getfixturevalue("agreement_bundle")
    from empirical.agreement import bundle_io

    return bundle_io.load_rung(rung)
