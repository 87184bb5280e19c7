"""Progress of long runs on stderr, readable on a terminal and in a log.

On a terminal it is a tqdm bar redrawn in place; when stderr is not a terminal (CI logs,
``nohup``, a pipe) it is one plain line at most every ``interval`` seconds (default 5,
environment variable ``LENGTHX_PROGRESS_SECONDS``) saying what runs, how far it is and
the time elapsed, e.g. ``checks: 12/40 (30%), 0:00:21 elapsed``.  Nothing is printed by a
run shorter than one interval.  :func:`close_all` finishes every open display (the
command entry point calls it before printing an ``error:`` line, so that line starts a
line of its own).

>>> import io
>>> log = io.StringIO()
>>> with Progress("steps", total=3, stream=log, interval=0) as bar:
...     for _ in range(3):
...         bar.update()
>>> log.getvalue().splitlines()[-1].split(",")[0]
'steps: 3/3 (100%)'
"""

from __future__ import annotations

import os
import sys
import time
import weakref
from collections.abc import Iterable, Iterator
from typing import Any, TextIO

INTERVAL_ENV = "LENGTHX_PROGRESS_SECONDS"
_OPEN: weakref.WeakSet[Progress] = weakref.WeakSet()


def default_interval() -> float:
    """Seconds between two log lines (``LENGTHX_PROGRESS_SECONDS``, default 5)."""
    try:
        return max(0.0, float(os.environ.get(INTERVAL_ENV, "5")))
    except ValueError:
        return 5.0


def _clock(seconds: float) -> str:
    s = int(seconds)
    return f"{s // 3600}:{s % 3600 // 60:02d}:{s % 60:02d}"


class Progress:
    """A progress display for ``what`` with ``total`` steps (None: unknown).

    ``enabled=False`` shows nothing; ``leave=False`` clears a terminal bar at the end."""

    def __init__(
        self,
        what: str,
        total: int | None = None,
        *,
        initial: int = 0,
        unit: str = "",
        stream: TextIO | None = None,
        interval: float | None = None,
        enabled: bool = True,
        leave: bool = True,
    ):
        self.what, self.total, self.done, self.unit = what, total, initial, unit
        self.stream = stream if stream is not None else sys.stderr
        self.interval = default_interval() if interval is None else interval
        self.start = self.last = time.monotonic()
        self.info, self.lines, self.closed, self.bar = "", 0, not enabled, None
        if enabled and _is_terminal(self.stream):
            from tqdm import tqdm

            self.bar = tqdm(
                total=total,
                initial=initial,
                desc=what,
                unit=unit or "it",
                file=self.stream,
                leave=leave,
                dynamic_ncols=True,
            )
        if enabled:
            _OPEN.add(self)

    def __enter__(self) -> Progress:
        return self

    def __exit__(self, *exc: object) -> None:
        self.close()

    def update(self, n: int = 1, **info: object) -> None:
        """Advance by ``n``; ``info`` (e.g. ``loss="2.31"``) is shown after the count."""
        if self.closed:
            return
        self.done += n
        if info:
            self.info = ", ".join(f"{k}={v}" for k, v in info.items())
        if self.bar is not None:
            if info:
                self.bar.set_postfix(info, refresh=False)
            self.bar.update(n)
        elif time.monotonic() - self.last >= self.interval:
            self._line()

    def line(self) -> str:
        """The log line for the current state."""
        unit = f" {self.unit}" if self.unit else ""
        if self.total:
            how_far = f"{self.done}/{self.total}{unit} ({100 * self.done // self.total}%)"
        else:
            how_far = f"{self.done}{unit}"
        info = f", {self.info}" if self.info else ""
        return f"{self.what}: {how_far}, {_clock(time.monotonic() - self.start)} elapsed{info}"

    def _line(self) -> None:
        print(self.line(), file=self.stream, flush=True)
        self.last, self.lines = time.monotonic(), self.lines + 1

    def close(self) -> None:
        """Finish the display (a log that got a line gets a final one)."""
        if self.closed:
            return
        self.closed = True
        _OPEN.discard(self)
        if self.bar is not None:
            self.bar.close()
        elif self.lines:
            self._line()


def _is_terminal(stream: TextIO) -> bool:
    try:
        return bool(stream.isatty())
    except (AttributeError, ValueError):
        return False


def track(items: Iterable, what: str, total: int | None = None, **kw: Any) -> Iterator:
    """Iterate over ``items`` with a :class:`Progress` (closed at the end or on error)."""
    if total is None and hasattr(items, "__len__"):
        total = len(items)
    with Progress(what, total, **kw) as bar:
        for item in items:
            yield item
            bar.update()


def close_all() -> None:
    """Finish every open display, so that the next stderr line starts a line."""
    for p in list(_OPEN):
        p.close()
    tq = sys.modules.get("tqdm")
    if tq is not None:  # bars opened directly with tqdm
        for bar in list(getattr(tq.tqdm, "_instances", ())):
            bar.close()
