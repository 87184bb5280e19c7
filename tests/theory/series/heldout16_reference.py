"""Independent references for held-out set 16: B and TRF(eps) by mpmath at 50 digits, exact
Fraction arithmetic where the terms and tails are rational, and the exact binary values of
the bias files (``Fraction(float)`` and ``mp.mpf(float)`` are exact, for float16, float32,
big-endian and integer arrays too, once widened to float64 by numpy, which is exact).

Nothing here calls the project's code.  The helpers of sets 7-15 are re-exported
(:func:`eps_mp`, :func:`int_trf_checked`, :func:`trf_positive_checked`, :func:`two_ways`,
:func:`direct_sum`, :func:`em_tail`, :func:`hurwitz_em`, :func:`geo_trf_checked`,
:func:`linear_tail_ref`, :class:`SlowTail`, :func:`truncated_trf`); the ones added here state
what they rely on:

* :func:`frac_trf` -- Eq. 22 on an exact rational tail: the least j with R(j) < eps B, eps the
  decimal typed (a tie R(j) = eps B is no crossing: S_j > B (1 - eps) is strict), by bisection
  on a nonincreasing R given in closed form.  :func:`telescoped` is the second way: it checks
  R(0) = B, R(j) - R(j + 1) = b_(start + j) exactly at every j up to the crossings (and at
  samples beyond), and R(j) -> 0, which together prove the closed form.
* :func:`closed_trf` -- the same for an mpf tail in closed form (bisection, both neighbours of
  the crossing clear by 1e-40), small crossings checked against the partial sums of the
  terms (:func:`trf_positive_checked`).
* :func:`finite_ref` -- a bias file with ``--bias-tail zero``: B = sum of e^(v_i - M) (M the
  scale, 0 or the largest value when |max| > 10^4, as --json's sum_scaled), TRF from the
  partial sums of the L terms (a finite sum: S_L = B > B (1 - eps)).
* :func:`npy_raw` -- an .npy written by hand (version 1.0 header) with any descr and
  fortran_order flag: a 1-D array flagged Fortran-ordered is laid out as a C one.
* :func:`loglog_tail` -- int_(e^U)^oo x^(-1 - 1/log log x) dx = int_U^oo e^(-u/log u) du two
  ways (u = log x, and u = e^w), the integrals of :class:`SlowTail`.

Run ``python tests/theory/series/heldout16_reference.py`` to compute every reference of the
set (each with its two-way checks) and print them: :func:`check_all`.
"""

from __future__ import annotations

import struct
from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from .heldout8_reference import linear_tail_ref  # noqa: F401
    from .heldout14_reference import (  # noqa: F401
        DPS,
        TIE,
        SlowTail,
        direct_sum,
        em_tail,
        eps_mp,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        trf_positive_checked,
        two_ways,
    )
    from .heldout15_reference import truncated_trf  # noqa: F401
except ImportError:  # run as a script from this folder
    from heldout8_reference import linear_tail_ref  # noqa: F401
    from heldout14_reference import (  # noqa: F401
        DPS,
        TIE,
        SlowTail,
        direct_sum,
        em_tail,
        eps_mp,
        geo_trf_checked,
        hurwitz_em,
        int_trf_checked,
        trf_positive_checked,
        two_ways,
    )
    from heldout15_reference import truncated_trf  # noqa: F401

TINY = mp.mpf(10) ** -40


def mpq(x) -> mp.mpf:
    """A decimal string, int or Fraction as an mpf at the working precision."""
    x = Fraction(x)
    return mp.mpf(x.numerator) / x.denominator


def feps(e) -> Fraction:
    """eps as the decimal typed (a float's repr or a string)."""
    return Fraction(str(e))


# ---------------------------------------------------------------------------------------
# Exact rational tails
# ---------------------------------------------------------------------------------------
def frac_trf(R, B: Fraction, eps_list, hi: int) -> dict:
    """{eps: least j >= 0 with R(j) < eps B} (Fractions, R nonincreasing), by bisection."""
    out = {}
    for e in eps_list:
        thr = B * feps(e)
        assert R(hi) < thr, ("bracket", e)
        if R(0) < thr:
            out[e] = 0
            continue
        lo, up = 0, hi
        while up - lo > 1:
            mid = (lo + up) // 2
            lo, up = (lo, mid) if R(mid) < thr else (mid, up)
        out[e] = up
    return out


