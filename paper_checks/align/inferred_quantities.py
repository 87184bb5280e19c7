"""Quantities of the attention-alignment paper that it uses but does not print, each
inferred once by one rule (:mod:`paper_checks.inferred`).

``align-sigma``: the standard deviation sigma_L of layer 0's averaged logit vector
(Assumption 1) at the two lengths whose P_max (Table 1) and top logit l_max (Table 7)
the paper prints.  The rule is Eq. 2 solved for sigma (:func:`sigma_eq2`), at each
length.  Its consistency: Assumption 1 makes the top entry of a length-L Gaussian
vector sigma_L E[max of L std normals], which Table 7 prints at both lengths.
"""

from __future__ import annotations

from paper_checks.align.operating_point import sigma_eq2, tables_1_7
from paper_checks.evidence import Equal
from paper_checks.inferred import Inference, inferred_quantity
from theory.temperature.gaussian_softmax import expected_max_std_normal

LENGTHS = {512: "512", 15000: "15k"}


@inferred_quantity(
    "align-sigma",
    paper="align",
    quantity="sigma_L, the std of layer 0's averaged logit vector (Assumption 1), at "
    "L = 512 and 15k, per task (topic, line, passkey)",
    rule="Eq. 2 solved for sigma at each length: sigma_L = sqrt(2 (l_max(L) - ln(P_max(L) L))), "
    "P_max from Table 1, l_max from Table 7",
)
def align_sigma() -> Inference:
    tables = tables_1_7()
    value = {
        task: {L: sigma_eq2(t[f"pmax_{tag}"], t[f"lmax_{tag}"], L) for L, tag in LENGTHS.items()}
        for task, t in tables.items()
    }
    top = {L: expected_max_std_normal(L) for L in LENGTHS}
    consistency = tuple(
        Equal(
            f"top logit sigma_L E[max_L] at L = {tag}",
            computed=[value[task][L] * top[L] for task in tables],
            paper=[t[f"lmax_{tag}"] for t in tables.values()],
            source=f"Table 7, l_max at {tag} (topic, line, passkey)",
            note="Assumption 1: the top entry of a Gaussian vector of length L",
        )
        for L, tag in LENGTHS.items()
    ) + (
        Equal(
            "growth of the top logit 512 -> 15k",
            computed=[
                value[task][15000] * top[15000] / (value[task][512] * top[512]) for task in tables
            ],
            paper=[t["lmax_15k"] / t["lmax_512"] for t in tables.values()],
            source="Table 7 (topic, line, passkey)",
        ),
    )
    return Inference(value, consistency)
