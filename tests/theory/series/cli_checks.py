"""Checks of one ``python -m theory.trf --json`` answer against terms computed with mpmath."""

from __future__ import annotations

import mpmath


def assert_certified_by_terms(out: dict, terms: list, rel_width: int = 18) -> None:
    """The enclosure of B holds the sum of ``terms`` (mpmath values of b_1, b_2, ..., whose
    rest is below the enclosure's width) and is narrower than 10^-rel_width relative; each
    TRF is exact and is the least j with R_j < eps B <= R_(j-1), R_j = B - (b_1 + ... + b_j)."""
    assert out["certified"], out.get("sum_error")
    B = mpmath.fsum(terms)
    lo, hi = mpmath.mpf(out["sum_lo"]), mpmath.mpf(out["sum_hi"])
    assert lo <= B <= hi and hi - lo < B * mpmath.mpf(10) ** -rel_width, (lo, B, hi)
    for t in out["trf"]:
        j, eps = t["value"], mpmath.mpf(repr(t["eps"]))
        assert t["exact"], t
        R_j, R_prev = B - mpmath.fsum(terms[:j]), B - mpmath.fsum(terms[: j - 1])
        assert R_j < eps * B <= R_prev, (out["series"], t)
