"""Run a held-out set through ``python -m theory.trf --json`` and classify every answer
(the sets' own modules, ``heldout6_run``, ``heldout7_run`` and ``heldout8_run``, name
their cases; the references are computed before the runs, so that they take no CPU time
from a run's budget):

    python -m tests.theory.series.heldout7_run [--only ID ...] [--jobs 1] [--sigint 4] [--extra]

Classes: right, honest (undecided, lower bound, bracket, uncertified estimate, a named
refusal where ``error_ok``), WRONG (verdict, condition, false enclosure, wrong exact TRF /
bound, a verdict on an open problem), internal (traceback, bad JSON, a wrong exit code),
timeout (30 s).  Run niced from the repository root.
"""

from __future__ import annotations

import argparse
import json
import os
import random
import signal
import subprocess
import sys
import tempfile
import time
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import mpmath as mp

from benchmarks.free_params import holds_at

TIMEOUT = 30


def _strict(s: str):
    def bad(x):
        raise ValueError(f"non-strict JSON constant {x}")

    return json.loads(s, parse_constant=bad)


def run_cli(args: list, tmp: Path, timeout=TIMEOUT) -> tuple:
    """(exit code or None on a time-out, stdout, stderr, wall seconds) of the CLI, niced."""
    cmd = ["nice", "-n", "5", sys.executable, "-m", "theory.trf", *args]
    t0 = time.monotonic()
    try:
        p = subprocess.run(
            cmd,
            capture_output=True,
            text=True,
            timeout=timeout,
            cwd=os.getcwd(),
            env={**os.environ, "PYTHONPATH": os.getcwd()},
        )
    except subprocess.TimeoutExpired:
        return None, "", "", time.monotonic() - t0
    return p.returncode, p.stdout, p.stderr, time.monotonic() - t0


def _mpf(x):
    return None if x is None else mp.mpf(str(x))


def eval_condition(out: dict, point: dict):
    """The command's answer at a parameter point (None: undecided or unreadable there),
    through the project's whitelist parser (:func:`benchmarks.free_params.holds_at`); a
    verdict without a condition holds at every point."""
    return holds_at(out, point)


def classify(case, rc, out, err) -> tuple[str, list]:
    notes = []
    if rc is None:
        return "timeout", ["no answer in 30 s"]
    if "Traceback" in err or "Fatal" in err:
        return "internal", [err.strip().splitlines()[-1] if err.strip() else "traceback"]
    if getattr(case, "error_ok", False) and rc == 2:
        lines = [ln for ln in err.strip().splitlines() if ln]
        if len(lines) == 1 and lines[0].startswith("error:") and not out.strip():
            return "honest", ["refused: " + lines[0][:90]]
    if case.verdict is None and case.cond is None:  # an error is expected
        lines = [ln for ln in err.strip().splitlines() if ln]
        if rc == 2 and len(lines) == 1 and lines[0].startswith("error:") and not out.strip():
            return "right", [lines[0][:90]]
        return "WRONG", [f"expected exit 2 and one error line; rc={rc} err={err[-200:]!r}"]
    if rc != 0:
        return "internal", [f"rc={rc}: {err.strip()[-200:]}"]
    try:
        d = _strict(out)
    except ValueError as e:
        return "internal", [f"bad JSON: {e}"]
    if case.start is not None and d.get("start") != case.start:
        notes.append(f"start {d.get('start')} != {case.start}")
    wrong, honest = [], []
    if case.cond is not None:
        pred, grid = case.cond
        text = d.get("condition") or ""
        bad, unread = [], 0
        for pt in grid:
            got = eval_condition(d, pt)
            if got is None:
                unread += 1
            elif got != pred(pt):
                bad.append(pt)
        if not text and d.get("converges") is None:
            honest.append("no condition, undecided")
        elif unread == len(grid):
            honest.append(f"condition unreadable: {text[:80]}")
        if bad:
            wrong.append(f"condition {text!r} wrong at {bad[:3]}")
        notes.append(text[:100])
    else:
        v = d.get("converges")
        if case.verdict == "open":
            if v is not None:
                wrong.append(f"verdict {v} on an open problem")
        elif v is None:
            honest.append("undecided")
        elif v != case.verdict:
            wrong.append(f"verdict {v}, truth {case.verdict}")
    if case.B is not None and d.get("converges") is True:
        ref, rerr = case.B()
        key_lo, key_hi = ("sum_scaled_lo", "sum_scaled_hi") if case.scaled else ("sum_lo", "sum_hi")
        lo, hi = d.get(key_lo), d.get(key_hi)
        if d.get("certified") and lo is not None and hi is not None:
            with mp.workdps(60):
                lo, hi = _mpf(lo), _mpf(hi)
                if hi < ref - rerr or lo > ref + rerr:
                    wrong.append(f"false enclosure [{lo}, {hi}] vs {mp.nstr(ref, 25)}")
                else:
                    notes.append(f"B ok ({d.get('sum_digits')} digits)")
        else:
            honest.append(f"B not certified ({d.get('sum_status') or d.get('sum_method')})")
    if case.trf is not None and d.get("converges") is True and d.get("trf"):
        ref = case.trf()
        for item in d["trf"]:
            key = next((k for k in ref if float(k) == item["eps"]), None)
            if key is None:
                continue
            r = ref[key]
            w, h = _check_trf(item, r)
            wrong += [f"TRF({key}) {x}" for x in w]
            honest += [f"TRF({key}) {x}" for x in h]
    w, h, n = _truncated_and_compared(case, d)
    wrong, honest, notes = wrong + w, honest + h, notes + n
    if wrong:
        return "WRONG", wrong + honest + notes
    if honest:
        return "honest", honest + notes
    return "right", notes


