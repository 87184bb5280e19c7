"""Generated documentation pages, written before Sphinx reads the sources.

* ``commands/<name>.md``: the ``--help`` of every command of the command table
  (:data:`theory.core.commands.COMMANDS`) and of every benchmark (:data:`BENCHMARKS`), plain
  text as a terminal shows it, and ``commands/index.md`` naming both forms of each
  (``lengthx trf``, ``python -m theory.trf``);
* ``_generated/figures.md``: the figures of the registry (:mod:`figures.registry`), included
  by the paper-checks guide;
* ``api/<package>.rst``: ``automodule`` of every module of our packages;
* ``findings.md``: the claims that do not hold (or hold only approximately), from the
  paper-check report ``report/report.json`` (made by ``python -m paper_checks`` when absent);
* ``_generated/bench_<name>.md``: the last measurement a benchmark recorded in
  ``benchmarks/results/<name>.json`` (with the machine it names), or how to record one;
* ``_generated/claims_<name>.md``: the claim tables the guides include (verdict and
  evidence summary of each claim, from the same report);
* ``_generated/claims.md``: every registered claim, per paper in the report's order,
  with its place in the paper, statement, kind and the check that decides it (from the
  claim registry, :func:`paper_checks.registry.load_all`);
* ``_generated/rpes.md``: the named RPEs of the series library
  (:data:`theory.series.rpe_library.LIBRARY`): formula, first index, parameters with their
  defaults, source;
* ``_generated/contrasts.md``: the catalogue of contrasts
  (:data:`empirical.agreement.catalogue.CATALOGUE`): place in the paper, tolerance and
  margin with their reasons, the paper check each decides;
* ``_generated/bundle_profiles.md``: the settings of each profile of the seeded bundle and
  the models it trains (:mod:`empirical.training.profile_bundle`; needs torch);
* ``_generated/agreement.md`` and ``_generated/bundle_measurements.md``: the agreement
  contrasts and the measurements (perplexities, learned parameters, training speed, with
  seed intervals) of the seeded bundle, or how to make one when there is none;
* ``_generated/scales.md``: the scale report (every contrast on every rung of the ladder,
  :func:`empirical.agreement.scales.scale_report`) computed while the docs build from the
  stored rungs and the ci bundle when there is one, or a sentence saying what is missing;
* counts and settings used in the prose (``{{ n_figures }}``, ``{{ trf_time_limit }}``,
  ...), as MyST substitutions computed from the code;
* the ``command-output`` directive: a command run while the docs build, shown with its
  output, so that no output on a page is typed (a command that fails fails the build).

``tests/test_docs_numbers.py`` checks that the sources hold no typed result.
"""

from __future__ import annotations

import contextlib
import importlib
import io
import json
import os
import pathlib
import pkgutil
import re
import shlex
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

from docutils import nodes
from sphinx.util.docutils import SphinxDirective

from theory.core.commands import COMMANDS

DOCS = pathlib.Path(__file__).resolve().parents[1]
ROOT = DOCS.parent
#: the benchmarks (``python -m benchmarks.NAME``; scripts outside the installed packages,
#: so not in the command table ``theory.core.commands.COMMANDS``)
BENCHMARKS = (
    "benchmarks.trf",
    "benchmarks.capture",
    "benchmarks.bench_tiny_lm",
    "benchmarks.bench_gaussian_softmax",
    "benchmarks.mutation",
)
#: width of the generated --help pages (argparse reads COLUMNS)
HELP_COLUMNS = "100"
PACKAGES = ("theory", "empirical", "figures", "paper_checks")


def write(path: pathlib.Path, text: str) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    if not path.exists() or path.read_text() != text:
        path.write_text(text)


def help_text(entry: str) -> str | None:
    """The ``--help`` output of a command's ``main`` (``"package.cli:main"``, or a module
    holding ``main``); None if the module is absent."""
    module, _, name = entry.partition(":")
    try:
        main = getattr(importlib.import_module(module), name or "main")
    except ModuleNotFoundError:
        return None
    out = io.StringIO()
    columns = os.environ.get("COLUMNS")
    os.environ["COLUMNS"] = HELP_COLUMNS
    try:
        with contextlib.redirect_stdout(out), contextlib.suppress(SystemExit):
            main(["--help"])
    finally:
        if columns is None:
            del os.environ["COLUMNS"]
        else:
            os.environ["COLUMNS"] = columns
    return out.getvalue()


