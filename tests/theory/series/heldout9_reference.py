"""Independent references for held-out set 9: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  The helpers of sets 7 and 8 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`trf_signed`,
:func:`direct_sum`, :func:`signed_terms_trf`, :func:`linear_tail_ref`); the one added here
states what it relies on:

* :func:`stretched_tail` -- ``sum_{t >= N} e^(-k t^r) <= e^(-k N^r) + Gamma(1/r, k N^r)/
  (r k^(1/r))`` (the term at N plus the integral of the decreasing function beyond it).
"""

from __future__ import annotations

import mpmath as mp

try:
    from .heldout8_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )
except ImportError:  # run as a script from this folder
    from heldout8_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )


def stretched_tail(k, r):
    """The tail bound U(N) of e^(-k t^r) (k, r > 0; decreasing in t)."""

    def U(N):
        x = k * mp.mpf(N) ** r
        return mp.exp(-x) + mp.gammainc(1 / r, x) / (r * k ** (1 / r))

    return U
