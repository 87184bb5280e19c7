"""Softmax temperature rules for length extrapolation, each with its source.

Every rule answers: which temperature :math:`\\tau` (logits are divided by
:math:`\\tau`) keeps attention at length :math:`L_{ex}` as sharp as it was at
:math:`L_{tr}` with :math:`\\tau = 1`?

* **Prop. 1** (attention-alignment paper, Sec. 6.2, App. A.2): align the maximum
  probability. With :math:`A = \\log L_{ex} + \\log P`,
  :math:`B = \\log L_{tr} + \\log P + \\sigma_{tr}^2/2`, :math:`C = \\sigma_{ex}^2/2`,
  solve :math:`A\\tau^2 - B\\tau + C = 0` and take the larger root.
* **Prop. 2** (Sec. 6.3, App. A.3): align the entropy,
  :math:`\\tau = \\sigma_{ex}/\\sqrt{\\sigma_{tr}^2 + 2\\log(L_{ex}/L_{tr})}`.
* **log rule** (Su 2021; Yao et al. 2021): :math:`\\tau = \\log_{L_{ex}} L_{tr}`.
* **InfoScale** (InfoScale paper, Eq. 15, :math:`\\epsilon = 0`; computed by
  :func:`theory.infoscale.infoscale.infoscale`): logits are multiplied
  by :math:`\\sqrt{(1 - L_{ex}^{-2/d})/(1 - L_{tr}^{-2/d})}`, so :math:`\\tau` is its
  inverse.
* **YaRN** (Peng et al. 2023): :math:`\\sqrt{1/t} = 0.1 \\ln s + 1` multiplies both q
  and k, so the logits are multiplied by :math:`(0.1\\ln s + 1)^2`.
* **LongRoPE** (Ding et al. 2024): the factor :math:`\\sqrt{1 + \\ln s / \\ln L_{tr}}`
  multiplies both q and k (cos/sin caches), so the logits are multiplied by
  :math:`1 + \\ln s/\\ln L_{tr}`, which makes :math:`\\tau = \\log_{L_{ex}} L_{tr}`
  exactly the log rule.
* **Algorithm 1** (Sec. 4): search :math:`\\tau` so that a measured statistic at
  :math:`L_{ex}` matches its value at :math:`L_{tr}`: on the paper's grid
  1.0, 0.95, ..., 0.5 (:func:`algorithm1_grid`) or continuously to 1e-6
  (:func:`algorithm1_continuous`).  Both take ``stat_fn(tau)``: a closed form, the
  logits of :func:`logit_stat_fn`, or a model's forward pass (``empirical.audit.align``); this
  is the only implementation of Algorithm 1 in the toolkit.

>>> r = temperature_rules(512, 15000, sigma_tr=1.0, sigma_ex=1.0, pmax_tr=0.28, d=64)
>>> round(r["log_rule"].tau, 4), round(r["prop2"].tau, 4)
(0.6488, 0.3591)
>>> abs(r["longrope"].tau - r["log_rule"].tau) < 1e-12
True
"""

from __future__ import annotations

import math
from collections.abc import Callable, Iterable
from dataclasses import dataclass, field

import numpy as np
import numpy.typing as npt
from scipy.optimize import brentq

from theory.infoscale.infoscale import infoscale

PAPER_ALIGN = "attention-alignment-t5 (Chi, Fan, Rudnicky)"
#: Algorithm 1's grid: 1.0, 0.95, ..., 0.5 (Sec. 4 of the attention-alignment paper)
PAPER_GRID = tuple(round(1.0 - 0.05 * k, 2) for k in range(11))


class TemperatureInputError(ValueError):
    """Bad input to a temperature rule (one line, suitable for ``error:``)."""


