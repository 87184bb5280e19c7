"""The derivation checker must prove true steps, refute false ones, and measure the
error of approximations against an independent closed form."""

import math

import mpmath as mp
import sympy as sp

from theory.core.derivation import Derivation, Step, symbolic_zero

x, s = sp.symbols("x sigma", positive=True)


def test_true_exact_step_is_proved():
    j = sp.Symbol("j", integer=True, positive=True)
    step = Step("Basel", sp.Sum(1 / j**2, (j, 1, sp.oo)), sp.pi**2 / 6, "zeta(2)")
    res = Derivation("t", "t", [step]).verify()
    assert res.results[0].verdict == "proved", res.results[0]


def test_false_exact_step_is_refuted_with_counterexample():
    step = Step("wrong", sp.exp(s**2 / 2), sp.exp(s**2), "a typo", domain={s: (0.5, 2)})
    r = Derivation("t", "t", [step]).verify().results[0]
    assert r.verdict == "refuted"
    assert r.max_error > 0.1 and r.worst_point is not None


def test_integral_checked_by_quadrature():
    # Gaussian moment E[e^l] = e^{sigma^2/2}: a true identity sympy integrates
    l = sp.Symbol("l", real=True)
    density = sp.exp(-(l**2) / (2 * s**2)) / (s * sp.sqrt(2 * sp.pi))
    step = Step(
        "mgf",
        sp.Integral(sp.exp(l) * density, (l, -sp.oo, sp.oo)),
        sp.exp(s**2 / 2),
        "complete the square",
        domain={s: (0.3, 2)},
    )
    r = Derivation("t", "t", [step]).verify(dps=20).results[0]
    assert r.verdict == "proved" and r.max_error < 1e-12


def test_approximation_error_matches_closed_form():
    step = Step("log1p", sp.log(1 + x), x, "Taylor", exact=False, grid={x: [0.1, 0.01]})
    r = Derivation("t", "t", [step]).verify().results[0]
    # worst relative error is at x = 0.1: (0.1 - log 1.1)/0.1 ; closed form
    assert math.isclose(r.max_error, (0.1 - math.log1p(0.1)) / 0.1, rel_tol=1e-12)


def test_symbolic_zero_three_valued():
    assert symbolic_zero(sp.sin(x) ** 2 + sp.cos(x) ** 2 - 1) is True
    assert symbolic_zero(sp.Integer(2) - 1) is False


def test_markdown_has_latex_and_verdicts():
    d = Derivation(
        "toy",
        "paper Eq. 1",
        [
            Step("a", x * (x + 1), x**2 + x, "expand", domain={x: (0, 1)}, source="Eq. 1"),
            Step("b", None, None, "Gaussian logits", kind="assumption"),
        ],
    )
    md = d.verify().to_markdown()
    assert "$$" in md and "proved" in md and "assumed" in md and "Eq. 1" in md
    assert mp.mp.dps == 15  # verify restores precision
