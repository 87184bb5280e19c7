"""InfoScale / CosScale paper, Sec. 4: the tables (Tables 1-10), the text's statements
about them and the experimental claims (which name the checkpoints and data they need).
"""

from __future__ import annotations

import numpy as np

from paper_checks.evidence import (
    Equal,
    Evidence,
    Inequality,
    MissingInput,
    Reading,
    Reported,
)
from paper_checks.inferred import NotComputable
from paper_checks.infoscale.setting import (
    GAU,
    P,
)
from paper_checks.registry import Context, Tol, claim
from theory.papers import infoscale as T


# ========================================================= tables and text vs tables
def _column(length: int) -> int:
    """The column of ``length`` in the tables (their header is :data:`T.LENGTHS`)."""
    if length not in T.LENGTHS:
        raise NotComputable(f"the tables have no column for length {length} ({T.LENGTHS})")
    return T.LENGTHS.index(length)


def _acc(table, row, length):
    return T.cells(table[row])[_column(length)][1]


def _ppl(table, row, length):
    return T.cells(table[row])[_column(length)][0]


@claim(
    id="infoscale-table4",
    paper=P,
    location="Table 4 (App. A.1.1)",
    statement="WJ dataset statistics: 80% train split; per split min length <= average length <= max length.",
    tolerances={"train fraction": Tol.printed(2, "Table 4's 80%")},
)
def table4_length_statistics_ordered(ctx: Context) -> Evidence:
    n = T.TABLE4["number of samples"]
    lo, avg, hi = (T.TABLE4[k] for k in ("min length", "average length", "max length"))
    return Evidence(
        [
            Equal("train fraction", computed=n[0] / sum(n), paper=0.8, source="App. A.1.1"),
            Inequality(
                "min length",
                computed=list(lo),
                paper=list(avg),
                relation="<=",
                source="Table 4 (vs average length)",
                where="train, evaluation, test",
            ),
            Inequality(
                "average length",
                computed=list(avg),
                paper=list(hi),
                relation="<=",
                source="Table 4 (vs max length)",
                where="train, evaluation, test",
            ),
            Inequality(
                "shortest sample (smaller of min and max)",
                role="consequence",
                computed=[min(a, b) for a, b in zip(lo, hi)],
                paper=4096,
                relation=">",
                source="Sec. 4.1.1 (only samples longer than 4k)",
            ),
        ]
    )


def compatible(a: str, b: str) -> bool:
    """Two printed cells can describe one number: equal, or a censored bound ('<0.1', '>500')
    against a 2-decimal value that could round from inside the bound."""
    if a == b:
        return True
    for x, y in ((a, b), (b, a)):
        if x[0] in "<>" and y[0] not in "<>":
            bound, val = float(x[1:]), float(y)
            return val - 0.005 < bound if x[0] == "<" else val + 0.005 > bound
    return False


