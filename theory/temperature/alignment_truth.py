"""Props. 1 and 2 (attention-alignment paper) against the truth for i.i.d. Gaussian logits.

* :func:`prop2_vs_truth`: Prop. 2's temperature, the exact entropy-aligning one
  (quadrature), the entropy mismatch Prop. 2 leaves (exact and Monte Carlo) and the
  mismatch the approximation-error map predicts,
  :math:`\\epsilon_H(L_{ex}, \\sigma_{ex}/\\tau) - \\epsilon_H(L_{tr}, \\sigma_{tr})`
  with :math:`\\epsilon_H(L, s) = E[H] - (\\log L - s^2/2)`.
* :func:`prop1_vs_truth`: Prop. 1's temperature (with :math:`P` the exact
  :math:`E[P_{max}]` at :math:`L_{tr}`) and the true P_max-aligning temperature (exact by
  quadrature, and by Algorithm 1 (continuous) on Monte Carlo samples); also Prop. 1 with Assumption 2
  replaced by the i.i.d. value :math:`l^{ex}_{max} = \\sigma_{ex} E[\\max_{L_{ex}} Z]`.

"""

from __future__ import annotations

import math

import numpy as np

from theory.temperature.gaussian_softmax import (
    approx_entropy,
    entropy_alignment_tau_exact,
    expected_entropy,
    expected_max_std_normal,
    expected_pmax,
    mc_softmax_stats,
    pmax_alignment_tau_exact,
)
from theory.temperature.rules import (
    algorithm1_continuous,
    prop1_coefficients,
    prop1_temperature,
    prop2_temperature,
    quadratic_roots,
    softmax_pmax_entropy,
)


def entropy_error(L: float, s: float) -> float:
    """:math:`\\epsilon_H(L, s) = E[H] - (\\log L - s^2/2)` (exact E[H], quadrature).

    >>> abs(entropy_error(10**4, 0.3)) < 1e-3
    True
    """
    return float(expected_entropy(L, s) - approx_entropy(L, s))


def prop2_vs_truth(
    L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float, draws: int = 0, seed: int = 0
) -> dict:
    """Prop. 2 vs the exact entropy alignment for i.i.d. N(0, sigma^2) logits.

    ``mismatch`` is :math:`E[H_{ex}](\\tau_{P2}) - E[H_{tr}](1)` (exact); with
    ``draws`` > 0 also its Monte Carlo estimate and standard error.
    """
    tau2 = prop2_temperature(L_tr, L_ex, sigma_tr, sigma_ex).tau
    h_tr = expected_entropy(L_tr, sigma_tr)
    h_ex = expected_entropy(L_ex, sigma_ex / tau2)
    pred = entropy_error(L_ex, sigma_ex / tau2) - entropy_error(L_tr, sigma_tr)
    out = {
        "L_tr": L_tr,
        "L_ex": L_ex,
        "sigma_tr": sigma_tr,
        "sigma_ex": sigma_ex,
        "tau_prop2": tau2,
        "tau_exact": entropy_alignment_tau_exact(L_tr, L_ex, sigma_tr, sigma_ex),
        "H_tr": h_tr,
        "H_ex_at_tau_prop2": h_ex,
        "mismatch": h_ex - h_tr,
        "predicted_mismatch": pred,
    }
    if draws:
        a = mc_softmax_stats(L_tr, sigma_tr, 1.0, draws, seed)["entropy"]
        b = mc_softmax_stats(L_ex, sigma_ex, tau2, draws, seed + 1)["entropy"]
        out["mismatch_mc"] = b[0] - a[0]
        out["mismatch_mc_se"] = math.hypot(a[1], b[1])
    return out


def _mc_pmax_fn(L, sigma, draws, seed):
    z = sigma * np.random.default_rng(seed).standard_normal((draws, int(L)))
    return lambda tau: float(np.mean(softmax_pmax_entropy(z, tau)[0]))


def prop1_vs_truth(L_tr: float, L_ex: float, sigma: float, draws: int = 400, seed: int = 0) -> dict:
    """Prop. 1 vs the true P_max alignment for i.i.d. N(0, sigma^2) logits (same sigma
    at both lengths), by Monte Carlo with common random numbers.
    """
    stats_tr = mc_softmax_stats(L_tr, sigma, 1.0, draws, seed)
    p_tr = expected_pmax(L_tr, sigma)
    truth = algorithm1_continuous(
        _mc_pmax_fn(L_ex, sigma, draws, seed + 1), stats_tr["pmax"][0], lo=0.05, hi=1.5
    )
    r1 = prop1_temperature(L_tr, L_ex, sigma, sigma, p_tr)
    A, _, C = prop1_coefficients(L_tr, L_ex, sigma, sigma, p_tr)
    b_iid = sigma * expected_max_std_normal(L_ex)  # B with l_max^ex = sigma E[max]
    roots = quadratic_roots(A, b_iid, C)
    return {
        "L_tr": L_tr,
        "L_ex": L_ex,
        "sigma": sigma,
        "pmax_tr": p_tr,
        "pmax_tr_mc": stats_tr["pmax"][0],
        "pmax_tr_se": stats_tr["pmax"][1],
        "tau_true": pmax_alignment_tau_exact(L_tr, L_ex, sigma, sigma),
        "tau_true_mc": truth.tau,
        "tau_prop1": r1.tau,
        "prop1_note": r1.note,
        "tau_prop1_iid_lmax": roots[0] if roots else None,
        "lmax_tr": sigma * expected_max_std_normal(L_tr),
        "lmax_ex": b_iid,
    }
