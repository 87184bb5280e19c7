"""What every command line of the project shares.

* :class:`CommandParser`: argparse errors as one stderr line ``error: ...``, exit 2;
* the argument types that check values at the edge live in :mod:`theory.core.arguments`
  (:func:`~theory.core.arguments.positive_int`, :func:`~theory.core.arguments.output_file`,
  ...), so that a bad value is an argparse error, not a traceback later;
* :func:`command`, the entry point of every ``main(argv)``: every expected failure (bad
  argument, missing file, unwritable output, unsupported model, missing optional
  dependency) becomes exit 2 and one ``error:`` line, Ctrl-C exit 130, a closed pipe a
  quiet exit 141; any progress bar is finished first;
* :class:`CommandParser`: help as plain text with every default shown, ``--version``;
* outputs that are never left half-written: :func:`atomic_path` (write to a temporary name
  in the same folder, rename on success), :func:`write_text`, :func:`save_figure`, and
  :func:`output_folder` (a folder created by a failed run is removed again).

>>> from theory.core.arguments import positive_int
>>> p = CommandParser(prog="demo")
>>> _ = p.add_argument("--n", type=positive_int)
>>> p.parse_args(["--n", "3"]).n
3
>>> @command
... def demo(argv=None):
...     raise UsageError("--n must be smaller than the text")
>>> import contextlib, io
>>> err = io.StringIO()
>>> with contextlib.redirect_stderr(err):
...     code = demo([])
>>> code, err.getvalue()
(2, 'error: --n must be smaller than the text\\n')
"""

from __future__ import annotations

import argparse
import contextlib
import contextvars
import functools
import json
import math
import os
import shutil
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

from theory.core import budget, progress, startup
from theory.core.plain_text import plain_text

#: exit status of an expected failure (bad input) and of Ctrl-C
EXIT_USAGE, EXIT_INTERRUPT = 2, 130
#: exit status when the reader of stdout has gone (128 + SIGPIPE, as a shell reports it)
EXIT_BROKEN_PIPE = 141

#: set to 1 to get the traceback of an unexpected error (a bug) instead of one line
TRACEBACK_ENV = "LENGTHX_TRACEBACK"

#: installing the extra that holds the optional dependencies
EXTRA_HINT = "pip install -e '.[empirical]'"


class UsageError(ValueError):
    """An input the command cannot use; its message becomes the ``error:`` line."""


#: the name of the installed distribution (its version is what ``--version`` prints)
DISTRIBUTION = "lengthx"


def version() -> str:
    """The version of the installed package (``lengthx``), else the one in pyproject.toml.

    >>> import re; bool(re.fullmatch(r"\\d+(\\.\\d+)*\\S*", version()))
    True
    """
    from importlib import metadata

    with contextlib.suppress(metadata.PackageNotFoundError):
        return metadata.version(DISTRIBUTION)
    pyproject = Path(__file__).resolve().parents[2] / "pyproject.toml"
    with contextlib.suppress(OSError, ValueError, KeyError):
        import tomllib

        return tomllib.loads(pyproject.read_text(encoding="utf-8"))["project"]["version"]
    return "unknown"


def _is_prose(paragraph: list[str]) -> bool:
    """A paragraph to refill: no indented, bulleted or example line."""
    return not any(ln[:1].isspace() or ln.lstrip()[:2] in ("* ", "- ") for ln in paragraph)


