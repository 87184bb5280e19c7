"""Table numbers of the attention-alignment paper that follow from other printed numbers
or from a formula, computed from the printed tables (:mod:`theory.papers.align`)
when called.

* the 'w/ log_{L_ex} L_tr' rows of Tables 8-11: :math:`\\tau = \\ln L_{tr}/\\ln L_{ex}`
  rounded to two decimals;
* the 'Avg.' columns of Tables 3-5 and the Improvement rows of Table 5 (against Table
  14's breakdown), checked with interval arithmetic: each displayed entry stands for an
  interval of half a unit of its last digit;
* the log rule against Algorithm 1's rows of Tables 8-11.

.. math:: \\tau = \\log_{L_{ex}} L_{tr} = \\frac{\\ln L_{tr}}{\\ln L_{ex}}

>>> log_rule_table_check(log_row(TABLE8))["all_match"]
True
"""

from __future__ import annotations

import math
from decimal import Decimal

from paper_checks.inferred import NotComputable
from theory.papers.align import (
    TABLE4,
    TABLE5,
    TABLE8,
    TABLE9,
    TABLE10,
    TABLE11,
    TABLE14,
)


def log_row(table: dict) -> dict:
    """The 'w/ log' row of a printed table of :mod:`theory.papers.align` as its
    columns: ``{"L_tr", "columns": [(L_ex, printed tau)]}``; for Table 9, whose lengths
    are not stated, ``[(task, label, printed tau)]`` and the stated ``max_range``.

    >>> log_row(TABLE10)["columns"][0]
    (1700, '0.84')
    """
    taus = table["w/ log"].split()
    if "L_ex" in table:
        return {"L_tr": table["L_tr"], "columns": list(zip(table["L_ex"], taus))}
    return {
        "L_tr": table["L_tr"],
        "max_range": table["max_range"],
        "columns": [(task, label, tau) for (task, label), tau in zip(table["columns"], taus)],
    }


def algorithm1_rows() -> dict:
    """Algorithm 1's temperatures of Tables 8-11 with the log row of the same table:
    ``{(table, model): (P_max row, H row, log row)}``, rows as printed."""
    tables = {"8": TABLE8, "9": TABLE9, "10": TABLE10, "11": TABLE11}
    return {
        (number, model): (p, h, table["w/ log"])
        for number, table in tables.items()
        for model, (p, h) in table["Algorithm 1"].items()
    }


def log_rule_nearest() -> dict:
    """Per table and model: in how many columns the log rule's tau is closer to
    Algorithm 1's P_max-aligned tau than to its entropy-aligned tau (ties counted apart).

    >>> log_rule_nearest()[("11", "CodeT5+")]["closer_to_pmax"]
    14
    """
    out = {}
    for key, rows in algorithm1_rows().items():
        p, h, lg = ([float(x) for x in r.split()] for r in rows)
        assert len(p) == len(h) == len(lg), key
        dp = [abs(a - b) for a, b in zip(lg, p)]
        dh = [abs(a - b) for a, b in zip(lg, h)]
        out[key] = {
            "columns": len(p),
            "closer_to_pmax": sum(a < b - 1e-9 for a, b in zip(dp, dh)),
            "closer_to_entropy": sum(b < a - 1e-9 for a, b in zip(dp, dh)),
            "mean_abs_gap_pmax": sum(dp) / len(dp),
            "mean_abs_gap_entropy": sum(dh) / len(dh),
        }
    return out


def _interval(text: str) -> tuple[float, float]:
    """The interval a displayed number stands for: +- half a unit of its last digit.

    >>> _interval("0.65")
    (0.645, 0.655)
    """
    d = Decimal(text)
    half = Decimal(1).scaleb(d.as_tuple().exponent) / 2
    return float(d - half), float(d + half)


def log_rule_table_check(table: dict) -> dict:
    """Recompute ln L_tr / ln L_ex for each column and compare with the printed value
    (match: the exact value lies in the printed value's rounding interval)."""
    cols = []
    for L_ex, printed in table["columns"]:
        tau = math.log(table["L_tr"]) / math.log(L_ex)
        lo, hi = _interval(printed)
        cols.append({"L_ex": L_ex, "printed": printed, "tau": tau, "matches": lo <= tau <= hi})
    return {"L_tr": table["L_tr"], "columns": cols, "all_match": all(c["matches"] for c in cols)}