def repeated_cells() -> dict:
    """Rows repeated across tables, compared cell by cell: contradictions, cells printed
    differently but compatible (:func:`compatible`), rows missing from Table 1."""
    pairs = [
        (f"{name}: {row}", vals, T.TABLE1.get(row))
        for name, src in (("Table 5", T.TABLE5), ("Table 7", T.TABLE7), ("Table 8", T.TABLE8))
        for row, vals in src.items()
    ]
    both = "GAU-α w/ C.S., I.S."
    pairs += [
        ("Table 10 vs 9: GAU-α w/ C.S.", T.TABLE10["GAU-α w/ C.S."], T.TABLE9["128"]),
        ("Table 10 vs 2", T.TABLE10[both], T.TABLE2[both]),
        ("Table 10 vs 3", T.TABLE10["GAU-α w/ I.S."], T.TABLE3["GAU-α w/ I.S."]),
    ]
    differ, clash = [], []
    for where, x, y in pairs:
        for i, (a, b) in enumerate(zip(x.split(), (y or "").split())):
            if a != b:
                cell = {
                    "where": where,
                    "length": T.LENGTHS[i // 2],
                    "metric": "ACC" if i % 2 else "PPL",
                    "printed": (a, b),
                }
                (differ if compatible(a, b) else clash).append(cell)
    return {
        "contradictions": clash,
        "compatible_differences": differ,
        "missing": [w for w, _, y in pairs if y is None],
        "rows_compared": len(pairs),
    }


@claim(
    id="infoscale-tables-consistency",
    paper=P,
    location="Tables 1, 5, 7, 8, 9, 10, 2, 3",
    statement="Rows repeated across tables report the same numbers.",
)
def repeated_rows_agree_across_tables(ctx: Context) -> Evidence:
    r = repeated_cells()
    return Evidence(
        [
            Equal(
                "cells that contradict, and rows missing from Table 1",
                computed=[len(r["contradictions"]), len(r["missing"])],
                paper=[0, 0],
                source="Tables 1, 2, 3, 5, 7-10",
                where=f"{r['rows_compared']} repeated rows",
            ),
            Reported(
                "cells printed differently but compatible",
                computed=len(r["compatible_differences"]),
            ),
        ],
        data=r,
        notes=["'<0.1' and '0.10' are both true of any ACC in [0.095, 0.1)."],
    )


@claim(
    id="infoscale-sec4.2.3-ratios",
    paper=P,
    location="Sec. 4.2.3",
    statement="PoSE ACC improves 15.699x (C.S.) -> 16.957x (C.S.+I.S.); ReRoPE 10.771x -> 11.371x at 4096.",
    tolerances={
        "C.S.+I.S. ratio from the base ACC the C.S. ratio implies": Tol(
            rtol=0.025,
            basis="printed precision",
            reason="ACC printed to 0.01 on values >= 0.41: the ratio is known to +-2.5%",
        )
    },
)
def acc_improvement_ratios(ctx: Context) -> Evidence:
    rows = [(m, r1, r2) for m, (r1, r2) in T.ACC_RATIOS_AT_4096.items()]
    base = [_acc(T.TABLE1, f"{m} w/ C.S.", 4096) / r1 for m, r1, _ in rows]
    return Evidence(
        [
            Equal(
                "C.S.+I.S. ratio from the base ACC the C.S. ratio implies",
                computed=[
                    _acc(T.TABLE1, f"{m} w/ C.S., I.S.", 4096) / b
                    for (m, _, _), b in zip(rows, base)
                ],
                paper=[r2 for _, _, r2 in rows],
                source="Sec. 4.2.3, Table 1 at 4096",
                where="PoSE, ReRoPE",
            ),
            Reported("implied base ACC (printed '<0.1')", computed=base),
        ]
    )


@claim(
    id="infoscale-sec4.2.3-synergy",
    paper=P,
    location="Sec. 4.2.3",
    statement="CosScale + InfoScale together give a "
    "boost greater than the sum of their individual contributions.",
)
def cosscale_infoscale_synergy(ctx: Context) -> Evidence:
    rows = []
    for m in ("PoSE", "ReRoPE", "YaRN(s=16)", "YaRN(s=32)", "StreamingLLM", "LM-Infinite"):
        for n in (1024, 2048, 4096):
            b, c = _acc(T.TABLE1, m, n), _acc(T.TABLE1, f"{m} w/ C.S.", n)
            i, ci = _acc(T.TABLE1, f"{m} w/ I.S.", n), _acc(T.TABLE1, f"{m} w/ C.S., I.S.", n)
            if None not in (b, c, i, ci):
                rows.append((f"{m}@{n}", ci - b, (c - b) + (i - b)))
    return Evidence(
        [
            Inequality(
                "ACC gain of C.S.+I.S.",
                computed=[g for _, g, _ in rows],
                paper=[s for _, _, s in rows],
                relation=">",
                source="Sec. 4.2.3 (vs the sum of the two gains), Table 1",
                where=", ".join(w for w, _, _ in rows),
            )
        ]
    )


@claim(
    id="infoscale-sec4.2.2-all-gain",
    paper=P,
    location="Sec. 4.2.2",
    statement="Except PI and ALiBi, all methods gain from CosScale at 4k.",
)
def all_methods_gain_from_cosscale(ctx: Context) -> Evidence:
    pairs = (
        ("PoSE", "PoSE w/ C.S."),
        ("StreamingLLM", "StreamingLLM w/ C.S."),
        ("YaRN(s=16)", "YaRN(s=16) w/ C.S."),
        ("YaRN(s=32)", "YaRN(s=32) w/ C.S."),
        ("W.A.", "W.A.(C.S.=16) w/ C.S."),
        ("LM-Infinite", "LM-Infinite w/ C.S."),
        ("ReRoPE", "ReRoPE w/ C.S."),
    )
    ppl = [(m, _ppl(T.TABLE1, m, 4096), _ppl(T.TABLE1, c, 4096)) for m, c in pairs]
    ppl = [(m, a, b) for m, a, b in ppl if a is not None]
    acc = [(m, _acc(T.TABLE1, m, 4096), _acc(T.TABLE1, c, 4096)) for m, c in pairs]
    acc = [(m, a, b) for m, a, b in acc if a is not None]
    return Evidence(
        [
            Inequality(
                "PPL with C.S.",
                computed=[b for _, _, b in ppl],
                paper=[a for _, a, _ in ppl],
                relation="<",
                source="Table 1 at 4096 (vs without)",
                where=", ".join(m for m, _, _ in ppl),
            ),
            Inequality(
                "ACC with C.S.",
                computed=[b for _, _, b in acc],
                paper=[a for _, a, _ in acc],
                relation=">=",
                source="Table 1 at 4096 (vs without)",
                where=", ".join(m for m, _, _ in acc),
            ),
        ]
    )


@claim(
    id="infoscale-sec4.2.1",
    paper=P,
    location="Sec. 4.2.1",
    statement="At 4k InfoScale boosts ReRoPE's ACC nearly "
    "tenfold and halves its PPL; it improves ACC for most baselines.",
    tolerances={
        "ACC gain factor": Tol(rtol=0.2, reason="'nearly tenfold': 8 to 12"),
        "PPL reduction factor": Tol(rtol=0.2, reason="'halves': 1.6 to 2.4"),
    },
)
def infoscale_boosts_rerope(ctx: Context) -> Evidence:
    acc_is, ppl_is = _acc(T.TABLE1, "ReRoPE w/ I.S.", 4096), _ppl(T.TABLE1, "ReRoPE w/ I.S.", 4096)
    cs_ratio = T.ACC_RATIOS_AT_4096["ReRoPE"][0]  # Sec. 4.2.3's ratio
    base_acc = _acc(T.TABLE1, "ReRoPE w/ C.S.", 4096) / cs_ratio
    base_ppl = T.REROPE_PPL_FACTOR_WITH_COSSCALE * _ppl(T.TABLE1, "ReRoPE w/ C.S.", 4096)
    most = _most_baselines_gain()
    implied = Reading(
        f"base ACC from Sec. 4.2.3's {cs_ratio}x, base PPL from Sec. 4.2.2's 'over a hundred "
        "times'",
        (
            Equal(
                "ACC gain factor",
                computed=acc_is / base_acc,
                paper=10.0,
                source="Sec. 4.2.1 ('nearly tenfold')",
            ),
            Inequality(
                "PPL reduction factor",
                computed=base_ppl / ppl_is,
                paper=2.0,
                relation=">=",
                source="Sec. 4.2.1 ('halving'; a lower bound)",
            ),
            most,
        ),
        reason="the authors' ratios come from the uncensored numbers; "
        "Sec. 4.2.3's ratios imply the base accuracy the table prints as '<0.1'",
    )
    censored = Reading(
        "only the printed cells ('<0.1', '>500')",
        (
            Inequality(
                "ACC gain factor",
                computed=acc_is / 0.1,
                paper=10.0,
                relation="<=",
                source="Sec. 4.2.1 (lower bound from '<0.1')",
            ),
            Inequality(
                "PPL reduction factor",
                computed=500 / ppl_is,
                paper=2.0,
                relation="<=",
                source="Sec. 4.2.1 (lower bound from '>500')",
            ),
            most,
        ),
    )
    on_cs = Reading(
        "InfoScale on top of CosScale",
        (
            Equal(
                "ACC gain factor",
                computed=_acc(T.TABLE1, "ReRoPE w/ C.S., I.S.", 4096)
                / _acc(T.TABLE1, "ReRoPE w/ C.S.", 4096),
                paper=10.0,
                source="Sec. 4.2.1",
            ),
            Equal(
                "PPL reduction factor",
                computed=_ppl(T.TABLE1, "ReRoPE w/ C.S.", 4096)
                / _ppl(T.TABLE1, "ReRoPE w/ C.S., I.S.", 4096),
                paper=2.0,
                source="Sec. 4.2.1",
            ),
            most,
        ),
    )
    return Evidence(readings=[implied, censored, on_cs])


def _most_baselines_gain() -> Inequality:
    """Baselines whose ACC at 4096 rises with InfoScale (both cells uncensored) vs half of
    those comparable: 'most'."""
    base = [m for m in T.TABLE7 if " w/ " not in m]
    pairs = [(_acc(T.TABLE7, m, 4096), _acc(T.TABLE7, f"{m} w/ I.S.", 4096)) for m in base]
    pairs = [(a, b) for a, b in pairs if a is not None and b is not None]
    return Inequality(
        "baselines whose ACC at 4096 rises with InfoScale",
        computed=sum(b > a for a, b in pairs),
        paper=len(pairs) / 2,
        relation=">",
        source="Sec. 4.2.1 ('most'; half of the comparable baselines, Table 7)",
    )


@claim(
    id="infoscale-sec4.2.4",
    paper=P,
    location="Sec. 4.2.4, Tables 2-3",
    statement="InfoScale beats Softmax Plus in ACC "
    "in all conditions without CosScale, and overall with CosScale.",
)
def infoscale_beats_softmax_plus(ctx: Context) -> Evidence:
    no_cs = [
        (n, _acc(T.TABLE3, "GAU-α w/ I.S.", n), _acc(T.TABLE3, "GAU-α w/ softmax+", n))
        for n in T.LENGTHS
    ]
    no_cs = [(n, a, b) for n, a, b in no_cs if a is not None and b is not None]
    with_cs = [
        (_acc(T.TABLE2, "GAU-α w/ C.S., I.S.", n), _acc(T.TABLE2, "GAU-α w/ C.S., softmax+", n))
        for n in T.LENGTHS
    ]
    return Evidence(
        [
            Inequality(
                "ACC with InfoScale, no CosScale",
                computed=[a for _, a, _ in no_cs],
                paper=[b for _, _, b in no_cs],
                relation=">",
                source="Table 3 (vs Softmax Plus)",
                where="n = " + ", ".join(str(n) for n, _, _ in no_cs) + " (4096 censored)",
            ),
            Inequality(
                "mean ACC with InfoScale and CosScale",
                computed=float(np.mean([a for a, _ in with_cs])),
                paper=float(np.mean([b for _, b in with_cs])),
                relation=">",
                source="Table 2 (vs Softmax Plus)",
                where="n = 128 .. 4096",
            ),
            Reported(
                "lengths with identical ACC with CosScale",
                computed=[n for n, (a, b) in zip(T.LENGTHS, with_cs) if a == b],
            ),
        ]
    )


@claim(
    id="infoscale-sec4.3.2",
    paper=P,
    location="Sec. 4.3.2, Table 9",
    statement="Best CosScale: 32 at n=128, 256 at 1024, "
    "128 at 4096; CosScale 128 has the highest average ACC.",
)
def best_cosscale_per_length(ctx: Context) -> Evidence:
    keys = [k for k in T.TABLE9 if k != "600"]
    best = [int(min(keys, key=lambda k: _ppl(T.TABLE9, k, n) or 1e9)) for n in (128, 1024, 4096)]
    avg = {k: float(np.mean([_acc(T.TABLE9, k, n) or 0.05 for n in T.LENGTHS])) for k in T.TABLE9}
    return Evidence(
        [
            Equal(
                "CosScale with the lowest PPL at n = 128, 1024, 4096",
                computed=best,
                paper=[32, 256, 128],
                source="Sec. 4.3.2, Table 9",
            ),
            Equal(
                "CosScale with the highest mean ACC",
                computed=int(max(avg, key=avg.get)),
                paper=128,
                source="Sec. 4.3.2",
                note="'<0.1' counted as 0.05",
            ),
        ]
    )


@claim(
    id="infoscale-sec4.5",
    paper=P,
    location="Sec. 4.5, Table 10",
    statement="InfoScale + CosScale is best beyond the pre-training length 512.",
)
def infoscale_cosscale_best_beyond_training(ctx: Context) -> Evidence:
    both = "GAU-α w/ C.S., I.S."
    ns = (1024, 2048, 4096)
    others = [
        max(
            a
            for r, v in T.TABLE10.items()
            if r != both
            for a in [T.cells(v)[_column(n)][1]]
            if a is not None
        )
        for n in ns
    ]
    return Evidence(
        [
            Inequality(
                "ACC of C.S. + I.S.",
                computed=[_acc(T.TABLE10, both, n) for n in ns],
                paper=others,
                relation=">=",
                source="Table 10 (vs the best other row)",
                where="n = 1024, 2048, 4096",
            )
        ]
    )


@claim(
    id="infoscale-method-count",
    paper=P,
    location="Abstract / Sec. 1 / Sec. 5",
    statement="The methods the paper says "
    "it improves on are the ones it evaluates (abstract: 'outperforms seven existing "
    "methods'; conclusion: 'improves ... eight'; introduction: nine named, incl. CLEX).",
)
def methods_named_are_methods_evaluated(ctx: Context) -> Evidence:
    base = [m for m in T.TABLE1 if " w/ " not in m]  # 9 rows, YaRN twice
    families = {m.split("(")[0] for m in base}
    improved = {m.split("(")[0] for m in base if _improved_at_4096(m)}
    return Evidence(
        [
            Equal(
                "baseline methods in Table 1",
                computed=len(families),
                paper=8,
                source="Sec. 5 ('eight')",
            ),
            Equal(
                "methods that C.S. + I.S. improve at 4096",
                computed=len(improved),
                paper=7,
                source="abstract ('seven')",
            ),
            Equal(
                "methods named in Sec. 1 that a table evaluates",
                computed=len(set(T.INTRO_METHODS) & families),
                paper=len(T.INTRO_METHODS),
                source="Sec. 1",
                note="named: " + ", ".join(T.INTRO_METHODS),
            ),
        ]
    )


def _improved_at_4096(method: str) -> bool:
    row = f"{method} w/ C.S., I.S."
    if method.startswith("W.A."):
        row = "W.A.(C.S.=16) w/ C.S., I.S."
    (p0, a0), (p1, a1) = (T.cells(T.TABLE1[r])[-1] for r in (method, row))
    better_ppl = p1 is not None and (p0 is None or p1 < p0)
    better_acc = a1 is not None and (a0 is None or a1 > a0)
    return (better_ppl or better_acc) and not (a0 and a1 and a1 < a0)


@claim(
    id="infoscale-experiments",
    paper=P,
    location="Tables 1-3, 5, 7-10; Figs. 2, 3, 6, 7",
    statement="Measured PPL/ACC "
    "of GAU-alpha variants on the WJ patent data up to 4096 tokens; attention histograms "
    "and heatmaps; training curves.",
    unperturbable="every number needs the authors' "
    "checkpoints and data; the tables' internal consistency is checked by other claims",
)
def gau_alpha_experiments(ctx: Context) -> Evidence:
    return Evidence([MissingInput("the measured PPL/ACC, histograms and curves", missing=GAU)])


@claim(
    id="infoscale-sec4.3.1",
    paper=P,
    location="Sec. 4.3.1, Fig. 6",
    statement="As CosScale increases the cos theta "
    "histogram sharpens toward 1 and attention concentrates near the diagonal (windowed).",
    unperturbable="needs GAU-α models trained at each CosScale; nothing of the paper's "
    "to compare here",
)
def cosine_histogram_sharpens(ctx: Context) -> Evidence:
    return Evidence(
        [
            MissingInput(
                "Fig. 6's histograms",
                missing="GAU-α models trained at each CosScale (the authors' checkpoints)",
            )
        ],
        notes=[
            "Under Assumption 3.2 alone the raw histogram does not depend on "
            "CosScale (infoscale-thm3.4, second reading)."
        ],
    )
