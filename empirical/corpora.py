"""Text corpora by name, built only from what is on this machine (no downloads).

``load_corpus(name) -> str``:

* ``stdlib`` -- the Python standard library source (``*.py`` under ``sysconfig``'s
  ``stdlib`` path, sorted, tests and site-packages excluded), always available.
* ``pydoc``  -- ``pydoc`` plain-text documentation of a fixed list of stdlib modules.
* ``kjv``    -- the King James Bible from Debian's ``bible-kjv`` (the ``bible`` program);
  raises :class:`CorpusError` when it is not installed.

Each corpus is capped at ``max_chars`` characters (deterministic: the first files in
sorted order), so training data are the same on every run on the same machine.

>>> text = load_corpus("stdlib", max_chars=2000)
>>> len(text)
2000
"""
from __future__ import annotations

import io
import shutil
import subprocess
import sysconfig
from pathlib import Path

CORPORA = ("stdlib", "pydoc", "kjv")
DEFAULT_MAX_CHARS = 6_000_000
_PYDOC_MODULES = ("os", "re", "json", "collections", "itertools", "functools", "string",
                  "math", "random", "pathlib", "argparse", "logging", "typing",
                  "dataclasses", "subprocess", "threading", "socket", "email",
                  "http.client", "urllib.request", "xml.etree.ElementTree", "csv",
                  "sqlite3", "unittest", "datetime", "decimal", "fractions",
                  "statistics", "textwrap", "difflib", "heapq", "bisect", "shutil",
                  "tarfile", "zipfile", "gzip", "pickle", "copy", "pprint", "enum",
                  "inspect", "ast", "tokenize", "io", "time", "calendar", "hashlib")


class CorpusError(ValueError):
    """The corpus name is unknown or the corpus is not available on this machine."""


def load_corpus(name: str, max_chars: int = DEFAULT_MAX_CHARS) -> str:
    """Return the text of corpus ``name`` (at most ``max_chars`` characters)."""
    if name == "stdlib":
        return _stdlib(max_chars)
    if name == "pydoc":
        return _pydoc(max_chars)
    if name == "kjv":
        return _kjv(max_chars)
    raise CorpusError(f"unknown corpus {name!r}; one of {', '.join(CORPORA)}")


def _stdlib(max_chars: int) -> str:
    root = Path(sysconfig.get_paths()["stdlib"])
    skip = {"site-packages", "test", "tests", "idlelib", "lib2to3", "__pycache__"}
    parts, total = [], 0
    for path in sorted(root.rglob("*.py")):
        if skip & set(path.relative_to(root).parts):
            continue
        try:
            text = path.read_text(encoding="utf-8")
        except (UnicodeDecodeError, OSError):
            continue
        parts.append(f"# file: {path.relative_to(root)}\n{text}\n")
        total += len(parts[-1])
        if total >= max_chars:
            break
    if not parts:
        raise CorpusError(f"no Python sources found under {root}")
    return "".join(parts)[:max_chars]


def _pydoc(max_chars: int) -> str:
    import importlib
    import pydoc
    parts, total = [], 0
    for name in _PYDOC_MODULES:
        try:
            mod = importlib.import_module(name)
            text = pydoc.plaintext.document(mod)
        except Exception:  # a module missing on this build is skipped
            continue
        parts.append(text)
        total += len(text)
        if total >= max_chars:
            break
    return "".join(parts)[:max_chars]


def _kjv(max_chars: int) -> str:
    exe = shutil.which("bible")
    if exe is None:
        raise CorpusError("corpus 'kjv' needs Debian's bible-kjv (the 'bible' program); "
                          "not installed here -- use 'stdlib' or 'pydoc'")
    out = subprocess.run([exe, "-f", "Gen1:1-Rev22:21"], capture_output=True,
                         text=True, check=False, timeout=300).stdout
    if not out.strip():
        raise CorpusError("the 'bible' program returned no text")
    return io.StringIO(out).read()[:max_chars]