def command_pages() -> None:
    """One page per command (its ``--help``) and the index naming both forms of each."""
    rows, names = [], []
    for cmd in COMMANDS:
        text = help_text(cmd.entry)
        if text is None:
            continue
        names.append(cmd.module)
        rows.append(f"| `lengthx {cmd.name}` | `python -m {cmd.module}` | {cell(cmd.summary)} |")
        write(
            DOCS / "commands" / f"{cmd.module}.md",
            f"# `lengthx {cmd.name}`, `python -m {cmd.module}`\n\n```text\n{text.rstrip()}\n```\n",
        )
    bench_rows = []
    for module in BENCHMARKS:
        text = help_text(module)
        if text is None:
            continue
        names.append(module)
        bench_rows.append(f"| `python -m {module}` |")
        write(
            DOCS / "commands" / f"{module}.md",
            f"# `python -m {module}`\n\n```text\n{text.rstrip()}\n```\n",
        )
    toc = "\n".join(names)
    write(
        DOCS / "commands" / "index.md",
        "# Commands\n\nEvery command takes `--help` and `--version`; bad input exits 2 with one line "
        "starting `error:`; `--json` prints one JSON object.  Each runs two ways, the same: "
        "`lengthx NAME` (the console script `pip install -e .` puts on the path; "
        "`lengthx --help` lists them) and `python -m PACKAGE`.\n\n"
        "| console script | module | what it does |\n|---|---|---|\n"
        + "\n".join(rows)
        + "\n\nThe benchmarks (scripts in `benchmarks/`, run from the repository root):\n\n"
        "| module |\n|---|\n" + "\n".join(bench_rows) + "\n\n"
        f"```{{toctree}}\n:maxdepth: 1\n\n{toc}\n```\n",
    )


def figures_table() -> None:
    """``_generated/figures.md``: every figure of the registry (:mod:`figures.registry`),
    its paper and what it draws."""
    from figures.registry import load_all

    rows = [
        f"| `{f.name}` | {f.paper} | {cell(f.description)}"
        + (" (trains or runs models)" if f.empirical else "")
        + " |"
        for f in sorted(load_all().values(), key=lambda f: (f.paper, f.name))
    ]
    write(
        DOCS / "_generated" / "figures.md",
        "| figure | paper | what is drawn |\n|---|---|---|\n" + "\n".join(rows) + "\n",
    )


def rpe_table() -> str:
    """Markdown of every named RPE of :data:`theory.series.rpe_library.LIBRARY`: its name
    (``--rpe NAME``), b_n, the first index of its series, its parameters (``--param
    NAME=VALUE``) with their defaults, and its source."""
    from theory.series.rpe_library import LIBRARY

    lines = [
        "| name (`--rpe NAME`) | b_n | first index | parameters (default: meaning) | source |",
        "|---|---|---|---|---|",
    ]
    for name, (_, params, start, description, source) in LIBRARY.items():
        ps = "; ".join(f"`{k}` = {v.default}: {v.meaning}" for k, v in params.items())
        lines.append(
            f"| `{name}` | {cell(description)} | {start} | {cell(ps) or 'none'} | {cell(source)} |"
        )
    return "\n".join(lines) + "\n"


def contrasts_table() -> str:
    """Markdown of the catalogue of contrasts
    (:data:`empirical.agreement.catalogue.CATALOGUE`): key, place in the paper, the function
    computing it, tolerance and margin with the reason for each, the paper check it decides."""
    from empirical.agreement.catalogue import CATALOGUE

    lines = [
        "| contrast | tests | computed by | tolerance | margin | decides |",
        "|---|---|---|---|---|---|",
    ]
    for e in CATALOGUE:
        args = ", ".join(map(repr, e.args))
        lines.append(
            f"| `{e.key}` | {cell(e.place)} | "
            f"`{e.compute.__module__}.{e.compute.__name__}({cell(args)})` | {e.tolerance.value:g}: {cell(e.tolerance.reason)} | "
            f"{e.margin.value:g}: {cell(e.margin.reason)} | `{e.check}` |"
        )
    return "\n".join(lines) + "\n"


