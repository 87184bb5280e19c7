"""Independent references for held-out set 10: B and TRF(eps) by mpmath at 50 digits.

Nothing here calls the project's code.  The helpers of sets 7-9 are re-exported
(:func:`eps_mp`, :func:`trf_from_tail`, :func:`trf_from_terms`, :func:`direct_sum`,
:func:`em_tail`, :func:`smooth_sum`, :func:`signed_terms_trf`, :func:`linear_tail_ref`,
:func:`stretched_tail`); the ones added here state what they rely on:

* :func:`hurwitz_log10_trf` -- ``c zeta(s, a + j)`` with ``s`` just above 1 and ``j`` huge:
  ``zeta(s, x) = x^(1-s)/(s-1) + x^(-s)/2 + O(x^(-s-1))`` (Euler-Maclaurin), so the least
  ``j`` with ``c zeta(s, a + j) < eps B`` has ``log10 j = -log10(eps B (s-1)/c)/(s-1)`` up
  to a relative ``(s-1)/j``, far below the tolerance at the ``j`` of the cases.
* :func:`two_ways` -- a numeric sum (mpmath ``nsum``) accepted only where a second,
  independent evaluation agrees; the error is ten times their difference.
"""

from __future__ import annotations

import mpmath as mp

try:
    from .heldout7_reference import em_tail  # noqa: F401
    from .heldout8_reference import smooth_sum  # noqa: F401
    from .heldout9_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )
except ImportError:  # run as a script from this folder
    from heldout7_reference import em_tail  # noqa: F401
    from heldout8_reference import smooth_sum  # noqa: F401
    from heldout9_reference import (  # noqa: F401
        DPS,
        direct_sum,
        eps_mp,
        linear_tail_ref,
        signed_terms_trf,
        stretched_tail,
        trf_from_tail,
        trf_from_terms,
        trf_signed,
    )


def hurwitz_log10_trf(s, c, B, eps_list, tol=1e-6) -> dict:
    """{eps: ("log10", log10 TRF, tol)} of the tail c zeta(s, a + j) against B (s near 1)."""
    s = mp.mpf(s)
    return {
        e: ("log10", float(-mp.log10(eps_mp(e) * B * (s - 1) / c) / (s - 1)), tol) for e in eps_list
    }


def two_ways(first, second, floor=mp.mpf(10) ** -30):
    """(value, error) of a sum two independent ways: they must agree to 1e-20."""
    a, b = first(), second()
    assert abs(a - b) < mp.mpf(10) ** -20 * max(1, abs(a)), (a, b)
    return a, 10 * abs(a - b) + floor
