"""One time budget for the whole command, and no worker outliving it.

No wall-clock budget is asserted: the limit is checked on CPU time (the command's and its
children's), and waiting for processes counts polling steps, generous enough for a busy
machine."""

import os
import resource
import signal
import subprocess
import sys
import time
from pathlib import Path

import pytest

from theory.core.budget import HANG_FACTOR, cpu_limit

ROOT = Path(__file__).resolve().parents[3]
#: a sum no engine certifies (the stretched-exponential tail takes exp(-2 n^(1/100)) alone;
#: times 2 + sin(n) its enclosure is wider than B ~ 1e42), whose lower bound runs on
SLOW = "exp(-2*n**(1/100))*(2 + sin(n))"
#: a decision that works for many CPU seconds in its worker (three free parameters of unknown
#: sign, 27 sign cases: exp(1/n**a) is outside the log-scale rule, so every case takes its
#: symbolic limits and the boundaries their iterated logs): a worker surely at work to kill
HARD = ["exp(1/n**a)/(n**b*log(n)**c)", "--free", "a", "--free", "b", "--free", "c"]


def _children(pid: int) -> list[int]:
    out = []
    for task in Path(f"/proc/{pid}/task").glob("*"):
        try:
            out += [int(x) for x in (task / "children").read_text().split()]
        except OSError:
            pass
    return out


def _cpu(pid: int) -> float:
    try:
        f = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return 0.0
    return (int(f[11]) + int(f[12])) / os.sysconf("SC_CLK_TCK")


def _alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state not in ("Z", "X")  # a zombie has exited


def _kill_parent_and_check(cmd, min_cpu):
    """Start ``cmd``, wait (counting steps) for a worker with ``min_cpu`` s of CPU time,
    SIGKILL the parent alone, and assert that every such worker is gone."""
    proc = subprocess.Popen(
        cmd, cwd=ROOT, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )
    workers: list[int] = []
    try:
        for _ in range(3000):  # steps, not seconds: up to ~5 min on a loaded machine
            # a worker at work (the command: any stage; the mechanism: the sleeper)
            workers = [c for c in _children(proc.pid) if _alive(c) and _cpu(c) >= min_cpu]
            if workers or proc.poll() is not None:
                break
            time.sleep(0.1)
        assert workers, "the command never started a long worker"
        os.kill(proc.pid, signal.SIGKILL)  # the parent alone, as a user's kill -9 would
        proc.wait()
        for _ in range(3000):
            if not any(_alive(w) for w in workers):
                break
            time.sleep(0.02)
        assert not any(_alive(w) for w in workers), f"workers {workers} survived their parent"
    finally:
        for w in workers:  # never leave one behind, even when the test fails
            if _alive(w):
                os.kill(w, signal.SIGKILL)
        if proc.poll() is None:
            proc.kill()


NEVER_ENDS = (
    "from theory.core.budget import run_guarded, _sleep_forever; "
    "run_guarded(_sleep_forever, (), budget=1e6, wall=1e6)"
)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_a_worker_that_never_ends_dies_with_its_parent():
    # without the parent-death signal this worker sleeps forever: the check cannot pass by luck
    _kill_parent_and_check([sys.executable, "-c", NEVER_ENDS], 0.0)


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="needs Linux /proc")
def test_killed_command_leaves_no_worker():
    cmd = [sys.executable, "-m", "theory.trf", "--rpe", *HARD, "--start", "3"]
    _kill_parent_and_check(cmd + ["--time-limit", "300"], 1.0)


def test_time_limit_bounds_the_cpu_time_of_the_command():
    """--time-limit 2 on a series whose sum would take longer: the command and every worker
    together use at most the limit plus the start-up (imports), in CPU seconds."""
    before = resource.getrusage(resource.RUSAGE_CHILDREN)
    r = subprocess.run(
        [sys.executable, "-m", "theory.trf", "--rpe", SLOW, "--time-limit", "2", "--json"],
        cwd=ROOT,
        capture_output=True,
        text=True,
    )
    after = resource.getrusage(resource.RUSAGE_CHILDREN)
    cpu = (after.ru_utime - before.ru_utime) + (after.ru_stime - before.ru_stime)
    assert r.returncode == 0, r.stderr
    assert cpu < 2 + 8, cpu  # 2 s of work + imports and printing (generous)
    assert '"converges": true' in r.stdout and '"sum": null' in r.stdout


HUGE_POWER = "exp(-n**(10**10))"  # mpmath evaluates b_3 as an exact 3**(10**10): 2 GB, seconds


def _cpu_and_memory_limit(seconds: int, memory: int):
    cpu = cpu_limit(seconds)

    def limit() -> None:
        cpu()
        resource.setrlimit(resource.RLIMIT_AS, (memory, memory))

    return limit


def test_every_stage_runs_under_the_time_limit():
    """--time-limit 3 with the command's own CPU time capped at 2 s (RLIMIT_CPU: SIGXCPU,
    then SIGKILL) and its address space at 2 GiB: every stage, the check of the first terms
    included, runs in a guarded worker under what is left of the limit, so the command ends
    with its result (and the budget's message where a stage runs out), neither killed nor
    out of memory.  (The term
    check once ran in the command itself: 3**(10**10) in one C call, 2 CPU seconds and
    2.6 GB that no timer stops.)"""
    r = subprocess.run(
        [sys.executable, "-m", "theory.trf", "--rpe", HUGE_POWER, "--time-limit", "3"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        preexec_fn=_cpu_and_memory_limit(2, 2 * 2**30),
        timeout=3 * HANG_FACTOR,
    )
    assert r.returncode == 0, (r.returncode, r.stderr)
    assert "verdict:" in r.stdout and not r.stderr
    # B from two terms in ball arithmetic (theory.series.superexp_tail); on a machine too
    # slow for that, what ran out is named: time (exceeded its ... limit) or memory
    assert "certified" in r.stdout or "exceeded its" in r.stdout or "ran out of memory" in r.stdout


def test_a_build_that_runs_out_of_its_share_names_the_share_and_the_limit():
    """A named RPE whose series takes long to build (the sandwich sum of d/2 = 256 cosines),
    under a limit far below that: one error line naming the building stage, its share of
    --time-limit and the limit, not a guess about the user's constants only."""
    r = subprocess.run(
        [sys.executable, "-m", "theory.trf", "--rpe", "sandwich", "--param", "d=512"]
        + ["--time-limit", "0.01"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=60 * HANG_FACTOR,
    )
    assert r.returncode == 2, (r.returncode, r.stderr)
    lines = r.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: the series was not built"), lines
    assert "share of --time-limit 0.01 s" in lines[0] and "raise --time-limit" in lines[0]
