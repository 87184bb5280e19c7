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

from paper_checks.inferred import NotComputable
from theory.temperature.gaussian_softmax import expected_max_std_normal

#: Table 8 (language modeling), L_tr = 512: (L_ex, printed tau)
TABLE8_LOG = {
    "L_tr": 512,
    "columns": [(1024, "0.9"), (2048, "0.82"), (4096, "0.75"), (8192, "0.69"), (15000, "0.65")],
}
#: Table 10 (multi-doc QA), L_tr = 512, L_ex stated in the table header
TABLE10_LOG = {"L_tr": 512, "columns": [(1700, "0.84"), (3300, "0.77"), (5000, "0.73")]}
#: Table 11 (code completion), L_tr = 768, bucket nk taken at L_ex = n * 1000
TABLE11_LOG = {
    "L_tr": 768,
    "columns": list(
        zip(
            [n * 1000 for n in range(1, 17)],
            "0.96 0.87 0.83 0.8 0.78 0.76 0.75 0.74 0.73 0.72 0.71 0.71 0.7 0.7 0.69 0.69".split(),
        )
    ),
}
#: Table 9 (retrieval), L_tr = 512; only the maximum length per task is stated
#: ("around 14.5k to 15.5k tokens"): (task, column label, printed tau)
TABLE9_LOG = {
    "L_tr": 512,
    "max_range": (14500, 15500),
    "columns": [
        ("topic", "5", "0.79"),
        ("topic", "10", "0.72"),
        ("topic", "15", "0.69"),
        ("topic", "20", "0.67"),
        ("topic", "25", "0.65"),
        ("line", "200", "0.74"),
        ("line", "300", "0.71"),
        ("line", "400", "0.69"),
        ("line", "500", "0.67"),
        ("line", "600", "0.66"),
        ("line", "680", "0.65"),
        ("passkey", "20k", "0.73"),
        ("passkey", "30k", "0.69"),
        ("passkey", "40k", "0.67"),
        ("passkey", "50k", "0.66"),
        ("passkey", "55k", "0.65"),
    ],
}
#: Algorithm 1's temperatures (w/ P_max and w/ H rows) of Tables 8-11, with the log row
#: of the same table: {(table, model): (P_max row, H row, log row)}, copied from the paper
ALG1_STEP = 0.05  # Algorithm 1's grid of tau: 1.0 to 0.5 by 0.05 (printed)


def entropy_nats_per_step(sigma: float, step: float = ALG1_STEP) -> float:
    """The entropy change :math:`\\sigma^2 / \\tau^3 \\cdot step/2` (App. A.3, at tau = 1) that
    moves Prop. 2's tau by half a grid step of Algorithm 1.

    .. math:: \\Delta H = \\frac{\\sigma^2}{\\tau^3} \\frac{step}{2}

    >>> round(entropy_nats_per_step(2.7), 3)
    0.182
    """
    return sigma * sigma * step / 2


