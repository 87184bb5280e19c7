"""Claims of the attention-alignment paper about its Assumptions 1-2 (Sec. 6.1, App. A.1,
Table 7, Figs. 2 and 5): measured on models built here, and at the paper's own operating
point, where the sigma the paper does not print is inferred from Tables 1 and 7 by Eq. 2
(:mod:`paper_checks.align.operating_point`).
"""

from __future__ import annotations

import math

from paper_checks.align.models_here import (
    FLAN,
    ONLY_MISSING,
    assumptions_run,
    scoped,
)
from paper_checks.align.operating_point import (
    SIGMA,
    per_task,
    predicts,
    sigma_at,
    tables_1_7,
)
from paper_checks.evidence import (
    Equal,
    Evidence,
    Inequality,
    MissingInput,
    Reading,
    Reported,
    Tol,
)
from paper_checks.inferred import inferred
from paper_checks.registry import Context, claim
from theory.papers.align import (
    TABLE7,
)
from theory.temperature.gaussian_softmax import (
    expected_log_partition,
    expected_max_std_normal,
)

P = "align"


#: what a measured layer-0 sigma needs
FLAN_LAYER0 = "Flan-T5-XL weights (3B parameters; not on this machine) and the 15k-token inputs"


@claim(
    id="align-assumption1-empirical",
    paper="align",
    location="Sec. 6.1, Assumption 1, Figs. 2/5, App. A.1",
    kind="empirical",
    statement="The averaged (individually sorted, then averaged) pre-softmax logit vector "
    "of the first layer is normally distributed; its QQ plot follows y = x.",
    tolerances={
        "QQ correlation": Tol(
            atol=1e-3,
            approx_atol=1e-2,
            reason="a QQ correlation below 0.99 is visibly curved on a plot like the paper's",
        ),
        "largest |z - x| on the central 98%": Tol(
            atol=0.2,
            approx_atol=0.5,
            reason="the paper's QQ plot is read by eye; 0.2 (0.5) standard units is what a "
            "plot of its size shows as on (near) the line",
        ),
    },
)
@scoped
def averaged_logits_are_gaussian(ctx: Context) -> Evidence:
    res, name, tr, ex = assumptions_run(ctx)
    g = [res["lengths"][t]["per_layer"][name] for t in ("tr", "ex")]
    where = f"L in {{{tr['L']}, {ex['L']}}}, first layer"
    return Evidence(
        [
            Equal(
                "QQ correlation",
                computed=[x["qq_correlation"] for x in g],
                paper=1.0,
                source="Figs. 2/5 (points on y = x)",
                where=where,
            ),
            Equal(
                "largest |z - x| on the central 98%",
                computed=[x["max_abs_dev_central98"] for x in g],
                paper=0.0,
                source="Figs. 2/5",
                where=where,
                note="standard deviations",
            ),
            Reported(
                "Shapiro W, skewness, excess kurtosis, sigma",
                computed=[
                    [x[k] for k in ("shapiro_w", "skewness", "excess_kurtosis", "sigma")] for x in g
                ],
            ),
        ],
        data={"model": res["model"], "corpus": res["corpus"], "layer": name},
    )


@claim(
    id="align-assumption2-empirical",
    paper="align",
    location="Sec. 6.1, Assumption 2, Table 7",
    kind="empirical",
    statement="The largest entry lmax of the (zero-mean) averaged logit vector is the same "
    "at L_tr and L_ex.",
    tolerances={
        "relative change of l_max": Tol(
            atol=0.05,
            approx_atol=0.15,
            reason="Table 7 itself moves l_max by up to 3% (5% rounded up); 15% is three times that",
        )
    },
)
@scoped
def top_logit_same_at_both_lengths(ctx: Context) -> Evidence:
    res, name, tr, ex = assumptions_run(ctx)
    a2 = res["assumption2"][name]
    return Evidence(
        [
            Equal(
                "relative change of l_max",
                computed=a2["relative_change"],
                paper=0.0,
                source="Assumption 2 (l_max^ex = l_max^tr)",
                where=f"L {tr['L']} -> {ex['L']}",
            ),
            Reported(
                "Gaussian top-entry change with the measured sigmas",
                computed=a2["gaussian_implied_relative_change"],
            ),
            Reported(
                "paper's Table 7 relative changes (Flan-T5-XL)",
                computed=[(b - a) / a for a, b in TABLE7.values()],
            ),
        ],
        data={"model": res["model"], "corpus": res["corpus"], "layer": name, **a2},
    )


@claim(
    id="align-fig2-flan-t5-xl",
    paper="align",
    location="Figs. 2 and 5",
    kind="numeric",
    statement="QQ plots of Flan-T5-XL's averaged logit vector at ~512 and ~15k tokens "
    "lie close to y = x.",
    unperturbable=ONLY_MISSING,
)
def flan_t5_xl_qq_plots(ctx: Context) -> Evidence:
    return Evidence(
        [MissingInput("Flan-T5-XL's QQ plots", missing=FLAN)],
        notes=[
            "QQ plots of models built here: figure align-qq, claim align-assumption1-empirical."
        ],
    )


@claim(
    id="align-table7-flan-t5-xl",
    paper="align",
    location="Table 7",
    kind="numeric",
    statement="Flan-T5-XL: lmax 8.61/8.71/8.75 at 512 and 8.80/8.97/8.85 at 15k.",
    unperturbable=ONLY_MISSING,
)
def flan_t5_xl_top_logit_table7(ctx: Context) -> Evidence:
    return Evidence(
        [MissingInput("Table 7's l_max", missing=FLAN)],
        notes=["l_max on models built here: align-assumption2-empirical."],
        data={"paper": TABLE7},
    )