class PlainHelpFormatter(argparse.RawDescriptionHelpFormatter):
    """Help as plain text (:func:`~theory.core.plain_text.plain_text` on every text), each
    option's default shown where its help does not say it, prose paragraphs refilled to
    the width and indented blocks (examples, formulas) kept as written."""

    def _fill_text(self, text: str, width: int, indent: str) -> str:
        import textwrap

        paragraphs, out = plain_text(text).strip("\n").split("\n\n"), []
        for par in paragraphs:
            lines = par.split("\n")
            if _is_prose(lines):
                out.append(textwrap.fill(" ".join(lines), width, initial_indent=indent,
                                         subsequent_indent=indent))  # fmt: skip
            else:
                out.append("\n".join(indent + ln for ln in lines))
        return "\n\n".join(out) + "\n"

    def _get_help_string(self, action: argparse.Action) -> str:
        text = plain_text(action.help or "")
        default = action.default
        shown = (
            not any(default is v for v in (None, False, argparse.SUPPRESS))
            and default != []
            and "default" not in text.lower()
            and (action.option_strings or action.nargs in ("?", "*"))
            and action.nargs != 0
        )
        if shown:
            value = " ".join(map(str, default)) if isinstance(default, list | tuple) else default
            text = f"{text} (default: {str(value).replace('%', '%%')})".lstrip()
        return text


#: (prog, name): while set, a parser whose prog is ``prog`` (``python -m theory.trf``) is
#: called ``name`` (``lengthx trf``) in its usage and ``--version`` lines
_RENAMED: contextvars.ContextVar[tuple[str, str] | None] = contextvars.ContextVar(
    "renamed", default=None
)


@contextlib.contextmanager
def invoked_as(prog: str, name: str) -> Iterator[None]:
    """Within this block the parser of the command ``prog`` (``python -m theory.trf``)
    calls itself ``name`` (``lengthx trf``): the ``lengthx`` script runs a command's
    ``main`` inside it, so that its help reads as it was typed."""
    token = _RENAMED.set((prog, name))
    try:
        yield
    finally:
        _RENAMED.reset(token)


class CommandParser(argparse.ArgumentParser):
    """The parser of every command: errors are one stderr line ``error: ...``, exit 2;
    help is plain text with every default shown (:class:`PlainHelpFormatter`); the
    description and epilog may be docstrings with Sphinx markup; ``--version`` is added."""

    def __init__(self, *args: Any, version_flag: bool = True, **kwargs: Any) -> None:
        kwargs["formatter_class"] = PlainHelpFormatter
        renamed = _RENAMED.get()
        if renamed is not None and kwargs.get("prog") == renamed[0]:
            kwargs["prog"] = renamed[1]
        super().__init__(*args, **kwargs)
        self.json_requested = False
        if version_flag and self.add_help:
            self.add_argument(
                "--version",
                action=_VersionAction,
                version=f"%(prog)s ({DISTRIBUTION}) {{version}}",  # looked up when asked
                help="print the version and exit (with --json: as one JSON object)",
            )

    def add_argument(self, *args: Any, **kwargs: Any) -> argparse.Action:
        """``add_argument``; an option without ``help`` gets the one of :data:`COMMON_HELP`
        (flags that mean the same in every command), or its choices."""
        action = super().add_argument(*args, **kwargs)
        if not action.help:
            common = next((COMMON_HELP[f] for f in action.option_strings if f in COMMON_HELP), None)
            if common is None and action.choices is not None:
                common = "one of: " + ", ".join(map(str, action.choices))
            action.help = common
        return action

    def parse_known_args(self, args: Sequence[str] | None = None, namespace: Any = None) -> Any:
        given = list(map(str, sys.argv[1:] if args is None else args))
        _NUMBERS_GIVEN[:] = _numbers_given(given)
        self.json_requested = "--json" in given
        return super().parse_known_args(args, namespace)

    def error(self, message: str) -> NoReturn:
        report_error(message)
        raise SystemExit(EXIT_USAGE)