ALG1_TEMPERATURES = {
    ("8", "T5-Large-LM"): (
        "0.9 0.85 0.8 0.75 0.7",
        "0.8 0.7 0.6 0.5 0.5",
        "0.9 0.82 0.75 0.69 0.65",
    ),
    ("8", "T5-XL-LM"): (
        "0.9 0.85 0.75 0.7 0.6",
        "0.85 0.7 0.55 0.5 0.5",
        "0.9 0.82 0.75 0.69 0.65",
    ),
    ("8", "T5-XXL-LM"): (
        "0.9 0.85 0.65 0.55 0.5",
        "0.85 0.7 0.7 0.55 0.5",
        "0.9 0.82 0.75 0.69 0.65",
    ),
    ("9", "Flan-T5-Large"): (
        "0.85 0.8 0.75 0.75 0.75 0.85 0.8 0.8 0.75 0.75 0.75 0.85 0.80 0.80 0.75 0.75",
        "0.7 0.6 0.55 0.5 0.5 0.65 0.55 0.55 0.5 0.5 0.5 0.6 0.55 0.5 0.5 0.5",
        "0.79 0.72 0.69 0.67 0.65 0.74 0.71 0.69 0.67 0.66 0.65 0.73 0.69 0.67 0.66 0.65",
    ),
    ("9", "Flan-T5-XL"): (
        "0.8 0.75 0.7 0.65 0.65 0.8 0.75 0.75 0.7 0.70 0.7 0.85 0.8 0.75 0.75 0.75",
        "0.7 0.55 0.55 0.5 0.5 0.6 0.55 0.55 0.5 0.5 0.5 0.7 0.65 0.6 0.6 0.6",
        "0.79 0.72 0.69 0.67 0.65 0.74 0.71 0.69 0.67 0.66 0.65 0.73 0.69 0.67 0.66 0.65",
    ),
    ("9", "Flan-T5-XXL"): (
        "0.85 0.8 0.75 0.75 0.75 0.8 0.8 0.75 0.75 0.75 0.75 0.85 0.8 0.8 0.75 0.75",
        "0.75 0.65 0.6 0.55 0.55 0.65 0.6 0.6 0.55 0.55 0.55 0.65 0.6 0.55 0.55 0.5",
        "0.79 0.72 0.69 0.67 0.65 0.74 0.71 0.69 0.67 0.66 0.65 0.73 0.69 0.67 0.66 0.65",
    ),
    ("10", "Flan-T5-Large"): ("0.9 0.85 0.8", "0.75 0.65 0.6", "0.84 0.77 0.73"),
    ("10", "Flan-T5-XL"): ("0.85 0.75 0.75", "0.75 0.65 0.55", "0.84 0.77 0.73"),
    ("10", "Flan-T5-XXL"): ("0.9 0.8 0.8", "0.75 0.7 0.65", "0.84 0.77 0.73"),
    ("11", "CodeT5+"): (
        "0.95 0.8 0.75 0.75 0.7 0.7 0.6 0.6 0.6 0.6 0.55 0.55 0.55 0.55 0.5 0.5",
        "0.85 0.55" + " 0.5" * 14,
        "0.96 0.87 0.83 0.8 0.78 0.76 0.75 0.74 0.73 0.72 0.71 0.71 0.7 0.7 0.69 0.69",
    ),
}


def log_rule_nearest() -> dict:
    """Per table and model: in how many columns the log rule's tau is closer to
    Algorithm 1's P_max-aligned tau than to its entropy-aligned tau (ties counted apart).

    >>> log_rule_nearest()[("11", "CodeT5+")]["closer_to_pmax"]
    14
    """
    out = {}
    for key, rows in ALG1_TEMPERATURES.items():
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
        cols.append({"L_ex": L_ex, "printed": printed, "tau": tau, "matches": lo <= tau <= hi})
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


#: Table 4 (retrieval accuracy): 16 task columns and the printed Avg.
TABLE4 = {
    "Flan-T5-Large": ("99 100 97 97 83 97 100 92 96 93 92 62 47 31 16 9", "76"),
    "Flan-T5-Large w/ Pmax": ("96 90 86 94 98 99 98 98 98 98 100 84 90 85 79 85", "92"),
    "Flan-T5-Large w/ H": ("59 32 16 0 3 97 90 94 83 93 88 29 25 21 15 22", "48"),
    "Flan-T5-Large w/ log": ("88 79 75 61 55 99 99 98 99 97 98 74 63 51 41 35", "76"),
    "Flan-T5-XL": ("100 100 100 100 100 96 90 77 57 45 26 100 100 100 100 100", "87"),
    "Flan-T5-XL w/ Pmax": ("100 100 100 100 100 97 90 89 80 70 62 100 99 100 100 100", "93"),
    "Flan-T5-XL w/ H": ("99 98 97 96 96 95 87 88 79 70 71 100 100 100 100 100", "92"),
    "Flan-T5-XL w/ log": ("99 100 100 100 100 98 88 81 86 60 67 100 100 100 100 99", "92"),
    "Flan-T5-XXL": ("100 100 100 99 99 100 100 98 95 84 82 100 100 100 100 100", "97"),
    "Flan-T5-XXL w/ Pmax": ("100 100 100 99 99 97 99 96 97 94 95 100 98 100 100 100", "98"),
    "Flan-T5-XXL w/ H": ("100 100 97 98 94 99 92 92 76 58 58 100 100 100 100 100", "92"),
    "Flan-T5-XXL w/ log": ("100 100 99 98 92 100 98 94 93 84 90 100 100 100 100 100", "97"),
    "LongChat": ("100 100 100 99 89 100 91 93 83 78 59 100 100 99 100 99", "93"),
}