def profiles_table() -> str:
    """Markdown of the seeded bundle's profiles (:data:`PROFILES` of
    :mod:`empirical.training.profile_bundle`), one column each, and the models they train
    (its ``MODELS``, with the ``python -m empirical.train`` options of each)."""
    from empirical.training.profile_bundle import MODELS, PROFILES

    names = list(PROFILES)
    keys = list(dict.fromkeys(k for p in PROFILES.values() for k in p))
    lines = [
        "| setting | " + " | ".join(f"`--profile {n}`" for n in names) + " |",
        "|---|" + "---|" * len(names),
    ]
    for k in keys:
        vals = [
            cell(", ".join(map(str, v)) if isinstance(v, tuple) else v)
            for v in (PROFILES[n].get(k, "") for n in names)
        ]
        lines.append(f"| `{k}` | " + " | ".join(vals) + " |")
    lines += ["", "| model | `python -m empirical.train` options |", "|---|---|"]
    lines += [f"| `{m}` | `{' '.join(argv)}` |" for m, argv in MODELS.items()]
    return "\n".join(lines) + "\n"


def registry_tables() -> None:
    write(DOCS / "_generated" / "rpes.md", rpe_table())
    write(DOCS / "_generated" / "contrasts.md", contrasts_table())
    try:
        text = profiles_table()
    except ModuleNotFoundError as exc:  # no torch: the profiles are in profile_bundle.py
        text = (
            f"Not generated ({exc}): the profiles are `PROFILES` of "
            "`empirical/training/profile_bundle.py`.\n"
        )
    write(DOCS / "_generated" / "bundle_profiles.md", text)


def modules(package: str) -> list[str]:
    pkg = importlib.import_module(package)
    found = [package]
    for info in pkgutil.walk_packages(pkg.__path__, prefix=f"{package}."):
        if not info.name.endswith("__main__"):
            found.append(info.name)
    return sorted(found)


def api_pages() -> None:
    for package in PACKAGES:
        body = [package, "=" * len(package), ""]
        for name in modules(package):
            body += [f".. automodule:: {name}", "   :members:", ""]
        write(DOCS / "api" / f"{package}.rst", "\n".join(body))
    write(
        DOCS / "api" / "index.md",
        "# API\n\n```{toctree}\n:maxdepth: 1\n\n" + "\n".join(PACKAGES) + "\n```\n",
    )


def report() -> dict:
    path = ROOT / "report" / "report.json"
    if not path.exists():
        subprocess.run(
            [sys.executable, "-m", "paper_checks", "--no-figures", "--out", str(path.parent)],
            cwd=ROOT,
            check=True,
            stdout=subprocess.DEVNULL,
        )
    return json.loads(path.read_text())


def cell(text) -> str:
    return " ".join(str(text).split()).replace("|", "\\|")


def findings_page(rep: dict) -> None:
    from paper_checks.report import findings_page as page

    write(DOCS / "findings.md", page(rep))


#: the claim tables the guides include (``_generated/claims_NAME.md``): paper and kinds
CLAIM_TABLES = {
    "align_theory": ("align", ("numeric", "symbolic")),
    "align_empirical": ("align", ("empirical",)),
    "infoscale": ("infoscale", ("numeric", "symbolic")),
}


def claims_table(rep: dict, paper: str, kinds: tuple) -> str:
    """Markdown table of one paper's claims of the given kinds, from the report."""
    rows = [c for c in rep["claims"] if c["paper"] == paper and c["kind"] in kinds]
    empirical = " --empirical" if "empirical" in kinds else ""
    lines = [
        "From the paper-check report the documentation build read (`report/report.json`); "
        f"`python -m paper_checks --paper {paper}{empirical}` makes it again, "
        "`--id ID --json` gives one claim's evidence.",
        "",
        "| claim | verdict | evidence (summary) |",
        "|---|---|---|",
    ]
    lines += [f"| `{c['id']}` | {cell(c['label'])} | {cell(c['summary'])} |" for c in rows]
    return "\n".join(lines) + "\n"


def claim_tables(rep: dict) -> None:
    for name, (paper, kinds) in CLAIM_TABLES.items():
        write(DOCS / "_generated" / f"claims_{name}.md", claims_table(rep, paper, kinds))


def registered_claims_table(claims: list) -> str:
    """Markdown of every registered claim, one table per paper (in ``claims``' order):
    id, place in the paper, statement, kind, and the check function that decides it."""
    from paper_checks.registry import PAPERS

    lines = []
    for paper, title in PAPERS.items():
        rows = [c for c in claims if c.paper == paper]
        lines += [
            f"**{paper}**: {cell(title)}, {len(rows)} claims",
            "",
            "| claim | where | statement | kind | check |",
            "|---|---|---|---|---|",
        ]
        lines += [
            f"| `{c.id}` | {cell(c.location)} | {cell(c.statement)} | {c.kind} | "
            f"`{c.check.__module__}.{c.check.__name__}` |"
            for c in rows
        ]
        lines.append("")
    return "\n".join(lines)