class _VersionAction(argparse.Action):
    """``--version``: print the version and exit; with ``--json`` also on the command line,
    as one JSON object."""

    def __init__(self, option_strings: Sequence[str], version: str, **kwargs: Any) -> None:
        kwargs.update(nargs=0, default=argparse.SUPPRESS, dest=argparse.SUPPRESS)
        super().__init__(option_strings, **kwargs)
        self.version = version

    def __call__(self, parser: Any, namespace: Any, values: Any, option_string: Any = None) -> None:
        if getattr(parser, "json_requested", False):
            import json

            info = {"prog": parser.prog, "distribution": DISTRIBUTION, "version": version()}
            print(json.dumps(info))
        else:
            # the version is read only here: importlib.metadata costs ~80 ms of every start
            print(self.version.format(version=version()) % {"prog": parser.prog})
        parser.exit()


#: (flag, text) of every number on the command line being run, for messages such as
#: "a number is too large", which arise deep inside a computation
_NUMBERS_GIVEN: list[tuple[str, str]] = []


def _numbers_given(argv: Sequence[str]) -> list[tuple[str, str]]:
    """``["--L-ex", "1e300", "--d=64"]`` -> ``[("--L-ex", "1e300"), ("--d", "64")]``.

    >>> _numbers_given(["run", "--alpha", "8", "1e308", "--json", "--d=64"])
    [('--alpha', '8'), ('--alpha', '1e308'), ('--d', '64')]
    """
    found, flag = [], None
    for token in map(str, argv):
        value = token
        if token.startswith("--") and "=" in token:
            flag, value = token.split("=", 1)
        elif token.startswith("-") and not _is_number(token):
            flag = token
            continue
        if flag is not None and _is_number(value):
            found.append((flag, value))
    return found


def _is_number(text: str) -> bool:
    try:
        float(text)
    except ValueError:
        return False
    return True


def _largest_number_given() -> str:
    """``" (the largest number given: --L-ex 1e300)"``, or "" if none was given."""
    if not _NUMBERS_GIVEN:
        return ""
    flag, value = max(_NUMBERS_GIVEN, key=lambda fv: abs(float(fv[1])))
    return f" (the largest number given: {flag} {value})"


#: the help of flags that mean the same in every command that has them
COMMON_HELP = {
    "--json": "print one JSON object on stdout",
    "--quiet": "no progress on stderr",
    "--seed": "seed of every random draw (same seed, same result)",
    "--threads": "torch CPU threads",
    "--model": "model: a checkpoint folder or a SPEC such as t5-config:tiny "
    "(see empirical.capture.models)",
    "--corpus": "text: a built-in corpus (stdlib, pydoc, kjv), a text file, a folder or a "
    "JSONL file",
    "--L-tr": "training length (tokens)",
    "--L-ex": "extrapolation length (tokens)",
    "--n-tr": "windows (sequences) at the training length",
    "--n-ex": "windows (sequences) at the extrapolation length",
    "--dtype": "floating-point type of the model's weights and activations",
}


# ---- outputs that are never half-written ----------------------------------------------
@contextlib.contextmanager
def atomic_path(path: str | os.PathLike) -> Iterator[Path]:
    """Yield a temporary path beside ``path`` (same suffix, so writers that look at it
    still work); on success it is renamed to ``path``, on failure removed.

    >>> import tempfile
    >>> d = Path(tempfile.mkdtemp())
    >>> with atomic_path(d / "x.txt") as tmp:
    ...     _ = tmp.write_text("done")
    >>> sorted(p.name for p in d.iterdir()), (d / "x.txt").read_text()
    (['x.txt'], 'done')
    """
    path = Path(path)
    tmp = path.with_name(f".{path.stem}.partial-{os.getpid()}{path.suffix}")
    try:
        yield tmp
        os.replace(tmp, path)
    finally:
        with contextlib.suppress(FileNotFoundError):
            tmp.unlink()


def write_text(path: str | os.PathLike, text: str) -> Path:
    """Write ``text`` to ``path`` through :func:`atomic_path`; returns ``path``."""
    with atomic_path(path) as tmp:
        tmp.write_text(text)
    return Path(path)