@dataclass
class RuleResult:
    """One rule's answer: ``tau`` (None when the rule has no valid answer; then
    ``note`` says why), its ``source`` and free-form ``details`` (JSON-able)."""

    name: str
    tau: float | None
    source: str
    note: str = ""
    details: dict = field(default_factory=dict)

    def as_dict(self) -> dict:
        return {
            "name": self.name,
            "tau": self.tau,
            "source": self.source,
            "note": self.note,
            "details": self.details,
        }


# ----------------------------------------------------------------------------- input
def check_lengths(L_tr: object, L_ex: object) -> tuple[float, float]:
    """Validate lengths: ``2 <= L_tr <= L_ex`` (finite numbers)."""
    try:
        L_tr, L_ex = float(L_tr), float(L_ex)
    except (TypeError, ValueError):
        raise TemperatureInputError(f"lengths must be numbers, got {L_tr!r}, {L_ex!r}") from None
    if not (math.isfinite(L_tr) and math.isfinite(L_ex)) or L_tr < 2:
        raise TemperatureInputError(f"L_tr must be a finite number >= 2, got {L_tr:g}") from None
    if L_ex < L_tr:
        raise TemperatureInputError(f"L_ex ({L_ex:g}) must be >= L_tr ({L_tr:g})") from None
    return L_tr, L_ex


def check_sigma(name: str, sigma: object) -> float:
    """Validate a logit standard deviation: finite and > 0."""
    try:
        sigma = float(sigma)
    except (TypeError, ValueError):
        raise TemperatureInputError(f"{name} must be a number, got {sigma!r}") from None
    if not math.isfinite(sigma) or sigma <= 0:
        raise TemperatureInputError(f"{name} must be > 0, got {sigma:g}") from None
    return sigma


def check_probability(name: str, p: object) -> float:
    """Validate a probability strictly inside (0, 1)."""
    try:
        p = float(p)
    except (TypeError, ValueError):
        raise TemperatureInputError(f"{name} must be a number, got {p!r}") from None
    if not (0.0 < p < 1.0):
        raise TemperatureInputError(f"{name} must be in (0, 1), got {p:g}") from None
    return p


# ----------------------------------------------------------------------------- Prop 1
def prop1_coefficients(
    L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float, pmax_tr: float
) -> tuple:
    """:math:`(A, B, C)` of Prop. 1: :math:`A\\tau^2 - B\\tau + C = 0`.

    .. math:: A = \\log L_{ex} + \\log P,\\quad B = \\log L_{tr} + \\log P +
              \\sigma_{tr}^2/2,\\quad C = \\sigma_{ex}^2/2

    >>> [round(v, 4) for v in prop1_coefficients(512, 512, 1.0, 1.0, 0.5)]
    [5.5452, 6.0452, 0.5]
    """
    lp = math.log(pmax_tr)
    return (math.log(L_ex) + lp, math.log(L_tr) + lp + sigma_tr**2 / 2, sigma_ex**2 / 2)


def quadratic_roots(A: float, B: float, C: float) -> tuple | None:
    """Real roots of :math:`A x^2 - B x + C = 0`, larger first; None if complex.

    Uses the cancellation-free form :math:`q = (B + \\mathrm{sgn}(B)\\sqrt{\\Delta})/2`,
    roots :math:`q/A` and :math:`C/q`.

    >>> quadratic_roots(1.0, 3.0, 2.0)
    (2.0, 1.0)
    """
    if A == 0:
        return (C / B,) if B != 0 else None
    disc = B * B - 4 * A * C
    if disc < 0:
        return None
    q = (B + math.copysign(math.sqrt(disc), B)) / 2
    roots = sorted({q / A, C / q if q != 0 else 0.0}, reverse=True)
    return tuple(roots)


