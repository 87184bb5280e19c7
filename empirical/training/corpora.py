"""Real text corpora by name, built only from what is on this machine (no downloads).

* ``stdlib`` -- the Python standard library source (``*.py`` under ``sysconfig``'s
  ``stdlib`` path, sorted, tests, idlelib, lib2to3 and site-packages excluded, each file
  preceded by a ``# file:`` line); always available, the default.
* ``pydoc``  -- Python's documentation sources from Debian's ``python3.11-doc``
  (``/usr/share/doc/python3.X-doc/html/_sources/**/*.rst.txt``).
* ``kjv``    -- the King James Bible as printed by Debian's ``bible`` program
  (``apt-get install bible-kjv bible-kjv-text``).

A researcher's own text (:func:`load_documents`): a plain file, a folder of files or a
JSONL file with a text field; :func:`document_windows` cuts fixed-length windows inside
single documents, with the model's special tokens (BOS/EOS) added as its tokenizer does.

A missing corpus raises :class:`CorpusMissing` saying what to install.  Texts are
deterministic (sorted files, fixed caps), so a training run can record their SHA-256.

>>> text = load_corpus("stdlib", max_chars=2000)
>>> len(text)
2000
"""

from __future__ import annotations

import glob
import json
import shutil
import subprocess
import sysconfig
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from theory.core.file_kinds import DESCRIPTION, read_bytes, text_kind

CORPORA = ("stdlib", "pydoc", "kjv")
DEFAULT_MAX_CHARS = 6_000_000
_UNCAPPED = 10**12


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
    skip = {"site-packages", "dist-packages", "test", "tests", "idlelib", "lib2to3", "__pycache__"}
    paths = (p for p in sorted(root.rglob("*.py")) if not skip & set(p.relative_to(root).parts))
    text = _concatenate(paths, max_chars, lambda p: f"# file: {p.relative_to(root)}\n")
    if not text:
        raise CorpusMissing(f"stdlib: no Python sources found under {root}")
    return text


def _pydoc(max_chars: int) -> str:
    files = sorted(
        glob.glob("/usr/share/doc/python3*-doc/html/_sources/**/*.rst.txt", recursive=True)
    )
    if not files:
        raise CorpusMissing(
            "pydoc: Python's documentation sources are not installed "
            "(apt-get install python3.11-doc); try --corpus stdlib"
        )
    return _concatenate(map(Path, files), max_chars, lambda p: "")


def _kjv(max_chars: int) -> str:
    exe = shutil.which("bible")
    if exe is None:
        raise CorpusMissing(
            "kjv: the `bible` program is not installed (apt-get install "
            "bible-kjv bible-kjv-text); try --corpus stdlib"
        )
    res = subprocess.run(
        [exe, "-f", "Gen1:1-Rev22:21"], capture_output=True, text=True, check=False, timeout=300
    )
    if res.returncode != 0 or len(res.stdout) < 1000:
        raise CorpusMissing(
            f"kjv: `bible` failed ({res.stderr.strip()[:200]}); is bible-kjv-text installed?"
        )
    return res.stdout[:max_chars]


@dataclass(frozen=True)
class Document:
    """One text: ``read(max_chars)`` returns its first ``max_chars`` characters, ``chars``
    its length (so a long text is tokenised only as far as needed)."""

    name: str
    read: Callable[[int], str]
    chars: int


#: byte-order marks of the encodings a text file is recognised by
_BOMS = (
    (b"\xff\xfe\x00\x00", "UTF-32-LE"),
    (b"\x00\x00\xfe\xff", "UTF-32-BE"),
    (b"\xff\xfe", "UTF-16-LE"),
    (b"\xfe\xff", "UTF-16-BE"),
)


def _encoding_found(data: bytes) -> str:
    """A name for the encoding of bytes that are not UTF-8 (for the error message).

    >>> _encoding_found("text".encode("utf-16"))[:6], _encoding_found("café".encode("latin-1"))
    ('UTF-16', 'an 8-bit encoding such as Latin-1')
    """
    for bom, name in _BOMS:
        if data.startswith(bom):
            return name
    head = data[:4096]
    if head and head.count(0) > len(head) // 4:
        return "UTF-16 without a byte-order mark, or binary data"
    return "an 8-bit encoding such as Latin-1"


def read_utf8(path: str | Path) -> str:
    """The text of the file ``path`` decoded as UTF-8 (a UTF-8 byte-order mark is
    dropped); a file in another encoding is refused, naming the file and what was found
    (never decoded into replacement characters)."""
    return decode_utf8(Path(path).read_bytes(), path)


