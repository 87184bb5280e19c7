"""Reference machinery of held-out set 6 (independent of ``theory``: mpmath only).

Every reference is a closed form, or mpmath at 40+ digits: a head summed term by term and a
tail given by the Euler-Maclaurin formula

    sum_(n>=a) f(n) = int_a^oo f + f(a)/2 - sum_(k=1..K) B_(2k)/(2k)! f^(2k-1)(a) + R_K,

whose remainder, for the smooth terms used here (f^(j)(x) = f(x) O(x^-j) with derivatives of
one sign on [a, oo)), is at most the size of the first omitted correction; the functions below
return that size as the error bound, and the cases pick a large enough that it is below 1e-30.
TRF(eps) (RPE paper, Eq. 22) of a series of positive terms is the least N with
R_N < eps B, R_N = sum_(k>=N) b_(start+k) the tail after N terms (the partial sum then
exceeds B (1 - eps)); eps is the decimal the user typed.
"""

from __future__ import annotations

from collections.abc import Callable
from fractions import Fraction

import mpmath as mp

DPS = 60


def em_tail(f: Callable, integral: Callable, a, K: int = 6) -> tuple:
    """(sum_(n>=a) f(n), bound on the remainder) by Euler-Maclaurin at the integer a."""
    with mp.workdps(DPS + 20):
        a = mp.mpf(a)
        s = integral(a) + f(a) / 2
        last = mp.mpf(0)
        for k in range(1, K + 2):
            term = mp.bernoulli(2 * k) / mp.factorial(2 * k) * mp.diff(f, a, 2 * k - 1)
            if k <= K:
                s -= term
            else:
                last = abs(term)
        return +s, last


def positive_series_sum(f: Callable, integral: Callable, start: int, a: int, K: int = 6):
    """B = sum_(n>=start) f(n): head start..a-1 term by term, the rest by em_tail."""
    with mp.workdps(DPS + 20):
        head = mp.fsum(f(mp.mpf(n)) for n in range(start, a))
        tail, err = em_tail(f, integral, a, K)
        return head + tail, err


def trf_positive(tail_after: Callable[[int], mp.mpf], B, eps: str, hi: int = 10**6):
    """Least N with tail_after(N) < eps B by bisection (tail_after decreasing in N)."""
    target = mp.mpf(Fraction(eps).numerator) / Fraction(eps).denominator * B
    lo = 0
    if tail_after(0) < target:
        return 0
    while tail_after(hi) >= target:
        lo, hi = hi, hi * 4
    while hi - lo > 1:
        mid = (lo + hi) // 2
        if tail_after(mid) < target:
            hi = mid
        else:
            lo = mid
    return hi


def decimal(eps: str):
    fr = Fraction(eps)
    return mp.mpf(fr.numerator) / fr.denominator


def bias_reference(values: list, tail: str, eps_list: list) -> dict:
    """B and TRF of a learned bias (distances 0..L-1, start 0) from the exact binary values.

    Tails as documented for --bias-tail: constant (diverges: exp(last) > 0 forever), zero
    (B is the finite sum), linear: b_n = exp(last + s (n - (L-1))) for n >= L, s the
    least-squares slope of the last m = max(2, L // 10) values (exact rationals): B = head +
    e^last q/(1 - q), q = e^s, converges iff s < 0.  All exp's at DPS digits of the exact
    rationals; values with |v| > 1e4 are handled as B = e^M x (scaled sum), M = max value.
    """
    fr = [Fraction(v) for v in values]
    L = len(fr)
    M = max(fr)
    scale = M if abs(M) > 10_000 else Fraction(0)
    with mp.workdps(450):  # a slope of 2^-1074 puts TRF near 10^323: every digit counts

        def ex(x: Fraction):
            return mp.exp(mp.mpf(x.numerator) / x.denominator)

        head = [ex(v - scale) for v in fr]
        out: dict = {"scale": scale}
        if tail == "constant":
            out["converges"] = False
            return out
        if tail == "zero":
            B = mp.fsum(head)
            out.update(converges=True, B=B)

            def tail_after(N):
                return mp.fsum(head[N:]) if N < L else mp.mpf(0)

        else:
            m = max(2, L // 10)
            ys = fr[-m:]
            xm, ym = Fraction(m - 1, 2), sum(ys) / m
            s = sum((i - xm) * (v - ym) for i, v in enumerate(ys)) / sum(
                (i - xm) ** 2 for i in range(m)
            )
            out["slope"] = s
            if s >= 0:
                out["converges"] = False
                return out
            sm = mp.mpf(s.numerator) / s.denominator
            last = head[-1]
            geo = last / mp.expm1(-sm)  # last q/(1-q), q = e^s, exact for tiny |s|
            B = mp.fsum(head) + geo
            out.update(converges=True, B=B)

            def tail_after(N):
                if N < L:
                    return mp.fsum(head[N:]) + geo
                return last * mp.exp(sm * (N - L + 1)) / -mp.expm1(sm)

        trf = {}
        for eps in eps_list:
            target = decimal(eps) * B
            if tail == "linear" and tail_after(L) < target:
                N = next(N for N in range(L + 1) if tail_after(N) < target)
            elif tail == "linear":
                # last q^(N-L+1)/(1-q) < target  <=>  N - L + 1 > ln(target (1-q)/last)/s
                x = mp.log(target * -mp.expm1(sm) / last) / sm
                N = int(mp.floor(x)) + L
                while tail_after(N) >= target:
                    N += 1
                while N > L and tail_after(N - 1) < target:
                    N -= 1
            else:
                N = next(N for N in range(L + 1) if tail_after(N) < target)
            trf[eps] = N
        out["trf"] = trf
        return out