def telescoped(term, R, start: int, B: Fraction, js, far=10**30) -> None:
    """Second way for a closed rational tail: R(0) = B, R(j) - R(j + 1) = term(start + j) at
    every j in ``js`` (exactly), R(far) < 10^-10 R(0) (it tends to 0), and the partial sums
    of the first ``max(js) + 1`` terms (when below 10^5) equal B - R(j)."""
    assert R(0) == B, (R(0), B)
    for j in js:
        assert R(j) - R(j + 1) == term(start + j), ("telescoping", j)
    assert R(far) < B / 10**10
    top = max(js) + 1
    if top < 10**5:
        s = Fraction(0)
        for j in range(top):
            assert B - s == R(j), ("partial sum", j)
            s += term(start + j)


def frac_checked(term, R, start, B, eps_list, hi, extra=(), far=10**30) -> dict:
    """:func:`frac_trf`, with :func:`telescoped` at every crossing and its neighbours (and
    R(far) small: a geometric tail passes a moderate ``far``)."""
    out = frac_trf(R, B, eps_list, hi)
    js = sorted({max(0, j + d) for j in out.values() for d in (-2, -1, 0, 1)} | set(extra))
    small = [j for j in js if j < 2000]
    telescoped(term, R, start, B, (list(range(max(small) + 1)) if small else []) + js, far)
    return out


# ---------------------------------------------------------------------------------------
# Closed mpf tails
# ---------------------------------------------------------------------------------------
def closed_trf(R, B, eps_list, hi, term=None, start=1) -> dict:
    """{eps: least j with R(j) < eps B} by bisection (R closed, nonincreasing), crossings below
    5 * 10^4 checked against the partial sums of ``term(start + k)``."""
    out = int_trf_checked(R, B, eps_list, hi)
    if term is not None:
        for j in out.values():  # the closed form telescopes at the crossings
            for k in (j - 1, j):
                if k >= 0:
                    d = R(k) - R(k + 1) - term(start + k)
                    assert abs(d) < mp.mpf(10) ** -35 * R(k), ("telescoping", k)
        small = {e: j for e, j in out.items() if j < 5 * 10**4}
        if small:
            K = max(small.values()) + 2
            terms = [term(start + k) for k in range(K)]
            got = trf_positive_checked(terms, B, B * TINY, list(small))
            assert got == small, (got, small)
    return out


def as_ref(j: int, big=10**13):
    """An int TRF below ``big``, beyond it ("log10", log10 TRF, 1e-9)."""
    return j if j < big else ("log10", float(mp.log10(mp.mpf(j))), 1e-9)


# ---------------------------------------------------------------------------------------
# Bias files
# ---------------------------------------------------------------------------------------
def npy_raw(values, descr: str, fortran: bool, shape=None) -> bytes:
    """An .npy (format 1.0) written by hand: the header dict padded to a multiple of 64 bytes,
    then the values in ``descr`` byte order, in the order given."""
    arr = np.asarray(values, dtype=np.dtype(descr))
    shape = tuple(arr.shape if shape is None else shape)
    header = f"{{'descr': '{descr}', 'fortran_order': {fortran}, 'shape': {shape!r}, }}"
    total = 10 + len(header) + 1
    header += " " * ((64 - total % 64) % 64) + "\n"
    head = b"\x93NUMPY\x01\x00" + struct.pack("<H", len(header)) + header.encode("latin1")
    assert len(head) % 64 == 0
    return head + arr.tobytes(order="C")


def exact_values(arr) -> list:
    """The binary values of an array, widened to float64 (exact for every dtype used)."""
    return [float(v) for v in np.asarray(arr).astype(np.float64)]


def finite_ref(values, eps_list, scale=None):
    """(B, rerr), TRF for b_t = e^(v_t - scale), t = 0..L-1, nothing beyond (zero tail)."""
    M = mp.mpf(0) if scale is None else mp.mpf(scale)
    terms = [mp.exp(mp.mpf(v) - M) for v in values]
    B = mp.fsum(terms)
    rerr = B * TINY
    return (B, rerr), trf_positive_checked(terms, B, rerr, eps_list)