def plot_data_path(png: str | os.PathLike) -> Path:
    """Where the data behind a plot is written: beside it, same name, suffix ``.json``.

    >>> plot_data_path("out/trf alibi.png").name
    'trf alibi.json'
    """
    return Path(png).with_suffix(".json")


def save_figure(fig: Any, path: str | os.PathLike, data: Any = None, **savefig_kwargs: Any) -> Path:
    """``fig.savefig`` through :func:`atomic_path` (format from the suffix of ``path``);
    with ``data`` (JSON-able), also the data behind it at :func:`plot_data_path`, so that
    both files appear or neither does."""

    path = Path(path)
    fmt = path.suffix.lstrip(".").lower() or "png"
    with contextlib.ExitStack() as stack:
        tmp = stack.enter_context(atomic_path(path))
        if data is not None:
            tmp_data = stack.enter_context(atomic_path(plot_data_path(path)))
            tmp_data.write_text(dumps(data, default=str))
        fig.savefig(tmp, format=fmt, **savefig_kwargs)
    return path


def say_written(path: str | os.PathLike, what: str = "wrote", data: bool = False) -> None:
    """One stderr line saying where an output was written (with ``data``: and where the
    data behind a plot is, :func:`plot_data_path`); stdout stays for the results."""
    where = Path(path).absolute()
    extra = f" (its data: {plot_data_path(where)})" if data else ""
    print(f"{what} {where}{extra}", file=sys.stderr, flush=True)


@contextlib.contextmanager
def output_folder(
    path: str | os.PathLike,
    keep: Callable[[], bool] | None = None,
    create: bool = True,
    mark: bool = False,
) -> Iterator[Path]:
    """Create the folder ``path`` (with missing parents) for the block (``create=False``:
    the block creates it once its inputs are checked); if the block fails, the folders
    that did not exist before are removed again -- unless ``keep()`` says that what was
    written is worth keeping (e.g. a checkpoint to resume from).  With ``mark``, the
    folder is marked as the running command's (:func:`mark_output_folder`) once it
    exists, so that another command refuses it (:func:`check_output_folder`)."""
    path = Path(path)
    top = None
    if not path.exists():
        top = path.absolute()
        while not top.parent.exists():
            top = top.parent
    if create:
        path.mkdir(parents=True, exist_ok=True)
        if mark:
            mark_output_folder(path)
    try:
        yield path
    except BaseException:
        kept = keep is not None and keep()
        if top is not None and not kept:
            shutil.rmtree(top, ignore_errors=True)
        elif mark and path.is_dir():  # what is kept is marked too (a resume finds it)
            with _sigint_ignored(), contextlib.suppress(OSError):
                mark_output_folder(path)
        raise
    if mark and path.is_dir():
        with _sigint_ignored():  # a Ctrl-C now would leave complete outputs unmarked
            mark_output_folder(path)


# ---- an output folder belongs to one command --------------------------------------------
#: the file in an output folder naming the command that wrote it
OUTPUT_MARKER = ".lengthx-output"

#: the command being run (``empirical.audit``), set by :func:`run_command`
_COMMAND: contextvars.ContextVar[str] = contextvars.ContextVar("command", default="lengthx")

#: the help of ``--overwrite``, the same in every command that writes a folder
OVERWRITE_HELP = (
    "write into an --out folder that holds another command's outputs, files of unknown "
    "origin or a model checkpoint (default: such a folder is refused)"
)

#: files by which the folders written before folders were marked are recognised:
#: (command, names or glob patterns); a model checkpoint is recognised on its own
LEGACY_OUTPUTS: tuple[tuple[str, tuple[str, ...]], ...] = (
    ("paper_checks", ("report.json",)),
    ("empirical.audit", ("audit.json", "cache")),
    ("empirical.assumptions", ("assumptions.json",)),
    ("empirical.train", ("ckpt.pt", "log.csv", "metrics.json")),
    ("empirical.bundle", ("bundle.json",)),
)