#: Table 5 (multi-doc QA): 10-doc Avg, 20-doc Avg, 30-doc positions 0..29, 30-doc Avg
TABLE5 = {
    "Flan-T5-Large": "52.4 43.3 52.6 42.0 36.5 34.0 33.9 33.9 37.9 38.7",
    "Flan-T5-Large w/ Pmax": "53.1 44.2 50.8 44.5 39.5 36.4 35.9 35.8 37.0 40.0",
    "Flan-T5-Large Improvement": "+0.7 +0.9 -1.8 +1.5 +3.0 +2.4 +2.0 +1.9 -0.9 +1.3",
    "Flan-T5-Large w/ H": "52.1 43.2 47.6 41.1 35.2 33.5 32.2 33.3 34.2 36.7",
    "Flan-T5-Large w/ log": "53.2 44.5 50.6 44.1 39.3 36.3 35.8 35.8 37.2 39.9",
    "Flan-T5-XL": "59.4 51.2 58.4 44.6 40.0 39.9 41.7 46.4 54.8 46.5",
    "Flan-T5-XL w/ Pmax": "61.1 53.6 60.9 49.1 46.0 44.9 46.3 49.1 55.7 50.3",
    "Flan-T5-XL Improvement": "+1.7 +2.4 +2.5 +4.5 +6.0 +5.0 +4.6 +2.7 +0.9 +3.8",
    "Flan-T5-XL w/ H": "60.5 52.4 52.4 43.5 42.1 40.3 42.0 42.9 51.3 44.9",
    "Flan-T5-XL w/ log": "60.9 53.6 61.0 49.1 46.1 44.7 46.1 48.7 55.4 50.2",
    "Flan-T5-XXL": "63.6 56.9 58.9 49.1 48.1 47.5 48.9 53.1 61.2 52.4",
    "Flan-T5-XXL w/ Pmax": "63.7 57.7 60.4 52.5 51.0 50.2 51.3 53.5 59.1 54.0",
    "Flan-T5-XXL Improvement": "+0.1 +0.8 +1.5 +3.4 +2.9 +2.7 +2.4 +0.4 -2.1 +1.6",
    "Flan-T5-XXL w/ H": "63.6 57.1 61.0 53.4 50.8 50.3 50.7 51.9 55.7 53.4",
    "Flan-T5-XXL w/ log": "63.9 57.6 61.5 53.3 51.3 50.3 51.1 53.0 57.2 54.0",
}

