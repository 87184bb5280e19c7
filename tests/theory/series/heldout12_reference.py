"""Independent references for held-out set 12: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  The helpers of sets 7-11 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`direct_sum`,
:func:`em_tail`, :func:`smooth_sum`, :func:`signed_terms_trf`, :func:`linear_tail_ref`,
:func:`stretched_tail`, :func:`two_ways`, :func:`ratio_terms`, :func:`gamma_ratio_tail`);
the ones added here state what they rely on:

* :func:`trf_any` -- the least ``j`` with ``R(j) < eps B`` for a nonincreasing tail ``R``
  by bisection on ``[0, 10^60]``; an integer below 10^12, beyond it ``("log10", log10 j,
  1e-9)`` (the crossing of a tail that is smooth in ``j``: the log10 to far better than
  1e-9).
* :func:`log_scale_trf` -- a tail known as a function of ``t = log M`` (an integral-test
  tail ``I(M) + b_M/2``, ``M`` beyond 10^12, where ``b_M/I(M) < 1e-12``): the crossing
  ``t`` by bisection, ``log10 TRF = t/ln 10`` (the start and the rounding change it by
  less than 1e-12).
* :func:`exp_series_tail` -- ``sum_{n > j} sum_k c_k q_k^n = sum_k c_k q_k^(j+1)/(1 - q_k)``
  for the power series of an analytic function at ``e^-n`` (absolutely convergent double
  series: the order of summation is free).
"""

from __future__ import annotations

import mpmath as mp

try:
    from .heldout11_reference import (  # noqa: F401
        DPS,
        direct_sum,
        em_tail,
        eps_mp,
        gamma_ratio_tail,
        linear_tail_ref,
        ratio_terms,
        signed_terms_trf,
        smooth_sum,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout11_reference import (  # noqa: F401
        DPS,
        direct_sum,
        em_tail,
        eps_mp,
        gamma_ratio_tail,
        linear_tail_ref,
        ratio_terms,
        signed_terms_trf,
        smooth_sum,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
        two_ways,
    )


def trf_any(R, B, eps_list, hi=10**60) -> dict:
    """{eps: least j with R(j) < eps B} (R nonincreasing), an int below 10^12, else
    ("log10", log10 j, 1e-9)."""
    out = {}
    for e in eps_list:
        thr = B * eps_mp(e)
        assert R(hi) < thr, ("bracket too small", e)
        if R(0) < thr:
            out[e] = 0
            continue
        lo, up = 0, hi
        while up - lo > 1:
            mid = (lo + up) // 2
            lo, up = (lo, mid) if R(mid) < thr else (mid, up)
        out[e] = up if up < 10**12 else ("log10", float(mp.log10(up)), 1e-9)
    return out


def log_scale_trf(R_of_t, B, eps_list, t_lo, t_hi) -> dict:
    """{eps: ("log10", t/ln 10, 1e-9)}, t = log M the crossing R(t) = eps B of a tail
    decreasing in t (bisection to 1e-30 relative)."""
    out = {}
    for e in eps_list:
        thr = B * eps_mp(e)
        lo, hi = mp.mpf(t_lo), mp.mpf(t_hi)
        assert R_of_t(lo) > thr > R_of_t(hi), ("bracket", e)
        while hi - lo > hi * mp.mpf(10) ** -30:
            mid = (lo + hi) / 2
            lo, hi = (lo, mid) if R_of_t(mid) < thr else (mid, hi)
        assert hi > 12 * mp.log(10), "crossing below 10^12: use an integer reference"
        out[e] = ("log10", float(hi / mp.log(10)), 1e-9)
    return out


def exp_series_tail(coef, rate, K=200):
    """j -> sum_k coef(k) e^(-rate(k) (j + 1))/(1 - e^(-rate(k))), k = 1..K (see the
    module: sum_{n > j} of sum_k coef(k) e^(-rate(k) n))."""

    def R(j):
        return mp.fsum(
            coef(k) * mp.exp(-rate(k) * (j + 1)) / -mp.expm1(-rate(k)) for k in range(1, K + 1)
        )

    return R
