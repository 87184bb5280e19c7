"""The verdict part of the ``python -m theory.trf`` report, in the standard library only: the
quick path of ``--verdict-only`` (:mod:`theory.trf.quick`) prints it without loading sympy,
and the full analysis (:mod:`theory.trf.analysis`) prints the same lines before B and TRF.

>>> out = {"series": "n**(-2)", "name": "1/n**2", "description": "user formula", "start": 1,
...        "converges": True, "certificate": "p-series", "condition": None}
>>> verdict_lines(out)[2]
'verdict:     CONVERGES'
"""

from __future__ import annotations

#: the help of ``--verdict-only``
VERDICT_ONLY_HELP = (
    "print the verdict and its certificate only (no B, no TRF): what Thm 3.4 asks; a "
    "formula whose size the asymptotic scale n^a log(n)^b ... settles is decided without "
    "loading sympy (default: off)"
)
#: the ``decided_by`` field of a ``--verdict-only`` answer
FULL_ENGINE = "full engine"
QUICK_ENGINE = "asymptotic scale (quick path, without sympy)"
#: the longest series text printed whole
SHORT = 160


def answer_fields(
    *,
    series: str,
    name: str,
    description: str,
    params: dict,
    free_params: list,
    start: int,
    time_limit: float,
    converges: bool | None,
    certificate: str,
    condition: str | None,
) -> dict:
    """The ``--json`` object of an answer, before B and TRF fill in their fields."""
    return {
        "series": series,
        "name": name,
        "description": description,
        "params": params,
        "free_params": free_params,
        "start": start,
        "time_limit": time_limit,
        "converges": converges,
        "certificate": certificate,
        "condition": condition,
        "extrapolates_by_thm_3_4": True if converges else None,
        "sum": None,
        "sum_lo": None,
        "sum_hi": None,
        "certified": False,
        "sum_error_bound": None,
        "sum_digits": None,
        "trf": [],
        "asymptotic": None,
    }


def shortened(text: str) -> str:
    """``text``, or its first 150 characters marked as shortened past SHORT (a formula with
    a 400-digit exponent; --json keeps it whole)."""
    return text if len(text) <= SHORT else text[:150] + " ... (shortened)"


def verdict_lines(out: dict) -> list[str]:
    """The lines of the series, its start, the verdict, its certificate and Thm 3.4."""
    series = shortened(out["series"])
    if out.get("head_terms"):
        head = out["head_terms"]
        series = f"{head} given values (distances 0..{head - 1}), then b_n = {series}"
    else:
        series = f"b_n = {series}"
    lines = [
        f"series:      {series}   ({out['name']}: {out['description']})",
        f"start:       n = {out['start']}  (term k = b_(start+k) is the weight at distance k)",
    ]
    if out.get("head_terms"):
        lines.append(
            f"learned:     {out['head_terms']} given values; beyond: {out['tail_assumption']}"
        )
    verdict = {True: "CONVERGES", False: "DIVERGES", None: "UNDECIDED"}[out["converges"]]
    lines += [f"verdict:     {verdict}", f"certificate: {out['certificate']}"]
    if out.get("decided_by"):
        lines.append(f"decided by:  {out['decided_by']}")
    if out["condition"]:
        lines.append(f"condition:   {out['condition']}")
    lines.append(
        "Thm 3.4:     "
        + (
            "the series converges: the RPE satisfies the paper's sufficient "
            "condition for length extrapolation"
            if out["converges"]
            else "the sufficient condition (a convergent series) is not established"
        )
    )
    return lines