@claim(
    id="align-assumption1-regime",
    paper=P,
    location="Assumption 1 + Eq. 1, Tables 1, 7",
    statement="At the paper's own operating point (L_tr = 512, sigma_tr inferred from "
    "Tables 1 and 7; the paper prints no sigma) the Gaussian model is in the regime "
    "where Eq. 1 (L >> e^{sigma^2}) holds",
    tolerances={
        "log D": Tol(
            rtol=0.01,
            reason="Eq. 1 enters log P_max; 1% of log D (~0.1 nats at L = 512) is ~10% in "
            "P_max, about the spread of Table 1's P_max across tasks",
        )
    },
)
def gaussian_regime_at_paper_operating_point(ctx: Context) -> Evidence:
    readings = []
    for name, s, why, source in (
        (
            "sigma_tr from Eq. 2 (the inferred align-sigma)",
            sigma_at(512),
            "Eq. 2 is the paper's own relation between sigma, P_max (Table 1) and l_max (Table 7)",
            "eq2",
        ),
        (
            "sigma_tr from the Gaussian top entry",
            per_task(
                {k: t["lmax_512"] / expected_max_std_normal(512) for k, t in tables_1_7().items()}
            ),
            "Assumption 1: Table 7's l_max is the top entry sigma E[max_512] of the Gaussian vector",
            "lmax",
        ),
    ):
        readings.append(
            Reading(
                name,
                (
                    Equal(
                        "log D",
                        computed=[expected_log_partition(512, x) for x in s],
                        paper=[math.log(512) + x * x / 2 for x in s],
                        source="Eq. 1 at L_tr = 512",
                        where="topic, line, passkey",
                        note="exact E[log D] by quadrature vs Eq. 1's log L + sigma^2/2",
                    ),
                    Inequality(
                        "e^(sigma_tr^2)",
                        computed=[math.exp(x * x) for x in s],
                        paper=512,
                        relation="<",
                        source="Eq. 1 needs L >> e^(sigma^2); L_tr = 512",
                    ),
                    Reported("sigma_tr (topic, line, passkey)", computed=s),
                ),
                consistency=predicts(s, 512, source),
                reason=why,
            )
        )
    return Evidence(
        readings=readings,
        notes=[
            "Both readings take Table 7's l_max as mean-centred, as Eq. 2 requires; the paper "
            "does not say. Table 1's P_max is an average over the encoder, not layer 0's."
        ],
    )


@claim(
    id="align-assumption2-vs-a1",
    paper=P,
    location="Assumptions 1-2, Table 7",
    statement="Assumption 2 (l_max^ex = l_max^tr for the top entry of the averaged "
    "sorted logit vector) is compatible with Assumption 1 (that vector ~ N(0, sigma^2))",
    tolerances={
        "l_max growth 512 -> 15k": Tol(
            rtol=0.05,
            reason="Table 7 itself moves l_max by up to 3.0% between 512 and 15k, which "
            "Assumption 2 calls equal; 5% is that band rounded up",
        )
    },
    root_cause="align-sigma-inference",
)
def assumption2_compatible_with_assumption1(ctx: Context) -> Evidence:
    growth = expected_max_std_normal(15000) / expected_max_std_normal(512)
    t7 = per_task({k: v["lmax_15k"] / v["lmax_512"] for k, v in tables_1_7().items()})
    s_tr, s_ex = sigma_at(512), sigma_at(15000)
    readings = []
    for name, sigma_ex, why, source in (
        ("one sigma for every length", s_tr, "Assumption 1 names one sigma", ""),
        (
            "sigma at each length, inferred by Eq. 2 (align-sigma)",
            s_ex,
            "Assumption 1 is stated for 'the length L average logit vector', and Sec. 7 "
            "evaluates sigma_ex at every extrapolation length; the paper prints none, so it "
            "is the inferred align-sigma",
            "eq2",
        ),
    ):
        readings.append(
            Reading(
                name,
                (
                    Equal(
                        "l_max growth 512 -> 15k",
                        computed=[x / y * growth for x, y in zip(sigma_ex, s_tr)],
                        paper=t7,
                        source="Table 7 (topic, line, passkey)",
                        note="a Gaussian vector's top entry is sigma E[max_L]",
                    ),
                    Reported("sigma_ex (topic, line, passkey)", computed=sigma_ex),
                ),
                consistency=(predicts(sigma_ex, 15000, source)[0],),
                reason=why,
            )
        )
    return Evidence(
        readings=readings,
        data={"sigma_ex/sigma_tr that would reconcile them": [g / growth for g in t7]},
        notes=[
            "A layer-0 sigma measured at 15k tokens (not printed; needs " + FLAN_LAYER0 + ") could "
            "replace the inferred one."
        ],
    )


@claim(
    id="align-sigma-vs-table7",
    paper=P,
    location="Assumption 1, Eq. 2, Tables 1 and 7",
    statement="The sigma that Eq. 2 implies at each length (from Table 1's P_max and "
    "Table 7's l_max; the paper prints no sigma) reproduces Table 7's top logits as the "
    "top entry sigma E[max_L] of the Gaussian vector of Assumption 1",
    tolerances={
        "default": Tol(
            rtol=0.05,
            reason="Table 7 itself moves l_max by up to 3.0% between 512 and 15k, which "
            "Assumption 2 calls equal; 5% is that band rounded up",
        )
    },
    root_cause="align-sigma-inference",
)
def eq2_sigma_reproduces_table7(ctx: Context) -> Evidence:
    q = inferred(SIGMA)
    return Evidence(
        list(q.consistency),
        data={
            "rule": q.rule,
            "sigma": {k: {str(L): x for L, x in v.items()} for k, v in q.value.items()},
        },
    )
