"""Mutation benchmark: do the agreement tests notice a wrong theory?

Each theory function the agreement tests (``tests/agreement``) use is mutated one site at a
time -- an arithmetic operator swapped (+ -, * /, ** *), a comparison loosened or
flipped, a numeric constant changed (c+1, c-1, 2c, c/2: off-by-one and factor bugs),
the first two arguments of a call swapped, a unary minus dropped -- and the agreement
tests that read that function are run against the existing seeded bundle with the
mutated source first on ``PYTHONPATH`` (a copy of the mutated file's package, ``theory/``
or ``empirical/``; the working tree is never changed).  A mutant is *killed* when a test fails (an unexpected pass of a strict xfail
counts).  A surviving mutant is checked for equivalence on the function's probe inputs:
the same outputs there (to a relative 1e-9: rounding) means *equivalent on the tested
domain* (reported as such); outputs within a relative RESOLUTION (1e-4) of the original's
mean *below the measurements' resolution* (a quadrature step or node range: a hundred
times below the smallest declared tolerance of the agreement tests, so no measurement can
see it; the unit tests against mpmath are the tests for those); otherwise it is a
*survivor*, listed for a better test.

The score is killed / (mutants - equivalent) per function and overall, and beside it the
same without the mutants below resolution; the target is 0.9 or more.  The bundle is reused (``$LENGTHX_AGREEMENT`` or runs/ci; built by
``python -m empirical.bundle --profile ci --out runs/ci`` or by one ``python -m pytest``).
"""

from __future__ import annotations

import ast
import copy
import json
import math
import os
import shutil
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from dataclasses import dataclass
from pathlib import Path

from benchmarks.planted_bugs import ALIGN, INFO, PLANTED, RPE, T
from theory.core.arguments import output_file, positive_float, positive_int
from theory.core.cli import CommandParser, UsageError, command, write_text

ROOT = Path(__file__).resolve().parent.parent


@dataclass(frozen=True)
class Target:
    """A theory function, the agreement tests that use it (a test file and a ``-k``
    expression), and probe inputs (args tuples) on which an equivalent mutant must give
    the original's outputs: those of the function itself, or of ``entry``, a public
    function of the same module that calls it (for a helper with internal arguments)."""

    path: str
    function: str
    tests: tuple
    probes: tuple
    entry: str = ""


TARGETS = (
    Target(
        "theory/temperature/rules.py",
        "prop1_coefficients",
        (ALIGN, "prop1"),
        ((28.5, 112.5, 0.7, 0.9, 0.2), (28.5, 228.0, 1.2, 1.5, 0.4)),
    ),
    Target(
        "theory/temperature/rules.py",
        "quadratic_roots",
        (ALIGN, "prop1"),
        ((2.0, 3.0, 0.5), (1.5, 2.0, 0.2), (1.0, -3.0, 2.0)),
    ),
    Target(
        "theory/temperature/rules.py",
        "prop1_temperature",
        (ALIGN, "prop1"),
        ((28.5, 112.5, 0.7, 0.9, 0.2), (28.5, 228.0, 0.5, 0.6, 0.3)),
    ),
    Target(
        "theory/temperature/rules.py",
        "prop2_temperature",
        (ALIGN, "prop2"),
        ((28.5, 112.5, 0.7, 0.9), (28.5, 228.0, 1.2, 1.5)),
    ),
    Target(
        "theory/temperature/rules.py",
        "log_rule_temperature",
        (ALIGN, "algorithm1 or prop"),
        ((28.5, 112.5), (28.5, 228.0)),
    ),
    Target(
        "theory/temperature/rules.py",
        "algorithm1_grid",
        (ALIGN, "algorithm1"),
        ((lambda t: 1 / t, 1 / 0.72, (1.0, 0.9, 0.8, 0.7, 0.6)),),
    ),
    Target(
        "theory/temperature/rules.py",
        "algorithm1_continuous",
        (ALIGN, "prop"),
        ((lambda t: 1 / t, 1 / 0.72, 0.3, 1.2, None),),
    ),
    Target(
        "theory/temperature/gaussian_softmax.py",
        "laplace_integrals",
        (ALIGN, "gaussian or dispersion"),
        ((112.5, 0.8), (28.5, 1.3)),
    ),
    Target(
        "theory/temperature/gaussian_softmax.py",
        "expected_entropy",
        (ALIGN, "gaussian or dispersion"),
        ((112.5, 0.8), (28.5, 1.3)),
    ),
    Target(
        "theory/temperature/gaussian_softmax.py",
        "expected_pmax",
        (ALIGN, "gaussian"),
        ((112.5, 0.8), (28.5, 1.3)),
    ),
    Target(
        "theory/temperature/gaussian_softmax.py",
        "_pmax_integral",
        (ALIGN, "gaussian"),
        ((112.5, 0.8), (28.5, 1.3), (8, 3.0)),
    ),
    Target(
        "theory/temperature/gaussian_softmax.py",
        "_x_nodes",
        (ALIGN, "gaussian or dispersion"),
        ((0.8,), (1.3, 2)),
    ),
    Target(
        "theory/infoscale/infoscale.py",
        "_calib",
        (INFO, "drift or keeps or infoscale_beats or factor"),
        ((448.0, 16, 0.0), (28.5, 16, 0.0)),
    ),
    Target(
        "theory/infoscale/infoscale.py",
        "infoscale",
        (INFO, "drift or keeps or infoscale_beats or factor"),
        ((448.0, 32, 16), (112.0, 32, 16)),
    ),
    Target(
        "theory/infoscale/infoscale.py",
        "consistent_eps",
        (INFO, "factor"),
        ((28.5, 16, 2.0), (112.5, 16, 4.0), (112.5, 64, 1.0)),
    ),
    Target(
        "theory/infoscale/cosscale.py",
        "eta_star",
        (INFO, "eta_star"),
        ((4.0, 16), (16.0, 16), (40.0, 16), (8.0, 64)),
    ),
    Target(
        "theory/series/trf_search.py",
        "_trf_search",
        (RPE, "erf"),
        (
            ("1/n**2", (0.5, 0.1, 1e-6)),
            ("exp(-n/3)", (0.5, 0.01, 1e-12)),
            ("(1 + n)**(-3/2)", (0.5, 0.1, 1e-4)),
            ("exp(-n/5)*n**(-6/5)", (0.3, 1e-3)),
            ("n**(-2)*(2 + cos(n))", (0.5, 1e-3)),
        ),
        entry="trf_table",
    ),
)