def prop1_temperature(
    L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float, pmax_tr: float
) -> RuleResult:
    """Prop. 1 of the attention-alignment paper (maximum-probability alignment).

    .. math:: \\tau \\approx \\frac{\\log L_{tr} + \\log P + \\sigma_{tr}^2/2}
              {\\log L_{ex} + \\log P + \\sigma_{ex}^2/(2\\tau^2)}
              \\iff A\\tau^2 - B\\tau + C = 0

    Takes the larger real root (as the paper says).  ``tau`` is None, with the reason
    in ``note``, when there is no real root (:math:`B^2 < 4AC`: under the model even
    the sharpest :math:`\\tau` cannot reach ``pmax_tr`` at ``L_ex``) or when the larger
    root is outside (0, 1].

    >>> r = prop1_temperature(512, 512, 1.0, 1.0, 0.3)
    >>> r.tau
    1.0
    >>> prop1_temperature(512, 1e6, 1.0, 6.0, 0.3).tau is None
    True
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    s_tr, s_ex = check_sigma("sigma_tr", sigma_tr), check_sigma("sigma_ex", sigma_ex)
    p = check_probability("pmax_tr", pmax_tr)
    A, B, C = prop1_coefficients(L_tr, L_ex, s_tr, s_ex, p)
    disc = B * B - 4 * A * C
    roots = quadratic_roots(A, B, C)
    details = {
        "A": A,
        "B": B,
        "C": C,
        "discriminant": disc,
        "roots": list(roots) if roots else [],
        "peak_tau": (2 * C / B) if B > 0 else None,
    }
    src = f"{PAPER_ALIGN}, Prop. 1 (Sec. 6.2, App. A.2)"
    if roots is None:
        return RuleResult(
            "prop1",
            None,
            src,
            "no real root: B^2 - 4AC = "
            f"{disc:.4g} < 0, the model's largest reachable P_max at L_ex "
            f"is below {p:g}",
            details,
        )
    tau = roots[0]
    if not (0 < tau <= 1 + 1e-12):
        return RuleResult("prop1", None, src, f"larger root {tau:.6g} is outside (0, 1]", details)
    note = ""
    if len(roots) > 1 and 0 < roots[1] <= 1:
        note = f"the smaller root {roots[1]:.6g} is also in (0, 1]; the larger is taken"
    return RuleResult("prop1", min(tau, 1.0) if tau > 1 else tau, src, note, details)


# ----------------------------------------------------------------------------- others
def prop2_temperature(L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float) -> RuleResult:
    """Prop. 2 of the attention-alignment paper (entropy alignment).

    .. math:: \\tau \\approx \\frac{\\sigma_{ex}}{\\sqrt{\\sigma_{tr}^2 +
              2\\log(L_{ex}/L_{tr})}}

    >>> round(prop2_temperature(512, 15000, 1.0, 1.0).tau, 6)
    0.359096
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    s_tr, s_ex = check_sigma("sigma_tr", sigma_tr), check_sigma("sigma_ex", sigma_ex)
    tau = s_ex / math.sqrt(s_tr**2 + 2 * math.log(L_ex / L_tr))
    note = "tau > 1 (softening)" if tau > 1 else ""
    return RuleResult(
        "prop2",
        tau,
        f"{PAPER_ALIGN}, Prop. 2 (Sec. 6.3, App. A.3)",
        note,
        {"sigma_tr": s_tr, "sigma_ex": s_ex},
    )