def current_command() -> str:
    """The command being run, as ``python -m`` names it (``empirical.audit``)."""
    return _COMMAND.get()


def mark_output_folder(path: str | os.PathLike, command: str | None = None) -> None:
    """Write :data:`OUTPUT_MARKER` into the folder ``path``: it holds the outputs of
    ``command`` (default: the command being run)."""
    import json

    marker = Path(path) / OUTPUT_MARKER
    owner = command or current_command()
    if folder_owner(Path(path)) == owner:
        return
    write_text(marker, json.dumps({"command": owner, "version": version()}) + "\n")


def folder_owner(path: Path) -> str | None:
    """The command named by the folder's :data:`OUTPUT_MARKER` (None: not marked; an
    unreadable marker reads as ``"unknown"``)."""
    import json

    marker = path / OUTPUT_MARKER
    if not marker.is_file():
        return None
    try:
        return str(json.loads(marker.read_text(encoding="utf-8"))["command"])
    except (OSError, ValueError, KeyError, TypeError):
        return "unknown"


def model_checkpoint(path: Path) -> str | None:
    """What makes ``path`` a model checkpoint (a Hugging Face folder: ``config.json`` with
    ``model_type``, ``*.safetensors``, ``pytorch_model.bin``), or None."""
    import json

    config = path / "config.json"
    if config.is_file():
        with contextlib.suppress(OSError, ValueError):
            data = json.loads(config.read_text(encoding="utf-8"))
            if isinstance(data, dict) and "model_type" in data:
                return "config.json with model_type"
    for pattern in ("*.safetensors", "pytorch_model*.bin", "*.gguf"):
        found = sorted(path.glob(pattern))
        if found:
            return found[0].name
    return None


def _matches(path: Path, patterns: Sequence[str]) -> bool:
    return any(next(iter(path.glob(p)), None) is not None for p in patterns)


def check_output_folder(
    path: str | os.PathLike,
    overwrite: bool = False,
    command: str | None = None,
    own: Sequence[str] = (),
) -> Path:
    """Refuse (:class:`UsageError`) an ``--out`` folder that is not the command's to write:
    one that holds a model checkpoint, another command's outputs (its marker, or the files
    of :data:`LEGACY_OUTPUTS`), or files of unknown origin -- unless ``overwrite``.  A new
    or empty folder, or one holding this command's earlier outputs (a re-run, a resume),
    is fine (``own``: more glob patterns of this command's files, for folders written
    before folders were marked).  Called before any work."""
    path = Path(path)
    me = command or current_command()
    if overwrite or not path.is_dir():
        return path
    advice = "choose another --out, or add --overwrite"
    owner = folder_owner(path)
    if owner == me:
        return path
    checkpoint = model_checkpoint(path)
    if checkpoint is not None:
        raise UsageError(f"{path} holds a model checkpoint ({checkpoint}); {advice}")
    if owner is not None:
        raise UsageError(f"{path} holds the outputs of {owner}, not {me}; {advice}")
    entries = sorted(p.name for p in path.iterdir() if not p.name.startswith(".partial"))
    if not entries:
        return path
    for other, patterns in LEGACY_OUTPUTS:
        if other != me and _matches(path, patterns):
            raise UsageError(f"{path} holds the outputs of {other}, not {me}; {advice}")
    own = (*dict(LEGACY_OUTPUTS).get(me, ()), *own)
    if own and _matches(path, own):
        return path
    shown = ", ".join(entries[:3]) + (", ..." if len(entries) > 3 else "")
    raise UsageError(f"{path} already holds files {me} did not write ({shown}); {advice}")


