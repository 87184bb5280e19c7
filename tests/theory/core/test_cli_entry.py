"""The shared command entry point, argument types, atomic outputs and progress lines."""

import argparse
import contextlib
import io
import json
import sys

import pytest

from theory.core import progress
from theory.core.arguments import int_range, output_dir, output_file, positive_float
from theory.core.cli import (
    UsageError,
    atomic_path,
    command,
    output_folder,
    run_command,
    save_figure,
)


def _raiser(exc):
    def main(argv=None):
        bar = progress.Progress("work", total=10, stream=sys.stderr, interval=0)
        bar.update(3)  # a display still open
        raise exc

    return main


# (exception raised inside main, exit status, the error line starts with)
FAILURES = [
    (UsageError("--n must be >= 1"), 2, "error: --n must be >= 1"),
    (ValueError("bad value\nsecond line"), 2, "error: bad value"),
    (
        ValueError("Validation error for field 'x':\n  not an int"),
        2,
        "error: Validation error for field 'x': not an int",
    ),
    (
        FileNotFoundError(2, "No such file or directory", "x.json"),
        2,
        "error: x.json: No such file or directory",
    ),
    (PermissionError(13, "Permission denied", "/sys/x"), 2, "error: /sys/x: Permission denied"),
    (IsADirectoryError(21, "Is a directory", "out"), 2, "error: out: Is a directory"),
    (
        ModuleNotFoundError("No module named 'torch'", name="torch"),
        2,
        "error: needs the optional package torch",
    ),
    (OverflowError(34, "Numerical result out of range"), 2, "error: a number is too large"),
    (MemoryError(), 2, "error: out of memory"),
    (KeyboardInterrupt(), 130, "error: interrupted"),
    (SystemExit("fatal: text"), 2, "error: fatal: text"),
    (ZeroDivisionError("division by zero"), 1, "error: unexpected ZeroDivisionError"),
]


@pytest.mark.parametrize("exc, code, line", FAILURES, ids=[type(f[0]).__name__ for f in FAILURES])
def test_failure_is_one_error_line(exc, code, line, monkeypatch):
    monkeypatch.delenv("LENGTHX_TRACEBACK", raising=False)
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        got = run_command(_raiser(exc))
    last = err.getvalue().splitlines()[-1]
    assert got == code and last.startswith(line), err.getvalue()
    assert sum(ln.startswith("error:") for ln in err.getvalue().splitlines()) == 1


def test_traceback_on_request(monkeypatch):
    monkeypatch.setenv("LENGTHX_TRACEBACK", "1")
    with pytest.raises(ZeroDivisionError):
        run_command(_raiser(ZeroDivisionError("x")))


def test_decorated_main_returns_status():
    @command
    def main(argv=None):
        return 0 if argv == ["ok"] else 3

    assert (main(["ok"]), main([])) == (0, 3)
    assert main.__wrapped__(["ok"]) == 0


# (type, text, accepted value or None when refused)
TYPES = [
    (int_range(1, 10), "10", 10),
    (int_range(1, 10), "0", None),
    (int_range(1, 10), "x", None),
    (int_range(1, 10), "1e3", None),
    (int_range(0), "99999999999999999999", 10**20 - 1),
    (positive_float, "1e-9", 1e-9),
    (positive_float, "-1", None),
    (positive_float, "inf", None),
    (positive_float, "nan", None),
]


@pytest.mark.parametrize("kind, text, want", TYPES)
def test_argument_types(kind, text, want):
    if want is None:
        with pytest.raises(argparse.ArgumentTypeError):
            kind(text)
    else:
        assert kind(text) == want


def test_output_types(tmp_path):
    f = tmp_path / "file.txt"
    f.write_text("x")
    assert output_file(str(tmp_path / "new.png")) == tmp_path / "new.png"
    assert output_dir(str(tmp_path / "a" / "b")) == tmp_path / "a" / "b"
    for bad in (str(tmp_path), str(f / "x.png"), str(tmp_path / "missing" / "x.png"), ""):
        with pytest.raises(argparse.ArgumentTypeError):
            output_file(bad)
    for bad in (str(f), str(f / "sub"), ""):
        with pytest.raises(argparse.ArgumentTypeError):
            output_dir(bad)
    assert not (tmp_path / "a").exists()  # checking creates nothing


def test_atomic_path_leaves_nothing_on_failure(tmp_path):
    with pytest.raises(RuntimeError):
        with atomic_path(tmp_path / "x.json") as tmp:
            tmp.write_text("half")
            raise RuntimeError("crash")
    assert list(tmp_path.iterdir()) == []


def test_save_figure_writes_data_beside(tmp_path):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots()
    ax.plot([1, 2], [3, 4])
    save_figure(fig, tmp_path / "f.png", data={"x": [1, 2], "y": [3, 4]})
    plt.close(fig)
    assert sorted(p.name for p in tmp_path.iterdir()) == ["f.json", "f.png"]


@pytest.mark.parametrize(
    "keep, left", [(None, False), (lambda: True, True), (lambda: False, False)]
)
def test_output_folder_removed_when_the_run_fails(tmp_path, keep, left):
    with pytest.raises(KeyboardInterrupt):
        with output_folder(tmp_path / "new" / "run", keep=keep):
            raise KeyboardInterrupt
    assert (tmp_path / "new").exists() == left
    (tmp_path / "old").mkdir()
    with pytest.raises(ValueError):
        with output_folder(tmp_path / "old"):
            raise ValueError
    assert (tmp_path / "old").exists()  # not created by the run: kept


def test_progress_lines_in_a_log():
    log = io.StringIO()
    bar = progress.Progress("steps", total=4, stream=log, interval=0)
    bar.update(2, loss="1.5")
    err = io.StringIO()
    with contextlib.redirect_stderr(err):
        run_command(_raiser(ValueError("stop")))
    assert bar.closed  # close_all() finished it
    lines = log.getvalue().splitlines()
    assert lines[0].startswith("steps: 2/4 (50%), 0:00:00 elapsed, loss=1.5")
    assert len(lines) == 2  # the update and the final line


def test_progress_quiet_for_short_runs():
    log = io.StringIO()
    for _ in progress.track(range(100), "fast", stream=log, interval=60):
        pass
    assert log.getvalue() == ""


def _strict(text: str):
    """JSON as a strict parser (RFC 8259, JavaScript's JSON.parse) reads it."""
    return json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_dumps_is_strict_json_for_every_non_finite_value():
    import numpy as np

    from theory.core.cli import dumps

    value = {
        "inf": float("inf"),
        "nested": [float("-inf"), (np.float64("nan"), np.arange(2))],
        3: np.array([1.5, np.inf]),
        "fine": [1, 2.5, None, True, "x"],
    }
    out = _strict(dumps(value, indent=1))
    assert out == {
        "inf": "inf",
        "nested": ["-inf", ["nan", [0, 1]]],
        "3": [1.5, "inf"],
        "fine": [1, 2.5, None, True, "x"],
    }
    with pytest.raises(ValueError):
        _strict(json.dumps(value["inf"]))
