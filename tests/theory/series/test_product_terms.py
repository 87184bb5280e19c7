"""Product-defined terms (theory.series.product_terms and the parser's products).

References: P_n = prod_(m=1)^n (1 + 1/m^2) = sinh(pi)/pi |Gamma(n + 1 + i)|^2 / n!^2
(Gamma(1 + i) Gamma(1 - i) = pi/sinh(pi)), checked against the direct product at n = 7 to
1e-40; B = mpmath.nsum of that closed form at 40 digits; TRF by summing the closed-form
terms until the tail falls below B eps (mpmath, 40 digits)."""

import json

import mpmath
import pytest
import sympy as sp

from theory.series.expressions import ExpressionError, N, keep_products
from theory.series.expressions import parse_expression as P
from theory.series.product_terms import (
    ProductError,
    decide_product,
    product_analysis,
    split_product,
)
from theory.trf.cli import main

# mpmath.nsum(sinh(pi)/pi |Gamma(n+1+i)|^2/Gamma(n+1)^2 / n^2, [1, oo]) at 40 digits
B_SQUARES = "3.853791389551429122147530900155507136115"
# the same closed form times exp(-n)
B_EXP = "1.299634359292157174881506102138360360121"
# prod_(k=2)^K (1 - 1/k^3) = |Gamma(K + 1 - r)|^2/(|Gamma(2 - r)|^2 K!^2 K), r^2 + r + 1 = 0
# (checked against the direct product at K = 10 to 1e-40); mpmath.nsum of it at K = n + 1
# over n^2, n >= 1, at 40 digits; TRF by summing those terms
B_CUBES = "1.409307867478228114794553520147577895705"


def K(text):
    with keep_products():
        return P(text)


def test_parser_keeps_only_what_it_cannot_close():
    with pytest.raises(ExpressionError, match="complex arguments"):
        P("Product(1 + 1/m**2, (m, 1, n))")  # the default: refused, as before
    assert K("Product(1 + 1/m**2, (m, 1, n))").has(sp.Product)
    assert K("Product(1 + 1/m, (m, 1, n))") == N + 1  # telescoping: (m + 1)/m
    g = K("Product(1 - 1/(2*m), (m, 1, n))")  # Gamma(n + 1/2)/(sqrt(pi) n!)
    with mpmath.workdps(30):
        direct = mpmath.fprod(1 - mpmath.mpf(1) / (2 * m) for m in range(1, 11))
        assert abs(sp.N(g.subs(N, 10), 30) - direct) < mpmath.mpf(10) ** -28
    with pytest.raises(ExpressionError):  # the whitelist still holds inside a product
        K("Product(__import__('os'), (m, 1, n))")


@pytest.mark.parametrize(
    "text, verdict",
    [
        ("Product(1 + 1/m**2, (m, 1, n))/n**2", True),  # <= sinh(pi)/pi / n^2
        ("Product(1 + 1/m**3, (m, 1, n))/n", False),  # >= 1/n, harmonic
        ("Product(1 + 1/m**2, (m, 1, n))", False),  # terms >= 1
        ("Product(1 - 1/m**3, (m, 2, n))", False),  # P_n -> 1/3 > 0
        ("Product(1 + (-1)**m/m**2, (m, 2, n))/n**2", True),  # 0 < P_n <= exp(sum 1/m^2)
    ],
)
def test_verdicts(text, verdict):
    assert decide_product(K(text), 1).converges is verdict


def test_real_closed_forms_keep_their_verdicts(capsys):
    """(n+1)/n^2 ~ 1/n diverges (harmonic); Gamma(n+1/2)/(sqrt(pi) n!) ~ 1/sqrt(pi n)
    diverges; divided by n it sums to 2 log 2 (sum C(2n,n)/(4^n n) = 2 log 2)."""
    for text, verdict in [
        ("Product(1 + 1/m, (m, 1, n))/n**2", False),
        ("Product(1 - 1/(2*m), (m, 1, n))", False),
    ]:
        assert main(["--rpe", text, "--json"]) == 0
        assert json.loads(capsys.readouterr().out)["converges"] is verdict
    assert main(["--rpe", "Product(1 - 1/(2*m), (m, 1, n))/n", "--json", "--time-limit", "30"]) == 0
    out = json.loads(capsys.readouterr().out)
    assert float(out["sum_lo"]) <= 2 * mpmath.log(2) <= float(out["sum_hi"])


@pytest.mark.parametrize(
    "text, ref, trf",
    [
        ("Product(1 + 1/m**2, (m, 1, n))/n**2", B_SQUARES, [9, 95, 953]),
        ("Product(1 + 1/m**2, (m, 1, n))*exp(-n)", B_EXP, None),
        ("Product(1 - 1/(m + 1)**3, (m, 1, n))/n**2", B_CUBES, [6, 57, 574]),  # factors < 1
    ],
)
def test_enclosure_and_trf_hold_the_reference(text, ref, trf, monkeypatch):
    from theory.series import product_terms

    monkeypatch.setattr(product_terms, "DIRECT_TERMS", 3000)
    w = product_analysis(K(text), 1, [0.1, 0.01, 0.001])
    with mpmath.workdps(50):
        slack = mpmath.mpf(10) ** -38  # the reference is rounded to 40 digits
        assert w.sum.lo - slack <= mpmath.mpf(ref) <= w.sum.hi + slack
        assert w.sum.hi - w.sum.lo < 1e-6
    if trf is not None:
        assert [t["value"] for t in w.trf] == trf and all(t["exact"] for t in w.trf)


@pytest.mark.parametrize(
    "text, why",
    [
        ("Product(exp(-1/m), (m, 1, n))/n**2", "tends to 0 or infinity"),  # exp(-H_n)
        ("Product(1 + 1/sqrt(m), (m, 1, n))/n**2", "tends to infinity"),
        ("Product(1 + 1/m**2, (m, 1, n))*Product(1 + 1/m**3, (m, 1, n))", "only one product"),
        ("Product(1 + 1/m**2, (m, 1, n))*sin(n)/n**2", "not proved >= 0"),
    ],
)
def test_refusals_are_named(text, why):
    with pytest.raises(ProductError, match=why):
        decide_product(K(text), 1)


def test_split():
    a, g, lo = split_product(K("Product(1 + 1/m**2, (m, 2, n))/n**3"))
    assert (a, g, lo) == (N**-2, N**-3, 2)


def test_cli_product_term(capsys):
    argv = ["--rpe", "Product(1 + 1/m**2, (m, 1, n))/n**2", "--json", "--time-limit", "30"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert out["converges"] is True and out["certified"]
    with mpmath.workdps(40):
        assert mpmath.mpf(out["sum_lo"]) <= mpmath.mpf(B_SQUARES) <= mpmath.mpf(out["sum_hi"])
    assert main(["--rpe", "Product(1 + 1/m**2, (m, 1, n))/n**2", "--compare", "1/n**2"]) == 2
    assert capsys.readouterr().err.startswith("error:")
