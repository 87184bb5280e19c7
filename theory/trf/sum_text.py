"""B and the TRF table of ``python -m theory.trf`` as printed: the ``--json`` fields of B
(an enclosure when certified, else the estimate alone; a scaled sum as ``exp(M) x`` its
bracket) and the human report that follows the verdict lines of :mod:`theory.trf.report`.

>>> scale_text(sp.Rational(10) ** 308), scale_text(sp.Rational(-7, 2)), scale_text(-3.2)
('1e308', '-7/2', '-3.2')
>>> times_scale("1.5", sp.Integer(-40))
'exp(-4e1) x 1.5'
"""

from __future__ import annotations

import mpmath
import sympy as sp

from theory.series.expressions import binary_value
from theory.series.results import SeriesSum
from theory.trf.brackets import bracket_text
from theory.trf.outward import outward
from theory.trf.report import shortened, verdict_lines


def exact_scale(log_scale: float | sp.Rational) -> sp.Rational:
    """M exactly: a bias value's float64 (its binary value) or a formula's rational."""
    return binary_value(log_scale) if isinstance(log_scale, float) else sp.Rational(log_scale)


def scale_text(log_scale: float | sp.Rational) -> str:
    """M as printed, exactly: a float64's repr, or a rational m*10^k as ``me k``
    (10**308 -> ``1e308``), else p/q."""
    if isinstance(log_scale, float):
        return repr(log_scale)
    p, q = int(log_scale.p), int(log_scale.q)
    if q == 1 and p % 10 == 0:
        digits = str(abs(p)).rstrip("0")
        return f"{'-' if p < 0 else ''}{digits}e{len(str(abs(p))) - len(digits)}"
    return str(log_scale)


def times_scale(text: str, log_scale: float | sp.Rational | None) -> str:
    """A number of B's bracket as printed: itself, or ``exp(M) x`` it for a scaled sum."""
    return text if log_scale is None else f"exp({scale_text(log_scale)}) x {text}"


def scale_fields(log_scale: float | sp.Rational) -> dict:
    """The scale of B in the --json object: B = exp(M) x [sum_scaled_lo, sum_scaled_hi]."""
    if not isinstance(log_scale, float):
        return {
            "sum_log_scale": scale_text(log_scale),
            "sum_log_scale_exact": str(log_scale),
            "sum_scale_note": "B = exp(M) x the scaled bracket; M (sum_log_scale, exactly "
            "sum_log_scale_exact) is the constant term of log b_n",
        }
    return {
        "sum_log_scale": repr(log_scale),
        "sum_log_scale_hex": log_scale.hex(),
        "sum_scale_note": "B = exp(M) x the scaled bracket; M (sum_log_scale) is the "
        "largest bias value, the float64 whose exact value sum_log_scale_hex gives",
    }


def sum_fields(S: SeriesSum, log_scale: float | sp.Rational | None = None) -> dict:
    """B for the JSON object: an enclosure [sum_lo, sum_hi] when certified, else only the
    estimate (no error bound is claimed).  With ``log_scale`` M, S is the sum of the series
    divided by exp(M): every number of B is then the string ``exp(M) x <number>``, and the
    numbers alone are in ``sum_scaled``, ``sum_scaled_lo``, ``sum_scaled_hi``."""
    out = {
        "sum": times_scale(mpmath.nstr(S.value, 20), log_scale),
        "sum_method": S.method,
        "sum_assumptions": S.assumptions,
        "certified": bool(S.certified),
        "sum_lo": None,
        "sum_hi": None,
        "sum_error_bound": None,
        "sum_digits": None,
    }
    if log_scale is not None:
        out.update(scale_fields(log_scale))
        out["sum_scaled"] = mpmath.nstr(S.value, 20)
    if S.certified:
        with mpmath.workdps(60):
            lo, hi = outward(S.lo, -1), outward(S.hi, +1)
            out.update(
                {
                    "sum_lo": times_scale(lo, log_scale),
                    "sum_hi": times_scale(hi, log_scale),
                    "sum_error_bound": times_scale(mpmath.nstr(S.error_bound, 3), log_scale),
                    "sum_digits": S.digits(),
                    "sum_certificate": S.certificate,
                }
            )
            if log_scale is not None:
                out.update({"sum_scaled_lo": lo, "sum_scaled_hi": hi})
    return out


def _human_sum(out: dict) -> str:
    scale = out.get("sum_log_scale")
    times = "" if scale is None else f"exp({scale}) x "
    lo = out["sum_lo"] if scale is None else out.get("sum_scaled_lo")
    if out.get("certified"):
        hi = out["sum_hi"] if scale is None else out["sum_scaled_hi"]
        line = (
            f"B:           {times}[{lo}, {hi}]  certified "
            f"({out['sum_digits']} digits, ball arithmetic)"
        )
    elif out.get("sum_lo") is not None:
        line = f"B:           {times}[{lo}, unknown]  ({out['sum_status']})"
    else:
        return f"B:           {out.get('sum_status', 'no estimate')}"
    if scale is not None and "sum_log_scale_hex" in out:
        line += (
            f"\n             {scale} = the largest bias value (the float64 "
            f"{out['sum_log_scale_hex']}, exactly)"
        )
    elif scale is not None:
        line += f"\n             {scale} = the constant term of log b_n, exactly"
    return line


def _human_trf(t: dict) -> str:
    v = t["value"]
    if bracket_text(t, outward) is not None:
        v = bracket_text(t, outward)
    elif v is None and t.get("lower_bound") is not None:
        v = f">= {t['lower_bound']}"
    elif v is None and t.get("upper_bound") is not None:
        v = f"<= {t['upper_bound']}"
    elif not t["exact"] and t.get("upper_bound") is not None:
        lower = "?" if t.get("lower_bound") is None else t["lower_bound"]
        v = f"{v} (in [{lower}, {t['upper_bound']}])"
    elif not t["exact"] and t.get("relative_accuracy") is not None:
        v = f"{v} (rel. acc. {t['relative_accuracy']:.1e})"
    elif v is None and t.get("note", "").startswith("not determined"):
        v = "not determined (B ~ 0)"
    return f"  {t['eps']:>10g}  {v!s:>26}  {'yes' if t['exact'] else 'no'}"


def human_text(out: dict) -> str:
    lines = verdict_lines(out)
    if out.get("sum_error"):
        lines.append(f"enclosure:   none ({out['sum_error']})")
    if out["converges"] and not out["free_params"] and not out.get("verdict_only"):
        lines.append(_human_sum(out))
        if out.get("trf_error"):
            lines.append(f"TRF:         none ({out['trf_error']})")
        if out["trf"]:
            lines.append(f"TRF ({out['trf'][0]['definition']}):")
            lines.append(f"  {'eps':>10}  {'TRF':>26}  exact")
            lines += [_human_trf(t) for t in out["trf"]]
        lines.append(
            f"asymptotic:  {shortened(out['asymptotic'] or 'not derived for this series')}"
        )
    if "trf_truncated" in out:
        lines.append(f"TRF, {out['trf_truncated'][0]['definition']} -- NOT Eq. 22:")
        lines += [f"  {t['eps']:>10g}  {t['value']:>26}" for t in out["trf_truncated"]]
    if "comparison" in out:
        lines.append(f"Thm 3.5 vs {out['comparison']['other']}: {out['comparison']['statement']}")
    return "\n".join(lines)
