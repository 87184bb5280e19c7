"""Theory claims of the attention-alignment paper (Sec. 4, 6, App. A.2-A.3, Tables 3
and 8-11): the derivations of Props. 1 and 2 (each step with its own outcome), the
approximations they use (measured against exact quadrature), the assumptions at the
paper's operating point, and the table numbers that follow from formulas.  Ids
``align-*``; the empirical claims are in :mod:`paper_checks.align.empirical_claims`.

Each check returns :class:`~paper_checks.evidence.Evidence`; the verdict is
:func:`~paper_checks.evidence.judge`'s, under the tolerances declared below.  The
"regime" of the Gaussian approximations is the one they assume, L >> e^(s^2), read as
e^(s^2) <= L/10; beyond it is claim ``align-rem-breakdown``.
"""

from __future__ import annotations

import functools
import math

import sympy as sp

from paper_checks.align.tables import (
    ALG1_STEP,
    ALG1_TEMPERATURES,
    EARLY_DISPLAY,
    ENTROPY_NATS,
    PAPER_TABLES,
    SIGMA_EX_READINGS,
    TABLE3,
    TABLE4,
    TABLE8_LOG,
    TABLE9_LOG,
    TABLE10_LOG,
    TABLE11_LOG,
    early_display_source,
    extraction_damage,
    log_rule_nearest,
    paper_operating_point,
    sigma_ex_readings,
    table5_checks,
    table9_proportional,
)
from paper_checks.evidence import (
    Counterexample,
    Equal,
    Evidence,
    Identity,
    Inequality,
    Reading,
    Reported,
    derivation_steps,
)
from paper_checks.inferred import inferred
from paper_checks.registry import Tol, claim
from theory.temperature.alignment_truth import entropy_error, prop2_vs_truth
from theory.temperature.derivations import prop1_derivation, prop2_derivation
from theory.temperature.gaussian_softmax import (
    approx_pmax,
    expected_log_partition,
    expected_max_std_normal,
    expected_pmax,
    mc_softmax_stats,
    pmax_alignment_tau_exact,
    rem_critical_s,
)
from theory.temperature.rules import prop1_temperature

P = "align"
FLAN = "Flan-T5-XL weights (3B parameters; not on this machine) and the 15k-token inputs"
#: (L, s = sigma/tau) grid of the Gaussian approximations; REGIME keeps e^(s^2) <= L/10
GRID = [(L, s) for L in (64, 512, 15000, 10**6) for s in (0.5, 1.0, 1.5, 2.0, 2.7, 3.0)]
REGIME = [(L, s) for L, s in GRID if math.exp(s * s) <= L / 10]
REGIME_TEXT = "L in [64, 1e6], s = sigma/tau with e^(s^2) <= L/10"
#: entropies: exact to 1e-3 nats, approximately within half of Algorithm 1's grid step
ENTROPY_TOL = Tol(
    atol=1e-3,
    approx_atol=ENTROPY_NATS,
    reason="an entropy error that moves Prop. 2's tau by half of Algorithm 1's grid step "
    "(0.05), at the inferred sigma_tr (dH/dtau = sigma^2 at tau = 1)",
)


@functools.cache
def _report(name: str):
    d = prop1_derivation(fast=True) if name == "prop1" else prop2_derivation(fast=True)
    return d.verify(seed=0)


def _steps(name: str, *labels: str) -> list:
    """The steps of derivation ``name`` whose label starts with one of ``labels``."""
    return [it for it in derivation_steps(_report(name)) if it.quantity.startswith(labels)]


def _tasks(values: dict) -> list:
    return [values[k] for k in PAPER_TABLES]


# ----------------------------------------------------------------------- assumptions
SIGMA = "align-sigma"  # the inferred sigma (paper_checks.inferred), one rule for every claim
TAGS = {512: "512", 15000: "15k"}


def _predicts(sigmas: list, L: int) -> tuple:
    """What a reading's sigma at length ``L`` (per task) predicts for the numbers the
    paper prints there: Table 1's P_max by Eq. 2 (with Table 7's l_max) and Table 7's
    l_max by Assumption 1's Gaussian top entry (its consistency items)."""
    tag, top = TAGS[L], expected_max_std_normal(L)
    rows = list(PAPER_TABLES.values())
    return (
        Equal(
            f"P_max at {tag} by Eq. 2",
            computed=[math.exp(t[f"lmax_{tag}"] - x * x / 2) / L for t, x in zip(rows, sigmas)],
            paper=[t[f"pmax_{tag}"] for t in rows],
            source=f"Table 1 at {tag}",
        ),
        Equal(
            f"l_max at {tag}, sigma E[max_L]",
            computed=[x * top for x in sigmas],
            paper=[t[f"lmax_{tag}"] for t in rows],
            source=f"Table 7 at {tag}",
        ),
    )