def claims_page() -> None:
    from paper_checks.registry import load_all

    text = registered_claims_table(list(load_all().values()))
    write(DOCS / "_generated" / "claims.md", text)


# ---- outputs and numbers generated while the docs build -------------------------------
#: benchmarks whose recorded measurement (benchmarks/results/NAME.json) the docs show
RECORDED_BENCHMARKS = ("trf", "capture", "bench_tiny_lm", "bench_gaussian_softmax")


def run_command_line(line: str, exit_code: int = 0) -> str:
    """Output of ``python -m ...`` run from the repository root (``python`` is this
    interpreter): stdout, or stderr when ``exit_code`` is not 0.  An exit status other than
    ``exit_code`` raises, so that a stale page fails the build."""
    argv = shlex.split(line)
    if argv[:1] == ["python"]:
        argv[0] = sys.executable
    env = dict(os.environ, PYTHONPATH=str(ROOT), COLUMNS=HELP_COLUMNS, OMP_NUM_THREADS="1")
    env["LENGTHX_PROGRESS_SECONDS"] = "1000000"  # no progress lines on the page
    res = subprocess.run(argv, cwd=ROOT, env=env, capture_output=True, text=True)
    if res.returncode != exit_code:
        raise RuntimeError(f"{line}: exit {res.returncode}: {res.stderr.strip()[-500:]}")
    return (res.stdout if exit_code == 0 else res.stderr).rstrip()


def _lines(spec: str) -> slice:
    """``:lines: A-B`` (1-based, inclusive; either end may be left out) as a slice."""
    lo, _, hi = spec.partition("-")
    return slice(int(lo) - 1 if lo else None, int(hi) if hi else None)


#: outputs of the pages about to be read, run ahead in parallel: (line, exit) -> output
#: or the RuntimeError it raised
PRERUN: dict = {}
COMMAND_BLOCK = re.compile(r"^```\{command-output\}[ \t]+(.+)\n((?::\w+:.*\n)*)", re.M)


def _run_or_error(line: str, exit_code: int):
    try:
        return run_command_line(line, exit_code)
    except RuntimeError as exc:
        return exc


def prerun_outputs(app, env, docnames: list) -> None:
    """Run the ``command-output`` commands of the pages Sphinx is about to read ahead, as
    many at a time as there are idle CPUs (one on a busy machine, where commands with a
    wall-clock budget such as ``theory.trf`` must not be slowed further), benchmarks
    excepted (they run alone, when their page is read)."""
    jobs = set()
    for doc in docnames:
        path = pathlib.Path(env.doc2path(doc))
        if path.suffix != ".md" or not path.exists():
            continue
        for m in COMMAND_BLOCK.finditer(path.read_text()):
            line = " ".join(m.group(1).split())
            opts = dict(re.findall(r"^:(\w+):[ \t]*(.*)$", m.group(2), re.M))
            needs = opts.get("needs")
            if not line.startswith("python -m benchmarks.") and not (
                needs and not (ROOT / needs).exists()
            ):
                jobs.add((line, int(opts.get("exit", 0))))
    idle = (os.cpu_count() or 1) - (os.getloadavg()[0] if hasattr(os, "getloadavg") else 0)
    with ThreadPoolExecutor(max_workers=max(1, int(idle))) as pool:
        done = {job: pool.submit(_run_or_error, *job) for job in sorted(jobs)}
    PRERUN.update({job: f.result() for job, f in done.items()})


class CommandOutput(SphinxDirective):
    """A command and its output, run while the docs build::

    ```{command-output} python -m theory.infoscale --d 128 --n-tr 64 --n 4096
    :exit: 0
    :lines: 1-12
    :needs: runs/ci/bundle.json
    ```

    ``:exit:`` the expected exit status (stderr is shown when it is not 0); ``:lines:``
    the output lines shown (an excerpt, marked ``...``); ``:needs:`` a path relative to
    the repository root without which the command is shown with a note instead of run.
    """

    required_arguments = 1
    final_argument_whitespace = True
    has_content = False
    option_spec = {"exit": int, "lines": str, "needs": str}

    def run(self) -> list:
        line = " ".join(self.arguments[0].split())
        needs = self.options.get("needs")
        if needs and not (ROOT / needs).exists():
            out = f"# not run: {needs} was not there when these pages were built"
        else:
            job = (line, self.options.get("exit", 0))
            out = PRERUN.pop(job) if job in PRERUN else _run_or_error(*job)
            if isinstance(out, RuntimeError):
                raise self.error(str(out))
            if "lines" in self.options:
                out = "\n".join(out.splitlines()[_lines(self.options["lines"])] + ["..."])
        text = f"$ {line}\n{out}"
        block = nodes.literal_block(text, text)
        block["language"] = "console"
        return [block]


