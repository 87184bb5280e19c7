r"""Series whose terms are all proved :math:`\le 0` (``-1/n**2``, ``-exp(-n**2)``):
B and the TRF table are those of :math:`-b_n`, with B negated.

The TRF does not change under :math:`b \to -b`: with :math:`R_k` the tail after k terms,
:math:`\mathrm{TRF}(\epsilon) = \min\{j : |R_k| < \epsilon |B| \ \forall k \ge j\}`
(``docs/conventions.md``, trf-certified) and both :math:`|R_k|` and :math:`|B|` are
unchanged; for nonnegative :math:`-b_n` it is RPE paper Eq. 22, so every engine for
nonnegative terms (exact TRFs, integral tails, lower bounds) serves.  An enclosure
:math:`[lo, hi]` of :math:`\sum (-b_n)` is the enclosure :math:`[-hi, -lo]` of B; a lower
bound :math:`S_M` of it is the upper bound :math:`-S_M` of B.

>>> from theory.series.expressions import parse_expression as P
>>> from theory.series.rpe_library import RPE
>>> r = negated_if_nonpositive(RPE("x", P("-exp(-n**2)")), 1)
>>> r is not None and str(r.b)
'exp(-n**2)'
>>> negated_if_nonpositive(RPE("y", P("sin(n)/n")), 1) is None
True
>>> str(negated_if_nonpositive(RPE("z", P("tanh(n) - 1")), 1).b)    # -(tanh(n) - 1), combined
'2/(exp(2*n) + 1)'
>>> negate_fields({"sum": "2.5", "sum_lo": "2.4", "sum_hi": "2.6", "certified": True})[
...     "sum_lo"]
'-2.6'
"""

from __future__ import annotations

import dataclasses

from theory.series.cancellation import without_cancellation
from theory.series.lower_bounds import terms_nonnegative
from theory.series.rpe_library import RPE


def negated_if_nonpositive(rpe: RPE, n0: int) -> RPE | None:
    """The series of -b_n when every term b_n (n >= n0) is proved <= 0 and not proved >= 0
    (a learned bias's terms are positive: None), else None.  The terms written without
    their cancellation (:func:`theory.series.cancellation.without_cancellation`:
    ``tanh(n) - 1`` = ``(e^(2n) - 1)/(e^(2n) + 1) - 1`` = ``-2/(e^(2n) + 1)``) are tried
    first: the same terms, summed without cancellation."""
    if rpe.head is not None or rpe.free_params or terms_nonnegative(rpe.b, n0):
        return None
    rewritten = without_cancellation(rpe.b) if n0 >= 1 else None
    for b in (rewritten[0] if rewritten else None, rpe.b):
        if b is not None and terms_nonnegative(-b, n0):
            return dataclasses.replace(rpe, b=-b)
    return None


def _neg(text: str | None) -> str | None:
    if text is None:
        return None
    return text[1:] if text.startswith("-") else "-" + text


def negate_fields(fields: dict) -> dict:
    """The --json fields of the sum of -b_n turned into those of B = -(that sum)."""
    out = dict(fields)
    note = "the terms are proved <= 0: B = -(sum of -b_n), computed on -b_n; "
    if fields.get("certified"):
        out["sum"] = _neg(fields.get("sum"))
        out["sum_lo"], out["sum_hi"] = _neg(fields.get("sum_hi")), _neg(fields.get("sum_lo"))
        if "sum_certificate" in fields:
            out["sum_certificate"] = note + fields["sum_certificate"]
    elif fields.get("sum_lo") is not None:  # S_M <= sum of -b_n, i.e. B <= -S_M
        out["sum_lo"], out["sum_hi"] = None, _neg(fields["sum_lo"])
        out["sum_status"] = (
            f"upper bound only: B <= {out['sum_hi']} ("
            + fields.get("sum_status", "")
            .removeprefix("lower bound only: ")
            .replace("B >=", "the sum of -b_n is >=")
            .replace("every term >= 0", "every term of -b_n >= 0")
            + ")"
        )
    if fields.get("asymptotic"):
        out["asymptotic"] = fields["asymptotic"] + "  (of -b_n: B there is -B)"
    return out