def _find(items, eps):
    return next((it for it in items or [] if it.get("eps") == float(eps)), None)


def _truncated_and_compared(case, d: dict) -> tuple[list, list, list]:
    """(wrong, honest, notes) of the truncated TRF of ``--truncate M`` (a case's optional
    ``truncated`` -> {eps: reference}, each item judged as a TRF item) and of ``--compare``
    (``compare`` = (the series with the smaller TRF for small eps, {eps: TRF of the
    second series}): ``smaller`` must name it and the ``numeric`` values equal the
    references); nothing for a case without these fields."""
    wrong, honest, notes = [], [], []
    if getattr(case, "truncated", None) is not None:
        for e, r in case.truncated().items():
            item = _find(d.get("trf_truncated"), e)
            if item is None:
                honest.append(f"no truncated TRF({e})")
                continue
            w, h = _check_trf(item, r)
            wrong += [f"truncated TRF({e}) {x}" for x in w]
            honest += [f"truncated TRF({e}) {x}" for x in h]
        if not wrong and not honest:
            notes.append("truncated TRF ok")
    if getattr(case, "compare", None) is not None:
        smaller, trf2 = case.compare
        comp = d.get("comparison")
        if not comp:
            return wrong, honest + ["no comparison"], notes
        got = comp.get("smaller")
        if got is None:
            honest.append("comparison undecided")
        elif got != smaller:
            wrong.append(f"smaller = {got}, truth {smaller}")
        refs = {"trf1": case.trf() if case.trf else {}, "trf2": trf2()}
        for key, ref in refs.items():
            for e, r in ref.items():
                item = _find(comp.get("numeric"), e)
                if item is None or item.get(key) is None or not isinstance(r, int):
                    continue
                if mp.mpf(str(item[key])) != r:
                    wrong.append(f"numeric {key}({e}) = {item[key]} != {r}")
        notes.append(f"smaller {got}")
    return wrong, honest, notes


def _sides(br) -> tuple[float, float]:
    """A log10 bracket's sides; a side given as null (a one-sided bound, e.g. a certified
    upper bound only) is unbounded."""
    lo, hi = br
    return (-float("inf") if lo is None else lo), (float("inf") if hi is None else hi)