def recorded_benchmark(name: str) -> str:
    """Markdown for the measurements of ``python -m benchmarks.NAME`` recorded in
    ``benchmarks/results/NAME.json`` and ``NAME-MACHINE.json`` (one per machine, e.g.
    ``capture-intel.json``), one after the other: each one's machine, settings and rows
    (or summaries)."""
    results = ROOT / "benchmarks" / "results"
    paths = [p for p in [results / f"{name}.json"] if p.exists()]
    paths += sorted(results.glob(f"{name}-*.json"))
    if not paths:
        record = f"`python -m benchmarks.{name} --json benchmarks/results/{name}.json`"
        return f"No measurement is recorded here; {record} records one on your machine.\n"
    return "\n".join(_recorded_run(name, path) for path in paths)


def _recorded_run(name: str, path: pathlib.Path) -> str:
    """Markdown for one recorded run ``path`` of ``python -m benchmarks.NAME``."""
    record = f"`python -m benchmarks.{name} --json benchmarks/results/{path.name}`"
    data = json.loads(path.read_text())
    load = data.get("load_average")
    busy = f" (load average {load} when it started)" if load is not None else ""
    lines = [
        f"Recorded by {record} on: {data.get('machine', 'an unnamed machine')}{busy}.",
        "",
    ]
    settings = {k: v for k, v in data.items() if isinstance(v, (int, float, str))}
    for key in ("machine", "load_average"):
        settings.pop(key, None)
    if settings:
        lines += ["Settings: " + ", ".join(f"{k} {v}" for k, v in settings.items()) + ".", ""]
    rows = data.get("rows")
    if rows:
        keys = list(dict.fromkeys(k for r in rows for k in r))  # every column, first seen first
        lines += ["| " + " | ".join(keys) + " |", "|" + "---|" * len(keys)]
        lines += ["| " + " | ".join(cell(_number(r.get(k, ""))) for k in keys) + " |" for r in rows]
    for key, value in data.items():
        if key.startswith("summary") and isinstance(value, dict):
            lines += ["", f"{key.removeprefix('summary_').replace('_', ' ')}:", ""]
            lines += [f"* {k}: {cell(_number(v))}" for k, v in value.items()]
    return "\n".join(lines) + "\n"


def _number(v) -> str:
    return f"{v:.3g}" if isinstance(v, float) else str(v)