SWAP_BIN = {
    ast.Add: ast.Sub,
    ast.Sub: ast.Add,
    ast.Mult: ast.Div,
    ast.Div: ast.Mult,
    ast.Pow: ast.Mult,
    ast.FloorDiv: ast.Div,
}
SWAP_CMP = {
    ast.Lt: ast.LtE,
    ast.LtE: ast.Lt,
    ast.Gt: ast.GtE,
    ast.GtE: ast.Gt,
    ast.Eq: ast.NotEq,
    ast.NotEq: ast.Eq,
}


def _sites(fn: ast.FunctionDef) -> list[tuple]:
    """(kind, node index in ast.walk order, variant, description) for each mutation."""
    out = []
    for i, node in enumerate(ast.walk(fn)):
        line = getattr(node, "lineno", 0)
        if isinstance(node, ast.BinOp) and type(node.op) in SWAP_BIN:
            new = SWAP_BIN[type(node.op)].__name__
            out.append(("binop", i, new, f"line {line}: {type(node.op).__name__} -> {new}"))
        elif isinstance(node, ast.Compare) and type(node.ops[0]) in SWAP_CMP:
            new = SWAP_CMP[type(node.ops[0])].__name__
            out.append(("cmp", i, new, f"line {line}: {type(node.ops[0]).__name__} -> {new}"))
        elif (
            isinstance(node, ast.Constant)
            and isinstance(node.value, (int, float))
            and not isinstance(node.value, bool)
        ):
            v = node.value
            for new in sorted({v + 1, v - 1, v * 2, v / 2} - {v}, key=str):
                if isinstance(v, int) and new != int(new):
                    continue
                new = type(v)(new)
                out.append(("const", i, new, f"line {line}: constant {v!r} -> {new!r}"))
        elif (
            isinstance(node, ast.Call)
            and len(node.args) >= 2
            and not any(isinstance(a, ast.Starred) for a in node.args[:2])
        ):
            name = ast.unparse(node.func)
            out.append(("swap", i, None, f"line {line}: {name}(a, b, ...) -> {name}(b, a, ...)"))
        elif isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
            out.append(("neg", i, None, f"line {line}: unary minus dropped"))
    return out


