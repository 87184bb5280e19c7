"""What the series engine returns: B with its enclosure (:class:`SeriesSum`) and one value of
the Theoretical Receptive Field (:class:`TRF`, RPE paper Eq. 22)."""

from __future__ import annotations

from dataclasses import dataclass

import mpmath

DPS = 40


#: the definition of TRF for terms of both signs (the conventions page)
TAIL_RULE = "tail rule: min j with |R_k| < eps |B| for every k >= j (signed terms)"


@dataclass
class SeriesSum:
    """B = sum_{k>=0} b_{start+k}: an estimate ``value`` with ``error_bound``, and, when
    ``certified``, a guaranteed enclosure ``lo <= B <= hi`` (ball arithmetic, see
    :mod:`theory.series.enclosure`).  Uncertified sums carry ``lo = hi = None``."""

    value: mpmath.mpf
    error_bound: mpmath.mpf
    start: int
    method: str
    assumptions: str = ""
    lo: mpmath.mpf | None = None
    hi: mpmath.mpf | None = None
    certified: bool = False
    certificate: str = ""
    #: certified TRF brackets (the CLI's --json dicts) from the engine that enclosed B,
    #: computed beside B where they need no second build of it; None otherwise
    trf_brackets: list | None = None

    def digits(self) -> int:
        """Correct significant digits guaranteed by the enclosure (0 when not certified)."""
        if not self.certified:
            return 0
        width = (self.hi - self.lo) / 2
        if width == 0:
            return DPS
        if self.value == 0:  # an enclosure of B centred on 0: no digit of B is known
            return 0
        return max(0, int(mpmath.floor(mpmath.log10(abs(self.value) / width))))


# A crossing proved in closed form (geometric, n^k q^n tails, ball arithmetic) is exact at
# any size; up to here (a float64 still holds it) it is given as the integer, in --json too;
# beyond, to 30 digits, marked not exact
CLOSED_FORM_EXACT_LIMIT = 10**308


@dataclass
class TRF:
    """TRF(eps): ``value`` is an int when ``exact``; else an mpf with ``relative_accuracy``."""

    eps: float
    value: object
    exact: bool
    log10: float | None
    log10_log10: float | None = None
    relative_accuracy: float | None = None
    definition: str = "Eq. 22 (full series)"
    note: str = ""
    lower_bound: int | None = None  # a certified TRF(eps) >= lower_bound when value is None
    upper_bound: int | None = None  # with lower_bound: a certified bracket around an estimate
    log10_bracket: list | None = None  # [lo, hi]: a certified bracket of log10 TRF (beyond 10^15)

    def as_dict(self) -> dict:
        v = self.value
        if isinstance(v, int):
            value = v
        elif v is None:
            value = None
        elif self.log10 is not None and self.log10 < 300:
            value = float(v)
        elif self.log10 is not None and self.log10 < 1e15:
            # 17 digits: the printed value's rounding (5e-17) stays far inside any stated
            # relative accuracy (12 digits rounded 1.0599332521874e318 by 2.4e-12 > 1e-12)
            value = mpmath.nstr(v, 17)
        elif self.log10 is not None:
            value = f"10^{self.log10:.12g}"
        elif self.log10_log10 is not None:
            value = f"10^(10^{self.log10_log10:.12g})"
        else:
            value = None
        out = {
            "eps": self.eps,
            "value": value,
            "exact": self.exact,
            "log10": self.log10,
            "definition": self.definition,
        }
        if self.log10_log10 is not None:
            out["log10_log10"] = self.log10_log10
        if self.relative_accuracy is not None:
            out["relative_accuracy"] = self.relative_accuracy
        if self.note:
            out["note"] = self.note
        if self.lower_bound is not None:
            out["lower_bound"] = self.lower_bound
        if self.upper_bound is not None:
            out["upper_bound"] = self.upper_bound
        if self.log10_bracket is not None:
            out["log10_bracket"] = self.log10_bracket
        return out