def gpu_record(path: pathlib.Path) -> str:
    """Markdown for a GPU run recorded in ``benchmarks/results/gpu-*.json``: the device and
    software, the capture rows measured on the GPU, the audit, ``torchrun``/NCCL and the GPU
    tests, every number read from the record (a part the record lacks is left out)."""
    d = json.loads(path.read_text())
    dev, sw = d["device"], d.get("software", {})
    rel = path.relative_to(ROOT).as_posix()
    hw = ", ".join(
        f"{label} {dev[key]}"
        for key, label in (("sm", "sm"), ("multiprocessors", "multiprocessors:"), ("cuda", "CUDA"))
        if key in dev
    ).replace("multiprocessors: ", "multiprocessors ")
    lines = [
        f"Recorded in `{rel}` on {d['date']}: {dev['gpu']}"
        + (f" ({hw})" if hw else "")
        + f", host {d['host']}; "
        + "".join(f"{k} {v}, " for k, v in sw.items())
        + f"{d['how']}.",
        "",
        f"**Capture against sdpa** (`{d['capture']['command']}`): {d['capture'].get('note', '')}",
        "",
        "| model | L | variant | wall (s) | x sdpa | peak extra MiB | extra vs sdpa MiB |",
        "|---|---|---|---|---|---|---|",
    ]
    for r in d["capture"]["result"]["rows"]:
        if r["device"] == "cpu":
            continue
        cols = ("model", "L", "variant", "wall_s", "wall_ratio", "peak_extra_MiB")
        vals = [cell(_number(r[k])) for k in cols] + [cell(_number(r["extra_vs_sdpa_MiB"]))]
        lines.append("| " + " | ".join(vals) + " |")
    a = d["audit"]
    ck = a["checkpoint"]
    if isinstance(ck, str):  # the checkpoint described in words
        lines += [
            "",
            f"**The audit** of a checkpoint built from a config ({ck}): `{a['command']}` "
            f"exited {a['exit_status']} after {a['seconds_audit']} s of measurement "
            f"({a['measurements']} measurements, {a['forward_passes']} forward passes; "
            f"{a['wall_s_process']} s and {a['max_rss_kB'] / 2**20:.2f} GiB resident for "
            "the whole command).  P_max and entropy of the whole model (random weights: "
            "they show that the audit runs at this size, not a property of a trained model):",
            "",
            "| L | P_max | entropy |",
            "|---|---|---|",
        ]
        lines += [
            f"| {L} | {_number(v['pmax'])} | {_number(v['entropy'])} |"
            for L, v in a["overall"].items()
        ]
    else:
        taus = a["lengths"][max(a["lengths"], key=int)]["temperatures"]
        lines += [
            "",
            f"**The audit** of a {ck['class']} built from a config ({ck['parameters']:,} "
            f"parameters: hidden {ck['hidden_size']}, {ck['num_hidden_layers']} layers, "
            f"{ck['num_attention_heads']} heads; {ck['built']}): `{a['command']}` exited "
            f"{a['exit_status']} after {a['seconds_audit']} s of measurement "
            f"({a['measurements']} measurements, {a['forward_passes']} forward passes, "
            f"{a['seconds_per_measurement_at_32768']} s per measurement at the longest length; "
            f"{a['seconds_process']} s for the whole command).  Temperatures at the longest "
            "length (random weights: they show that the audit runs at this size, not a "
            "property of a trained model):",
            "",
            "| rule | tau | P_max relative error | entropy relative error |",
            "|---|---|---|---|",
        ]
        lines += [
            f"| {name} | {_number(t['tau'])} | {_number(t['pmax_rel_error'])} | "
            f"{_number(t['entropy_rel_error'])} |"
            for name, t in taus.items()
        ]
    if "torchrun" in d:
        lines += ["", "**torchrun and NCCL**:", ""]
        for name, run in d["torchrun"].items():
            what = run.get("command") or run.get("what", "")
            facts = {k: v for k, v in run.items() if k not in ("command", "what", "note")}
            note = f" {run['note']}." if run.get("note") else ""
            lines.append(
                f"* {name}: {cell(what)} -> "
                + ", ".join(f"{k} {cell(_number(v))}" for k, v in facts.items())
                + f".{note}"
            )
    t = d["gpu_tests"]
    lines += ["", f"**GPU tests**: `{t['command']}`: {t['result']}."]
    return "\n".join(lines) + "\n"


def benchmark_fragments() -> None:
    for name in RECORDED_BENCHMARKS:
        write(DOCS / "_generated" / f"bench_{name}.md", recorded_benchmark(name))
    records = sorted((ROOT / "benchmarks" / "results").glob("gpu-*.json"))
    text = "\n".join(gpu_record(p) for p in records) or "No GPU run is recorded here.\n"
    write(DOCS / "_generated" / "bench_gpu.md", text)


def agreement_table() -> None:
    """The agreement contrasts of the ci bundle trained here (``runs/ci``),
    made while the docs build; without a bundle (or without torch) the page says how to
    make one instead of showing numbers from another machine."""
    has_bundle = (ROOT / "runs/ci" / "bundle.json").exists()
    try:
        text = run_command_line("python -m empirical.results --contrasts --markdown")
    except RuntimeError as exc:
        text = None if has_bundle else str(exc)
        if has_bundle:
            raise
    if text is None or not has_bundle:
        text = (
            "No bundle was found when these pages were built, so no measured contrast is "
            "shown: `python -m pytest` (or `python -m empirical.bundle --profile ci --out "
            "runs/ci`) trains one, and the next build shows its table."
        )
    write(DOCS / "_generated" / "agreement.md", text + "\n")


def bundle_measurements() -> None:
    """The seeded bundle's measurements (perplexities, learned parameters, training speed)
    with their seed intervals, made while the docs build (as :func:`agreement_table`)."""
    has_bundle = (ROOT / "runs/ci" / "bundle.json").exists()
    if has_bundle:
        text = run_command_line("python -m empirical.results --markdown")
    else:
        text = (
            "No bundle was found when these pages were built, so no measurement is shown: "
            "`python -m empirical.bundle --profile ci --out runs/ci` (or `python -m pytest`) "
            "trains one, and the next build shows its perplexities with their seed intervals."
        )
    write(DOCS / "_generated" / "bundle_measurements.md", text + "\n")


