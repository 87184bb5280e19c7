"""CosScale: scaled cosine attention and the peak eta* (InfoScale paper Sec. 3.2, Thm 3.4,
Eqs. 16-18, App. A.5).

With logits ``alpha cos(theta)`` (``alpha`` = CosScale) and cosines of independent uniform
directions in R^d (Assumption 3.2), the integrand of ``E[e^{alpha eta}]`` (Eq. 17) is the
tilted density

.. math:: f_\\alpha(\\eta) \\propto e^{\\alpha\\eta}(1-\\eta^2)^{(d-3)/2},

the law of the cosine weighted by its attention mass (equivalently, of ``q . k`` for
``k ~ vMF(q, alpha)``).  Its mode is Eq. 18:

.. math:: \\eta^* = \\frac{-(d-3) + \\sqrt{(d-3)^2 + 4\\alpha^2}}{2\\alpha}
               = \\frac{2\\alpha}{(d-3) + \\sqrt{(d-3)^2 + 4\\alpha^2}},

increasing in ``alpha`` with ``eta* -> 1``; ``1 - eta* = (d-3)/(2 alpha) - (d-3)^2/(8
alpha^2) + O(alpha^-4)`` for ``alpha >> d - 3`` and ``eta* = alpha/(d-3) + O(alpha^3)`` for
``alpha << d - 3`` (:func:`eta_star_series`).

>>> round(eta_star(128, 128), 6)
0.624561
"""

from __future__ import annotations

import math

import numpy as np
import sympy as sp
from scipy.optimize import minimize_scalar

from theory.infoscale.hypersphere_entropy import sample_cosines

_al, _d, _e, _u = sp.symbols("alpha d eta u", positive=True)


def eta_star(alpha: float, d: int) -> float:
    """Mode of ``e^{alpha eta}(1-eta^2)^{(d-3)/2}`` on [-1, 1] (InfoScale paper Eq. 18).

    .. math:: \\eta^* = \\frac{-(d-3) + \\sqrt{(d-3)^2 + 4\\alpha^2}}{2\\alpha}

    Computed in the cancellation-free form ``2 alpha / ((d-3) + sqrt((d-3)^2 + 4 alpha^2))``.
    Needs ``d >= 3`` (for ``d < 3`` the density is infinite at eta = +-1) and ``alpha >= 0``.

    >>> eta_star(0, 128), eta_star(5.0, 3)
    (0.0, 1.0)
    >>> round(eta_star(256, 128), 4)
    0.7852
    """
    if not (math.isfinite(alpha) and alpha >= 0):
        raise ValueError(f"alpha must be finite and >= 0, got {alpha}")
    if not (math.isfinite(d) and d >= 3):
        raise ValueError(f"d must be >= 3 (the mode is at eta = +-1 below), got {d}")
    if d == 3:
        return 1.0 if alpha > 0 else 0.0
    m = d - 3
    return 2 * alpha / (m + math.sqrt(m * m + 4 * alpha * alpha))


def tilted_log_density(eta: np.ndarray, alpha: float, d: int) -> float:
    """``alpha eta + (d-3)/2 log(1 - eta^2)`` (unnormalised log of Eq. 17's integrand).

    >>> float(tilted_log_density(0.0, 3.0, 10))
    0.0
    """
    return alpha * eta + (d - 3) / 2 * np.log1p(-(np.asarray(eta) ** 2))


def tilted_mode_numeric(alpha: float, d: int) -> float:
    """Mode found by bounded Brent minimisation of ``-log f`` (no use of Eq. 18).

    >>> abs(tilted_mode_numeric(64, 128) - eta_star(64, 128)) < 1e-8
    True
    """
    res = minimize_scalar(
        lambda e: -tilted_log_density(e, alpha, d),
        bounds=(-1 + 1e-15, 1 - 1e-15),
        method="bounded",
        options={"xatol": 1e-13, "maxiter": 500},
    )
    return float(res.x)


def eta_star_series(alpha: float, d: int, terms: int = 2, regime: str = "large") -> float:
    """Asymptotic expansions of Eq. 18.

    ``regime="large"`` (``alpha >> d-3``): ``1 - eta* = (d-3)/(2 alpha) - (d-3)^2/(8 alpha^2)
    + (d-3)^4/(128 alpha^4)`` (first ``terms`` terms; returns ``1 - eta*``).
    ``regime="small"`` (``alpha << d-3``): ``eta* = alpha/m - alpha^3/m^3 + 2 alpha^5/m^5``,
    ``m = d-3`` (returns ``eta*``).

    >>> round(eta_star_series(1e4, 128, 1), 6)
    0.00625
    """
    m = d - 3
    if regime == "large":
        series = [m / (2 * alpha), -(m**2) / (8 * alpha**2), m**4 / (128 * alpha**4)]
    elif regime == "small":
        series = [alpha / m, -(alpha**3) / m**3, 2 * alpha**5 / m**5]
    else:
        raise ValueError("regime must be 'large' or 'small'")
    return float(sum(series[:terms]))


