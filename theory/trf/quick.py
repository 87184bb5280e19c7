r"""The quick path of ``python -m theory.trf --verdict-only``: a formula whose term size the
asymptotic scale settles (:mod:`theory.series.scale_verdict`) is decided without importing
sympy, so the whole process costs about what Python's start does.  Everything else (named
RPEs, parameters, files, any other option, a formula the scale leaves open) goes to the full
analysis, :mod:`theory.trf.analysis`, which reads and decides it as before.

Only this form is taken here: ``--verdict-only``, ``--rpe FORMULA``, and optionally
``--start N``, ``--time-limit SECONDS`` and ``--json``, each once and written in full (the
full parser also takes abbreviations and reports errors; it reads everything else).

>>> quick_answer(["--rpe", "1/n**2", "--verdict-only"])["converges"]
True
>>> quick_answer(["--rpe", "type1", "--verdict-only"]) is None    # a named RPE: full analysis
True
"""

from __future__ import annotations

import math
from collections.abc import Sequence

from theory.series.scale_verdict import quick_verdict
from theory.trf.report import QUICK_ENGINE, answer_fields

#: the options of the quick path and whether each takes a value
OPTIONS = {
    "--verdict-only": False,
    "--rpe": True,
    "--start": True,
    "--time-limit": True,
    "--json": False,
}
DEFAULT_TIME_LIMIT = 10.0  # as theory.trf.analysis.DEFAULT_TIME_LIMIT (a test checks both)


def quick_request(argv: Sequence[str]) -> dict | None:
    """The options of ``argv`` when they have the quick path's form, else None."""
    seen: dict = {}
    args = list(argv)
    i = 0
    while i < len(args):
        a = args[i]
        name, eq, value = a.partition("=")
        if name not in OPTIONS or name in seen:
            return None
        if OPTIONS[name]:
            if not eq:
                if i + 1 >= len(args) or args[i + 1].startswith("-"):
                    return None
                value = args[i + 1]
                i += 1
            seen[name] = value
        elif eq:
            return None
        else:
            seen[name] = True
        i += 1
    if "--verdict-only" not in seen or "--rpe" not in seen:
        return None
    try:
        start = int(seen.get("--start", "1"))
        limit = float(seen.get("--time-limit", DEFAULT_TIME_LIMIT))
    except ValueError:
        return None
    if start < 0 or not (math.isfinite(limit) and 0 < limit <= 3600):
        return None
    return {"rpe": seen["--rpe"], "start": start, "time_limit": limit, "json": "--json" in seen}


def quick_answer(argv: Sequence[str]) -> dict | None:
    """The ``--json`` object of a ``--verdict-only`` answer from the quick path, or None
    (the full analysis answers)."""
    req = quick_request(argv)
    if req is None:
        return None
    verdict = quick_verdict(req["rpe"], req["start"])
    if verdict is None:
        return None
    text = req["rpe"].strip()
    out = answer_fields(
        series=text,
        name=text,
        description="user formula",
        params={},
        free_params=[],
        start=req["start"],
        time_limit=req["time_limit"],
        converges=verdict.converges,
        certificate=verdict.certificate,
        condition=None,
    )
    out.update(verdict_only=True, decided_by=QUICK_ENGINE)
    return out
