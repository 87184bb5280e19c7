"""InfoScale (InfoScale paper, Sec. 3.1, Eqs. 8-15, App. A.4) and how well it keeps entropy.

InfoScale multiplies the logit scale ``1/sqrt(d)`` at inference length ``n`` (trained at
``n_tr``) by

.. math::

    \\mathrm{InfoScale}(n) = \\sqrt{\\frac{1 - e^{2\\epsilon/d} n^{-2/d}}
                                      {1 - e^{2\\epsilon/d} n_{tr}^{-2/d}}}
    \\qquad \\text{(Eq. 15)}

derived from Eq. 12, ``log n + (d/2) log(1 - t) = eps`` with ``t = lambda^2 v^2``.  In the
paper's variables the logit is ``alpha cos(theta)`` with ``alpha = lambda v d``
(Assumption 3.2), so ``t = (alpha/d)^2``; Eq. 14 (``lambda = 1/sqrt(d)`` at ``n = n_tr``)
fixes the training ``alpha``: :func:`training_alpha`.

This module gives the factor, the chain of approximations (:func:`laplace_entropy`,
:func:`eq10_entropy`, :func:`eq12_entropy`), the exact entropy drift it leaves
(:func:`drift_row`, :func:`drift_grid`, using :mod:`theory.infoscale.hypersphere_entropy`), the
invariant-entropy factor (:func:`invariant_scale`), the verified derivation
(:func:`infoscale_derivation`) and the CLI ``python -m theory.infoscale``.

>>> round(infoscale(4096, 64, 128), 4)
1.3918
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import mpmath as mp
from scipy.optimize import brentq

from theory.infoscale.hypersphere_entropy import kl_deficit, lln_entropy


# ------------------------------------------------------------------------ the formulas
def _calib(n, d, eps):
    return 1.0 - math.exp(2.0 * eps / d - 2.0 * math.log(n) / d)


def infoscale(n: float, n_tr: float, d: int, eps: float = 0.0) -> float:
    """InfoScale factor (InfoScale paper Eq. 15; Table 6 is the case ``eps = 0``).

    .. math:: \\sqrt{\\frac{1 - e^{2\\epsilon/d} n^{-2/d}}{1 - e^{2\\epsilon/d} n_{tr}^{-2/d}}}

    Raises ``ValueError`` when a radicand is not positive (``n <= e^eps`` or
    ``n_tr <= e^eps``: the formula has no real value there).

    >>> infoscale(64, 64, 128)
    1.0
    >>> round(infoscale(4096, 512, 64, eps=1.0), 6)
    1.163505
    """
    for name, val in (("n", n), ("n_tr", n_tr), ("d", d)):
        if not (isinstance(val, (int, float)) and math.isfinite(val) and val > 0):
            raise ValueError(f"{name} must be a positive finite number, got {val!r}")
    if not math.isfinite(eps):
        raise ValueError(f"eps must be finite, got {eps!r}")
    num, den = _calib(n, d, eps), _calib(n_tr, d, eps)
    if den <= 0 or num < 0:
        raise ValueError(
            f"InfoScale undefined: 1 - e^(2 eps/d) n^(-2/d) must be > 0 "
            f"(need n_tr > e^eps = {math.exp(eps):.4g} and n >= e^eps)"
        )
    return math.sqrt(num / den)


def softmax_plus_scale(n: float, n_tr: float) -> float:
    """Softmax Plus / log-length factor ``log_{n_tr} n`` (InfoScale paper Table 6).

    >>> softmax_plus_scale(4096, 64)
    2.0
    """
    if not (n >= 1 and n_tr > 1):
        raise ValueError(f"need n >= 1 and n_tr > 1, got n={n}, n_tr={n_tr}")
    return math.log(n) / math.log(n_tr)


def training_alpha(n_tr: float, d: int, eps: float = 0.0) -> float:
    """The logit scale ``alpha = lambda v d`` that Eq. 14 implies at the training length.

    .. math:: \\alpha_{tr} = \\lambda v d = d\\sqrt{1 - e^{2\\epsilon/d} n_{tr}^{-2/d}},
              \\quad \\lambda = 1/\\sqrt d,\\ v = 1/K

    >>> round(training_alpha(64, 128), 4)
    32.1064
    """
    c = _calib(n_tr, d, eps)
    if c <= 0:
        raise ValueError(f"no training alpha: need n_tr > e^eps = {math.exp(eps):.4g}")
    return d * math.sqrt(c)


def consistent_eps(n_tr: float, d: int, alpha_tr: float) -> float:
    """The ``eps`` for which Eq. 12 holds at ``n_tr`` with a given ``alpha_tr`` (inverse of
    :func:`training_alpha`).

    >>> round(consistent_eps(64, 128, training_alpha(64, 128, eps=0.5)), 12)
    0.5
    """
    t = (alpha_tr / d) ** 2
    if not 0 < t < 1:
        raise ValueError(f"need 0 < alpha_tr < d, got alpha_tr={alpha_tr}, d={d}")
    return math.log(n_tr) + d / 2 * math.log(1 - t)


def infoscale_eq10(n: float, n_tr: float, d: int, eps: float = 0.0) -> float:
    r"""The factor Eq. 10 gives *without* the Taylor step (Eqs. 11-12); not in the paper.

    Solving ``log n + (d/2) log y = eps`` with ``y = (sqrt(4t+1)-1)/(2t)`` exactly gives
    ``t = (1-y)/y^2``, ``y = e^{2 eps/d} n^{-2/d}``, hence

    .. math:: \sqrt{t(n)/t(n_{tr})} = \mathrm{InfoScale}(n)\,(n/n_{tr})^{2/d}

    >>> round(infoscale_eq10(4096, 64, 128), 4)
    1.4852
    """
    return infoscale(n, n_tr, d, eps) * (n / n_tr) ** (2.0 / d)


def training_alpha_eq10(n_tr: float, d: int, eps: float = 0.0) -> float:
    """``alpha_tr = d sqrt((1-y)/y^2)``, ``y = e^{2eps/d} n_tr^{-2/d}``: Eq. 10's calibration.

    >>> round(training_alpha_eq10(64, 128), 4)
    34.262
    """
    y = math.exp(2.0 * eps / d) * n_tr ** (-2.0 / d)
    if y >= 1:
        raise ValueError(f"no training alpha: need n_tr > e^eps = {math.exp(eps):.4g}")
    return d * math.sqrt((1 - y) / (y * y))


def laplace_entropy(n: float, d: int, alpha: float) -> mp.mpf:
    """App. A.4's Laplace result before any term is dropped (exact algebra from it).

    .. math:: \\log n + d\\log\\sin\\theta^* + \\tfrac12\\log\\frac{d}{\\alpha(\\cos\\theta^*
              + 1/\\cos\\theta^*)} = \\log n + \\frac d2\\log\\frac{\\sqrt{4t+1}-1}{2t}
              - \\tfrac14\\log(4t+1),\\ t = (\\alpha/d)^2

    >>> abs(laplace_entropy(64, 128, 32.0) - 0.433266) < 1e-6
    True
    """
    t = (mp.mpf(alpha) / d) ** 2
    return eq10_entropy(n, d, alpha) - mp.log(4 * t + 1) / 4


def eq10_entropy(n: float, d: int, alpha: float) -> mp.mpf:
    """Eq. 10: ``log n + (d/2) log((sqrt(4t+1) - 1)/(2t))``, ``t = (alpha/d)^2``.

    >>> float(eq10_entropy(10, 64, 0))
    2.302585092994046
    """
    t = (mp.mpf(alpha) / d) ** 2
    if t == 0:
        return mp.log(n)
    return mp.log(n) + mp.mpf(d) / 2 * mp.log((mp.sqrt(4 * t + 1) - 1) / (2 * t))


def eq12_entropy(n: float, d: int, alpha: float) -> mp.mpf:
    """Eq. 12 (after the Taylor step): ``log n + (d/2) log(1 - t)``, ``t = (alpha/d)^2``.

    >>> abs(float(eq12_entropy(64, 128, training_alpha(64, 128)))) < 1e-12
    True
    """
    t = (mp.mpf(alpha) / d) ** 2
    return mp.log(n) + mp.mpf(d) / 2 * mp.log(1 - t)


# ------------------------------------------------------------ exact drift and the root
def invariant_scale(
    n: float, n_tr: float, d: int, alpha_tr: float, method: str = "bessel"
) -> float:
    """The factor ``s`` with ``H_exact(n, s alpha_tr) = H_exact(n_tr, alpha_tr)`` (Eq. 9).

    Found by Brent's method; the entropy deficit ``KL(alpha)`` is strictly increasing in
    ``alpha`` (its derivative is ``alpha Var_tilted(eta) > 0``), so the root is unique.

    >>> s = invariant_scale(4096, 64, 128, training_alpha(64, 128))
    >>> abs(lln_entropy(4096, 128, s * training_alpha(64, 128))
    ...     - lln_entropy(64, 128, training_alpha(64, 128))) < 1e-8
    True
    """
    target = float(kl_deficit(alpha_tr, d, method)) + math.log(n / n_tr)
    f = lambda s: float(kl_deficit(s * alpha_tr, d, method)) - target  # noqa: E731
    lo, hi = 1e-9, 2.0
    while f(hi) < 0:
        lo, hi = hi, hi * 2
        if hi > 1e6:
            raise ValueError("no invariant scale found below 1e6")
    if f(lo) > 0:
        raise ValueError("entropy at n is below the training entropy even at alpha = 0")
    return brentq(f, lo, hi, xtol=1e-13, rtol=1e-13)


SCALINGS = ("infoscale", "softmax_plus", "none", "invariant")


def drift_row(
    n: float,
    n_tr: float,
    d: int,
    eps: float = 0.0,
    alpha_tr: float | None = None,
    method: str = "eta",
) -> dict:
    """Exact (Eq. 9) entropy drift ``H(n, s alpha_tr) - H(n_tr, alpha_tr)`` in nats for
    each scaling ``s`` in :data:`SCALINGS`.

    ``alpha_tr`` defaults to :func:`training_alpha` (the paper's own calibration, Eq. 14).

    >>> r = drift_row(4096, 64, 128)
    >>> round(r["drift"]["infoscale"], 3), round(r["scale"]["invariant"], 4)
    (1.176, 1.5302)
    """
    a0 = training_alpha(n_tr, d, eps) if alpha_tr is None else float(alpha_tr)
    h0 = lln_entropy(n_tr, d, a0, method)
    scale = {
        "infoscale": infoscale(n, n_tr, d, eps),
        "softmax_plus": softmax_plus_scale(n, n_tr),
        "none": 1.0,
        "invariant": invariant_scale(n, n_tr, d, a0),
    }
    drift = {k: float(lln_entropy(n, d, s * a0, method) - h0) for k, s in scale.items()}
    a10, s10 = training_alpha_eq10(n_tr, d, eps), infoscale_eq10(n, n_tr, d, eps)
    eq10 = {
        "alpha_tr": a10,
        "scale": s10,
        "drift": float(lln_entropy(n, d, s10 * a10, method) - lln_entropy(n_tr, d, a10, method)),
    }
    return {
        "n": n,
        "n_tr": n_tr,
        "d": d,
        "eps": eps,
        "alpha_tr": a0,
        "entropy_train": float(h0),
        "scale": scale,
        "drift": drift,
        "eq12_entropy_train": float(eq12_entropy(n_tr, d, a0)),
        "eq10_no_taylor": eq10,
    }


def drift_grid(
    ds: Sequence[int] = (32, 64, 128, 768),
    n_trs: Sequence[float] = (64, 512),
    multipliers: Sequence[float] = (1, 2, 4, 8, 16, 32, 64),
    eps: float = 0.0,
    method: str = "eta",
    progress: bool = False,
) -> list:
    """:func:`drift_row` over ``d x n_tr x (n_tr * multiplier)`` (progress on stderr).

    >>> rows = drift_grid(ds=(32,), n_trs=(64,), multipliers=(1, 2), method="bessel")
    >>> [round(r["drift"]["none"], 4) for r in rows]
    [0.0, 0.6931]
    """
    from theory.core.progress import track

    jobs = [(d, nt, nt * m) for d in ds for nt in n_trs for m in multipliers]
    return [
        drift_row(n, nt, d, eps, method=method)
        for d, nt, n in track(jobs, "entropy drift", enabled=progress)
    ]
