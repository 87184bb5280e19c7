"""Named RPEs, learned bias files, and the index convention of log_b_values."""

import numpy as np
import pytest
import sympy as sp

from theory.series.convergence import decide
from theory.series.expressions import ExpressionError, N
from theory.series.rpe_library import LIBRARY, load_bias_file, log_b_values, resolve_rpe, t5_bucket

# name -> (b_n at the paper's defaults/our defaults, start, convergence)
EXPECTED = {
    "alibi": (sp.exp(-N), 0, True),
    "kerple-log": ((1 + N) ** -2, 0, True),
    "kerple-power": (sp.exp(-N), 0, True),
    "type1": (N**-2, 1, True),
    "type2": (sp.exp(-(sp.log(N) ** 2)), 1, True),
    "inv-n": (1 / N, 1, False),
    "inv-nlogn": (1 / (N * sp.log(N)), 2, False),
}


@pytest.mark.parametrize("name", list(EXPECTED))
def test_library_series_and_verdicts(name):
    r = resolve_rpe(name)
    b, start, conv = EXPECTED[name]
    assert sp.simplify(r.b - b) == 0 and r.start == start and r.free_params == []
    assert decide(r.b, r.start).converges is conv


def test_every_library_entry_resolves():
    for name in LIBRARY:
        r = resolve_rpe(name)
        assert r.b.free_symbols <= {N} and r.source


def test_sandwich_diverges_contrary_to_the_paper():
    # RPE paper App. B claims convergence for d < 2 ln r / k (Eq. 45).  But every factor
    # exp(k (cos x - 1)) >= e^(-2k), so b_n >= e^(-k d) > 0 and the terms do not tend to 0.
    r = resolve_rpe("sandwich", {"d": 2, "r": 10000, "k": 1})  # d = 2 < 2 ln(10^4) = 18.4
    d = decide(r.b, r.start)
    assert d.converges is False and "do not tend to 0" in d.certificate


def test_params_and_errors():
    r = resolve_rpe("kerple-log", {"r": 1.5, "k": 2})
    assert r.b == (2 * N + 1) ** sp.Rational(-3, 2)
    with pytest.raises(ExpressionError, match="no parameter"):
        resolve_rpe("alibi", {"r": 1})
    with pytest.raises(ExpressionError, match="positive"):
        resolve_rpe("alibi", {"k": -1})
    u = resolve_rpe("(1 + k*n)**(-r)", {"k": 1}, free=["r"])
    assert u.free_params == ["r"]
    assert resolve_rpe("-2*log(n)", bias=True).b == N**-2


def test_t5_buckets_and_constant_tail():
    # T5 (Raffel et al.): 16 exact buckets, then logarithmic up to max_distance 128
    # bucket(t) = 16 + floor(ln(t/16)/ln(8) * 16) for 16 <= t < 128, e.g. t = 23: 16 + floor(2.79)
    assert [t5_bucket(t) for t in (0, 15, 16, 23, 24, 127, 128)] == [0, 15, 16, 18, 19, 31, 31]
    vals = [-0.5 * b for b in range(32)]
    r = resolve_rpe("t5", {"values": vals})
    lb = log_b_values(r.b, np.array([0, 5, 16, 127, 128, 10**6]), 0)
    assert np.allclose(lb, [0, -2.5, -8, -15.5, -15.5, -15.5])
    d = decide(r.b, 0)
    assert d.converges is False and "constant tail" in d.certificate


def test_log_b_values_index_convention():
    # bias at distance t is log b_(start + t)
    t = np.arange(5)
    assert np.allclose(log_b_values(N**-2, t, start=1), -2 * np.log(t + 1.0))
    assert np.allclose(log_b_values(sp.exp(-3 * N), t, start=0), -3.0 * t)
    assert log_b_values(sp.exp(-N * 10**4), np.array([10**6]), 0)[0] == -1e10  # no underflow
    with pytest.raises(ValueError):
        log_b_values(N**-2, np.array([-1]), 1)


@pytest.mark.parametrize("tail,conv", [("constant", False), ("zero", True), ("linear", True)])
def test_bias_file_tails(tmp_path, tail, conv):
    values = -0.1 * np.arange(50)
    path = tmp_path / "bias.npy"
    np.save(path, values)
    r = load_bias_file(path, tail=tail)
    assert r.tail_assumption and len(r.head) == 50
    assert np.allclose(log_b_values(r, np.arange(50), 0), values)
    assert decide(r.b, 50).converges is conv


def test_bias_file_errors(tmp_path):
    p = tmp_path / "b.txt"
    p.write_text("0.0\nnan\n")
    with pytest.raises(ExpressionError, match="distance 1"):
        load_bias_file(p)
    with pytest.raises(ExpressionError, match="cannot read"):
        load_bias_file(tmp_path / "missing.txt")


@pytest.mark.parametrize("value", ["__import__('os').getcwd()", "1/2", object(), True])
def test_parameter_values_are_numbers_never_text(value):
    """The Python API refuses text as a parameter value (it would otherwise reach sympify)."""
    with pytest.raises(ExpressionError, match="must be a number"):
        resolve_rpe("kerple-log", {"r": value})