def decode_utf8(data: bytes, path: str | Path) -> str:
    """``data`` (the bytes of the file ``path``) decoded as UTF-8, as :func:`read_utf8`."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as exc:
        raise CorpusError(
            f"{path}: not UTF-8 text (found {_encoding_found(data)}; first bad byte at "
            f"offset {exc.start}); convert it to UTF-8, e.g. with iconv -t UTF-8"
        ) from None


#: what a text source may be, for messages about a file that is none of it
TEXT_EXPECTED = (
    "expected UTF-8 text, JSONL (one JSON object a line) or either compressed with gzip, bz2 or xz"
)


def _text_of(path: Path) -> str:
    """The text of ``path`` told by its content: compression undone, binary refused."""
    try:
        data, kind = read_bytes(path)
    except ValueError as exc:
        raise CorpusError(str(exc)) from None
    if kind != "text":
        raise CorpusError(f"{path}: {DESCRIPTION[kind]}, not text; {TEXT_EXPECTED}")
    return decode_utf8(data, path)


def _document(name: str, text: str) -> Document:
    return Document(name, lambda k, t=text: t[:k], len(text))


def _record_document(path: Path, where: str, rec: object, field: str) -> Document:
    text = rec.get(field) if isinstance(rec, dict) else None
    if not isinstance(text, str):
        raise CorpusError(f"{path}:{where}: no string field {field!r} (use --text-field)")
    return _document(f"{path}:{where}", text)


def _jsonl_documents(path: Path, field: str, text: str | None = None) -> list:
    docs = []
    for n, line in enumerate((read_utf8(path) if text is None else text).splitlines(), 1):
        if not line.strip():
            continue
        try:
            rec = json.loads(line)
        except json.JSONDecodeError as exc:
            raise CorpusError(f"{path}:{n}: not JSON ({exc.msg})") from None
        docs.append(_record_document(path, str(n), rec, field))
    return docs


def _json_documents(path: Path, field: str, text: str) -> list:
    """A JSON document: an array of records (each with the field) or one record."""
    data = json.loads(text)
    records = data if isinstance(data, list) else [data]
    return [_record_document(path, f"record {k}", rec, field) for k, rec in enumerate(records)]


def _file_documents(path: Path, field: str, alone: bool) -> list:
    """The documents of one file, by what it holds: JSONL (whatever its suffix) gives its
    records; a JSON document given alone its records; plain text one document."""
    text = _text_of(path)
    kind = text_kind(text)
    if kind == "jsonl":
        return _jsonl_documents(path, field, text)
    if kind == "json" and alone:
        return _json_documents(path, field, text)
    return [_document(str(path), text)]


def check_text_field(source: str, field: str | None) -> None:
    """Before any work: a ``--text-field`` given (``field`` not None) for a source that is
    one plain text file is refused (:class:`CorpusError`) rather than ignored."""
    if field is None or source in CORPORA or not Path(source).is_file():
        return
    if text_kind(_text_of(Path(source))) == "text":
        raise CorpusError(
            f"{source} is plain text, not JSONL: --text-field {field} applies to JSONL only "
            "(one JSON object a line)"
        )


def _builtin_document(name: str) -> Document:
    return Document(name, lambda k: load_text(name, max_chars=k), _UNCAPPED)


def load_documents(source: str, text_field: str = "text") -> list:
    """The documents of ``source``: a built-in corpus name (one document), a JSONL file
    (one document per record, the string field ``text_field``; told by its content, not
    its suffix), a plain text file (one document) or a folder (its files, sorted,
    recursively; JSONL files give their records); gzip, bz2 and xz files are read
    decompressed, binary files refused.  Empty documents are skipped."""
    if not source.strip():
        raise CorpusError("empty text source: give a built-in corpus, a file or a folder")
    if source in CORPORA:
        return [_builtin_document(source)]
    path = Path(source)
    if not path.exists():
        raise CorpusError(
            f"--text {source}: no such file or folder (or built-in corpus: {', '.join(CORPORA)})"
        )
    files = (
        [path]
        if path.is_file()
        else sorted(
            f
            for f in path.rglob("*")
            if f.is_file() and not any(part.startswith(".") for part in f.relative_to(path).parts)
        )
    )
    docs = []
    for f in files:
        docs += _file_documents(f, text_field, path.is_file())
    docs = [d for d in docs if d.chars > 0]
    if not docs:
        raise CorpusError(f"--text {source}: no text found")
    return docs


def _document_ids(doc: Document, encode, need: int) -> list:
    """Token ids of ``doc``, encoding a growing prefix until ``need`` ids or the end."""
    chars = max(100_000, 8 * need)
    while True:
        text = doc.read(chars)
        ids = encode(text)
        if len(ids) >= need or len(text) < chars:
            return ids
        chars *= 4


def document_windows(
    docs: Iterable[Document],
    encode: Callable[[str], Sequence[int]],
    length: int,
    n: int,
    offset: int = 0,
    prefix: Sequence[int] = (),
    suffix: Sequence[int] = (),
) -> list:
    """``n`` windows of exactly ``length`` ids, each ``prefix + chunk + suffix`` (the
    special tokens the model's tokenizer adds: BOS, EOS), the chunks consecutive and
    non-overlapping inside one document (a window never spans two documents), after
    skipping the first ``offset`` windows.  Fewer than ``n`` windows available is a
    :class:`CorpusMissing` that says how many tokens the longest document has."""
    body = length - len(prefix) - len(suffix)
    if body < 1:
        raise CorpusError(f"length {length} leaves no room for the special tokens")
    out, skip, longest = [], offset, 0
    for doc in docs:
        ids = _document_ids(doc, encode, (offset + n) * body)
        longest = max(longest, len(ids))
        for start in range(0, len(ids) - body + 1, body):
            if skip:
                skip -= 1
                continue
            out.append([*prefix, *ids[start : start + body], *suffix])
            if len(out) == n:
                return out
    raise CorpusMissing(
        f"length {length} is larger than the text allows: {len(out)} of "
        f"{n} windows of {length} tokens (after {offset}) found; the "
        f"longest document has {longest} tokens"
    )


def token_sequences(
    encode: Callable[[str], Sequence[int]], corpus: str, length: int, n: int, offset: int = 0
) -> list:
    """``n`` consecutive, non-overlapping windows of ``length`` token ids from the
    corpus, starting at window ``offset`` (so ranks of a distributed run can take
    disjoint windows).  ``encode(text) -> list[int]``."""
    return document_windows([_builtin_document(corpus)], encode, length, n, offset)
