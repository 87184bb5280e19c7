"""B of 1/((a n + d) log(n + k1)^p log(log(n + k2))^q), from n = 3, against mpmath: cases
drawn at random (p in {3/2, 2, 5/2, 3}, q in {-1, 0, 1, 3/2, 2}, shifts 0..5) to attack the
shifted integral test (theory.series.shifted_integral: a bare factor a n + d, iterated logs
of other shifts, a start before the form holds) and the tail integral's far bound below a
power of u (theory.series.quadrature_tail); kept as drawn.

Reference (mpmath at 34 digits, none of the code under test): the terms 3 <= n < K = 3000
summed directly, the tail by Euler-Maclaurin at K, int_K^oo f + f(K)/2 - f'(K)/12 +
f'''(K)/720 - f^(5)(K)/30240, with int_K^oo f written in s = log(log(x)) (the integrand
f(e^(e^s)) e^(e^s) e^s decays like e^(-(p - 1) s)) and integrated by mpmath.quad up to
s = 300, where it is below e^-150."""

import json

import mpmath
import pytest

from theory.trf.cli import main

# (a, d, k1, p, k2, q)
CASES = [
    (1, 5, 0, "3/2", 2, "3/2"),
    (3, 3, 3, "3/2", 1, "3/2"),
    (2, 5, 0, "5/2", 0, "1"),  # no shift in the logs: the bare factor 2 n + 5 only
    (1, 5, 1, "5/2", 4, "-1"),
    (3, 3, 1, "3", 2, "0"),  # 12 digits: a remainder engine, not the integral test
    (3, 5, 1, "3/2", 2, "2"),
]


def _reference(a, d, k1, p, k2, q):
    with mpmath.workdps(34):
        p, q = mpmath.mpf(mpmath.fraction(*_pair(p))), mpmath.mpf(mpmath.fraction(*_pair(q)))

        def f(x):
            return 1 / ((a * x + d) * mpmath.log(x + k1) ** p * mpmath.log(mpmath.log(x + k2)) ** q)

        K = 3000
        head = mpmath.fsum(f(mpmath.mpf(n)) for n in range(3, K))
        s0 = mpmath.log(mpmath.log(K))
        g = lambda s: f(mpmath.exp(mpmath.exp(s))) * mpmath.exp(mpmath.exp(s)) * mpmath.exp(s)  # noqa: E731
        integral = mpmath.quad(g, [s0, s0 + 0.5, s0 + 1, s0 + 2, s0 + 4, s0 + 8, 30, 100, 300])
        d1, d3, d5 = (mpmath.diff(f, K, j) for j in (1, 3, 5))
        return head + integral + f(K) / 2 - d1 / 12 + d3 / 720 - d5 / 30240


def _pair(text):
    num, _, den = text.partition("/")
    return int(num), int(den or 1)


@pytest.mark.slow
@pytest.mark.parametrize("a, d, k1, p, k2, q", CASES)
def test_b_holds_the_reference(capsys, a, d, k1, p, k2, q):
    text = f"1/(({a}*n + {d})*log(n + {k1})**({p})*log(log(n + {k2}))**({q}))"
    argv = ["--rpe", text, "--start", "3", "--eps", "0.1", "--json", "--time-limit", "60"]
    assert main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    B = _reference(a, d, k1, p, k2, q)
    with mpmath.workdps(34):
        lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
        slack = abs(B) * mpmath.mpf(10) ** -24  # the reference's own error
        assert out["certified"] and lo - slack <= B <= hi + slack, (text, B, lo, hi)
    assert out["sum_digits"] >= 12
