"""The attention-alignment paper's operating point, computed from Tables 1 and 7: the
sigma that Eq. 2 gives (the paper prints none), the readings of Prop. 1's sigma_ex at
L_ex = 15k, what a reading's sigma predicts for the printed P_max and l_max, and the
entropy band of the align checks.

Eq. 2, :math:`P_{max} = e^{l_{max} - \\sigma^2/2} / L`, solved for sigma:

.. math:: \\sigma_L = \\sqrt{2\\,(l_{max}(L) - \\ln(P_{max}(L)\\,L))}

>>> round(sigma_eq2(0.28, 8.61, 512), 3)
2.7
"""

from __future__ import annotations

import math

from paper_checks.evidence import Equal
from paper_checks.inferred import NotComputable, inferred
from theory.papers.align import ALG1_STEP, TABLE1, TABLE7
from theory.temperature.gaussian_softmax import expected_max_std_normal

#: the inferred sigma (:mod:`paper_checks.align.inferred_quantities`): one rule for every claim
SIGMA = "align-sigma"
#: the lengths at which Tables 1 and 7 print P_max and l_max, with their column tags
TAGS = {512: "512", 15000: "15k"}


def tables_1_7() -> dict:
    """Per task: Table 1's P_max and Table 7's l_max at 512 and 15k tokens, read from
    :mod:`theory.papers.align` when called.

    >>> tables_1_7()["topic"]
    {'pmax_512': 0.28, 'pmax_15k': 0.12, 'lmax_512': 8.61, 'lmax_15k': 8.8}
    """
    return {
        task: {
            "pmax_512": TABLE1[task]["pmax"][0],
            "pmax_15k": TABLE1[task]["pmax"][1],
            "lmax_512": TABLE7[task][0],
            "lmax_15k": TABLE7[task][1],
        }
        for task in TABLE1
    }


def per_task(values: dict) -> list:
    """``values`` (keyed by task) in the order of Table 1's tasks (topic, line, passkey)."""
    return [values[k] for k in TABLE1]


def sigma_eq2(pmax: float, lmax: float, L: int) -> float:
    """sigma from Eq. 2 solved for sigma: the one rule by which the checks infer the sigma
    the paper does not print (entry ``align-sigma`` of :mod:`paper_checks.inferred`).
    Printed values for which Eq. 2 has no real sigma raise
    :class:`~paper_checks.inferred.NotComputable`."""
    if not (0 < pmax <= 1 and math.isfinite(lmax)):
        raise NotComputable(f"Eq. 2 needs 0 < P_max <= 1 and a finite l_max (got {pmax}, {lmax})")
    half = lmax - math.log(pmax * L)
    if half < 0:
        raise NotComputable(
            f"Eq. 2 gives sigma^2 = {2 * half:.4g} < 0 for P_max = {pmax}, l_max = {lmax}, L = {L}"
        )
    return math.sqrt(2 * half)


def sigma_at(L: int) -> list:
    """The inferred sigma at length ``L`` per task (entry ``align-sigma``)."""
    value = inferred(SIGMA).value
    return per_task({task: value[task][L] for task in value})


def predicts(sigmas: list, L: int, inferred_from: str = "") -> tuple:
    """What a reading's sigma at length ``L`` (per task) predicts for the numbers the
    paper prints there: Table 1's P_max by Eq. 2 (with Table 7's l_max) and Table 7's
    l_max by Assumption 1's Gaussian top entry (its consistency items).

    By Eq. 2, ln P_max = l_max - sigma^2/2 - ln L: P_max is scored on the log scale and
    l_max (a logit) in nats, one scale.  ``inferred_from`` names what sigma was inferred
    from: "eq2" (Eq. 2 with this P_max and l_max: the P_max row is circular) or "lmax"
    (l_max / E[max_L]: the l_max row is circular)."""
    tag, top = TAGS[L], expected_max_std_normal(L)
    rows = list(tables_1_7().values())
    return (
        Equal(
            f"P_max at {tag} by Eq. 2",
            computed=[math.exp(t[f"lmax_{tag}"] - x * x / 2) / L for t, x in zip(rows, sigmas)],
            paper=[t[f"pmax_{tag}"] for t in rows],
            source=f"Table 1 at {tag}",
            scale="log",
            circular=f"sigma was inferred by Eq. 2 from this P_max (Table 1 at {tag})"
            if inferred_from == "eq2"
            else "",
        ),
        Equal(
            f"l_max at {tag}, sigma E[max_L]",
            computed=[x * top for x in sigmas],
            paper=[t[f"lmax_{tag}"] for t in rows],
            source=f"Table 7 at {tag}",
            scale="nats",
            circular=f"sigma was inferred as this l_max / E[max_L] (Table 7 at {tag})"
            if inferred_from == "lmax"
            else "",
        ),
    )


def paper_operating_point(L_tr: int = 512, L_ex: int = 15000) -> dict:
    """Per task: sigma_tr from Eq. 2 (Tables 1 and 7), sigma from Assumption 1 read as
    i.i.d. (l_max / E[max of L std normals]), e^{sigma^2} vs L_tr, and the largest
    sigma_ex for which Prop. 1 has a real root at L_ex (:math:`B^2 \\ge 4AC`).

    >>> round(paper_operating_point()["topic"]["sigma_tr_eq2"], 3)
    2.7
    """
    m_tr, m_ex = expected_max_std_normal(L_tr), expected_max_std_normal(L_ex)
    out = {}
    for task, t in tables_1_7().items():
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


#: what each reading of :data:`SIGMA_EX_READINGS` infers sigma_ex from (:func:`predicts`)
INFERRED_FROM = {"eq2_at_L_ex": "eq2", "gaussian_top_entry": "lmax"}


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
    tables = tables_1_7()
    out = {}
    for task, o in paper_operating_point(L_tr, L_ex).items():
        t = tables[task]
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


def entropy_nats_per_step(sigma: float, step: float = ALG1_STEP) -> float:
    """The entropy change :math:`\\sigma^2 / \\tau^3 \\cdot step/2` (App. A.3, at tau = 1) that
    moves Prop. 2's tau by half a grid step of Algorithm 1.

    .. math:: \\Delta H = \\frac{\\sigma^2}{\\tau^3} \\frac{step}{2}

    >>> round(entropy_nats_per_step(2.7), 3)
    0.182
    """
    return sigma * sigma * step / 2


#: the entropy band of the align checks, in nats: an error that moves Prop. 2's tau by
#: half of Algorithm 1's grid step, at the smallest sigma_tr Eq. 2 gives (Tables 1, 7);
#: fixed when the claims are registered
ENTROPY_NATS = min(
    entropy_nats_per_step(sigma_eq2(t["pmax_512"], t["lmax_512"], 512))
    for t in tables_1_7().values()
)