def log_rule_temperature(L_tr: float, L_ex: float) -> RuleResult:
    """:math:`\\tau = \\log_{L_{ex}} L_{tr} = \\ln L_{tr} / \\ln L_{ex}` (entropy
    invariance, Su 2021; Yao et al. 2021; the 'w/ log' rows of Tables 8-11).

    >>> round(log_rule_temperature(512, 1024).tau, 2)
    0.9
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    return RuleResult(
        "log_rule",
        math.log(L_tr) / math.log(L_ex),
        "Su 2021 (spaces.ac.cn/archives/8823); Yao et al. 2021, ACL; "
        f"{PAPER_ALIGN} Tables 8-11 'w/ log_Lex Ltr'",
    )


def infoscale_temperature(L_tr: float, L_ex: float, d: int) -> RuleResult:
    """:math:`\\tau = 1/\\mathrm{InfoScale}` (logits q.k/sqrt(d) are multiplied by
    InfoScale), :math:`\\epsilon = 0` as in the InfoScale paper's experiments.

    >>> round(infoscale_temperature(512, 15000, 64).tau, 4)
    0.8261
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    try:
        d = int(d)
    except (TypeError, ValueError):
        raise TemperatureInputError(f"d must be a positive integer, got {d!r}") from None
    if d < 1:
        raise TemperatureInputError(f"d must be a positive integer, got {d}") from None
    f, where = infoscale(L_ex, L_tr, d), "theory.infoscale.infoscale"
    return RuleResult(
        "infoscale",
        1 / f,
        f"InfoScale paper (infoscale-cosscale), Eq. 15, eps=0; computed by {where}",
        f"logit multiplier {f:.6g}",
        {"factor": f, "d": d},
    )


