"""``benchmarks.mutation``: its targets and planted bugs still point at real code, its
mutants change the code, its equivalence check tells a changed function from an
unchanged one, and bad input is refused before any run (exit 2, one ``error:`` line).

The benchmark itself (pytest runs of the agreement tests per mutant) is not run here.
"""

import ast
import json

import pytest

from benchmarks import mutation as M
from benchmarks import planted_bugs as PB
from empirical.agreement.bundle_io import FORMAT


@pytest.mark.parametrize("t", M.TARGETS, ids=lambda t: t.function)
def test_every_target_names_a_function_of_its_file(t):
    tree = ast.parse((M.ROOT / t.path).read_text())
    names = {n.name for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)}
    assert t.function in names


@pytest.mark.parametrize("bug", M.PLANTED, ids=lambda b: b[0])
def test_every_planted_bug_applies_once(bug):
    _name, path, old, new, tests = bug
    assert old != new
    assert (M.ROOT / path).read_text().count(old) == 1
    assert (M.ROOT / tests[0]).is_file()  # then an optional -k expression


@pytest.mark.parametrize(
    "tests, marks",
    [((PB.ALIGN,), ["-m", "agreement", "--rung", "kjv192"]), ((PB.STIRLING,), ["-m", "not slow"])],
)
def test_agreement_tests_run_on_a_rung_and_unit_tests_without_the_slow_ones(
    monkeypatch, tmp_path, tests, marks
):
    seen = []

    class Done:
        returncode = 1

    def fake_run(cmd, **kw):
        seen.append(cmd)
        return Done()

    monkeypatch.setattr(M.subprocess, "run", fake_run)
    t = M.Target("theory/series/stirling_tail.py", "", tests, ())
    assert M._pytest_verdict(t, tmp_path, "bundle", 10.0, "kjv192") == "killed"
    cmd = seen[0]
    i = cmd.index("-m", 3)  # after python -m pytest
    assert cmd[i : i + len(marks)] == marks and cmd[-1] == tests[0]


def test_mutants_change_the_source_and_parse():
    t = next(t for t in M.TARGETS if t.function == "eta_star")
    src = (M.ROOT / t.path).read_text()
    ms = M.mutants(t)
    assert len(ms) > 10
    for _desc, mutated in ms:
        assert mutated != src
        ast.parse(mutated)


def test_equivalence_on_probes_tells_a_changed_function():
    t = next(t for t in M.TARGETS if t.function == "eta_star")
    src = (M.ROOT / t.path).read_text()
    assert M.equivalent_on_probes(t, src)
    _name, _path, old, new, _tests = next(b for b in M.PLANTED if b[0] == "eta* with d - 2")
    assert not M.equivalent_on_probes(t, src.replace(old, new))


def test_score_and_report():
    rows = {
        "f.py:f": [
            {"mutant": "a", "status": "killed"},
            {"mutant": "b", "status": "timeout"},
            {"mutant": "c", "status": "equivalent"},
            {"mutant": "d", "status": "survived"},
            {"mutant": "e", "status": "below resolution"},
        ]
    }
    # killed, survived, equivalent, below resolution, all
    assert M.score(rows["f.py:f"]) == (2, 1, 1, 1, 5)
    text = M.report(rows)
    assert "50%" in text and "67%" in text  # 2 of 4 non-equivalent; 2 of 3 at resolution
    assert "survived         f.py:f: d" in text and "below resolution f.py:f: e" in text


def test_below_resolution_is_neither_equivalent_nor_a_survivor():
    t = next(t for t in M.TARGETS if t.function == "eta_star")
    src = (M.ROOT / t.path).read_text()
    tiny = src.replace(
        "    m = d - 3\n    return 2 * alpha", "    m = d - 3 + 1e-7\n    return 2 * alpha"
    )
    assert tiny != src
    assert not M.equivalent_on_probes(t, tiny)
    assert M.equivalent_on_probes(t, tiny, M.RESOLUTION)
    big = src.replace("    m = d - 3\n    return 2 * alpha", "    m = d - 2\n    return 2 * alpha")
    assert not M.equivalent_on_probes(t, big, M.RESOLUTION)


#: the smallest bundle.json the bundle check reads (the runs themselves are never reached)
MINIMAL_BUNDLE = {
    "format": FORMAT,
    "settings": {"seq_len": 32},
    "results": {"alibi": {"0": {"ppl": {"32": 5.0}}}},
}


@pytest.mark.parametrize(
    "argv,needle",
    [
        (["--functions", "nosuch"], "invalid choice"),
        (["--bundle", "{tmp}"], "no seeded bundle"),
        (["--bundle", "{bundle}", "--planted", "--bugs", "zzz"], "no planted bug matches"),
        (["--json", "{tmp}/no/such/x.json"], "does not exist"),
        (["--jobs", "0"], "--jobs"),
    ],
)
def test_bad_input_is_refused_before_a_run(argv, needle, tmp_path, capsys):
    bundle = tmp_path / "b"
    bundle.mkdir()
    (bundle / "bundle.json").write_text(json.dumps(MINIMAL_BUNDLE))
    argv = [a.format(tmp=tmp_path, bundle=bundle) for a in argv]
    assert M.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and needle in err[0]
