"""What an input file holds, told from its content (magic bytes, JSON sniffing), never from
its suffix: a ``.NPY`` in upper case is a NumPy array, ``data.ndjson`` or ``data.json``
with one object a line is JSONL, ``text.gz`` is compressed.

:func:`file_kind` names the kind; :func:`read_bytes` returns a file's bytes with gzip, bz2
and xz compression undone (other archives are refused by the callers, naming the file
and what they expected); :func:`text_kind` tells JSON Lines, a JSON document and plain
text apart.

>>> import tempfile, numpy as np
>>> d = Path(tempfile.mkdtemp())
>>> with open(d / "BIAS.NPY", "wb") as fh:
...     np.save(fh, np.zeros(3))
>>> file_kind(d / "BIAS.NPY")
'npy'
>>> _ = (d / "data.json").write_text('{"text": "a"}\\n{"text": "b"}\\n'); file_kind(d / "data.json")
'text'
>>> text_kind((d / "data.json").read_text())
'jsonl'
"""

from __future__ import annotations

import bz2
import gzip
import json
import lzma
import os
from pathlib import Path

#: (leading bytes, kind)
MAGIC: tuple[tuple[bytes, str], ...] = (
    (b"\x93NUMPY", "npy"),
    (b"PK\x03\x04", "zip"),  # also .npz, .docx, ...
    (b"PK\x05\x06", "zip"),
    (b"\x1f\x8b", "gzip"),
    (b"BZh", "bz2"),
    (b"\xfd7zXZ\x00", "xz"),
    (b"\x28\xb5\x2f\xfd", "zstd"),
    (b"%PDF", "pdf"),
    (b"\x89PNG", "png"),
    (b"SQLite format 3\x00", "sqlite"),
    (b"\x80\x02", "pickle"),
)

#: what each kind is called in a message
DESCRIPTION = {
    "npy": "a NumPy array (.npy)",
    "zip": "a zip archive (or a NumPy .npz)",
    "gzip": "gzip-compressed data",
    "bz2": "bz2-compressed data",
    "xz": "xz-compressed data",
    "zstd": "zstd-compressed data",
    "pdf": "a PDF document",
    "png": "a PNG image",
    "sqlite": "an SQLite database",
    "pickle": "a Python pickle (or a PyTorch checkpoint)",
    "text": "text",
}

#: compressions undone by :func:`read_bytes`
DECOMPRESS = {"gzip": gzip.decompress, "bz2": bz2.decompress, "xz": lzma.decompress}


def file_kind(path: str | os.PathLike) -> str:
    """The kind of the file ``path`` from its first bytes: a key of :data:`DESCRIPTION`
    (``"text"`` when no magic number matches)."""
    with open(path, "rb") as fh:
        head = fh.read(16)
    return next((kind for magic, kind in MAGIC if head.startswith(magic)), "text")


def read_bytes(path: str | os.PathLike) -> tuple[bytes, str]:
    """(content, kind): the file's bytes, with gzip/bz2/xz compression undone (``kind`` is
    then the kind of what was inside, e.g. ``"text"`` for ``corpus.jsonl.gz``)."""
    data = Path(path).read_bytes()
    kind = next((k for magic, k in MAGIC if data.startswith(magic)), "text")
    if kind in DECOMPRESS:
        try:
            data = DECOMPRESS[kind](data)
        except (OSError, EOFError, ValueError, lzma.LZMAError) as exc:
            raise ValueError(
                f"{path}: {DESCRIPTION[kind]} that does not decompress ({exc})"
            ) from None
        kind = next((k for magic, k in MAGIC if data.startswith(magic)), "text")
    return data, kind


def text_kind(text: str) -> str:
    """``"jsonl"`` (the first non-blank line is a JSON object), ``"json"`` (the whole text
    is one JSON array or object spread over several lines) or ``"text"``.

    >>> text_kind('{"a": 1}\\n'), text_kind('[\\n {"a": 1}\\n]'), text_kind("# a title\\n")
    ('jsonl', 'json', 'text')
    """
    first = next((ln.strip() for ln in text.splitlines() if ln.strip()), "")
    if first.startswith("{"):
        try:
            if isinstance(json.loads(first), dict):
                return "jsonl"
        except ValueError:
            pass
    if first[:1] in ("{", "["):
        try:
            json.loads(text)
        except ValueError:
            return "text"
        return "json"
    return "text"