def yarn_temperature(L_tr: float, L_ex: float) -> RuleResult:
    """YaRN: :math:`\\sqrt{1/t} = 0.1\\ln s + 1`, :math:`s = L_{ex}/L_{tr}`, applied to
    q and k, so :math:`\\tau = t = (0.1\\ln s + 1)^{-2}`.

    >>> round(yarn_temperature(512, 1024).tau, 4)
    0.8746
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    m = 0.1 * math.log(L_ex / L_tr) + 1
    return RuleResult(
        "yarn",
        1 / m**2,
        "Peng et al. 2023, YaRN, Sec. 3.4 (sqrt(1/t) = 0.1 ln s + 1)",
        f"mscale {m:.6g} multiplies q and k; "
        f"if applied to the logits once, tau would be {1 / m:.6g}",
        {"mscale": m, "s": L_ex / L_tr},
    )


def longrope_temperature(L_tr: float, L_ex: float) -> RuleResult:
    """LongRoPE: factor :math:`\\sqrt{1 + \\ln s/\\ln L_{tr}}` on q and k, so
    :math:`\\tau = 1/(1 + \\ln s/\\ln L_{tr}) = \\log_{L_{ex}} L_{tr}`.

    >>> round(longrope_temperature(512, 1024).tau, 2)
    0.9
    """
    L_tr, L_ex = check_lengths(L_tr, L_ex)
    f = math.sqrt(1 + math.log(L_ex / L_tr) / math.log(L_tr))
    return RuleResult(
        "longrope",
        1 / f**2,
        "Ding et al. 2024, LongRoPE (attention factor as in Phi-3)",
        f"factor {f:.6g} multiplies q and k; equals "
        f"the log rule; if applied to the logits once, tau would be "
        f"{1 / f:.6g}",
        {"factor": f, "s": L_ex / L_tr},
    )


def temperature_rules(
    L_tr: float,
    L_ex: float,
    sigma_tr: float | None = None,
    sigma_ex: float | None = None,
    pmax_tr: float | None = None,
    d: int | None = None,
) -> dict:
    """Every rule side by side: ``{name: RuleResult}`` with ``.tau``, ``.source``,
    ``.note``.  A rule whose inputs are missing has ``tau=None`` and says which.

    >>> sorted(temperature_rules(512, 2048))
    ['infoscale', 'log_rule', 'longrope', 'prop1', 'prop2', 'yarn']
    """
    check_lengths(L_tr, L_ex)
    out = {}
    if sigma_tr is None or sigma_ex is None or pmax_tr is None:
        out["prop1"] = RuleResult(
            "prop1", None, f"{PAPER_ALIGN}, Prop. 1", "needs sigma_tr, sigma_ex and pmax_tr"
        )
    else:
        out["prop1"] = prop1_temperature(L_tr, L_ex, sigma_tr, sigma_ex, pmax_tr)
    if sigma_tr is None or sigma_ex is None:
        out["prop2"] = RuleResult(
            "prop2", None, f"{PAPER_ALIGN}, Prop. 2", "needs sigma_tr and sigma_ex"
        )
    else:
        out["prop2"] = prop2_temperature(L_tr, L_ex, sigma_tr, sigma_ex)
    out["log_rule"] = log_rule_temperature(L_tr, L_ex)
    out["infoscale"] = (
        infoscale_temperature(L_tr, L_ex, d)
        if d is not None
        else RuleResult("infoscale", None, "InfoScale paper, Eq. 15", "needs the head dimension d")
    )
    out["yarn"] = yarn_temperature(L_tr, L_ex)
    out["longrope"] = longrope_temperature(L_tr, L_ex)
    return out


# ----------------------------------------------------------------------------- Alg. 1
def softmax_pmax_entropy(
    logits: npt.ArrayLike, tau: float = 1.0
) -> tuple[np.ndarray | float, np.ndarray | float]:
    """Max probability and entropy (nats) of ``softmax(logits / tau)`` along the last
    axis; ``-inf`` entries (masked) get probability 0.

    .. math:: P_{max} = \\max_i p_i,\\quad H = -\\sum_i p_i\\log p_i
              = \\log D - \\sum_i p_i l_i/\\tau

    >>> p, h = softmax_pmax_entropy([0.0, 0.0, 0.0, 0.0])
    >>> float(p), round(float(h), 6)
    (0.25, 1.386294)
    """
    x = np.asarray(logits, dtype=np.float64) / float(tau)
    m = np.max(x, axis=-1, keepdims=True)
    z = x - m
    e = np.exp(z)
    D = e.sum(axis=-1)
    ez = np.where(e > 0, e * np.where(np.isfinite(z), z, 0.0), 0.0).sum(axis=-1)
    return 1.0 / D, np.log(D) - ez / D


def logit_stat_fn(logits: npt.ArrayLike, mode: str = "pmax") -> Callable[[float], float]:
    """``stat_fn(tau)``: the average over rows of ``logits`` of :math:`P_{max}` or
    :math:`H` of ``softmax(row / tau)`` (Algorithm 1's FINDS on given logits).

    >>> f = logit_stat_fn([[0.0, 1.0], [1.0, 0.0]], "pmax")
    >>> round(f(1.0), 6)
    0.731059
    """
    if mode not in ("pmax", "entropy"):
        raise TemperatureInputError(f"mode must be 'pmax' or 'entropy', got {mode!r}") from None
    arr = np.asarray(logits, dtype=np.float64)
    idx = 0 if mode == "pmax" else 1
    return lambda tau: float(np.mean(softmax_pmax_entropy(arr, tau)[idx]))


def algorithm1_grid(
    stat_fn: Callable[[float], float], target: float, grid: Iterable[float] = PAPER_GRID
) -> RuleResult:
    """Algorithm 1 as in the paper: the grid point whose statistic is closest to
    ``target`` (ties: the first in grid order).  ``details['bracketed']`` is False when
    ``target`` is outside the range of the statistic over the grid, i.e. the answer
    is censored at a grid edge; ``details['evaluations']`` counts the calls of
    ``stat_fn`` (one per grid point).

    >>> r = algorithm1_grid(lambda t: 1 / t, 1 / 0.72)
    >>> r.tau, r.details["bracketed"]
    (0.7, True)
    """
    grid = [float(g) for g in grid]
    if not grid:
        raise TemperatureInputError("the grid is empty")
    values = [float(stat_fn(t)) for t in grid]
    gaps = [abs(v - target) for v in values]
    k = int(np.argmin(gaps))
    bracketed = min(values) <= target <= max(values)
    note = (
        ""
        if bracketed
        else ("target outside the statistic's range on the grid: answer censored at a grid edge")
    )
    return RuleResult(
        "algorithm1_grid",
        grid[k],
        f"{PAPER_ALIGN}, Algorithm 1 (Sec. 4)",
        note,
        {
            "grid": grid,
            "values": values,
            "target": float(target),
            "residual": values[k] - float(target),
            "bracketed": bracketed,
            "evaluations": len(grid),
        },
    )


def algorithm1_continuous(
    stat_fn: Callable[[float], float],
    target: float,
    lo: float = 0.05,
    hi: float = 2.0,
    tol: float | None = 1e-6,
    xtol: float = 1e-15,
) -> RuleResult:
    """Algorithm 1 with a root-finder: :math:`\\tau` in ``[lo, hi]`` with
    :math:`S(\\tau) = S_{target}` by Brent's method to ``xtol`` in :math:`\\tau`, then
    :math:`|S(\\tau) - S_{target}| \\le` ``tol`` is required (``tol=None``: the
    residual is only reported, for a measured statistic whose noise floor is unknown).
    ``tau`` None with the reason when the target is not bracketed or the tolerance
    cannot be met; ``details`` has ``bracketed``, ``residual`` and ``evaluations``.

    >>> r = algorithm1_continuous(lambda t: 1 / t, 1 / 0.72)
    >>> abs(r.tau - 0.72) < 1e-9
    True
    """
    if not (0 < lo < hi):
        raise TemperatureInputError(f"need 0 < lo < hi, got lo={lo}, hi={hi}") from None
    src = f"{PAPER_ALIGN}, Algorithm 1 (Sec. 4), continuous search"
    calls = [0]

    def f(t):
        calls[0] += 1
        return float(stat_fn(t)) - float(target)

    f_lo, f_hi = f(lo), f(hi)
    details = {
        "lo": lo,
        "hi": hi,
        "target": float(target),
        "bracketed": True,
        "stat_lo": f_lo + target,
        "stat_hi": f_hi + target,
    }
    if f_lo == 0 or f_hi == 0:
        tau = lo if f_lo == 0 else hi
        return RuleResult(
            "algorithm1_continuous",
            tau,
            src,
            "",
            {**details, "residual": 0.0, "evaluations": calls[0]},
        )
    if f_lo * f_hi > 0:
        details.update(bracketed=False, evaluations=calls[0])
        return RuleResult(
            "algorithm1_continuous",
            None,
            src,
            f"target not bracketed: S({lo:g})={f_lo + target:.6g}, S({hi:g})={f_hi + target:.6g}",
            details,
        )
    tau = brentq(f, lo, hi, xtol=xtol, rtol=4 * np.finfo(float).eps, maxiter=200)
    res = f(tau)
    details.update(residual=res, evaluations=calls[0])
    if tol is not None and abs(res) > tol:
        return RuleResult(
            "algorithm1_continuous",
            None,
            src,
            f"residual {res:.3g} > tol {tol:g} at tau={tau:.15g} (statistic too steep)",
            details,
        )
    return RuleResult("algorithm1_continuous", float(tau), src, "", details)


def algorithm1(
    logits_tr: npt.ArrayLike,
    logits_ex: npt.ArrayLike,
    mode: str = "pmax",
    method: str = "grid",
    grid: Iterable[float] = PAPER_GRID,
    **kw: float | None,
) -> RuleResult:
    """Algorithm 1 on given logit samples (rows = logit vectors): align the average
    statistic at ``L_ex`` (temperature tau) with that at ``L_tr`` (tau = 1).

    >>> rng = np.random.default_rng(0)
    >>> tr, ex = rng.normal(size=(64, 512)), rng.normal(size=(64, 4096))
    >>> r = algorithm1(tr, ex, "entropy", method="continuous")
    >>> 0.3 < r.tau < 1
    True
    """
    target = logit_stat_fn(logits_tr, mode)(1.0)
    fn = logit_stat_fn(logits_ex, mode)
    if method == "grid":
        return algorithm1_grid(fn, target, grid)
    if method == "continuous":
        return algorithm1_continuous(fn, target, **kw)
    raise TemperatureInputError(f"method must be 'grid' or 'continuous', got {method!r}")