# ---- strict JSON -----------------------------------------------------------------------
def json_safe(obj: Any, default: Callable[[Any], Any] = str) -> Any:
    """``obj`` with every value a strict JSON parser accepts (RFC 8259): a non-finite
    float becomes the string ``"inf"``, ``"-inf"`` or ``"nan"`` (never the bare
    ``Infinity``/``NaN`` that ``json.dumps`` writes by default); numpy scalars and arrays
    become numbers and lists; tuples and sets become lists; dict keys become strings;
    anything else goes through ``default``.

    >>> json_safe({"a": float("inf"), 1: (float("nan"), 2.5), "b": [None, True]})
    {'a': 'inf', '1': ['nan', 2.5], 'b': [None, True]}
    """
    if obj is None or isinstance(obj, (bool, str, int)):
        return obj
    if isinstance(obj, float):
        return (
            obj if math.isfinite(obj) else ("nan" if obj != obj else ("inf" if obj > 0 else "-inf"))
        )
    if isinstance(obj, dict):
        return {
            (k if isinstance(k, str) else str(k)): json_safe(v, default) for k, v in obj.items()
        }
    if isinstance(obj, (list, tuple, set, frozenset)):
        return [json_safe(v, default) for v in obj]
    tolist = getattr(obj, "tolist", None)
    if callable(tolist):  # numpy arrays and scalars
        return json_safe(tolist(), default)
    if hasattr(obj, "__float__") and not hasattr(obj, "__len__"):
        with contextlib.suppress(TypeError, ValueError):
            return json_safe(float(obj), default)
    return json_safe(default(obj), default)


def dumps(obj: Any, *, indent: int | None = None, default: Callable[[Any], Any] = str) -> str:
    """``obj`` as strict JSON text (:func:`json_safe`, then ``allow_nan=False``): what
    every ``--json`` and every written ``.json`` of the project prints.

    >>> dumps({"x": float("-inf"), "y": [1, 2.0]})
    '{"x": "-inf", "y": [1, 2.0]}'
    """
    return json.dumps(json_safe(obj, default), indent=indent, allow_nan=False)


# ---- the entry point ------------------------------------------------------------------
def report_error(message: object, stream: TextIO | None = None) -> None:
    """Finish every progress display, then print one ``error:`` line on stderr."""
    progress.close_all()
    lines = [ln.strip() for ln in str(message).splitlines() if ln.strip()]
    text = lines[0] if lines else "failed"
    if text.endswith(":") and len(lines) > 1:  # "... for field 'x':" + the reason
        text = f"{text} {lines[1]}"
    print(f"error: {text}", file=stream or sys.stderr, flush=True)


def fail(message: object) -> int:
    """:func:`report_error` (an exception as :func:`describe` says it) and return the
    exit status of bad input (2)."""
    report_error(describe(message) if isinstance(message, BaseException) else message)
    return EXIT_USAGE


def describe(exc: BaseException) -> str:
    """What is said about an expected failure (:func:`report_error` keeps one line).

    >>> describe(FileNotFoundError(2, "No such file or directory", "x.json"))
    'x.json: No such file or directory'
    >>> describe(ModuleNotFoundError("No module named 'torch'", name="torch"))
    "needs the optional package torch (pip install -e '.[empirical]')"
    """
    if isinstance(exc, ModuleNotFoundError) and exc.name:
        return f"needs the optional package {exc.name.split('.')[0]} ({EXTRA_HINT})"
    if isinstance(exc, OSError) and exc.strerror:
        where = exc.filename if exc.filename is not None else ""
        return f"{where}: {exc.strerror}" if where != "" else exc.strerror
    if isinstance(exc, MemoryError):
        return "out of memory (try smaller lengths or counts)"
    if isinstance(exc, OverflowError):
        why = exc.args[-1] if exc.args else ""
        why = f": {why}" if why else ""
        return f"a number is too large for the computation{why}{_largest_number_given()}"
    return str(exc).strip() or type(exc).__name__


#: failures that are the input's fault, not a bug: exit 2 and one line
EXPECTED = (ValueError, OSError, ImportError, OverflowError, MemoryError, argparse.ArgumentError)


