"""Real text corpora by name, and fixed-length token sequences cut from them.

* ``stdlib`` -- the Python standard library source of the running interpreter (always
  there; the default);
* ``kjv``    -- the King James Bible as printed by Debian's ``bible`` program
  (``apt-get install bible-kjv bible-kjv-text``);
* ``pydoc``  -- Python's documentation sources (``apt-get install python3.11-doc``:
  ``/usr/share/doc/python3.X-doc/html/_sources/**/*.rst.txt``).

Nothing is downloaded; a missing corpus raises :class:`CorpusMissing` saying what to
install.

>>> text = load_text("stdlib", max_chars=1000)
>>> len(text)
1000
"""
from __future__ import annotations

import functools
import glob
import os
import shutil
import subprocess
import sysconfig
from pathlib import Path

CORPORA = ("stdlib", "kjv", "pydoc")


class CorpusMissing(RuntimeError):
    """The named corpus is not installed on this machine (message says how to get it)."""


@functools.lru_cache(maxsize=1)
def _stdlib_files() -> list:
    root = Path(sysconfig.get_paths()["stdlib"])
    files = []
    for d, sub, names in os.walk(root):
        sub[:] = sorted(x for x in sub if x not in ("site-packages", "dist-packages",
                                                     "__pycache__"))
        files += [Path(d) / n for n in names if n.endswith(".py")]
    files.sort()
    if not files:
        raise CorpusMissing(f"stdlib: no .py files under {root}")
    return files


def _pydoc_files() -> list:
    files = sorted(glob.glob("/usr/share/doc/python3*-doc/html/_sources/**/*.rst.txt",
                             recursive=True))
    if not files:
        raise CorpusMissing("pydoc: Python's documentation sources are not installed "
                            "(apt-get install python3.11-doc); try --corpus stdlib")
    return [Path(f) for f in files]


def _kjv_text(max_chars: int | None) -> str:
    exe = shutil.which("bible")
    if exe is None:
        raise CorpusMissing("kjv: the `bible` program is not installed (apt-get install "
                            "bible-kjv bible-kjv-text); try --corpus stdlib")
    res = subprocess.run([exe, "gen1:1-rev22:21"], capture_output=True, text=True,
                         timeout=120)
    if res.returncode != 0 or len(res.stdout) < 1000:
        raise CorpusMissing(f"kjv: `bible` failed ({res.stderr.strip()[:200]}); is "
                            "bible-kjv-text installed?")
    return res.stdout if max_chars is None else res.stdout[:max_chars]


def load_text(name: str, max_chars: int | None = None) -> str:
    """The corpus ``name`` as one string (files concatenated in sorted path order),
    truncated to ``max_chars``."""
    if name not in CORPORA:
        raise ValueError(f"unknown corpus {name!r}; one of {', '.join(CORPORA)}")
    if name == "kjv":
        return _kjv_text(max_chars)
    files = _stdlib_files() if name == "stdlib" else _pydoc_files()
    parts, total = [], 0
    for f in files:
        try:
            t = f.read_text(encoding="utf-8", errors="replace")
        except OSError:
            continue
        parts.append(t)
        total += len(t)
        if max_chars is not None and total >= max_chars:
            break
    text = "\n".join(parts)
    return text if max_chars is None else text[:max_chars]


def token_sequences(encode, corpus: str, length: int, n: int, offset: int = 0) -> list:
    """``n`` consecutive, non-overlapping windows of ``length`` token ids from the
    corpus, starting at window ``offset`` (so ranks of a distributed run can take
    disjoint windows).  ``encode(text) -> list[int]``."""
    need = (offset + n) * length
    chars = max(200_000, 8 * need)
    while True:
        ids = encode(load_text(corpus, max_chars=chars))
        if len(ids) >= need:
            break
        full = len(load_text(corpus))
        if chars >= full:
            raise CorpusMissing(f"{corpus}: only {len(ids)} tokens, {need} needed "
                                f"({n} x {length} after {offset} windows)")
        chars = min(full, chars * 4)
    return [ids[(offset + i) * length:(offset + i + 1) * length] for i in range(n)]
