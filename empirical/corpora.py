"""Real text corpora by name, built only from what is on this machine (no downloads).

* ``stdlib`` -- the Python standard library source (``*.py`` under ``sysconfig``'s
  ``stdlib`` path, sorted, tests, idlelib, lib2to3 and site-packages excluded, each file
  preceded by a ``# file:`` line); always available, the default.
* ``pydoc``  -- Python's documentation sources from Debian's ``python3.11-doc``
  (``/usr/share/doc/python3.X-doc/html/_sources/**/*.rst.txt``).
* ``kjv``    -- the King James Bible as printed by Debian's ``bible`` program
  (``apt-get install bible-kjv bible-kjv-text``).

A missing corpus raises :class:`CorpusMissing` saying what to install.  Texts are
deterministic (sorted files, fixed caps), so a training run can record their SHA-256.

>>> text = load_corpus("stdlib", max_chars=2000)
>>> len(text)
2000
"""
from __future__ import annotations

import glob
import shutil
import subprocess
import sysconfig
from pathlib import Path

CORPORA = ("stdlib", "pydoc", "kjv")
DEFAULT_MAX_CHARS = 6_000_000
_UNCAPPED = 10 ** 12


class CorpusError(ValueError):
    """The corpus name is unknown or the corpus is not available on this machine."""


class CorpusMissing(CorpusError):
    """The named corpus is not installed here (the message says how to get it)."""


def load_corpus(name: str, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """Return the text of corpus ``name`` (at most ``max_chars`` characters)."""
    if name == "stdlib":
        return _stdlib(max_chars)
    if name == "pydoc":
        return _pydoc(max_chars)
    if name == "kjv":
        return _kjv(max_chars)
    raise CorpusError(f"unknown corpus {name!r}; one of {', '.join(CORPORA)}")


def load_text(name: str, max_chars: int | None = None) -> str:
    """:func:`load_corpus` with ``max_chars=None`` meaning the whole corpus."""
    return load_corpus(name, _UNCAPPED if max_chars is None else max_chars)


def _concatenate(paths, max_chars: int, header) -> str:
    parts, total = [], 0
    for path in paths:
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        parts.append(header(path) + text + "\n")
        total += len(parts[-1])
        if total >= max_chars:
            break
    return "".join(parts)[:max_chars]


def _stdlib(max_chars: int) -> str:
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "dist-packages", "test", "tests", "idlelib", "lib2to3",
            "__pycache__"}
    paths = (p for p in sorted(root.rglob("*.py"))
             if not skip & set(p.relative_to(root).parts))
    text = _concatenate(paths, max_chars, lambda p: f"# file: {p.relative_to(root)}\n")
    if not text:
        raise CorpusMissing(f"stdlib: no Python sources found under {root}")
    return text


def _pydoc(max_chars: int) -> str:
    files = sorted(glob.glob("/usr/share/doc/python3*-doc/html/_sources/**/*.rst.txt",
                             recursive=True))
    if not files:
        raise CorpusMissing("pydoc: Python's documentation sources are not installed "
                            "(apt-get install python3.11-doc); try --corpus stdlib")
    return _concatenate(map(Path, files), max_chars, lambda p: "")


def _kjv(max_chars: int) -> str:
    exe = shutil.which("bible")
    if exe is None:
        raise CorpusMissing("kjv: the `bible` program is not installed (apt-get install "
                            "bible-kjv bible-kjv-text); try --corpus stdlib")
    res = subprocess.run([exe, "-f", "Gen1:1-Rev22:21"], capture_output=True, text=True,
                         check=False, timeout=300)
    if res.returncode != 0 or len(res.stdout) < 1000:
        raise CorpusMissing(f"kjv: `bible` failed ({res.stderr.strip()[:200]}); is "
                            "bible-kjv-text installed?")
    return res.stdout[:max_chars]


def token_sequences(encode, corpus: str, length: int, n: int, offset: int = 0) -> list:
    """``n`` consecutive, non-overlapping windows of ``length`` token ids from the
    corpus, starting at window ``offset`` (so ranks of a distributed run can take
    disjoint windows).  ``encode(text) -> list[int]``."""
    need = (offset + n) * length
    if len(load_text(corpus, max_chars=need).encode("utf-8")) < need:   # a token >= 1 byte
        raise CorpusMissing(f"{corpus}: the whole text is shorter than the {need} tokens "
                            f"needed ({n} x {length} after {offset} windows)")
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