#: Table 14 (multi-doc QA breakdown): 10 docs (0 4 9), 20 docs (0 4 9 14 19),
#: 30 docs (0 4 9 14 19 24 29); row names as in Table 5 (Max. = Pmax, Ent. = H)
TABLE14 = {
    "Flan-T5-Large": "60.6 48.5 48.0 54.5 44.0 39.6 38.0 40.2 52.6 42.0 36.5 34.0 33.9 33.9 37.9",
    "Flan-T5-Large w/ Pmax": "60.9 49.8 48.6 53.5 45.6 40.8 39.7 41.3 50.8 44.5 39.5 36.4 35.9 35.8 37.0",
    "Flan-T5-Large w/ H": "58.9 50.1 47.3 52.4 45.2 40.4 38.0 40.0 47.6 41.1 35.2 33.5 32.2 33.3 34.2",
    "Flan-T5-Large w/ log": "60.2 51.1 48.4 53.8 46.0 41.4 39.4 41.7 50.6 44.1 39.3 36.3 35.8 35.8 37.2",
    "Flan-T5-XL": "64.0 55.4 58.9 60.6 47.9 45.1 47.3 55.3 58.4 44.6 40.0 39.9 41.7 46.4 54.8",
    "Flan-T5-XL w/ Pmax": "65.3 57.3 60.8 62.2 51.6 49.0 49.4 56.0 60.9 49.1 46.0 44.9 46.3 49.1 55.7",
    "Flan-T5-XL w/ H": "64.7 56.7 60.0 59.3 50.1 47.9 49.8 55.1 52.4 43.5 42.1 40.3 42.0 42.9 51.3",
    "Flan-T5-XL w/ log": "65.1 57.0 60.6 62.2 51.7 48.8 49.5 56.0 61.0 49.1 46.1 44.7 46.1 48.7 55.4",
    "Flan-T5-XXL": "65.1 61.0 64.6 61.1 53.9 52.4 54.7 62.4 58.9 49.1 48.1 47.5 48.9 53.1 61.2",
    "Flan-T5-XXL w/ Pmax": "66.2 61.8 63.2 62.8 55.9 54.4 55.6 59.6 60.4 52.5 51.0 50.2 51.3 53.5 59.1",
    "Flan-T5-XXL w/ H": "67.3 62.1 61.3 63.2 56.1 54.1 54.3 57.6 61.0 53.4 50.8 50.3 50.7 51.9 55.7",
    "Flan-T5-XXL w/ log": "66.7 61.9 63.1 63.1 56.0 54.7 55.1 59.0 61.5 53.3 51.3 50.3 51.1 53.0 57.2",
}


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
    rows = {
        "topic": ([5, 10, 15, 20, 25], "0.79 0.72 0.69 0.67 0.65"),
        "line": ([200, 300, 400, 500, 600, 680], "0.74 0.71 0.69 0.67 0.66 0.65"),
        "passkey": ([20, 30, 40, 50, 55], "0.73 0.69 0.67 0.66 0.65"),
    }
    out = {}
    for task, (ks, printed) in rows.items():
        taus = [float(x) for x in printed.split()]
        fits = []
        for L_max in range(14500, 15501, 100):
            pred = [round(math.log(512) / math.log(L_max * k / ks[-1]), 2) for k in ks]
            fits.append((sum(abs(a - b) < 1e-9 for a, b in zip(pred, taus)), L_max, pred))
        m, L_max, pred = max(fits)
        out[task] = {
            "matches": m,
            "columns": len(ks),
            "L_max": L_max,
            "predicted": pred,
            "printed": taus,
            "tau": [math.log(512) / math.log(L_max * k / ks[-1]) for k in ks],
        }
    return out


#: Table 1 (P_max at L=512 and 15k) and Table 7 (l_max at 512 and 15k), Flan-T5-XL
PAPER_TABLES = {
    "topic": {"pmax_512": 0.28, "pmax_15k": 0.12, "lmax_512": 8.61, "lmax_15k": 8.80},
    "line": {"pmax_512": 0.27, "pmax_15k": 0.11, "lmax_512": 8.71, "lmax_15k": 8.97},
    "passkey": {"pmax_512": 0.32, "pmax_15k": 0.24, "lmax_512": 8.75, "lmax_15k": 8.85},
}