def eta_star_symbolic() -> dict:
    """Eq. 18 re-derived with sympy: solve d/d eta log f = 0, take the root in (0, 1),
    the limit alpha -> oo and the expansion of 1 - eta* in 1/alpha.

    >>> r = eta_star_symbolic()
    >>> r["limit"], r["matches_eq18"]
    (1, True)
    """
    logf = _al * _e + (_d - 3) / 2 * sp.log(1 - _e**2)
    roots = sp.solve(sp.Eq(sp.numer(sp.together(sp.diff(logf, _e))), 0), _e)
    eq18 = (-(_d - 3) + sp.sqrt((_d - 3) ** 2 + 4 * _al**2)) / (2 * _al)
    root = [r for r in roots if sp.simplify(r.subs({_al: 2, _d: 10})) > 0][0]
    series = sp.series((1 - eq18).subs(_al, 1 / _u), _u, 0, 5).removeO()
    return {
        "roots": roots,
        "eta_star": root,
        "matches_eq18": sp.simplify(root - eq18) == 0,
        "limit": sp.limit(eq18, _al, sp.oo),
        "one_minus_series": sp.expand(series.subs(_u, 1 / _al)),
        "increasing": sp.simplify(
            sp.diff(2 * _al / ((_d - 3) + sp.sqrt((_d - 3) ** 2 + 4 * _al**2)), _al)
        ),
    }


def cosscale_logits(q: np.ndarray, k: np.ndarray, scale: float) -> np.ndarray:
    """Scaled cosine attention logits (InfoScale paper Eqs. 6-7, Sec. 3.2).

    .. math:: a_{ij} = \\alpha\\,\\frac{q_i\\cdot k_j}{\\|q_i\\|\\,\\|k_j\\|}

    ``q``: (..., n, d), ``k``: (..., m, d) -> (..., n, m).  Works with numpy arrays (or
    anything with ``@``, ``.swapaxes`` and broadcasting).  Zero vectors raise.

    >>> cosscale_logits(np.array([[1.0, 0.0]]), np.array([[2.0, 0.0], [0.0, 3.0]]), 16.0)
    array([[16.,  0.]])
    """
    q, k = np.asarray(q, dtype=float), np.asarray(k, dtype=float)
    nq, nk = np.linalg.norm(q, axis=-1, keepdims=True), np.linalg.norm(k, axis=-1, keepdims=True)
    if np.any(nq == 0) or np.any(nk == 0):
        raise ValueError("cosine attention is undefined for zero vectors")
    return scale * (q / nq) @ np.swapaxes(k / nk, -1, -2)


# ---------------------------------------------------------------------- Monte Carlo peak
def tilted_samples(
    alpha: float, d: int, size: int, seed: int, method: str = "wood", chunk: int = 20000
) -> tuple[np.ndarray, np.ndarray]:
    """Cosines ``eta`` and weights from the tilted law.

    ``"reweight"``: cosines of uniformly random unit vectors weighted by ``e^{alpha eta}``
    (self-normalised importance sampling; effective size collapses like
    ``size * exp(-alpha^2/d)``).  ``"vmf"``: exact draws ``k ~ vMF(e_1, alpha)`` in R^d
    (scipy.stats.vonmises_fisher) with unit weights.  ``"wood"``: the same law drawn
    directly by Wood's (1994) rejection sampler for the first coordinate (O(1) per draw).
    """
    rng = np.random.default_rng(seed)
    if method == "wood":
        return wood_cosines(alpha, d, size, rng), np.ones(size)
    if method == "reweight":
        eta = sample_cosines(d, size, rng)
        return eta, np.exp(alpha * (eta - eta.max()))
    if method != "vmf":
        raise ValueError(f"method must be 'wood', 'vmf' or 'reweight', got {method!r}")
    from scipy.stats import vonmises_fisher

    mu = np.zeros(d)
    mu[0] = 1.0
    dist = vonmises_fisher(mu, alpha)
    eta = np.concatenate(
        [dist.rvs(min(chunk, size - i), random_state=rng)[:, 0] for i in range(0, size, chunk)]
    )
    return eta, np.ones_like(eta)


