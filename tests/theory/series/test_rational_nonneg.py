"""Nonnegativity of rational terms at the integers (theory.series.lower_bounds): a term
that vanishes at its first integers (binomial(n, 3)/n**5 at n = 1, 2) is still >= 0, so its
TRF follows Eq. 22 for nonnegative terms and is exact.  References by hand:
6 binomial(n, 3)/n^5 = 1/n^2 - 3/n^3 + 2/n^4, so the tail after N terms is
R_N = (zeta(2, N+1) - 3 zeta(3, N+1) + 2 zeta(4, N+1))/6 (Hurwitz zeta, mpmath)."""

import json

import mpmath
import pytest

from theory.series.expressions import parse_expression
from theory.series.lower_bounds import terms_nonnegative
from theory.trf.cli import main


@pytest.mark.parametrize(
    "text, n0, truth",
    [
        ("binomial(n, 3)/n**5", 1, True),
        ("(n - 2)*(n - 3)/n**4", 1, True),  # 2, 0, 0, then > 0
        ("(n - 5/2)**2/n**4", 1, True),
        ("(n - 1)*(n - 3)/n**4", 1, False),  # -1/16 at n = 2
        ("(n - 1)/((n - 3)*n**3)", 4, True),
        ("(n - 1)/((n - 3)*n**3)", 1, False),  # negative at n = 2, a pole at n = 3
    ],
)
def test_rational_terms_nonnegative_at_integers(text, n0, truth):
    assert terms_nonnegative(parse_expression(text), n0) is truth


def test_binomial_over_power_exact_trf(capsys):
    code = main(["--rpe", "binomial(n, 3)/n**5", "--json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0 and out["certified"]
    with mpmath.workdps(40):
        B = (mpmath.zeta(2) - 3 * mpmath.zeta(3) + 2 * mpmath.zeta(4)) / 6

        def tail(N):
            return (
                mpmath.zeta(2, N + 1) - 3 * mpmath.zeta(3, N + 1) + 2 * mpmath.zeta(4, N + 1)
            ) / 6

        for t in out["trf"]:
            eps = mpmath.mpf(str(t["eps"]))  # the decimal as typed
            assert t["exact"], t
            j = t["value"]
            assert tail(j) < eps * B <= tail(j - 1), t