def sigma_eq2(pmax: float, lmax: float, L: int) -> float:
    """sigma from Eq. 2, :math:`P_{max} = e^{l_{max} - \\sigma^2/2} / L`, solved for sigma:
    the one rule by which the checks infer the sigma the paper does not print (entry
    ``align-sigma`` of :mod:`paper_checks.inferred`).  Printed values for which Eq. 2 has
    no real sigma raise :class:`~paper_checks.inferred.NotComputable`.

    .. math:: \\sigma_L = \\sqrt{2\\,(l_{max}(L) - \\ln(P_{max}(L)\\,L))}

    >>> round(sigma_eq2(0.28, 8.61, 512), 3)
    2.7
    """
    if not (0 < pmax <= 1 and math.isfinite(lmax)):
        raise NotComputable(f"Eq. 2 needs 0 < P_max <= 1 and a finite l_max (got {pmax}, {lmax})")
    half = lmax - math.log(pmax * L)
    if half < 0:
        raise NotComputable(
            f"Eq. 2 gives sigma^2 = {2 * half:.4g} < 0 for P_max = {pmax}, l_max = {lmax}, L = {L}"
        )
    return math.sqrt(2 * half)


def paper_operating_point(L_tr: int = 512, L_ex: int = 15000) -> dict:
    """Per task: sigma_tr from Eq. 2 (Tables 1 and 7), sigma from Assumption 1 read as
    i.i.d. (l_max / E[max of L std normals]), e^{sigma^2} vs L_tr, and the largest
    sigma_ex for which Prop. 1 has a real root at L_ex (:math:`B^2 \\ge 4AC`).

    >>> round(paper_operating_point()["topic"]["sigma_tr_eq2"], 3)
    2.7
    """
    m_tr, m_ex = expected_max_std_normal(L_tr), expected_max_std_normal(L_ex)
    out = {}
    for task, t in PAPER_TABLES.items():
        p, lm = t["pmax_512"], t["lmax_512"]
        s_eq2 = sigma_eq2(p, lm, L_tr)
        A, B = math.log(L_ex) + math.log(p), lm  # B = l_max^tr by Eq. 2
        out[task] = {
            "pmax_tr": p,
            "lmax_tr": lm,
            "lmax_ex": t["lmax_15k"],
            "sigma_tr_eq2": s_eq2,
            "exp_sigma2": math.exp(s_eq2**2),
            "sigma_tr_iid": lm / m_tr,
            "sigma_ex_iid": t["lmax_15k"] / m_ex,
            "sigma_ex_max_for_real_root": math.sqrt(B * B / (2 * A)),
            "lln_rel_error_tr": None,
        }
    return out


#: Readings of "sigma_ex" in Prop. 1 at L_ex = 15k computable from Tables 1 and 7 (the
#: paper measures layer 0's sigma at each L_ex but prints none):
SIGMA_EX_READINGS = {
    "fixed_sigma": "one sigma for both lengths (sigma_ex = sigma_tr from Eq. 2)",
    "eq2_at_L_ex": "Eq. 2 applied at L_ex with Table 1's P_max and Table 7's l_max at 15k",
    "assumptions_1_and_2": "the sigma_ex for which a Gaussian top entry sigma E[max_L] "
    "reproduces Table 7's l_max at 15k from sigma_tr (Eq. 2)",
    "gaussian_top_entry": "sigma_ex = Table 7's l_max at 15k / E[max of 15k std normals]",
}


def sigma_ex_readings(L_tr: int = 512, L_ex: int = 15000) -> dict:
    """Per task and per reading of :data:`SIGMA_EX_READINGS`: sigma_ex, the discriminant
    :math:`\\Delta = B^2 - 4AC` of Prop. 1's quadratic relative to :math:`B^2`, and the
    larger root when it is real.  A real root needs
    :math:`\\sigma_{ex} \\le B/\\sqrt{2A}` (``sigma_ex_max``).

    >>> r = sigma_ex_readings()["topic"]
    >>> r["fixed_sigma"]["discriminant_over_B2"] < 0 < r["eq2_at_L_ex"]["discriminant_over_B2"]
    True
    """
    m_tr, m_ex = expected_max_std_normal(L_tr), expected_max_std_normal(L_ex)
    out = {}
    for task, o in paper_operating_point(L_tr, L_ex).items():
        t = PAPER_TABLES[task]
        s_tr = o["sigma_tr_eq2"]
        sigmas = {
            "fixed_sigma": s_tr,
            "eq2_at_L_ex": sigma_eq2(t["pmax_15k"], t["lmax_15k"], L_ex),
            "assumptions_1_and_2": s_tr * (t["lmax_15k"] / t["lmax_512"]) * m_tr / m_ex,
            "gaussian_top_entry": o["sigma_ex_iid"],
        }
        A = math.log(L_ex) + math.log(o["pmax_tr"])
        B = math.log(L_tr) + math.log(o["pmax_tr"]) + s_tr**2 / 2
        row = {"sigma_tr": s_tr, "A": A, "B": B, "sigma_ex_max": B / math.sqrt(2 * A)}
        for name, s_ex in sigmas.items():
            disc = B * B - 2 * A * s_ex**2
            row[name] = {
                "sigma_ex": s_ex,
                "discriminant_over_B2": disc / (B * B),
                "tau": (B + math.sqrt(disc)) / (2 * A) if disc >= 0 and A > 0 else None,
            }
        out[task] = row
    return out