def implied_lengths(table: dict) -> dict:
    """For Table 9: the L_ex interval each printed tau implies, monotonicity within a task,
    and whether the last column of each task fits the stated maximum length range.

    >>> r = implied_lengths(log_row(TABLE9))
    >>> r["monotone"], [c["consistent_with_stated_max"] for c in r["columns"] if c["last_of_task"]]
    (True, [True, True, True])
    """
    L_tr = table["L_tr"]
    lo_max, hi_max = table["max_range"]
    cols, tasks = [], [c[0] for c in table["columns"]]
    for k, (task, label, printed) in enumerate(table["columns"]):
        lo, hi = _interval(printed)
        L_lo, L_hi = L_tr ** (1 / hi), L_tr ** (1 / lo)
        last = k == len(tasks) - 1 or tasks[k + 1] != task
        t_lo, t_hi = math.log(L_tr) / math.log(hi_max), math.log(L_tr) / math.log(lo_max)
        cols.append(
            {
                "task": task,
                "column": label,
                "printed": printed,
                "implied_L_ex": [L_lo, L_hi],
                "last_of_task": last,
                "consistent_with_stated_max": (lo <= t_lo and t_hi <= hi) if last else None,
            }
        )
    monotone = all(
        float(a["printed"]) >= float(b["printed"])
        for a, b in zip(cols, cols[1:])
        if a["task"] == b["task"]
    )
    return {"L_tr": L_tr, "columns": cols, "monotone": monotone}


def average_consistent(values: list, printed_avg: str) -> dict:
    """Is the printed average compatible with the mean of the displayed values, given
    that each displayed value (and the average) is rounded?

    >>> average_consistent(["1.0", "2.0"], "1.5")["consistent"]
    True
    """
    ivs = [_interval(v) for v in values]
    lo, hi = sum(a for a, _ in ivs) / len(ivs), sum(b for _, b in ivs) / len(ivs)
    a_lo, a_hi = _interval(printed_avg)
    mean = sum(float(v) for v in values) / len(values)
    return {
        "mean_of_displayed": mean,
        "possible_mean": [lo, hi],
        "printed": printed_avg,
        "consistent": a_lo <= hi and lo <= a_hi,
    }


def _row(text: str) -> list:
    return text.split()


def difference_consistent(a: str, b: str, printed: str) -> dict:
    """Is the printed difference ``b - a`` compatible with the rounded a and b?

    >>> difference_consistent("52.4", "53.1", "+0.7")["consistent"]
    True
    """
    (a_lo, a_hi), (b_lo, b_hi) = _interval(a), _interval(b)
    p_lo, p_hi = _interval(printed)
    lo, hi = b_lo - a_hi, b_hi - a_lo
    return {
        "a": a,
        "b": b,
        "printed": printed,
        "difference": float(b) - float(a),
        "consistent": p_lo <= hi and lo <= p_hi,
    }


def table4_averages() -> dict:
    """Table 4's Avg. vs the mean of its 16 columns."""
    return {k: average_consistent(_row(v), avg) for k, (v, avg) in TABLE4.items()}


def table5_checks() -> dict:
    """Table 5: the 30-doc Avg. vs the mean of its 7 positions; each Improvement row vs
    (w/ Pmax - base); the 10/20/30-doc figures vs Table 14's breakdown."""
    out = {"avg30": {}, "improvement": {}, "vs_table14": {}}
    for name, row in TABLE5.items():
        v = _row(row)
        if "Improvement" in name:
            model = name.replace(" Improvement", "")
            base, pmax = _row(TABLE5[model]), _row(TABLE5[model + " w/ Pmax"])
            out["improvement"][name] = [
                difference_consistent(a, b, p) for a, b, p in zip(base, pmax, v)
            ]
            continue
        out["avg30"][name] = average_consistent(v[2:9], v[9])
        t14 = _row(TABLE14[name])
        out["vs_table14"][name] = {
            "avg10": average_consistent(t14[0:3], v[0]),
            "avg20": average_consistent(t14[3:8], v[1]),
            "positions30_equal": t14[8:15] == v[2:9],
            "table14_30": [float(x) for x in t14[8:15]],
            "table5_30": [float(x) for x in v[2:9]],
        }
    return out


def table9_proportional() -> dict:
    """Table 9 log row with L_ex = L_max * k / k_max (k = topics, lines, sentences), the
    L_max in 14.5k-15.5k (steps of 100) that reproduces the most printed entries.

    >>> table9_proportional()["line"]["matches"]
    6
    """
    L_tr, taus_all = TABLE9["L_tr"], TABLE9["w/ log"].split()
    rows: dict = {}
    for (task, label), tau in zip(TABLE9["columns"], taus_all):
        ks, printed = rows.setdefault(task, ([], []))
        ks.append(int(label.rstrip("k")))
        printed.append(tau)
    out = {}
    for task, (ks, printed) in rows.items():
        if min(ks) <= 0 or L_tr <= 1:
            raise NotComputable(f"Table 9's {task} columns {ks} at L_tr = {L_tr}: no length")
        taus = [float(x) for x in printed]
        fits = []
        lo_max, hi_max = TABLE9["max_range"]
        for L_max in range(lo_max, max(lo_max, hi_max) + 1, 100):
            pred = [round(math.log(L_tr) / math.log(L_max * k / ks[-1]), 2) for k in ks]
            fits.append((sum(abs(a - b) < 1e-9 for a, b in zip(pred, taus)), L_max, pred))
        m, L_max, pred = max(fits)
        out[task] = {
            "matches": m,
            "columns": len(ks),
            "L_max": L_max,
            "predicted": pred,
            "printed": taus,
            "tau": [math.log(L_tr) / math.log(L_max * k / ks[-1]) for k in ks],
        }
    return out
