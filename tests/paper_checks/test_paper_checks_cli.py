"""python -m paper_checks: list, select, JSON shape, report files, exit codes."""

import json
import subprocess
import sys

import pytest

from paper_checks import cli, registry, report
from paper_checks.evidence import Equal, Evidence
from paper_checks.registry import FAILS, HOLDS, claim
from theory.core.registry import Registry


def run(*args, cwd=None):
    return subprocess.run(
        [sys.executable, "-m", "paper_checks", *args],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_unknown_id_is_exit_2_with_one_error_line():
    p = run("--id", "no-such-claim")
    assert p.returncode == 2
    assert p.stderr.startswith("error:") and p.stderr.count("\n") == 1


def _noisy(ctx):
    print("a check that prints")  # must not break --json's single object
    return Evidence([Equal("1 + 1", 1 + 1, paper=2)])


@pytest.fixture
def toy_registry(monkeypatch):
    """Toy claims (one holds, one fails, one crashes, one empirical) instead of the real ones."""
    monkeypatch.setattr(registry, "REGISTRY", Registry("claim id"))
    claim(id="toy-a", paper="rpe", location="Eq. 1", statement="one plus one is two")(_noisy)
    claim(id="toy-b", paper="align", location="Eq. 2", statement="e is 2.7")(
        lambda ctx: Evidence([Equal("e", 2.718281828, paper=2.7)])
    )
    claim(id="toy-c", paper="infoscale", location="Eq. 3", statement="crashes")(lambda ctx: 1 / 0)
    claim(id="toy-d", paper="rpe", location="Fig. 3", statement="needs training", kind="empirical")(
        lambda ctx: Evidence([Equal("x", 1, paper=1)])
    )
    monkeypatch.setattr(cli, "load_all", lambda: registry.REGISTRY)


def test_report_json_and_markdown(toy_registry, tmp_path, capsys):
    code = cli.main(["--json", "--no-figures", "--out", str(tmp_path)])
    out = json.loads(capsys.readouterr().out)
    assert code == 1  # a crashed check is the only failure
    by_id = {c["id"]: c for c in out["claims"]}
    assert by_id["toy-a"]["verdict"] == HOLDS and by_id["toy-b"]["verdict"] == FAILS
    assert by_id["toy-c"]["verdict"] == "crashed"
    assert by_id["toy-d"]["verdict"] == "skipped (empirical)"
    for c in out["claims"]:
        assert {"id", "paper", "location", "statement", "verdict", "evidence"} <= set(c)
    assert out["summary"]["rpe"] == {HOLDS: 1, "skipped (empirical)": 1}
    md = (tmp_path / "report.md").read_text()
    assert "toy-b" in md and "does not hold" in md
    findings = md.split("## Findings (")[1].split("\n## ")[0]
    assert "`toy-b`" in findings and "`toy-a`" not in findings
    # the evidence table: quantity, computed, paper, source, tolerance, outcome
    assert "| e | 2.71828 | 2.7 |  | exact | disagrees (error 0.00677105) |" in md
    assert "full run" in md and out["provenance"]["selection"] == "full run"
    assert json.loads((tmp_path / "report.json").read_text())["claims"]


def test_failing_claim_is_not_a_failure(toy_registry, tmp_path, capsys):
    assert cli.main(["--id", "toy-b", "--out", str(tmp_path)]) == 0  # --id: no figures
    assert cli.main(["--paper", "align", "--list"]) == 0
    assert "toy-b" in capsys.readouterr().out


def test_figures_are_embedded_and_crashes_counted(toy_registry, tmp_path, monkeypatch, capsys):
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    from figures import registry as fig_registry

    def good(outdir, quick=False):
        fig, ax = plt.subplots()
        ax.plot([0, 1], [0, 1])
        png = outdir / "toy.png"
        fig.savefig(png)
        plt.close(fig)
        data = [outdir / "toy.csv", outdir / "toy.json"]  # a figure's data: several files
        for f in data:
            f.write_text("x\n")
        return {"png": png, "data": data, "comparison": {"max_abs_diff": 0.0}}

    monkeypatch.setattr(fig_registry, "FIGURES", Registry("figure"))
    fig_registry.figure("toy-fig", "rpe", "a line")(good)
    fig_registry.figure("toy-emp", "rpe", "needs a model", empirical=True)(good)
    fig_registry.figure("toy-bad", "align", "raises")(lambda outdir, quick=False: 1 / 0)
    monkeypatch.setattr(fig_registry, "load_all", lambda: fig_registry.FIGURES)
    code = cli.main(["--paper", "rpe", "--out", str(tmp_path)])
    assert code == 0  # the crashing figure belongs to another paper
    md = (tmp_path / "report.md").read_text()
    assert "![toy-fig](figures/toy.png)" in md and "needs --empirical" in md
    assert "toy-bad" not in md
    # another folder, the same report: every path in it is relative to its folder
    assert cli.main(["--paper", "rpe", "--out", str(tmp_path / "again")]) == 0
    first, again = (
        json.loads((d / "report.json").read_text()) for d in (tmp_path, tmp_path / "again")
    )
    first.pop("provenance"), again.pop("provenance")  # the time and machine of each run
    assert first == again and first["figures"][0]["data"] == ["figures/toy.csv", "figures/toy.json"]
    assert cli.main(["--out", str(tmp_path)]) == 1  # toy-c and toy-bad crash


def test_json_is_one_object_and_the_same_on_two_runs(tmp_path):
    # cheap claims of the converted rpe paper; --id skips figures
    ids = ["--id", "rpe-eq15", "--id", "rpe-eq12-13", "--id", "rpe-appC-alibi-trf"]
    outs = []
    for k in range(2):
        p = run("--json", "--seed", "0", "--out", str(tmp_path / f"r{k}"), *ids)
        assert p.returncode == 0, p.stderr[-2000:]
        outs.append(json.loads(p.stdout))  # exactly one object, nothing after it
        assert "claims in" in p.stderr  # the human summary went to stderr
    assert [o.pop("provenance")["selection"] for o in outs] == [
        "rpe-appC-alibi-trf+rpe-eq12-13+rpe-eq15"
    ] * 2
    assert outs[0] == outs[1]
    assert [c["id"] for c in outs[0]["claims"]] == ["rpe-eq12-13", "rpe-eq15", "rpe-appC-alibi-trf"]


def test_a_selection_never_replaces_the_full_report(toy_registry, tmp_path, monkeypatch, capsys):
    monkeypatch.chdir(tmp_path)
    assert cli.main(["--no-figures"]) == 1  # full run into report/ (toy-c crashes)
    full = json.loads((tmp_path / "report" / "report.json").read_text())
    assert full["selection"] is None and len(full["claims"]) == 4
    # a selection writes its own folder by default
    assert cli.main(["--id", "toy-b"]) == 0
    assert (
        json.loads((tmp_path / "report-toy-b" / "report.json").read_text())["selection"] == "toy-b"
    )
    assert json.loads((tmp_path / "report" / "report.json").read_text()) == full
    # into the full report's folder: refused without --force, one error line, exit 2
    capsys.readouterr()
    assert cli.main(["--paper", "align", "--out", "report"]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:") and "--force" in err[0]
    assert json.loads((tmp_path / "report" / "report.json").read_text()) == full
    assert cli.main(["--paper", "align", "--out", "report", "--force", "--no-figures"]) == 0


def test_a_selection_matching_nothing_is_refused(toy_registry, tmp_path, capsys):
    code = cli.main(["--paper", "align", "--id", "toy-a", "--out", str(tmp_path / "r")])
    err = capsys.readouterr().err.strip().splitlines()
    assert (
        code == 2 and len(err) == 1 and err[0].startswith("error:") and "matches no claim" in err[0]
    )
    assert not (tmp_path / "r").exists()


def test_findings_page_states_where_it_comes_from(toy_registry, tmp_path, capsys):
    cli.main(["--json", "--no-figures", "--out", str(tmp_path / "full")])
    full = json.loads(capsys.readouterr().out)
    page = report.findings_page(full)
    assert "full run" in page and full["provenance"]["commit"] in page and "`toy-b`" in page
    cli.main(["--json", "--id", "toy-a", "--out", str(tmp_path / "part")])
    with pytest.raises(ValueError, match="selection"):
        report.findings_page(json.loads(capsys.readouterr().out))


def strict_loads(text: str):
    """JSON as a strict parser reads it (RFC 8259; JavaScript's JSON.parse): the bare
    constants NaN, Infinity and -Infinity that Python's json writes by default refused."""
    return json.loads(text, parse_constant=lambda c: (_ for _ in ()).throw(ValueError(c)))


def test_strict_loads_refuses_what_json_dumps_writes_by_default():
    with pytest.raises(ValueError, match="Infinity"):
        strict_loads(json.dumps({"x": float("inf")}))


def test_a_non_finite_number_reaches_json_as_a_string(toy_registry, tmp_path, capsys):
    @claim(id="toy-inf", paper="rpe", location="Eq. 9", statement="an unbounded value")
    def toy_inf(ctx):
        return Evidence([Equal("bound", float("inf"), paper=1.0)], data={"worst": float("nan")})

    cli.main(["--json", "--no-figures", "--id", "toy-inf", "--out", str(tmp_path)])
    out = strict_loads(capsys.readouterr().out)
    assert out["claims"][0]["table"][0]["computed"] == "inf"
    assert out["claims"][0]["evidence"]["data"]["worst"] == "nan"
    assert strict_loads((tmp_path / "report.json").read_text())["claims"]


@pytest.mark.slow
def test_the_whole_report_is_strict_json(tmp_path):
    p = run("--json", "--no-figures", "--out", str(tmp_path / "report"))
    assert p.returncode == 0, p.stderr[-2000:]
    out = strict_loads(p.stdout)
    assert strict_loads((tmp_path / "report" / "report.json").read_text()) == out
    assert len(out["claims"]) > 100