#: Early version, Sec. 6.1, the display before Prop. 1, as our copy has it: the LaTeX
#: escapes \b \t \a \f \r were eaten or turned into white space by the extraction
EARLY_DISPLAY = (
    "$$egin{aligned} \\mathbf{P}_{ ext{max}}^{ex} &pprox rac{e^{l_{ ext{max}}^{ex}/ au}}"
    "{L_{ex}e^{\\sigma_{ex}^2/(2 au^2)}} \\overset{ ext{A. 2}}{=} rac{e^{l_{ ext{max}}^{tx}/ au}}"
    "{L_{ex}e^{\\sigma_{ex}^2/(2 au^2)}} \\ &\\stackrel{ ext{(2)}}{pprox} rac{\\left("
    "\\mathbf{P}_{ ext{max}}^{tr}L_{tr}e^{\\sigma_{ex}^2/(2 au^2)}\night)^{1/ au}}"
    "{L_{ex}e^{\\sigma_{ex}^2/(2 au^2)}} \\end{aligned}$$"
)
#: what the extraction did to each escape (a string literal read without raw prefix)
EXTRACTION_DAMAGE = {"\\b": "", "\\t": " ", "\\a": "", "\\f": "", "\\r": "\n"}


def extraction_damage(latex: str) -> str:
    """``latex`` as the extraction would have printed it (:data:`EXTRACTION_DAMAGE`).

    >>> extraction_damage("\\\\frac{1}{\\\\tau}")
    'rac{1}{ au}'
    """
    for esc, out in EXTRACTION_DAMAGE.items():
        latex = latex.replace(esc, out)
    return latex


def early_display_source(numerator_exponent: str, lmax_label: str = "tx") -> str:
    """A candidate LaTeX source of :data:`EARLY_DISPLAY`, with the exponent of ``e`` in
    the numerator's bracket and the label of l_max after 'A. 2' as given."""
    return (
        "$$\\begin{aligned} \\mathbf{P}_{\\text{max}}^{ex} &\\approx \\frac{e^{l_{\\text{max}}^{ex}/\\tau}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\overset{\\text{A. 2}}{=} "
        f"\\frac{{e^{{l_{{\\text{{max}}}}^{{{lmax_label}}}/\\tau}}}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\ &\\stackrel{\\text{(2)}}{\\approx} \\frac{\\left("
        f"\\mathbf{{P}}_{{\\text{{max}}}}^{{tr}}L_{{tr}}e^{{{numerator_exponent}}}\\right)^{{1/\\tau}}}}"
        "{L_{ex}e^{\\sigma_{ex}^2/(2\\tau^2)}} \\end{aligned}$$"
    )


#: the entropy band of the align checks, in nats: an error that moves Prop. 2's tau by
#: half of Algorithm 1's grid step, at the smallest sigma_tr Eq. 2 gives (Tables 1, 7)
ENTROPY_NATS = min(
    entropy_nats_per_step(sigma_eq2(t["pmax_512"], t["lmax_512"], 512))
    for t in PAPER_TABLES.values()
)