def _apply(fn: ast.FunctionDef, site: tuple) -> ast.FunctionDef:
    kind, idx, new, _ = site
    fn = copy.deepcopy(fn)
    node = list(ast.walk(fn))[idx]
    if kind == "binop":
        node.op = getattr(ast, new)()
    elif kind == "cmp":
        node.ops[0] = getattr(ast, new)()
    elif kind == "const":
        node.value = new
    elif kind == "swap":
        node.args[0], node.args[1] = node.args[1], node.args[0]
    elif kind == "neg":
        node.op = ast.UAdd()
    return fn


def mutants(target: Target) -> list[tuple[str, str]]:
    """(description, mutated module source) for each mutation site of the function."""
    src = (ROOT / target.path).read_text()
    tree = ast.parse(src)
    fns = [n for n in tree.body if isinstance(n, ast.FunctionDef) and n.name == target.function]
    if len(fns) != 1:
        raise ValueError(f"{target.path}: no single top-level function {target.function!r}")
    k = tree.body.index(fns[0])
    out = []
    for site in _sites(fns[0]):
        mod = copy.deepcopy(tree)
        mod.body[k] = _apply(fns[0], site)
        if ast.unparse(mod.body[k]) == ast.unparse(fns[0]):
            continue
        out.append((site[3], ast.unparse(ast.fix_missing_locations(mod))))
    return out


#: relative change of a theory number below which no agreement test can see it (their
#: smallest declared tolerance or margin is 0.02, in ln P_max)
RESOLUTION = 1e-4


def _same(a, b, rtol: float = 1e-9) -> bool:
    if isinstance(a, (tuple, list)) and isinstance(b, (tuple, list)):
        return len(a) == len(b) and all(_same(x, y, rtol) for x, y in zip(a, b))
    if hasattr(a, "tau") and hasattr(b, "tau"):
        return _same(a.tau, b.tau, rtol)
    if isinstance(a, float) and isinstance(b, float):
        return math.isclose(a, b, rel_tol=rtol, abs_tol=1e-12) or (math.isnan(a) and math.isnan(b))
    try:
        import numpy as np

        if np.shape(a) != np.shape(b):
            return False
        return bool(
            np.allclose(np.asarray(a), np.asarray(b), rtol=rtol, atol=1e-12, equal_nan=True)
        )
    except (TypeError, ValueError):
        return a == b


def equivalent_on_probes(target: Target, source: str, rtol: float = 1e-9) -> bool:
    """The mutant gives the original's outputs (to ``rtol``, or the same exception type)
    on every probe input; False when there are no probes."""
    if not target.probes:
        return False
    import importlib

    modname = target.path[:-3].replace("/", ".")
    name = target.entry or target.function
    orig = getattr(importlib.import_module(modname), name)
    ns = dict(vars(importlib.import_module(modname)))
    try:
        exec(compile(source, f"<mutant of {target.path}>", "exec"), ns)  # noqa: S102
    except Exception:  # noqa: BLE001 - a mutant that does not even load is not equivalent
        return False
    mut = ns[name]  # its globals are ns: an entry calls the mutated function
    for args in target.probes:
        res = []
        for f in (orig, mut):
            try:
                res.append(("ok", f(*args)))
            except Exception as exc:  # noqa: BLE001
                res.append(("raise", type(exc).__name__))
        if res[0][0] != res[1][0] or not _same(res[0][1], res[1][1], rtol):
            return False
    return True


def run_tests(target: Target, source: str, bundle: str, timeout: float, rung: str = "ci") -> str:
    """'killed' / 'survived' / 'timeout' for the agreement tests against one mutant (in a
    folder of its own, so that several mutants may run at once)."""
    with tempfile.TemporaryDirectory(prefix="lengthx-mutant-") as tmp:
        workdir = Path(tmp)
        pkg = target.path.split("/")[0]  # theory/, or empirical/ for a bug at a call site
        shutil.copytree(ROOT / pkg, workdir / pkg, ignore=shutil.ignore_patterns("__pycache__"))
        (workdir / target.path).write_text(source)
        return _pytest_verdict(target, workdir, bundle, timeout, rung)