def _sigma_at(L: int) -> list:
    """The inferred sigma at length ``L`` per task (entry ``align-sigma``)."""
    value = inferred(SIGMA).value
    return _tasks({task: value[task][L] for task in value})


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
def gaussian_regime_at_paper_operating_point(ctx):
    readings = []
    for name, s, why in (
        (
            "sigma_tr from Eq. 2 (the inferred align-sigma)",
            _sigma_at(512),
            "Eq. 2 is the paper's own relation between sigma, P_max (Table 1) and l_max (Table 7)",
        ),
        (
            "sigma_tr from the Gaussian top entry",
            _tasks(
                {k: t["lmax_512"] / expected_max_std_normal(512) for k, t in PAPER_TABLES.items()}
            ),
            "Assumption 1: Table 7's l_max is the top entry sigma E[max_512] of the Gaussian vector",
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
                consistency=_predicts(s, 512),
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
def assumption2_compatible_with_assumption1(ctx):
    growth = expected_max_std_normal(15000) / expected_max_std_normal(512)
    t7 = _tasks({k: v["lmax_15k"] / v["lmax_512"] for k, v in PAPER_TABLES.items()})
    s_tr, s_ex = _sigma_at(512), _sigma_at(15000)
    readings = []
    for name, sigma_ex, why in (
        ("one sigma for every length", s_tr, "Assumption 1 names one sigma"),
        (
            "sigma at each length, inferred by Eq. 2 (align-sigma)",
            s_ex,
            "Assumption 1 is stated for 'the length L average logit vector', and Sec. 7 "
            "evaluates sigma_ex at every extrapolation length; the paper prints none, so it "
            "is the inferred align-sigma",
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
                consistency=(_predicts(sigma_ex, 15000)[0],),
                reason=why,
            )
        )
    return Evidence(
        readings=readings,
        data={"sigma_ex/sigma_tr that would reconcile them": [g / growth for g in t7]},
        notes=[
            "A layer-0 sigma measured at 15k tokens (not printed; needs " + FLAN + ") could "
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
def eq2_sigma_reproduces_table7(ctx):
    q = inferred(SIGMA)
    return Evidence(
        list(q.consistency),
        data={
            "rule": q.rule,
            "sigma": {k: {str(L): x for L, x in v.items()} for k, v in q.value.items()},
        },
    )


# ----------------------------------------------------------------------- Eq. 1, P_max
@claim(
    id="align-eq1-lln",
    paper=P,
    location="Eq. 1 (App. A.2)",
    statement="sum_{i<=L} e^{l_i/tau} ~ L e^{sigma^2/(2 tau^2)} (log form: "
    "log D ~ log L + sigma^2/(2 tau^2)) in the regime L >> e^{sigma^2/tau^2}",
    tolerances={
        "log D": Tol(
            rtol=1e-3,
            approx_rtol=0.05,
            reason="the same 1%-of-log-D band as align-assumption1-regime, widened to 5% as the approximate band: 5% of log D at L = 512 is ~0.3 nats, the width of Table 1's P_max spread in log form",
        )
    },
)
def partition_function_law_of_large_numbers(ctx):
    return Evidence(
        [
            Equal(
                "log D",
                computed=[expected_log_partition(L, s) for L, s in REGIME],
                paper=[math.log(L) + s * s / 2 for L, s in REGIME],
                source="Eq. 1",
                where=REGIME_TEXT,
                note="exact E[log D] by quadrature",
            )
        ]
    )


@claim(
    id="align-pmax-approx",
    paper=P,
    location="App. A.2 (P_max approximation)",
    statement="P_max ~ e^{l_max/tau} / (L e^{sigma^2/(2 tau^2)}) with l_max the top of "
    "the averaged sorted vector, sigma E[max_L]",
    # 25%: the paper reads P_max to two digits (0.28 vs 0.12) and uses it in log form
    tolerances={
        "E[P_max]": Tol(
            rtol=1e-3,
            approx_rtol=0.25,
            reason="the paper uses P_max in log form; 25% is the spread of Table 1's P_max "
            "between tasks at 512 (0.27 to 0.32) and about half its change 512 -> 15k",
        ),
        "Monte Carlo E[P_max]": Tol(
            atol=0.01, basis="numeric", reason="a few standard errors of the Monte Carlo mean"
        ),
    },
)
def pmax_gaussian_approximation(ctx):
    pts = [(L, s) for L, s in REGIME if L in (512, 15000, 10**6)]
    mc = mc_softmax_stats(512, 2.0, 1.0, 1000 if ctx.quick else 4000, seed=ctx.seed + 1)
    return Evidence(
        [
            Equal(
                "E[P_max]",
                computed=[expected_pmax(L, s) for L, s in pts],
                paper=[
                    float(approx_pmax(L, s, 1.0, s * expected_max_std_normal(L))) for L, s in pts
                ],
                source="App. A.2",
                where=REGIME_TEXT + ", tau = 1",
                note="exact E[P_max] by quadrature",
            ),
            Equal(
                "Monte Carlo E[P_max]",
                computed=mc["pmax"][0],
                paper=expected_pmax(512, 2.0),
                source="quadrature (independent check)",
                where="L = 512, sigma = 2",
            ),
        ]
    )


# ----------------------------------------------------------------------- Prop. 1
@claim(
    id="align-prop1",
    paper=P,
    location="App. A.2, Prop. 1 (Sec. 6.2)",
    statement="App. A.2's derivation: shift invariance (zero-mean logits), the Gaussian "
    "moment of Eq. 1, Eq. 2, Assumption 2, substituting Eq. 2, and aligning "
    "P_max^ex = P_max^tr give tau ~ B / (A + C/tau^2) = B tau^2/(A tau^2 + C), i.e. "
    "A tau^2 - B tau + C = 0, with A = log L_ex + log P, B = log L_tr + log P + "
    "sigma_tr^2/2, C = sigma_ex^2/2",
    kind="symbolic",
)
def prop1_derivation_steps(ctx):
    return Evidence(
        _steps(
            "prop1",
            "Assumption 2:",
            "Softmax is shift",
            "Gaussian moment",
            "Eq. 2",
            "A.2: substitute",
            "Align P_ex",
            "Prop. 1:",
            "tau(A tau^2",
            "larger root solves",
        )
    )


@claim(
    id="align-a2-early-version-typo",
    paper=P,
    location="early version, Sec. 6.1, last display before Prop. 1",
    statement="(early version) P_max^ex ~ (P L_tr e^{sigma_ex^2/(2 tau^2)})^{1/tau} / "
    "(L_ex e^{sigma_ex^2/(2 tau^2)}), the result of substituting Eq. 2",
    tolerances={"default": Tol(rtol=1e-12, basis="numeric", reason="double precision")},
)
def early_version_display_is_extraction_damage(ctx):
    L_tr, L_ex, p, s_tr, s_ex, tau = 512, 15000, 0.28, 1.0, 1.2, 0.7
    den = L_ex * math.exp(s_ex**2 / (2 * tau**2))
    derived = (p * L_tr * math.exp(s_tr**2 / 2)) ** (1 / tau) / den
    printed = (p * L_tr * math.exp(s_ex**2 / (2 * tau**2))) ** (1 / tau) / den
    Lt, P_, st = sp.symbols("L_tr P sigma_tr", positive=True)
    b_derived = sp.expand_log(sp.log(P_ * Lt * sp.exp(st**2 / 2)), force=True)
    typo_src = early_display_source("\\sigma_{ex}^2/(2\\tau^2)")
    right_src = early_display_source("\\sigma_{tr}^2/2", "tr")
    return Evidence(
        [
            Equal(
                "P_max^ex by substituting Eq. 2",
                computed=derived,
                paper=printed,
                source="early version, Sec. 6.1",
                where="L_tr=512, L_ex=15000, P=0.28, sigma_tr=1, sigma_ex=1.2, tau=0.7",
            ),
            Identity(
                "B of the early version's Prop. 1 vs Eq. 2 substituted",
                role="consequence",
                lhs=sp.sstr(b_derived),
                rhs="log(L_tr) + log(P) + sigma_tr**2/2",
                residual=b_derived - (sp.log(Lt) + sp.log(P_) + st**2 / 2),
                source="early version, Prop. 1",
            ),
            Reported(
                "characters by which our copy differs from the display with "
                "e^(sigma_ex^2/(2 tau^2)), after the extraction's escape damage",
                computed=_char_diff(extraction_damage(typo_src), EARLY_DISPLAY),
            ),
            Reported(
                "the same with e^(sigma_tr^2/2) (the derivation's term)",
                computed=_char_diff(extraction_damage(right_src), EARLY_DISPLAY),
            ),
        ],
        notes=[
            "The extraction only eats or blanks the escapes \\b \\t \\a \\f \\r, so it "
            "cannot have turned sigma_tr into sigma_ex: the slip is in the source."
        ],
    )


def _char_diff(a: str, b: str) -> int:
    """Positions at which two strings differ, plus their length difference."""
    return sum(x != y for x, y in zip(a, b)) + abs(len(a) - len(b))


@claim(
    id="align-prop1-larger-root",
    paper=P,
    location="Prop. 1 (Sec. 6.2)",
    statement="Picking the larger root of A tau^2 - B tau + C = 0 selects the right "
    "branch (tau = 1 at L_ex = L_tr, sigma_ex = sigma_tr) in the regime the paper's "
    "approximations describe, and at its inferred operating point",
    tolerances={
        "|larger root - 1| at L_ex = L_tr": Tol(
            atol=1e-12, basis="numeric", reason="double precision"
        )
    },
)
def prop1_larger_root_is_right_branch(ctx):
    worst, witness = 0.0, ""
    for L in (64, 512, 15000):
        m = expected_max_std_normal(L)
        for k in range(1, 21):
            s = math.sqrt(math.log(L)) * k / 20
            p = math.exp(s * m - s * s / 2) / L  # Eq. 2 with l_max = sigma E[max_L]
            r = prop1_temperature(L, L, s, s, p).details.get("roots") or (math.nan,)
            dev = abs(max(r) - 1)
            if not dev <= worst:
                worst, witness = dev, f"L={L}, sigma={s:.3f}, P={p:.3g}"
    op = paper_operating_point()
    return Evidence(
        [
            Counterexample(
                "|larger root - 1| at L_ex = L_tr",
                computed=worst,
                paper=0.0,
                searched="L in {64, 512, 15000}, sigma in (0, sqrt(ln L)], P "
                "from Eq. 2 with l_max = sigma E[max_L] (Assumption 1)",
                witness=witness,
                source="Prop. 1",
            ),
            Inequality(
                "C = sigma_tr^2/2 (Eq. 2 sigma)",
                computed=_tasks({k: o["sigma_tr_eq2"] ** 2 / 2 for k, o in op.items()}),
                paper=_tasks({k: math.log(512 * o["pmax_tr"]) for k, o in op.items()}),
                relation="<",
                source="A at L_ex = L_tr (Tables 1, 7)",
                note="at L_ex = L_tr the roots are 1 and C/A: the larger is 1 iff C < A",
            ),
        ]
    )


@claim(
    id="align-prop1-real-root",
    paper=P,
    location="Prop. 1 (Sec. 6.2), Tables 1, 7",
    statement="The quadratic A tau^2 - B tau + C = 0 has a real root at the paper's "
    "operating point (L_tr = 512, L_ex = 15k; P and l_max from Tables 1 and 7)",
    tolerances={
        "discriminant / B^2": Tol(
            atol=1e-9, basis="numeric", reason="double precision of the quadratic's terms"
        )
    },
)
def prop1_quadratic_has_real_root(ctx):
    rows = sigma_ex_readings()
    eq2 = _sigma_at(15000)  # the inferred align-sigma: the reading "eq2_at_L_ex" is this entry
    readings = []
    for name, text in SIGMA_EX_READINGS.items():
        s_ex = (
            eq2
            if name == "eq2_at_L_ex"
            else _tasks({k: r[name]["sigma_ex"] for k, r in rows.items()})
        )
        readings.append(
            Reading(
                text,
                (
                    Inequality(
                        "discriminant / B^2",
                        computed=_tasks(
                            {k: r[name]["discriminant_over_B2"] for k, r in rows.items()}
                        ),
                        paper=0.0,
                        relation=">=",
                        source="Prop. 1 (a real root)",
                        where="topic, line, passkey",
                    ),
                    Reported("sigma_ex", computed=s_ex),
                    Reported(
                        "larger root tau",
                        computed=_tasks(
                            {
                                k: (r[name]["tau"] if r[name]["tau"] is not None else math.nan)
                                for k, r in rows.items()
                            }
                        ),
                    ),
                ),
                consistency=_predicts(s_ex, 15000),
                reason="the inferred align-sigma (Eq. 2 at each length)"
                if name == "eq2_at_L_ex"
                else "",
            )
        )
    return Evidence(
        readings=readings,
        data={
            "sigma_tr": _tasks({k: r["sigma_tr"] for k, r in rows.items()}),
            "largest_sigma_ex_with_a_real_root": _tasks(
                {k: r["sigma_ex_max"] for k, r in rows.items()}
            ),
        },
        notes=[
            "Table 1's P_max is averaged over the encoder, not layer 0's as Prop. 1 "
            "needs; Eq. 2 at L_tr = 512 is outside its regime (align-assumption1-regime).",
            "Each reading is scored by what its sigma_ex predicts for Table 1's P_max (Eq. 2) "
            "and Table 7's l_max (Assumption 1) at 15k; no sigma_ex reproduces both "
            "(align-sigma-vs-table7).",
        ],
    )


@claim(
    id="align-prop1-vs-iid",
    paper=P,
    location="Prop. 1 (Sec. 6.2)",
    statement="Prop. 1's temperature aligns the maximum probability, tested on i.i.d. "
    "Gaussian logits in the setting its two assumptions describe: Assumption 1 exact, "
    "and sigma_ex chosen so that Assumption 2 holds (sigma_ex E[max_Lex] = "
    "sigma_tr E[max_Ltr])",
    tolerances={
        "tau": Tol(
            atol=1e-3,
            approx_atol=ALG1_STEP / 2,
            reason="exact to 1e-3; approximately: within half of Algorithm 1's grid step (0.05 in tau), the resolution at which the paper applies tau",
        )
    },
)
def prop1_aligns_pmax_on_iid_logits(ctx):
    cases = ((512, 2048, 1.0), (512, 2048, 1.5), (512, 15000, 1.5))
    exact, prop = [], []
    for L_tr, L_ex, s_tr in cases:
        s_ex = s_tr * expected_max_std_normal(L_tr) / expected_max_std_normal(L_ex)
        r = prop1_temperature(L_tr, L_ex, s_tr, s_ex, expected_pmax(L_tr, s_tr))
        exact.append(pmax_alignment_tau_exact(L_tr, L_ex, s_tr, s_ex))
        prop.append(r.tau if r.tau is not None else math.nan)
    fixed = prop1_temperature(512, 2048, 1.0, 1.0, expected_pmax(512, 1.0)).tau
    return Evidence(
        [
            Equal(
                "tau",
                computed=exact,
                paper=prop,
                source="Prop. 1 (larger root)",
                where="(L_tr, L_ex, sigma_tr) in " + str(list(cases)),
                note="exact P_max-aligning tau by quadrature",
            ),
            Reported(
                "tau at fixed sigma = 1, 512 -> 2048 (Assumption 2 violated): Prop. 1, exact",
                computed=[fixed, pmax_alignment_tau_exact(512, 2048, 1.0, 1.0)],
            ),
        ]
    )


# ----------------------------------------------------------------------- Eq. 3, Prop. 2
@claim(
    id="align-eq3",
    paper=P,
    location="Eq. 3 (App. A.3; early version Eq. 4)",
    statement="E[l e^l] = e^{sigma^2/2} sigma^2 for l ~ N(0, sigma^2), by its four "
    "lines (merge the exponents, complete the square, factor e^{sigma^2/2} out, mean of "
    "N(sigma^2, sigma^2)), and with temperature E[(l/tau) e^{l/tau}] = "
    "(sigma^2/tau^2) e^{sigma^2/(2 tau^2)}",
    kind="symbolic",
)
def gaussian_moment_eq3(ctx):
    return Evidence(
        _steps("prop2", "Eq. 3"),
        notes=["The paper says 'approximated as'; every line is an equality."],
    )


@claim(
    id="align-prop2",
    paper=P,
    location="App. A.3, Prop. 2 (Sec. 6.3)",
    statement="App. A.3's algebra: H = log D - sum_i (l_i/tau) e^{l_i/tau}/D; combining "
    "Eqs. 1 and 3 gives log L - sigma^2/(2 tau^2); aligning H_ex = H_tr gives "
    "tau = sigma_ex / sqrt(sigma_tr^2 + 2 log(L_ex/L_tr))",
    kind="symbolic",
)
def prop2_derivation_steps(ctx):
    return Evidence(_steps("prop2", "Entropy of a softmax", "combine Eq. 1", "Prop. 2 solves"))


@claim(
    id="align-entropy-numerator-lln",
    paper=P,
    location="App. A.3 ('sum_i l_i e^{l_i} ~ L E[l e^l]')",
    statement="sum_i (l_i/tau) e^{l_i/tau} / D ~ E[x e^x]/E[e^x] = sigma^2/tau^2 (both "
    "sums by the law of large numbers)",
    # in nats, as H = log D - S/D: the band of align-entropy-approx
    tolerances={"E[S/D]": ENTROPY_TOL},
)
def entropy_numerator_law_of_large_numbers(ctx):
    exact = [entropy_error(L, s) for L, s in REGIME]
    # H = log D - S/D exactly, so E[S/D] = E[log D] - E[H]
    ratio = [
        expected_log_partition(L, s) - (e + math.log(L) - s * s / 2)
        for (L, s), e in zip(REGIME, exact)
    ]
    return Evidence(
        [
            Equal(
                "E[S/D]",
                computed=ratio,
                paper=[s * s for _, s in REGIME],
                source="App. A.3",
                where=REGIME_TEXT,
                note="E[log D] - E[H], both exact by quadrature",
            )
        ]
    )


@claim(
    id="align-entropy-approx",
    paper=P,
    location="App. A.3",
    statement="H ~ log L - sigma^2/(2 tau^2) for L i.i.d. N(0, sigma^2) logits",
    tolerances={"E[H]": ENTROPY_TOL},
)
def entropy_gaussian_approximation(ctx):
    return Evidence(
        [
            Equal(
                "E[H]",
                computed=[entropy_error(L, s) + math.log(L) - s * s / 2 for L, s in REGIME],
                paper=[math.log(L) - s * s / 2 for L, s in REGIME],
                source="App. A.3",
                where=REGIME_TEXT,
                note="exact E[H] by quadrature (nats)",
            )
        ]
    )


@claim(
    id="align-prop2-vs-iid",
    paper=P,
    location="Prop. 2 (Sec. 6.3)",
    statement="Prop. 2's temperature aligns the entropy (tested on i.i.d. Gaussian "
    "logits, where Assumption 1 holds exactly)",
    tolerances={
        "tau": Tol(
            atol=1e-3,
            approx_atol=ALG1_STEP / 2,
            reason="exact to 1e-3; approximately: within half of Algorithm 1's grid step (0.05 in tau), the resolution at which the paper applies tau",
        )
    },
)
def prop2_aligns_entropy_on_iid_logits(ctx):
    cases = [(512, 2048, 1.0, 1.0), (512, 15000, 1.0, 1.0), (512, 15000, 2.0, 2.0)]
    rows = [prop2_vs_truth(*c) for c in cases]
    return Evidence(
        [
            Equal(
                "tau",
                computed=[r["tau_exact"] for r in rows],
                paper=[r["tau_prop2"] for r in rows],
                source="Prop. 2",
                where="(L_tr, L_ex, sigma_tr, sigma_ex) in " + str(cases) + " (in the regime)",
                note="exact entropy-aligning tau by quadrature",
            ),
            Reported(
                "entropy left unaligned by Prop. 2 (nats)", computed=[r["mismatch"] for r in rows]
            ),
        ]
    )


@claim(
    id="align-rem-breakdown",
    paper=P,
    location="Eqs. 1, 3 and App. A.3",
    statement="The Gaussian approximations (Eq. 1, H ~ log L - sigma^2/(2 tau^2)) are "
    "used without a stated range of sigma/tau, i.e. as if valid for every sigma/tau, "
    "including the paper's own operating point",
    # the worst relative error of log D, and the worst error of H in nats
    tolerances={
        "log D": Tol(
            atol=0.05,
            reason="5% relative error of log D, the approximate band of align-eq1-lln",
        ),
        "H": Tol(atol=ENTROPY_TOL.approx_atol, reason=ENTROPY_TOL.reason),
    },
)
def approximations_break_down_outside_regime(ctx):
    sig = inferred(SIGMA).value
    inside = [(L, sig[task][L]) for task in sig for L in (512, 15000)]
    top = max(x for _, x in inside)
    grid = [(L, k * rem_critical_s(L)) for L in (512, 15000) for k in (0.5, 1.0, 1.5, 2.0)]
    outside = [(L, x) for L, x in grid if x > top]
    why = f"s = sigma/tau above the paper's largest inferred sigma ({top:.2f}, align-sigma)"
    items = []
    for rows, out, where in (
        (inside, "", "the inferred align-sigma at L = 512 and 15k (topic, line, passkey)"),
        (
            outside,
            why,
            "L in {512, 15000}, s in [0.5, 2] s_c, s_c = sqrt(2 ln L), s > " + f"{top:.2f}",
        ),
    ):
        if not rows:
            continue
        log_err = [
            (abs(expected_log_partition(L, x) / (math.log(L) + x * x / 2) - 1), L, x)
            for L, x in rows
        ]
        h_err = [(abs(entropy_error(L, x)), L, x) for L, x in rows]
        (e1, L1, s1), (e2, L2, s2) = max(log_err), max(h_err)
        items += [
            Counterexample(
                "log D",
                computed=e1,
                paper=0.0,
                source="Eq. 1",
                searched=where,
                witness=f"L={L1}, s={s1:.3f}",
                note="relative error",
                outside=out,
            ),
            Counterexample(
                "H",
                computed=e2,
                paper=0.0,
                source="App. A.3",
                searched=where,
                witness=f"L={L2}, s={s2:.3f}",
                note="|exact E[H] - (log L - s^2/2)| (nats)",
                outside=out,
            ),
        ]
    return Evidence(
        items
        + [
            Reported(
                "largest inferred sigma (align-sigma) and s_c at 512",
                computed=[top, rem_critical_s(512)],
            )
        ],
        notes=[
            "log L + s^2/2 is the Random Energy Model's annealed free energy; beyond "
            "s_c the softmax is dominated by its largest logits. The paper states no "
            "range: an omission, not an algebra error."
        ],
    )


@claim(
    id="align-log-rule-closer-to-pmax",
    paper=P,
    location="Sec. 2 / Sec. 7 (early: 6.3)",
    statement="The log rule tau = log_{L_ex} L_tr is more similar to maximum-probability "
    "alignment than to entropy alignment (the paper's evidence: Algorithm 1's "
    "temperatures in Tables 8-11)",
)
def log_rule_nearer_pmax_in_tables_8_11(ctx):
    tab = log_rule_nearest()
    return Evidence(
        [
            Inequality(
                "mean |log rule - P_max row| per table and model",
                computed=[v["mean_abs_gap_pmax"] for v in tab.values()],
                paper=[v["mean_abs_gap_entropy"] for v in tab.values()],
                relation="<",
                source="Tables 8-11 (vs mean |log rule - H row|)",
                where=", ".join(f"Table {t} {m}" for t, m in ALG1_TEMPERATURES),
            ),
            Reported(
                "columns nearer the P_max row, nearer the H row",
                computed=[
                    sum(v["closer_to_pmax"] for v in tab.values()),
                    sum(v["closer_to_entropy"] for v in tab.values()),
                ],
            ),
        ]
    )


# ----------------------------------------------------------------------- tables
def _log_rule(table: dict, where: str) -> Evidence:
    cols = table["columns"]
    return Evidence(
        [
            Equal(
                "tau = ln L_tr / ln L_ex",
                computed=[math.log(table["L_tr"]) / math.log(L) for L, _ in cols],
                paper=[float(p) for _, p in cols],
                source=where,
                where="L_ex = " + ", ".join(str(L) for L, _ in cols),
            )
        ]
    )


#: a printed tau of two decimals stands for +-0.005
ROUNDED_TAU = {"tau = ln L_tr / ln L_ex": Tol.printed(2, "the table")}


@claim(
    id="align-table8-log-rule",
    paper=P,
    location="Table 8 (w/ log row)",
    statement="tau = log_{L_ex} 512 at L_ex = 1024, 2048, 4096, 8192, 15000",
    tolerances=ROUNDED_TAU,
)
def table8_log_row_is_log_rule(ctx):
    return _log_rule(TABLE8_LOG, "Table 8")


@claim(
    id="align-table9-log-rule",
    paper=P,
    location="Table 9 (w/ log_{L_ex} L_tr row)",
    statement="Table 9's 'w/ log' row follows from tau = log_{L_ex} 512 with the stated "
    "lengths (maximum 14.5k-15.5k tokens per task; the other lengths are not stated)",
    tolerances=ROUNDED_TAU,
)
def table9_log_row_is_log_rule(ctx):
    lo, hi = TABLE9_LOG["max_range"]
    last = [
        float(c[2])
        for k, c in enumerate(TABLE9_LOG["columns"])
        if k + 1 == len(TABLE9_LOG["columns"]) or TABLE9_LOG["columns"][k + 1][0] != c[0]
    ]
    ends = Reading(
        "only the stated maximum length",
        (
            Equal(
                "tau = ln L_tr / ln L_ex",
                computed=[math.log(512) / math.log(lo)] * 3 + [math.log(512) / math.log(hi)] * 3,
                paper=last * 2,
                source="Table 9, last column per task",
                where=f"L_ex = {lo}, {hi}",
            ),
        ),
        reason="the paper states only the longest inputs' length",
    )
    prop = table9_proportional()
    propl = Reading(
        "L_ex proportional to the number of topics/lines/sentences",
        (
            Equal(
                "tau = ln L_tr / ln L_ex",
                computed=[x for v in prop.values() for x in v["tau"]],
                paper=[x for v in prop.values() for x in v["printed"]],
                source="Table 9",
                where=", ".join(f"{k}: L_max={v['L_max']}" for k, v in prop.items()),
            ),
        ),
    )
    return Evidence(readings=[ends, propl])


@claim(
    id="align-table10-log-rule",
    paper=P,
    location="Table 10 (w/ log row)",
    statement="tau = log_{L_ex} 512 at L_ex = 1700, 3300, 5000",
    tolerances=ROUNDED_TAU,
)
def table10_log_row_is_log_rule(ctx):
    return _log_rule(TABLE10_LOG, "Table 10")


@claim(
    id="align-table11-log-rule",
    paper=P,
    location="Table 11 (w/ log row)",
    statement="tau = log_{L_ex} 768 at L_ex = 1k, ..., 16k (bucket nk taken at n*1000)",
    tolerances=ROUNDED_TAU,
)
def table11_log_row_is_log_rule(ctx):
    return _log_rule(TABLE11_LOG, "Table 11")


def _mean(values) -> float:
    return sum(float(v) for v in values) / len(values)


@claim(
    id="align-table3-averages",
    paper=P,
    location="Table 3 (Avg. column)",
    statement="The Avg. column of Table 3 is the mean of the five perplexities",
    # entries and Avg. printed to 0.1 (+-0.05 each); the row with '246' (+-0.5) gets
    # 0.05 + (4 * 0.05 + 0.5) / 5
    tolerances={
        "mean of the displayed entries": Tol(
            atol=0.1, basis="printed precision", reason="entries and Avg. printed to 0.1"
        ),
        "mean (row with an integer entry)": Tol(
            atol=0.19,
            basis="printed precision",
            reason="0.05 + (4 * 0.05 + 0.5) / 5: one entry printed as an integer",
        ),
    },
)
def table3_avg_is_mean(ctx):
    plain = {k: v for k, v in TABLE3.items() if all("." in x for x in v[0])}
    odd = {k: v for k, v in TABLE3.items() if k not in plain}
    return Evidence(
        [
            Equal(
                "mean of the displayed entries",
                computed=[_mean(v) for v, _ in plain.values()],
                paper=[float(a) for _, a in plain.values()],
                source="Table 3",
                where=", ".join(plain),
            ),
            Equal(
                "mean (row with an integer entry)",
                computed=[_mean(v) for v, _ in odd.values()],
                paper=[float(a) for _, a in odd.values()],
                source="Table 3",
                where=", ".join(odd),
            ),
        ]
    )


@claim(
    id="align-table4-averages",
    paper=P,
    location="Table 4 (Avg. column)",
    statement="The Avg. column of Table 4 is the mean of the 16 retrieval accuracies",
    # integers: the entries' rounding (+-0.5 on the mean) plus the Avg.'s (+-0.5)
    tolerances={
        "mean of the displayed entries": Tol(
            atol=1.0,
            basis="printed precision",
            reason="integers: +-0.5 on the mean and on the Avg.",
        )
    },
)
def table4_avg_is_mean(ctx):
    return Evidence(
        [
            Equal(
                "mean of the displayed entries",
                computed=[_mean(v.split()) for v, _ in TABLE4.values()],
                paper=[float(a) for _, a in TABLE4.values()],
                source="Table 4",
                where=", ".join(TABLE4),
            )
        ]
    )


@claim(
    id="align-table5-averages",
    paper=P,
    location="Table 5 (Avg. columns) vs Table 14",
    statement="Table 5's 30-doc Avg. is the mean of its 7 positions, and its 10/20-doc "
    "Avg. and 30-doc positions agree with the breakdown in Table 14",
    tolerances={
        "default": Tol(atol=0.1, basis="printed precision", reason="numbers printed to 0.1"),
        "30-doc positions": Tol(),
    },
)
def table5_avg_is_mean_and_matches_table14(ctx):
    t = table5_checks()
    rows = list(t["avg30"])
    return Evidence(
        [
            Equal(
                "30-doc mean of the positions",
                computed=[t["avg30"][k]["mean_of_displayed"] for k in rows],
                paper=[float(t["avg30"][k]["printed"]) for k in rows],
                source="Table 5",
            ),
            Equal(
                "10-doc mean (Table 14)",
                computed=[t["vs_table14"][k]["avg10"]["mean_of_displayed"] for k in rows],
                paper=[float(t["vs_table14"][k]["avg10"]["printed"]) for k in rows],
                source="Table 5 10-doc Avg.",
            ),
            Equal(
                "20-doc mean (Table 14)",
                computed=[t["vs_table14"][k]["avg20"]["mean_of_displayed"] for k in rows],
                paper=[float(t["vs_table14"][k]["avg20"]["printed"]) for k in rows],
                source="Table 5 20-doc Avg.",
            ),
            Equal(
                "30-doc positions",
                computed=[x for k in rows for x in t["vs_table14"][k]["table14_30"]],
                paper=[x for k in rows for x in t["vs_table14"][k]["table5_30"]],
                source="Table 5 vs Table 14",
            ),
        ]
    )


@claim(
    id="align-table5-improvement",
    paper=P,
    location="Table 5 (Improvement rows)",
    statement="Each Improvement entry is (w/ P_max) - (original model)",
    # three numbers printed to 0.1: +-0.05 each
    tolerances={
        "default": Tol(atol=0.15, basis="printed precision", reason="three numbers printed to 0.1")
    },
)
def table5_improvement_is_difference(ctx):
    t = table5_checks()["improvement"]
    cells = [c for v in t.values() for c in v[:-1]]
    avg = [v[-1] for v in t.values()]
    return Evidence(
        [
            Equal(
                "(w/ P_max) - (original), per column",
                computed=[c["difference"] for c in cells],
                paper=[float(c["printed"]) for c in cells],
                source="Table 5 Improvement rows",
                where="Flan-T5-Large, -XL, -XXL; 10/20-doc Avg. and 30-doc positions",
            ),
            Equal(
                "Avg. improvement",
                computed=[c["difference"] for c in avg],
                paper=[float(c["printed"]) for c in avg],
                source="Table 5 Improvement, Avg.",
                role="consequence",
            ),
        ]
    )