def linear_ref(values, eps_list, hi=10**9):
    """(B, rerr), TRF for a bias file with the linear tail (:func:`linear_tail_ref`: the
    least-squares slope of the last max(2, L // 10) binary values, exactly), TRF by bisection
    on the tails; for L <= 2000 also on the partial sums of the terms (head, then the line)."""
    B, tail, s = linear_tail_ref(values)
    assert s < 0
    out = int_trf_checked(tail, B, eps_list, hi)
    L = len(values)
    if L <= 2000 and max(out.values()) < 10**5:
        last = mp.mpf(float(values[-1]))
        K = max(out.values()) + 2
        terms = [
            mp.exp(mp.mpf(float(values[t]))) if t < L else mp.exp(last + s * (t - L + 1))
            for t in range(K)
        ]
        got = trf_positive_checked(terms, B, B * TINY, eps_list)
        assert got == out, (got, out)
    return (B, B * TINY), out


# ---------------------------------------------------------------------------------------
# Iterated logarithms
# ---------------------------------------------------------------------------------------
def loglog_f(x):
    """x^(-1 - 1/log log x)."""
    x = mp.mpf(x)
    return x ** (-1 - 1 / mp.log(mp.log(x)))


def loglog_Ia(U):
    """int_(e^U)^oo x^(-1 - 1/log log x) dx = int_U^oo e^(-u/log u) du (x = e^u)."""
    U = mp.mpf(U)
    g = lambda u: mp.exp(-u / mp.log(u))  # noqa: E731
    return mp.quad(g, [U, 2 * U, 4 * U, 16 * U, 256 * U, mp.inf])


def loglog_Ib(U):
    """The same integral with u = e^w: int_(log U)^(log U + 12) e^(w - e^w/w) dw; the rest,
    from u = e^12 U >= 1.6e5 on, is below int e^(-u/(2 log u)) < e^-6000 (not added)."""
    W = mp.log(mp.mpf(U))
    g = lambda w: mp.exp(w - mp.exp(w) / w)  # noqa: E731
    return mp.quad(g, [W, W + 1, W + 2, W + 4, W + 8, W + 12])


def inv_nlog2_Ia(U):
    """int_(e^U)^oo dx/(x log^2 x) = 1/U."""
    return 1 / mp.mpf(U)


def inv_nlog2_Ib(U):
    """The same integral by quadrature in u = log x: int_U^oo u^-2 du."""
    U = mp.mpf(U)
    return mp.quad(lambda u: u**-2, [U, 2 * U, 8 * U, mp.inf])


def check_all(only=None) -> int:
    """Compute every reference of set 16 (their two-way checks are assertions inside) and
    print it; returns the number of failures."""
    import time

    try:
        from . import heldout16_cases as C
    except ImportError:
        import heldout16_cases as C
    bad = 0
    for case in C.CASES:
        if only and case.id not in only:
            continue
        t0 = time.time()
        try:
            with mp.workdps(50):
                b = case.B() if case.B else None
                t = case.trf() if case.trf else None
                tr = case.truncated() if getattr(case, "truncated", None) else None
            txt = ""
            if b is not None:
                txt += f"B = {mp.nstr(b[0], 25)} (+- {mp.nstr(b[1], 3)})"
            if t is not None:
                txt += f"  TRF {t}"
            if tr is not None:
                txt += f"  truncated {tr}"
            if case.cond is not None:
                txt += f"  grid {len(case.cond[1])} points"
            print(f"ok   {time.time() - t0:6.1f}s {case.id}: {txt or case.verdict}", flush=True)
        except Exception as ex:  # noqa: BLE001
            bad += 1
            print(f"FAIL {time.time() - t0:6.1f}s {case.id}: {ex!r}", flush=True)
    print(f"{len(C.CASES)} cases, {bad} reference failures")
    return bad


if __name__ == "__main__":
    import sys

    raise SystemExit(1 if check_all(sys.argv[1:]) else 0)