def wood_cosines(alpha: float, d: int, size: int, rng: np.random.Generator) -> np.ndarray:
    """``W = mu . k`` for ``k ~ vMF(mu, alpha)`` in R^d by Wood's rejection sampler
    (Wood 1994, Commun. Stat. Simul. 23:157): proposal from Beta((d-1)/2, (d-1)/2),
    exact whatever the envelope parameter's optimality.

    >>> w = wood_cosines(50.0, 16, 20000, np.random.default_rng(0))
    >>> bool(abs(w.mean() - 0.8599) < 0.003)   # I_8(50)/I_7(50) = 0.85990, mpmath
    True
    """
    if alpha <= 0:
        return sample_cosines(d, size, rng)
    m = d - 1
    b = m / (2 * alpha + math.sqrt(4 * alpha * alpha + m * m))
    x0 = (1 - b) / (1 + b)
    c = alpha * x0 + m * math.log(1 - x0 * x0)
    out, filled = np.empty(size), 0
    while filled < size:
        k = int(1.3 * (size - filled)) + 16
        z = rng.beta(m / 2, m / 2, k)
        w = (1 - (1 + b) * z) / (1 - (1 - b) * z)
        ok = alpha * w + m * np.log1p(-x0 * w) - c >= np.log(rng.random(k))
        acc = w[ok][: size - filled]
        out[filled : filled + len(acc)] = acc
        filled += len(acc)
    return out


def smoothed_mode(grid: np.ndarray, dens: np.ndarray, h: float, reach: float = 5.0) -> float:
    """Mode of a density on an even ``grid`` after Gaussian smoothing of width ``h`` (the
    kernel cut at ``reach`` widths), refined by the parabola through the top three points.

    >>> g = np.linspace(-1, 1, 401)
    >>> round(smoothed_mode(g, np.exp(-0.5 * ((g - 0.3) / 0.1) ** 2), 0.02), 6)
    0.3
    """
    step = grid[1] - grid[0]
    half = int(math.ceil(reach * h / step))
    ker = np.exp(-0.5 * (np.arange(-half, half + 1) * step / h) ** 2)
    sm = np.convolve(dens, ker / ker.sum(), mode="same")
    i = int(np.clip(np.argmax(sm), 1, len(sm) - 2))
    y0, y1, y2 = sm[i - 1], sm[i], sm[i + 1]
    den = y0 - 2 * y1 + y2
    return float(grid[i] + (0.5 * step * (y0 - y2) / den if den != 0 else 0.0))


def kde_mode(eta: np.ndarray, w: np.ndarray, bins: int = 4096, bw_factor: float = 0.5) -> float:
    """Mode of a Gaussian kernel density estimate of weighted samples (binned KDE).

    Bandwidth ``h = bw_factor * 1.06 sigma n_eff^{-1/5}``.  Returns ``(mode, h, grid)``.
    """
    w = w / w.sum()
    mean = float(np.sum(w * eta))
    sd = float(np.sqrt(np.sum(w * (eta - mean) ** 2)))
    n_eff = 1.0 / float(np.sum(w * w))
    h = bw_factor * 1.06 * sd * n_eff ** (-0.2)
    lo, hi = max(-1.0, mean - 6 * sd), min(1.0, mean + 6 * sd)
    hist, edges = np.histogram(eta, bins=bins, range=(lo, hi), weights=w)
    grid = 0.5 * (edges[1:] + edges[:-1])
    return smoothed_mode(grid, hist, h), h, grid


def mc_peak(
    alpha: float,
    d: int,
    samples: int = 100_000,
    replicates: int = 8,
    seed: int = 0,
    method: str = "wood",
) -> dict:
    """Measured peak of the tilted cosine law from Monte Carlo samples, with its standard
    error over ``replicates`` independent seeds and the KDE smoothing bias (the mode of
    the exact density smoothed by the same kernel, minus the exact mode).

    >>> r = mc_peak(16, 32, samples=20000, replicates=4, seed=1)
    >>> abs(r["peak"] - eta_star(16, 32)) < 4 * r["stderr"] + abs(r["kde_bias"]) + 1e-3
    True
    """
    modes, ess = [], []
    for r in range(replicates):
        eta, w = tilted_samples(alpha, d, samples, seed * 1000 + r, method)
        mode, h, grid = kde_mode(eta, w)
        modes.append(mode)
        ess.append(float(w.sum() ** 2 / (w * w).sum()))
    exact = tilted_log_density(np.clip(grid, -1 + 1e-15, 1 - 1e-15), alpha, d)
    dens = np.exp(exact - exact.max())
    bias = smoothed_mode(grid, dens, h) - eta_star(alpha, d)
    modes = np.array(modes)
    return {
        "alpha": alpha,
        "d": d,
        "method": method,
        "peak": float(modes.mean()),
        "stderr": float(modes.std(ddof=1) / math.sqrt(replicates)),
        "kde_bias": float(bias),
        "bandwidth": float(h),
        "ess_min": float(min(ess)),
        "samples": samples,
        "replicates": replicates,
        "eta_star": eta_star(alpha, d),
    }
