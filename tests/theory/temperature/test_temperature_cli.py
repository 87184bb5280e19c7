"""python -m theory.temperature: the table, --json, the derivation, and bad input."""

import json
import subprocess
import sys

import pytest
import sympy as sp

from theory.core.derivation import Derivation, Step
from theory.temperature import cli as cli


def test_json_has_every_rule(capsys):
    assert (
        cli.main(
            [
                "--L-tr",
                "512",
                "--L-ex",
                "15000",
                "--sigma-tr",
                "1",
                "--sigma-ex",
                "1",
                "--pmax-tr",
                "0.3",
                "--d",
                "64",
                "--json",
            ]
        )
        == 0
    )
    out = json.loads(capsys.readouterr().out)
    assert set(out["rules"]) == {"prop1", "prop2", "log_rule", "infoscale", "yarn", "longrope"}
    assert out["rules"]["log_rule"]["tau"] == pytest.approx(0.648757, abs=1e-6)


def test_table_output(capsys):
    assert cli.main(["--L-tr", "512", "--L-ex", "2048"]) == 0
    out = capsys.readouterr().out
    assert "log_rule" in out and "needs sigma_tr" in out


@pytest.mark.parametrize(
    "argv",
    [
        ["--L-tr", "512", "--L-ex", "100"],  # L_ex < L_tr
        ["--L-tr", "512", "--L-ex", "1024", "--sigma-tr", "0", "--sigma-ex", "1"],
        ["--L-tr", "512", "--L-ex", "1024", "--pmax-tr", "1.2"],
        ["--L-tr", "512", "--L-ex", "1024", "--d", "0"],
        ["--L-tr", "abc", "--L-ex", "1024"],
        ["--L-ex", "1024"],
    ],
)
def test_bad_input_exits_2_with_one_error_line(argv, capsys):
    try:
        code = cli.main(argv)
    except SystemExit as exc:
        code = exc.code
    err = capsys.readouterr().err.strip().splitlines()
    assert code == 2 and len(err) == 1 and err[0].startswith("error:"), err


def test_module_entry_point_bad_input():
    p = subprocess.run(
        [sys.executable, "-m", "theory.temperature", "--L-tr", "512", "--L-ex", "10"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 2 and p.stderr.startswith("error:") and p.stdout == ""


def test_derivation_rendering(monkeypatch, capsys):
    x = sp.Symbol("x", positive=True)
    toy = lambda fast=False: Derivation(
        "toy",
        "src",
        [  # noqa: E731
            Step("sq", (x + 1) ** 2, x**2 + 2 * x + 1, "expand", domain={x: (0, 1)})
        ],
    )
    monkeypatch.setitem(cli.__dict__, "_derivation", cli._derivation)
    import theory.temperature.derivations as td

    monkeypatch.setitem(td.DERIVATIONS, "prop1", toy)
    assert cli.main(["--derivation", "prop1", "--markdown"]) == 0
    assert "$$" in capsys.readouterr().out
    assert cli.main(["--derivation", "prop1", "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["steps"][0]["verdict"] == "proved"


@pytest.mark.slow
def test_real_derivation_cli():
    p = subprocess.run(
        [sys.executable, "-m", "theory.temperature", "--derivation", "prop1", "--fast"],
        capture_output=True,
        text=True,
    )
    assert p.returncode == 0 and "[refuted]" in p.stdout and "[proved]" in p.stdout


def test_truth_json_exact_vs_approx(capsys):
    assert cli.main(["--truth", "--L", "512", "--sigma", "2.7", "--draws", "300", "--json"]) == 0
    t = json.loads(capsys.readouterr().out)
    # exact E[H] at (512, 2.7) is 0.76 nats above log L - sigma^2/2 (quadrature) and the
    # Monte Carlo estimate agrees with the exact value
    assert t["exact"]["entropy"] - t["approx"]["entropy"] == pytest.approx(0.763, abs=2e-3)
    mc = t["monte_carlo"]["entropy"]
    assert abs(mc["mean"] - t["exact"]["entropy"]) < 4 * mc["se"]


@pytest.mark.parametrize(
    "argv",
    [
        ["--truth", "--L", "512"],
        ["--truth", "--L", "512", "--sigma", "-1"],
        ["--truth", "--L", "512", "--sigma", "1", "--tau", "0"],
    ],
)
def test_truth_bad_input(argv, capsys):
    assert cli.main(argv) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert len(err) == 1 and err[0].startswith("error:")
