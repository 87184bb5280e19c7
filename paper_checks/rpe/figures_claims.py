"""RPE paper, Figures 5, 7 and 8 and Hypothesis 3.1."""

from __future__ import annotations

import math

import numpy as np

from paper_checks.evidence import (
    Equal,
    Evidence,
    Inequality,
    MissingInput,
    Reported,
)
from paper_checks.registry import Context, claim
from paper_checks.rpe.engine_routes import (
    P,
)
from theory.series import reference as ref


# ================================================================ Figures 5, 7, 8
@claim(
    id="rpe-fig5",
    paper=P,
    location="Fig. 5 caption; Sec. 4 'Validating TRF'",
    kind="numeric",
    statement="The TRF of Type 1 is larger than that of Type 2 (Fig. 5, TRF normalised, "
    "computed with App. E).",
)
def type1_trf_larger_than_type2(ctx: Context) -> Evidence:
    from figures.rpe_theory import fig5_data, render_fig5

    data = fig5_data(m=512, quick=True)
    fig = render_fig5(data, ctx.outdir)
    t1, t2 = data["truncated"]["type1"], data["truncated"]["type2"]
    eps = [float(e) for e in data["eps_paper_grid"]]
    small = [(a, b_) for e, a, b_ in zip(eps, t1, t2) if 0 < e <= 0.1]
    return Evidence(
        [
            Equal(
                "eps of Fig. 5's grid (of 50) where Type 1's TRF is not the larger",
                sum(a <= b_ for a, b_ in zip(t1, t2)),
                paper=0,
                where="eps in [1/49, 1], m = 512",
                source="Fig. 5 caption",
            ),
            Inequality(
                "max over grid eps <= 0.1 of TRF_Type2 - TRF_Type1 (Thm 3.5's regime)",
                max(b_ - a for a, b_ in small),
                paper=0,
                relation="<",
                role="consequence",
                source="Sec. 4 'Validating TRF'",
            ),
            Reported(
                "grid eps where Type 1's TRF is smaller / equal",
                [sum(a < b_ for a, b_ in zip(t1, t2)), sum(a == b_ for a, b_ in zip(t1, t2))],
            ),
        ],
        figures=[fig["png"]],
        data={
            "eps_type1_smaller": [e for e, a, b_ in zip(eps, t1, t2) if a < b_],
            "eps_equal": [e for e, a, b_ in zip(eps, t1, t2) if a == b_],
            "truncated_vs_exact": fig["comparison"],
        },
    )


@claim(
    id="rpe-fig7",
    paper=P,
    location="Fig. 7 caption; Sec. 4 'Visualizing RPE'",
    kind="numeric",
    statement="Type 2 concentrates weights on closer neighbouring tokens than Type 1.",
)
def type2_concentrates_nearer(ctx: Context) -> Evidence:
    from figures.rpe_theory import make_fig78

    fig = make_fig78(ctx.outdir, quick=True)
    B1, B2 = float(ref.total("type1")), float(ref.total("type2"))
    b1, b2 = ref.terms_array("type1", 20), ref.terms_array("type2", 20)
    share = {w: (float(b1[:w].sum() / B1), float(b2[:w].sum() / B2)) for w in (1, 2, 3, 5, 10, 20)}
    return Evidence(
        [
            Inequality(
                "min over windows w in {1, 2, 3, 5, 10, 20} of (Type 2's - Type 1's "
                "share of B within w tokens)",
                min(s2 - s1 for s1, s2 in share.values()),
                paper=0.0,
                relation=">=",
                where="windows 1-20 tokens",
                source="Fig. 7 caption",
            ),
            Inequality(
                "min over w in {10, 20} of (Type 2's - Type 1's share of B)",
                min(share[w][1] - share[w][0] for w in (10, 20)),
                paper=0.0,
                relation=">",
                role="consequence",
                source="Sec. 4 (Type 2's smaller receptive field)",
            ),
        ],
        figures=[fig["png"]],
        data={
            "mass_share_type1_type2": share,
            "distances_type2_brighter": [int(tt) for tt in range(20) if b2[tt] > b1[tt]],
        },
        notes=[
            "In the heatmap itself (unnormalised exp(RPE)) Type 2 is brighter than Type 1 "
            "at distances t = 1..6 (n = t + 1 < e^2), so the picture shows Type 2 wider "
            "near the diagonal and narrower beyond."
        ],
    )


@claim(
    id="rpe-fig8",
    paper=P,
    location="Fig. 8 caption",
    kind="numeric",
    statement="All methods, including 1/n and 1/(n ln n), are concentrated near the "
    "diagonal, so concentration is not enough to guarantee extrapolation.",
)
def concentration_is_not_enough(ctx: Context) -> Evidence:
    m = 512
    uniform = (m // 10) / m  # the share a uniform row puts on its nearest 10%
    share = {}
    for name in ref.FAMILIES:
        b = ref.terms_array(name, m)
        share[name] = float(b[: m // 10].sum() / b.sum())
    return Evidence(
        [
            Inequality(
                "min over the families of the share of a 512-token row's mass on the "
                "nearest 10% of tokens",
                min(share.values()),
                paper=uniform,
                relation=">",
                source="Fig. 8 caption ('concentrated', read against the null model: more "
                "than the share a uniform row puts on the nearest 10%)",
            ),
            Equal(
                "TRF(0.1) of 1/n and 1/(n ln n) (divergent: no finite TRF)",
                [ref.exact_trf("inv-n", None, 0.1), ref.exact_trf("inv-nlogn", None, 0.1)],
                paper=[math.inf, math.inf],
                source="Sec. 4 (the series diverge)",
            ),
        ],
        data={
            "share_of_row_mass_in_nearest_10pct": share,
            "monotone_first_200": {
                name: int(np.all(np.diff(ref.terms_array(name, 200)) <= 0)) for name in ref.FAMILIES
            },
        },
        notes=[
            "Sandwich is not monotone (limsup b_t = 1, rpe-appB-sandwich), which a "
            "512-wide heatmap hides."
        ],
    )


@claim(
    id="rpe-hyp3.1",
    paper=P,
    location="Hypothesis 3.1, Eq. 9; Fig. 1, Table 1",
    kind="symbolic",
    statement="An RPE that makes a transformer extrapolate behaves like sliding-window "
    "attention (Eq. 9).",
    unperturbable="a hypothesis about trained models whose checkpoints are not here",
)
def extrapolating_rpe_acts_like_sliding_window(ctx: Context) -> Evidence:
    return Evidence(
        [
            MissingInput(
                "delta(i, j) of trained transformers that extrapolate",
                missing="the paper's trained models behind Fig. 1 and Table 1 (checkpoints)",
                source="Hypothesis 3.1",
            )
        ],
        notes=[
            "Its mathematical content, Eq. 9 for a given RPE, is decided by convergence "
            "(rpe-thm3.4, rpe-necessity-eq9)."
        ],
    )
