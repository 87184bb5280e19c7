"""The free-parameter path of ``python -m theory.trf`` against families with known regions.

For each family of ``tests/theory/series/free_param_families.py``: the command with
``--free`` (its printed condition, read back as a sympy condition) and the command with
``--param`` at every grid value; both are compared with the family's truth.  A family is
*right* (every point decided, none wrong), *partial* (some points undecided, none wrong),
*WRONG*, *error* (exit status not 0, a traceback) or *time-out* (over 30 s); a named
refusal (one ``error:`` line, exit 2, e.g. every term 0) counts as undecided.

    nice -n 5 python -m benchmarks.free_params [--only NAME ...] [--no-param] [--jobs 2]
"""

from __future__ import annotations

import argparse
import json
import re
import subprocess
import sys
import time
from concurrent.futures import ThreadPoolExecutor

import sympy as sp

from tests.theory.series.free_param_families import FAMILIES, Family, truth
from theory.series.expressions import ExpressionError, parse_expression

TIMEOUT_S = 30.0
EXTRA: list[str] = []  # options added to every command (--time-limit)
_REL = re.compile(r"^(.*?)\s(<=|>=|!=|<|>|=)\s(.*)$")
_OPS = {"<": sp.Lt, ">": sp.Gt, "<=": sp.Le, ">=": sp.Ge, "=": sp.Eq, "!=": sp.Ne}


def _split_top(text: str, word: str) -> list[str]:
    """``text`` split at ``word`` (" or ", " and ") outside parentheses."""
    parts, depth, last, i = [], 0, 0, 0
    while i < len(text):
        c = text[i]
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and text.startswith(word, i):
            parts.append(text[last:i])
            i += len(word)
            last = i
            continue
        i += 1
    parts.append(text[last:])
    return parts


def _wrapped(text: str) -> bool:
    if not (text.startswith("(") and text.endswith(")")):
        return False
    depth = 0
    for i, c in enumerate(text):
        depth += c == "("
        depth -= c == ")"
        if depth == 0 and i < len(text) - 1:
            return False
    return True


def parse_bool(text: str, symbols: dict) -> sp.Basic:
    """A condition as ``bool_text`` / ``set_text`` write it, as a sympy condition."""
    text = text.strip()
    if text in ("always",) or text.endswith(" real"):
        return sp.true
    if text == "never":
        return sp.false
    ors = _split_top(text, " or ")
    if len(ors) > 1:
        return sp.Or(*(parse_bool(t, symbols) for t in ors))
    ands = _split_top(text, " and ")
    if len(ands) > 1:
        return sp.And(*(parse_bool(t, symbols) for t in ands))
    if _wrapped(text):
        return parse_bool(text[1:-1], symbols)
    m = _REL.match(text)
    if not m:
        raise ValueError(f"cannot read the condition {text!r}")
    lhs, op, rhs = m.groups()
    names = tuple(symbols)  # the whitelist parser: parameters are real symbols, as here
    return _OPS[op](parse_expression(lhs, params=names), parse_expression(rhs, params=names))


def holds_at(out: dict, point: dict) -> bool | None:
    """Whether the command's --json says the series converges at ``point`` (parameter name ->
    number); None where it leaves that point undecided or its condition cannot be read."""
    try:
        domain, cond = read_condition(out, tuple(point))
    except (ValueError, ExpressionError):
        return None
    values = {sp.Symbol(k, real=True): sp.nsimplify(v) for k, v in point.items()}
    if domain.subs(values) is not sp.true:
        return None
    got = cond.subs(values)
    return None if got not in (sp.true, sp.false) else bool(got)


def read_condition(out: dict, params: tuple) -> tuple[sp.Basic, sp.Basic]:
    """(domain where the command decides, condition for convergence) from --json."""
    symbols = {p: sp.Symbol(p, real=True) for p in params}
    text = out.get("condition")
    if text is None:
        if out.get("converges") is None:
            return sp.false, sp.false
        return sp.true, sp.true if out["converges"] else sp.false
    text = re.sub(r" \(among the values of .* is defined\)$", "", text)
    domain = sp.true
    m = re.match(r"^where (.*) \(other values undecided\): (.*)$", text)
    if m:
        domain, text = parse_bool(m.group(1), symbols), m.group(2)
    if text.startswith("converges iff "):
        return domain, parse_bool(text[len("converges iff ") :], symbols)
    if text.startswith("converges"):
        return domain, sp.true
    if text.startswith("diverges"):
        return domain, sp.false
    raise ValueError(f"cannot read the condition {text!r}")


