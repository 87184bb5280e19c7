"""Table numbers of the attention-alignment paper that follow from formulas.

* the 'w/ log_{L_ex} L_tr' rows of Tables 8-11: :math:`\\tau = \\ln L_{tr}/\\ln L_{ex}`
  rounded to two decimals;
* the 'Avg.' column of Table 3: the mean of the displayed entries, checked with
  interval arithmetic (each displayed entry stands for an interval of half a unit of
  its last digit).

.. math:: \\tau = \\log_{L_{ex}} L_{tr} = \\frac{\\ln L_{tr}}{\\ln L_{ex}}

>>> log_rule_table_check(TABLE8_LOG)["all_match"]
True
"""
from __future__ import annotations

import math
from decimal import Decimal

#: Table 8 (language modeling), L_tr = 512: (L_ex, printed tau)
TABLE8_LOG = {"L_tr": 512, "columns": [(1024, "0.9"), (2048, "0.82"), (4096, "0.75"),
                                       (8192, "0.69"), (15000, "0.65")]}
#: Table 10 (multi-doc QA), L_tr = 512, L_ex stated in the table header
TABLE10_LOG = {"L_tr": 512, "columns": [(1700, "0.84"), (3300, "0.77"), (5000, "0.73")]}
#: Table 11 (code completion), L_tr = 768, bucket nk taken at L_ex = n * 1000
TABLE11_LOG = {"L_tr": 768, "columns": list(zip(
    [n * 1000 for n in range(1, 17)],
    "0.96 0.87 0.83 0.8 0.78 0.76 0.75 0.74 0.73 0.72 0.71 0.71 0.7 0.7 0.69 0.69".split()))}
#: Table 9 (retrieval), L_tr = 512; only the maximum length per task is stated
#: ("around 14.5k to 15.5k tokens"): (task, column label, printed tau)
TABLE9_LOG = {"L_tr": 512, "max_range": (14500, 15500), "columns": [
    ("topic", "5", "0.79"), ("topic", "10", "0.72"), ("topic", "15", "0.69"),
    ("topic", "20", "0.67"), ("topic", "25", "0.65"),
    ("line", "200", "0.74"), ("line", "300", "0.71"), ("line", "400", "0.69"),
    ("line", "500", "0.67"), ("line", "600", "0.66"), ("line", "680", "0.65"),
    ("passkey", "20k", "0.73"), ("passkey", "30k", "0.69"), ("passkey", "40k", "0.67"),
    ("passkey", "50k", "0.66"), ("passkey", "55k", "0.65")]}
#: Table 3 (perplexity), rows: (displayed values, displayed Avg.)
TABLE3 = {
    "T5-Large-LM w/ Pmax": (["34.7", "45.5", "45.2", "45.5", "52.7"], "44.7"),
    "T5-Large-LM w/ H": (["40.2", "43.9", "45.6", "54.6", "56.0"], "48.1"),
    "T5-Large-LM w/ log": (["39.8", "38.2", "47.4", "45.3", "55.9"], "45.3"),
    "T5-XL-LM w/ Pmax": (["30.2", "36.0", "31.6", "41.7", "50.0"], "37.9"),
    "T5-XL-LM w/ H": (["30.4", "36.8", "38.4", "53.3", "63.4"], "44.4"),
    "T5-XL-LM w/ log": (["27.3", "29.4", "31.7", "39.3", "45.8"], "34.7"),
    "T5-XXL-LM w/ Pmax": (["32.2", "29.7", "29.5", "36.6", "44.3"], "34.5"),
    "T5-XXL-LM w/ H": (["26.8", "28.1", "34.2", "37.8", "43.8"], "34.1"),
    "T5-XXL-LM w/ log": (["27.1", "36.1", "33.9", "246", "43.8"], "77.5"),
}


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
        cols.append({"L_ex": L_ex, "printed": printed, "tau": tau,
                     "matches": lo <= tau <= hi})
    return {"L_tr": table["L_tr"], "columns": cols, "all_match": all(c["matches"] for c in cols)}


def implied_lengths(table: dict) -> dict:
    """For Table 9: the L_ex interval each printed tau implies, monotonicity within a task,
    and whether the last column of each task fits the stated maximum length range.

    >>> r = implied_lengths(TABLE9_LOG)
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
        cols.append({"task": task, "column": label, "printed": printed,
                     "implied_L_ex": [L_lo, L_hi], "last_of_task": last,
                     "consistent_with_stated_max": (lo <= t_lo and t_hi <= hi) if last else None})
    monotone = all(float(a["printed"]) >= float(b["printed"])
                   for a, b in zip(cols, cols[1:]) if a["task"] == b["task"])
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
    return {"mean_of_displayed": mean, "possible_mean": [lo, hi], "printed": printed_avg,
            "consistent": a_lo <= hi and lo <= a_hi}
