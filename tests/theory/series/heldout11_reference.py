"""Independent references for held-out set 11: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  The helpers of sets 7-10 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`direct_sum`,
:func:`em_tail`, :func:`smooth_sum`, :func:`signed_terms_trf`, :func:`linear_tail_ref`,
:func:`stretched_tail`, :func:`two_ways`); the ones added here state what they rely on:

* :func:`ratio_terms` -- the first K terms of a hypergeometric-type series from its first
  term and the exact term ratio (no factorials evaluated, no cancellation).
* :func:`gamma_ratio_tail` -- ``sum_{n >= m} Gamma(n + a)/Gamma(n + b) =
  Gamma(m + a)/((b - a - 1) Gamma(m + b - 1))`` for ``b - a > 1`` (telescoping:
  ``Gamma(n+a)/Gamma(n+b) = (Gamma(n+a)/Gamma(n+b-1) - Gamma(n+a+1)/Gamma(n+b))/(b-a-1)``).
"""

from __future__ import annotations

import mpmath as mp

try:
    from .heldout10_reference import (  # noqa: F401
        DPS,
        direct_sum,
        em_tail,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        smooth_sum,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
        two_ways,
    )
except ImportError:  # run as a script from this folder
    from heldout10_reference import (  # noqa: F401
        DPS,
        direct_sum,
        em_tail,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        smooth_sum,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
        two_ways,
    )


def ratio_terms(first, ratio, start, K) -> list:
    """[t_start, ..., t_(start+K-1)] with t_(n+1) = t_n * ratio(n)."""
    t, out = mp.mpf(first), []
    for n in range(start, start + K):
        out.append(t)
        t = t * ratio(n)
    return out


def gamma_ratio_tail(a, b, m):
    """sum_{n >= m} Gamma(n + a)/Gamma(n + b), b - a > 1 (telescoping, see the module)."""
    a, b = mp.mpf(a), mp.mpf(b)
    return mp.gamma(m + a) / ((b - a - 1) * mp.gamma(m + b - 1))