def _triple(t: list) -> str:
    return f"{t[1]:.3g} [{t[0]:.3g}, {t[2]:.3g}]"


def scales_markdown(rep: dict, ci_found: bool = True) -> str:
    """Markdown of a scale report (the ``python -m empirical.results --scales --json``
    object): the rungs, then one row per contrast with the theory's error on each rung
    (mean [95% seed interval], "agrees" or "misses" its tolerance), the trend of the
    theory's error and, at the top rung, the alternatives that do better or tie."""
    names = [r["name"] for r in rep["rungs"]]
    lines = [
        "Computed while these pages were built (`python -m empirical.results --scales` "
        "prints the same report; the theory is computed from each rung's stored "
        "measurements)"
        + ("" if ci_found else "; no ci bundle was found, so rung ci is left out")
        + ".",
        "",
        "| rung | m (tokens) | tokenizer | corpus | characters per token | span of text "
        "(characters) | layers x width | steps | training tokens | longest evaluation "
        "(x m) | seeds |",
        "|---|---|---|---|---|---|---|---|---|---|---|",
    ]
    lines += [
        f"| `{r['name']}` | {r['seq_len']} | {cell(r['tokenizer'])} | {cell(r['corpus'])} | "
        f"{r['chars_per_token']:.3g} | {r['span_chars']:.0f} | {r['n_layer']} x "
        f"{r['d_model']} | {r['steps']} | {r['train_tokens']} | {r['max_extrapolation']} | "
        f"{len(r['seeds'])} |"
        for r in rep["rungs"]
    ]
    lines += [
        "",
        "| contrast | theory's error is | tolerance | "
        + " | ".join(f"`{n}`" for n in names)
        + " | trend | at the top rung, alternatives better or tied |",
        "|---|---|---|" + "---|" * len(names) + "---|---|",
    ]
    for c in rep["contrasts"]:
        at = [
            (
                _triple(c["rungs"][n]["theory"])
                + (" agrees" if c["rungs"][n]["agrees"] else " misses")
                if c["rungs"].get(n, {}).get("formed", True)
                else "not formed: " + cell(c["rungs"][n].get("reason", ""))
            )
            if n in c["rungs"]
            else "not formed"
            for n in names
        ]
        rivals = [
            f"{a} ({'better' if sign == 'alternative better' else 'tied'})"
            for a, sign in c["top_gap_sign"].items()
            if sign != "theory better"
        ]
        lines.append(
            f"| `{c['key']}` | {cell(c['theory_error_is'])} | {c['tolerance']:.3g} | "
            + " | ".join(at)
            + f" | {c['trend']} | {cell('; '.join(rivals)) or 'none'} |"
        )
    exp = rep.get("rpe_experiments") or {}
    if exp:
        lines += [
            "",
            "The RPE paper's sufficiency and necessity experiments: ppl(f m)/ppl(m) per RPE "
            "(mean [95% seed interval]) at 16m and at 18m (the paper's 512 -> 9216, stored "
            "above ci), and whether `theory.series` proves the learned series convergent "
            "(decided now; sinusoidal has no series):",
            "",
            "| rung | RPE | converges | ppl(16m)/ppl(m) | ppl(18m)/ppl(m) |",
            "|---|---|---|---|---|",
        ]
        for n, per in exp.items():
            for r, v in per.items():
                conv = {True: "yes", False: "no", None: "undecided"}[v["converges"]]
                if r == "sinusoidal":
                    conv = "(no series)"
                ratios = [
                    _triple(v["ppl_ratio"][f]) if f in v["ppl_ratio"] else ""
                    for f in ("16m", "18m")
                ]
                lines.append(f"| `{n}` | {r} | {conv} | " + " | ".join(ratios) + " |")
    return "\n".join(lines) + "\n"


def scales_table() -> None:
    """``_generated/scales.md``: the scale report on the stored rungs and, when the ci
    bundle is found (``$LENGTHX_AGREEMENT``, else runs/ci), on ci; a sentence when
    neither is there."""
    from empirical.agreement import bundle_io
    from empirical.agreement.scales import scale_report

    ci_found = bundle_io.find_profile_bundle() is not None
    names = ([bundle_io.CI] if ci_found else []) + bundle_io.stored_rungs()
    if names:
        text = scales_markdown(scale_report(names), ci_found)
    else:
        text = (
            "No rung was found when these pages were built (no ci bundle, no stored rung), "
            "so no scale report is shown: `python -m empirical.bundle --profile ci --out "
            "runs/ci` trains ci, and the next build shows the report.\n"
        )
    write(DOCS / "_generated" / "scales.md", text)