def run_command(args: list[str]) -> tuple[str, dict | None, float]:
    """('ok' | 'error' | 'time-out', the --json object, seconds)."""
    cmd = ["nice", "-n", "5", sys.executable, "-m", "theory.trf", *args, *EXTRA, "--json"]
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, capture_output=True, text=True, timeout=TIMEOUT_S + 5)
    except subprocess.TimeoutExpired:
        return "time-out", None, time.monotonic() - t0
    dt = time.monotonic() - t0
    if dt > TIMEOUT_S:
        return "time-out", None, dt
    err = p.stderr.strip()
    if p.returncode == 2 and err.startswith("error:") and "\n" not in err:
        return "refused", {"stderr": err[-400:]}, dt  # a named refusal, exit 2
    if p.returncode != 0 or "Traceback" in p.stderr:
        return "error", {"stderr": err[-400:]}, dt
    return "ok", json.loads(p.stdout), dt


def _base_args(f: Family) -> list[str]:
    args = ["--rpe", f.formula, "--start", str(f.start)]
    for a in f.assume:
        args += ["--assume", a]
    return args


def check_free(f: Family) -> dict:
    """The --free run: its condition at every grid point against the truth."""
    args = _base_args(f) + [x for p in f.params for x in ("--free", p)]
    status, out, dt = run_command(args)
    res = {"status": status, "seconds": round(dt, 1), "wrong": [], "undecided": [], "right": 0}
    if status != "ok":
        res["detail"] = out
        return res
    res["condition"] = out.get("condition")
    try:
        domain, cond = read_condition(out, f.params)
    except (ValueError, sp.SympifyError) as exc:
        res["status"], res["detail"] = "error", f"unreadable condition: {exc}"
        return res
    symbols = {p: sp.Symbol(p, real=True) for p in f.params}
    for pt in f.grid_points():
        sub = {symbols[k]: sp.Rational(v) for k, v in pt.items()}
        inside = domain.xreplace(sub)
        if inside is not sp.true:
            res["undecided"].append(pt)
            continue
        got = cond.xreplace(sub)
        if got not in (sp.true, sp.false):
            res["undecided"].append(pt)
        elif (got is sp.true) != truth(f, pt):
            res["wrong"].append(pt)
        else:
            res["right"] += 1
    return res


def check_point(f: Family, pt: dict) -> dict:
    """The --param run at one point."""
    args = ["--rpe", f.formula, "--start", str(f.start)]
    for k, v in pt.items():
        args += ["--param", f"{k}={v}"]
    status, out, dt = run_command(args)
    res = {"point": pt, "status": status, "seconds": round(dt, 1)}
    if status != "ok":
        res["detail"] = out
        return res
    conv = out.get("converges")
    res["verdict"] = None if conv is None else bool(conv)
    if conv is None:
        res["status"] = "undecided"
    elif conv != truth(f, pt):
        res["status"] = "WRONG"
    return res


def classify(free: dict, points: list[dict]) -> str:
    statuses = [free["status"]] + [p["status"] for p in points]
    if free["wrong"] or "WRONG" in statuses:
        return "WRONG"
    if "error" in statuses:
        return "error"
    if "time-out" in statuses:
        return "time-out"
    if free["undecided"] or "undecided" in statuses or "refused" in statuses:
        return "partial"
    return "right"


def main(argv=None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("--only", nargs="*", default=None)
    ap.add_argument("--no-param", action="store_true", help="only the --free runs")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--json", default=None, help="write the results here")
    ap.add_argument("--time-limit", default=None, help="passed to every command")
    a = ap.parse_args(argv)
    if a.time_limit:
        EXTRA[:] = ["--time-limit", a.time_limit]
    fams = [f for f in FAMILIES if a.only is None or f.name in a.only]
    results = []
    with ThreadPoolExecutor(a.jobs) as pool:
        frees = pool.map(check_free, fams)
        pts = [
            []
            if a.no_param
            else list(pool.map(lambda pt, f=f: check_point(f, pt), f.grid_points()))
            for f in fams
        ]
        for f, free, ps in zip(fams, frees, pts):
            cls = classify(free, ps)
            results.append({"family": f.name, "class": cls, "free": free, "points": ps})
            bad = [p for p in ps if p["status"] != "ok"]
            print(
                f"{f.name:28s} {cls:8s} free: {free['status']} {free['seconds']:5.1f}s "
                f"right {free['right']} undecided {len(free['undecided'])} "
                f"wrong {free['wrong']} | param: {len(ps) - len(bad)}/{len(ps)} ok "
                f"{[(p['point'], p['status']) for p in bad]}",
                flush=True,
            )
            print(f"    condition: {free.get('condition')!s}  {free.get('detail', '') or ''}")
    if a.json:
        with open(a.json, "w") as fh:
            json.dump(results, fh, indent=1, default=str)
    counts = {}
    for r in results:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
    print("summary:", counts)
    return 0


if __name__ == "__main__":
    sys.exit(main())