def _silence_stdout() -> None:
    """After a closed pipe: point stdout at /dev/null so the final flush is quiet."""
    with contextlib.suppress(OSError, ValueError, AttributeError):
        devnull = os.open(os.devnull, os.O_WRONLY)
        os.dup2(devnull, sys.stdout.fileno())


@contextlib.contextmanager
def _sigint_ignored() -> Iterator[None]:
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    previous = signal.signal(signal.SIGINT, signal.SIG_IGN)
    try:
        yield
    finally:
        signal.signal(signal.SIGINT, previous)


def run_command(
    main: Callable[[Sequence[str] | None], int | None], argv: Sequence[str] | None = None
) -> int:
    """Run ``main(argv)`` and return its exit status, turning every failure into one
    ``error:`` line on stderr (after finishing any progress display): expected failures
    (:data:`EXPECTED`) exit 2, Ctrl-C 130, anything else (a bug) 1 with its type; with
    the environment variable ``LENGTHX_TRACEBACK`` set, exceptions propagate instead."""
    _NUMBERS_GIVEN.clear()
    startup.matplotlib_config_quietly()
    token = _COMMAND.set(getattr(main, "__module__", "lengthx").removesuffix(".cli"))
    try:
        try:
            with budget.interrupts():
                try:
                    code = main(argv)
                except Exception:
                    if budget.INTERRUPTED.is_set():  # what Ctrl-C broke (numpy turns one in
                        raise KeyboardInterrupt from None  # its import into an ImportError)
                    raise
        except SystemExit as exc:  # argparse's --help / --version / errors, sys.exit
            if exc.code is not None and not isinstance(exc.code, int):
                report_error(str(exc.code))
                return EXIT_USAGE
            code = exc.code
        sys.stdout.flush()
        return 0 if code is None else int(code)
    except KeyboardInterrupt:
        with _sigint_ignored():  # a second Ctrl-C while the first is reported changes nothing
            report_error("interrupted")
        return EXIT_INTERRUPT
    except BrokenPipeError:  # the reader left (``| head``): stop quietly, as Unix tools do
        _silence_stdout()
        progress.close_all()
        return EXIT_BROKEN_PIPE
    except Exception as exc:  # noqa: BLE001 - one line; the traceback on request
        if os.environ.get(TRACEBACK_ENV):
            progress.close_all()
            raise
        if isinstance(exc, EXPECTED):
            report_error(describe(exc))
            return EXIT_USAGE
        report_error(
            f"unexpected {type(exc).__name__} (set {TRACEBACK_ENV}=1 for the "
            f"traceback): {describe(exc)}"
        )
        return 1
    finally:
        _COMMAND.reset(token)


def fail_well_on_missing_packages() -> None:
    """Called by a package whose commands need optional packages, when it is imported:
    if Python is starting one of its commands (``python -m package.command``, while
    ``sys.argv[0] == "-m"``), a missing package met while importing the command is one
    ``error:`` line and exit 2 instead of a traceback.  Library imports are unaffected."""
    if sys.argv[:1] != ["-m"]:
        return
    previous = sys.excepthook

    def hook(kind: type, exc: BaseException, tb: object) -> None:
        if not issubclass(kind, ImportError):
            return previous(kind, exc, tb)
        report_error(describe(exc))
        with contextlib.suppress(OSError, ValueError):
            sys.stdout.flush()
        os._exit(EXIT_USAGE)

    sys.excepthook = hook


def command(
    main: Callable[[Sequence[str] | None], int | None],
) -> Callable[[Sequence[str] | None], int]:
    """Decorator for a command's ``main(argv=None) -> int``: the same function, run
    through :func:`run_command` (so ``main(argv)`` in a test behaves as the command)."""

    @functools.wraps(main)
    def wrapper(argv: Sequence[str] | None = None) -> int:
        code = run_command(main, argv)
        startup.EXIT_STATUS = code  # a command process ends with it (startup.exit_at_once)
        return code

    return wrapper