def constant(path: str, name: str):
    """The literal assigned to ``name`` at the top level of the module file ``path``
    (read without importing it, so that a setting the prose names needs no torch)."""
    import ast

    for node in ast.parse((ROOT / path).read_text()).body:
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            return ast.literal_eval(node.value)
    raise KeyError(f"{name} is not assigned in {path}")


def counts() -> dict:
    """Counts and settings the prose uses, computed from the code (MyST substitutions)."""
    from figures.registry import load_all as load_figures
    from paper_checks.registry import load_all as load_claims

    return {
        "n_figures": str(len(load_figures())),
        "n_claims": str(len(load_claims())),
        "n_commands": str(len(COMMANDS) + len(BENCHMARKS)),
        "trf_time_limit": f"{constant('theory/trf/analysis.py', 'DEFAULT_TIME_LIMIT'):g}",
        "trf_decision_share": f"{constant('theory/trf/analysis.py', 'DECISION_SHARE'):.0%}",
        "trf_free_decision_share": (
            f"{constant('theory/trf/analysis.py', 'FREE_PARAMS_DECISION_SHARE'):.0%}"
        ),
        "sweep_cpu_budget": f"{constant('empirical/capture/sweep/architectures.py', 'CPU_BUDGET'):g}",
        **capture_ratios(),
    }


def capture_ratios() -> dict:
    """The capture/sdpa ratios of each machine's recorded run ``capture-TAG.json``, as
    ``capture_TAG_VARIANT_L`` (``layer``, ``attn``, ``ops`` for ``attn capture-ops``):
    "1.15x (CPU time 1.13x)"."""
    out = {}
    for path in sorted((ROOT / "benchmarks" / "results").glob("capture-*.json")):
        tag = path.stem.removeprefix("capture-")
        for r in json.loads(path.read_text()).get("rows", []):
            slug = {"layer capture": "layer", "attn capture": "attn", "attn capture-ops": "ops"}
            name = slug.get(r.get("variant"))
            if name and r.get("wall_ratio") and r.get("cpu_ratio"):
                key = f"capture_{tag}_{name}_{r['L']}"
                out[key] = f"{r['wall_ratio']:.2f}x (CPU time {r['cpu_ratio']:.2f}x)"
    return out


def add_counts(app, config) -> None:
    config.myst_substitutions = {**getattr(config, "myst_substitutions", {}), **counts()}


#: ``|x|`` in a docstring is an absolute value, never a reStructuredText substitution
ABS_BARS = re.compile(r"(?<![\\\w|])\|(?=[^\s|])([^|\n]*?[^\s|\\])\|(?![\w|])")
LITERAL = re.compile(r"(``.*?``|`[^`]*`)")


def absolute_values(app, what, name, obj, options, lines: list) -> None:
    """Escape ``|x|`` (an absolute value, as the docstrings write it) outside literals and
    roles, so that reStructuredText does not read it as a substitution."""
    for i, line in enumerate(lines):
        if "|" in line and not line.lstrip().startswith(("|", "+")):
            parts = LITERAL.split(line)
            lines[i] = "".join(
                part if k % 2 else ABS_BARS.sub(r"\\|\1\\|", part) for k, part in enumerate(parts)
            )


def not_ours(app, what, name, obj, skip, options):
    """Skip an attribute whose value is a function of another package (a dataclass field
    holding ``torch.softmax``, say): its docstring is that package's, not ours."""
    module = getattr(obj, "__module__", None) or ""
    if callable(obj) and what in ("class", "module") and module.split(".")[0] not in PACKAGES:
        return True
    return skip


def setup(app) -> dict:
    command_pages()
    figures_table()
    registry_tables()
    api_pages()
    rep = report()
    findings_page(rep)
    claim_tables(rep)
    claims_page()
    benchmark_fragments()
    agreement_table()
    bundle_measurements()
    scales_table()
    app.add_directive("command-output", CommandOutput)
    app.connect("env-before-read-docs", prerun_outputs)
    app.connect("config-inited", add_counts)
    app.connect("autodoc-process-docstring", absolute_values)
    app.connect("autodoc-skip-member", not_ours)
    return {"parallel_read_safe": True}