def _check_trf(item, r) -> tuple[list, list]:
    wrong, honest = [], []
    if isinstance(r, tuple):  # ("log10", value, tol)
        lg, tol = r[1], r[2]
        if lg == float("inf"):  # beyond float64: not compared
            return wrong, honest
        br = item.get("log10_bracket")
        if br is not None:
            lo, hi = _sides(br)
            if not (lo - 1e-9 * abs(lg) <= lg <= hi + 1e-9 * abs(lg)):
                wrong.append(f"log10 bracket {br} misses {lg}")
        elif item.get("exact") and item.get("value") is not None:
            v = mp.log10(_mpf(item["value"]))
            if abs(v - lg) > tol:
                wrong.append(f"exact {item['value']} vs log10 {lg}")
        elif item.get("lower_bound") is not None:
            if mp.log10(_mpf(item["lower_bound"])) > lg + tol:
                wrong.append(f"lower bound {item['lower_bound']} > 10^{lg}")
            honest.append("lower bound")
        elif item.get("log10") is not None:
            if abs(item["log10"] - lg) > max(tol, 1e-6 * abs(lg)):
                honest.append(f"estimate log10 {item['log10']} vs {lg}")
        else:
            honest.append("no TRF")
        return wrong, honest
    ref = int(r)
    if item.get("exact"):
        if int(item["value"]) != ref:
            wrong.append(f"exact {item['value']} != {ref}")
        return wrong, honest
    lb, ub = item.get("lower_bound"), item.get("upper_bound")
    if lb is not None and int(mp.mpf(str(lb))) > ref:
        wrong.append(f"lower bound {lb} > {ref}")
    if ub is not None and mp.mpf(str(ub)) < ref:
        wrong.append(f"upper bound {ub} < {ref}")
    br = item.get("log10_bracket")
    if br is not None:
        lo, hi = _sides(br)
        if not (lo - 1e-12 <= float(mp.log10(ref)) <= hi + 1e-12):
            wrong.append(f"log10 bracket {br} misses {ref}")
    honest.append(f"not exact (lb={lb}, ub={ub}, value={item.get('value')}, ref={ref})")
    return wrong, honest


def run_raw(case, tmp: Path, extra=(), timeout=TIMEOUT):
    """The CLI's answer to a case (files written beside it): (rc, stdout, stderr, wall)."""
    args = list(case.args) + list(extra)
    for name, data in case.files.items():
        p = tmp / f"{case.id.replace('/', '_')}_{name}"
        p.write_bytes(data)
        args = [str(p) if a == name else a for a in args]
    return run_cli([*args, "--json"], tmp, timeout)


def judge(case, rc, out, err) -> tuple[str, list]:
    """classify() at the references' precision; a failing reference is REFERR."""
    try:
        with mp.workdps(50):  # the references' precision, whatever the caller set
            return classify(case, rc, out, err)
    except Exception as e:  # a reference problem, not the tool's
        return "REFERR", [repr(e)]


def run_case(case, tmp: Path, extra=(), timeout=TIMEOUT):
    rc, out, err, wall = run_raw(case, tmp, extra, timeout)
    cls, notes = judge(case, rc, out, err)
    return case, cls, notes, wall


def check_case(case, tmp: Path, honest: set, time_limit: str = "120") -> None:
    """The pytest check of one held-out case: right, or honest where ``honest`` names it
    (a refusal runs with its own options; every other case under ``--time-limit``)."""
    refused = case.verdict is None and case.cond is None  # its own options, a bad limit too
    extra = () if refused else ("--time-limit", time_limit)
    case, cls, notes, _ = run_case(case, tmp, extra, timeout=400)
    assert cls in ("right", "honest"), (case.id, cls, notes)
    if case.id not in honest:
        assert cls == "right", (case.id, notes)


def _exiting(pid: int) -> bool:
    """Whether the process has begun to exit (PF_EXITING in the flags of /proc/PID/stat, or
    a zombie): the kernel drops a signal sent then, which is no Ctrl-C the command missed
    (freeing a large address space takes milliseconds after the last instruction)."""
    try:
        with open(f"/proc/{pid}/stat") as fh:
            fields = fh.read().rsplit(")", 1)[1].split()
    except OSError:
        return True
    return fields[0] in ("Z", "X") or bool(int(fields[6]) & 0x4)