def _pytest_verdict(
    target: Target, workdir: Path, bundle: str, timeout: float, rung: str = "ci"
) -> str:
    # PYTHONSAFEPATH: the working directory is not put first on sys.path, so the mutated
    # copy of the package shadows the original
    env = dict(
        os.environ,
        PYTHONPATH=f"{workdir}{os.pathsep}{ROOT}",
        PYTHONSAFEPATH="1",
        LENGTHX_AGREEMENT=bundle,
    )
    # the agreement tests on one rung; a planted bug in a series engine is judged by its
    # unit tests (against mpmath and closed forms), the fast ones
    unit = not target.tests[0].startswith(T)
    cmd = [sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider"]
    cmd += ["-m", "not slow"] if unit else ["-m", "agreement", "--rung", rung]
    cmd += ["--no-header", "-o", "addopts=", target.tests[0]]
    if len(target.tests) > 1:
        cmd += ["-k", target.tests[1]]
    try:
        r = subprocess.run(cmd, cwd=ROOT, env=env, capture_output=True, timeout=timeout)
    except subprocess.TimeoutExpired:
        return "timeout"
    # pytest: 0 all passed (or xfailed), 1 a test failed; anything else (no test
    # collected, usage error, internal error) says nothing about the mutant
    if r.returncode not in (0, 1):
        raise RuntimeError(f"pytest exited {r.returncode}: {r.stdout.decode()[-400:]}")
    return "survived" if r.returncode == 0 else "killed"


def planted(bundle: str, timeout: float, names=None, jobs: int = 1, rung: str = "ci") -> list[dict]:
    """Run the agreement tests against each hand-planted bug of :data:`PLANTED`."""
    work = []
    for name, path, old, new, tests in PLANTED:
        if names and not any(x in name for x in names):
            continue
        src = (ROOT / path).read_text()
        if src.count(old) != 1:
            raise ValueError(f"planted bug {name!r}: text not found once in {path}")
        work.append((name, Target(path, "", tests, ()), src.replace(old, new)))

    def one(item) -> dict:
        name, t, src = item
        t0 = time.perf_counter()
        status = run_tests(t, src, bundle, timeout, rung)
        print(f"  planted: {name}: {status} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
        return {"bug": name, "status": status}

    with ThreadPoolExecutor(jobs) as pool:
        return list(pool.map(one, work))


def _spread(ms: list, max_per: int | None) -> list:
    """At most ``max_per`` mutants, evenly spread over the function."""
    if max_per is None or len(ms) <= max_per:
        return ms
    step = len(ms) / max_per
    return [ms[int(k * step)] for k in range(max_per)]


def _judge(t: Target, desc: str, src: str, bundle: str, timeout: float) -> dict:
    t0 = time.perf_counter()
    status = run_tests(t, src, bundle, timeout)
    if status == "survived" and equivalent_on_probes(t, src):
        status = "equivalent"
    elif status == "survived" and equivalent_on_probes(t, src, RESOLUTION):
        status = "below resolution"
    print(f"  {t.function}: {desc}: {status} ({time.perf_counter() - t0:.0f} s)", file=sys.stderr)
    return {"mutant": desc, "status": status}


def benchmark(targets, bundle: str, max_per: int | None, timeout: float, jobs: int = 1) -> dict:
    """Per target, the status of each of its mutants (``jobs`` pytest runs at once)."""
    rows = {}
    with ThreadPoolExecutor(jobs) as pool:
        for t in targets:
            if run_tests(t, (ROOT / t.path).read_text(), bundle, timeout) != "survived":
                raise RuntimeError(f"{t.function}: the agreement tests fail without a mutation")
            ms = _spread(mutants(t), max_per)
            futs = [pool.submit(_judge, t, desc, src, bundle, timeout) for desc, src in ms]
            rows[f"{t.path}:{t.function}"] = [f.result() for f in futs]
    return rows


def score(res: list[dict]) -> tuple[int, int, int, int, int]:
    """(killed, survived, equivalent, below resolution, all) of one function's mutants."""
    killed = sum(r["status"] in ("killed", "timeout") for r in res)
    equiv = sum(r["status"] == "equivalent" for r in res)
    below = sum(r["status"] == "below resolution" for r in res)
    return killed, len(res) - killed - equiv - below, equiv, below, len(res)


def _pct(k: int, n: int) -> str:
    return f"{k / n:.0%}" if n else "-"


def report(rows: dict) -> str:
    """The per-function table (score: killed / non-equivalent; 'at res.': the same without
    the mutants below resolution), then every mutant that was not killed."""
    head = f"{'function':<58} {'mutants':>7} {'killed':>6} {'equiv':>5} {'below':>5} {'surv':>4}"
    lines = [head + f" {'score':>6} {'at res.':>7}"]
    tot = [0, 0, 0, 0, 0]
    for name, res in rows.items():
        k, s, e, lo, n = sc = score(res)
        tot = [x + y for x, y in zip(tot, sc)]
        lines.append(
            f"{name:<58} {n:>7} {k:>6} {e:>5} {lo:>5} {s:>4} {_pct(k, n - e):>6} "
            f"{_pct(k, n - e - lo):>7}"
        )
    k, s, e, lo, n = tot
    lines.append(
        f"{'all':<58} {n:>7} {k:>6} {e:>5} {lo:>5} {s:>4} {_pct(k, n - e):>6} "
        f"{_pct(k, n - e - lo):>7}"
    )
    for name, res in rows.items():
        for r in res:
            if r["status"] in ("survived", "equivalent", "below resolution"):
                lines.append(f"  {r['status']:<16} {name}: {r['mutant']}")
    return "\n".join(lines)


EXAMPLES = """examples:
  python -m benchmarks.mutation --functions eta_star
  python -m benchmarks.mutation --planted --bugs InfoScale eta*
  python -m benchmarks.mutation --planted --rung kjv192   # on a stored rung of the ladder
  python -m benchmarks.mutation --max-per-function 6 --json mutation.json
"""


def build_parser() -> CommandParser:
    p = CommandParser(prog="python -m benchmarks.mutation", description=__doc__, epilog=EXAMPLES)
    p.add_argument(
        "--functions",
        nargs="+",
        choices=[t.function for t in TARGETS],
        metavar="NAME",
        help="subset of targets (default all): " + ", ".join(t.function for t in TARGETS),
    )
    p.add_argument("--max-per-function", type=positive_int, help="mutants per function (all)")
    p.add_argument("--bundle", type=Path, help="bundle folder ($LENGTHX_AGREEMENT, runs/ci)")
    p.add_argument(
        "--rung",
        default="ci",
        help="the rung of the ladder the planted bugs are judged on (ci, the bundle above, "
        "or a stored one; default: ci)",
    )
    p.add_argument("--timeout", type=positive_float, default=900.0, help="seconds per mutant")
    p.add_argument("--jobs", type=positive_int, default=1, help="mutants tested at once")
    p.add_argument("--json", type=output_file, metavar="PATH", help="write the results here")
    p.add_argument("--list", action="store_true", help="list the mutants, run nothing")
    p.add_argument("--planted", action="store_true", help="run the hand-planted bugs instead")
    p.add_argument(
        "--bugs",
        nargs="+",
        metavar="WORD",
        help="with --planted: only the planted bugs whose name contains one of these (all)",
    )
    return p


def _bundle(arg: Path | None) -> str:
    """The seeded bundle's folder, checked before any run."""
    if arg is None:
        sys.path.insert(0, str(ROOT))
        from empirical.agreement.bundle_io import find_profile_bundle

        arg = find_profile_bundle()
    if arg is None or not (Path(arg) / "bundle.json").exists():
        raise UsageError(
            f"no seeded bundle{f' in {arg}' if arg else ''} "
            "(python -m empirical.bundle --profile ci --out runs/ci)"
        )
    sys.path.insert(0, str(ROOT))
    from empirical.agreement.bundle_io import load_profile_bundle

    load_profile_bundle(arg)  # a cut-off or foreign bundle is refused before any mutant runs
    return str(Path(arg).resolve())


def _run_planted(args, bundle: str) -> None:
    if args.bugs and not any(any(x in b[0] for x in args.bugs) for b in PLANTED):
        raise UsageError(f"no planted bug matches {' '.join(args.bugs)}")
    res = planted(bundle, args.timeout, args.bugs, args.jobs, args.rung)
    for r in res:
        print(f"{r['status']:<9} {r['bug']}")
    caught = sum(r["status"] != "survived" for r in res)
    print(f"caught {caught} of {len(res)} planted bugs (rung {args.rung})")
    if args.json:
        write_text(args.json, json.dumps(res, indent=1))


@command
def main(argv: list[str] | None = None) -> int:
    args = build_parser().parse_args(argv)
    targets = [t for t in TARGETS if args.functions is None or t.function in args.functions]
    if args.list:
        for t in targets:
            for desc, _ in mutants(t):
                print(f"{t.path}:{t.function}: {desc}")
        return 0
    bundle = _bundle(args.bundle)
    from empirical.agreement.bundle_io import rung_names

    if args.rung not in rung_names():
        raise UsageError(f"--rung {args.rung}: no such rung (known: {', '.join(rung_names())})")
    if args.planted:
        _run_planted(args, bundle)
        return 0
    rows = benchmark(targets, bundle, args.max_per_function, args.timeout, args.jobs)
    print(report(rows))
    if args.json:
        write_text(args.json, json.dumps(rows, indent=1))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