def sigint_trial(args, tmp: Path, rng) -> tuple:
    delay = rng.uniform(0.3, 3.0)
    cmd = [sys.executable, "-m", "theory.trf", *args, "--time-limit", "60"]
    p = subprocess.Popen(
        cmd,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        env={**os.environ, "PYTHONPATH": os.getcwd()},
    )
    time.sleep(delay)
    finished_early = p.poll() is not None or _exiting(p.pid)
    if not finished_early:
        p.send_signal(signal.SIGINT)
    try:
        out, err = p.communicate(timeout=20)
    except subprocess.TimeoutExpired:
        p.kill()
        out, err = p.communicate()
        return delay, "ignored (still running 20 s after SIGINT)", err
    if finished_early:
        return delay, "finished before the signal", err
    ok = p.returncode == 130 and err.strip().splitlines()[-1:] == ["error: interrupted"]
    ok = ok and "Traceback" not in err and "Fatal" not in err
    return delay, "right" if ok else f"WRONG rc={p.returncode}", err.strip()[-200:]


def main(cases: list, extra: list, sigint_series: list, seed: int, argv=None) -> int:
    """The command line of a set's runner: ``cases`` (and ``extra`` with ``--extra``), the
    series of the Ctrl-C trials and the seed of their delays."""
    ap = argparse.ArgumentParser()
    ap.add_argument("--only", nargs="*")
    ap.add_argument("--jobs", type=int, default=2)
    ap.add_argument("--sigint", type=int, default=0, help="SIGINT trials per series")
    ap.add_argument("--json-out")
    if extra:
        ap.add_argument("--extra", action="store_true", help="also the cases kept out of the set")
    a = ap.parse_args(argv)
    pool = cases + (extra if getattr(a, "extra", False) or a.only else [])
    cases = [c for c in pool if not a.only or c.id in a.only]
    print("load average at start: %.2f %.2f %.2f" % os.getloadavg(), flush=True)
    for case in cases:  # the references first, so that their CPU time competes with no run
        try:
            with mp.workdps(50):
                compare = getattr(case, "compare", None)
                for ref in (
                    getattr(case, "B", None),
                    getattr(case, "trf", None),
                    getattr(case, "truncated", None),
                    compare[1] if compare is not None else None,
                ):
                    if ref is not None:
                        ref()
        except Exception:  # noqa: BLE001 - judged (REFERR) with the case
            pass
    rows = []
    with tempfile.TemporaryDirectory() as td, ThreadPoolExecutor(a.jobs) as ex:
        # subprocesses in threads; the references (mpmath's global precision) in this one
        for case, (rc, out, err, wall) in zip(cases, ex.map(lambda c: run_raw(c, Path(td)), cases)):
            cls, notes = judge(case, rc, out, err)
            tag = " (others)" if case.others else ""
            print(f"{cls:9s} {wall:5.1f}s  {case.id}{tag}: {'; '.join(notes)[:300]}", flush=True)
            rows.append(
                {
                    "id": case.id,
                    "class": cls,
                    "wall": round(wall, 1),
                    "notes": notes,
                    "others": case.others,
                }
            )
        rng = random.Random(seed)
        for args in sigint_series[: (len(sigint_series) if a.sigint else 0)]:
            for _ in range(a.sigint):
                delay, res, err = sigint_trial(args, Path(td), rng)
                print(
                    f"sigint {delay:4.2f}s {res}: {' '.join(args)} {err if res != 'right' else ''}",
                    flush=True,
                )
                rows.append(
                    {"id": "sigint " + " ".join(args), "class": res.split()[0], "delay": delay}
                )
    counts = {}
    for r in rows:
        counts[r["class"]] = counts.get(r["class"], 0) + 1
    print("load average at end: %.2f %.2f %.2f" % os.getloadavg())
    print("summary:", counts)
    if a.json_out:
        Path(a.json_out).write_text(json.dumps(rows, indent=1))
    return 0
