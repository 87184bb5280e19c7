"""Exact attention entropy under the InfoScale paper's Assumptions 3.1-3.2 (no Laplace, no Taylor).

Under Assumption 3.2 queries and keys lie on a sphere in R^d and the logit is
``alpha * eta`` with ``eta = cos(theta)`` the cosine between a query and an independent,
uniformly distributed key.  ``eta`` has the density (InfoScale paper, App. A.5)

.. math::

    p_d(\\eta) = \\frac{\\Gamma(d/2)}{\\Gamma((d-1)/2)\\sqrt{\\pi}}\\,(1-\\eta^2)^{(d-3)/2},
    \\qquad \\eta\\in[-1, 1],

and under Assumption 3.1 (law of large numbers) the entropy of the attention row over
``n`` keys is Eq. 8/9 of the paper:

.. math::

    \\hat H(n) = \\log n + \\log E[e^{\\alpha\\eta}]
                 - \\frac{E[\\alpha\\eta\\, e^{\\alpha\\eta}]}{E[e^{\\alpha\\eta}]}
               = \\log n - \\mathrm{KL}(p_{d,\\alpha}\\,\\|\\,p_d),

where ``p_{d,alpha}`` is the tilted density ``e^{alpha eta} p_d(eta) / E[e^{alpha eta}]``.
This module evaluates it by three independent routes:

* ``"theta"``: mpmath quadrature of the three integrals of Eq. 9 in ``theta`` on [0, pi];
* ``"eta"``: mpmath quadrature in ``eta = cos(theta)`` on [-1, 1] (Eq. 17's form);
* ``"bessel"``: the closed form ``E[e^{alpha eta}] = Gamma(d/2) (2/alpha)^{d/2-1}
  I_{d/2-1}(alpha)`` and ``E_tilted[eta] = I_{d/2}(alpha) / I_{d/2-1}(alpha)`` (the
  von Mises-Fisher normaliser; DLMF 10.32.2 and 10.29.1);

and by Monte Carlo on random unit vectors (:func:`mc_lln_entropy`, with its standard
error), plus the finite-``n`` softmax entropy itself (:func:`mc_softmax_entropy`), which
tests Assumption 3.1.

>>> round(float(lln_entropy(64, 128, 32)), 6) == round(float(lln_entropy(64, 128, 32, "eta")), 6)
True
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np

METHODS = ("theta", "eta", "bessel")


def _check(d, alpha):
    if not (d >= 2 and math.isfinite(float(d))):
        raise ValueError(f"d must be a finite number >= 2, got {d}")
    if not (alpha >= 0 and math.isfinite(float(alpha))):
        raise ValueError(f"alpha must be finite and >= 0, got {alpha}")


def _peak_cos(alpha, m):
    """Where ``alpha*c + m*log(1-c^2)`` peaks (used only as a quadrature breakpoint)."""
    if alpha == 0:
        return mp.mpf(0)
    return (-2 * m + mp.sqrt(4 * m * m + 4 * alpha * alpha)) / (2 * alpha)


def _eta_moments(alpha, d):
    """(log E[e^{alpha eta}], E_tilted[eta]) by quadrature in eta on [-1, 1]."""
    alpha, m = mp.mpf(alpha), (mp.mpf(d) - 3) / 2
    c = _peak_cos(alpha, m) if d > 3 else mp.mpf(1) - mp.mpf(1) / (alpha + 1)
    logpeak = alpha * c + (m * mp.log(1 - c * c) if m != 0 else 0)
    width = 1 / mp.sqrt(alpha + d)

    def w(e):
        if abs(e) >= 1:
            return mp.mpf(0) if m > 0 else mp.inf
        return mp.exp(alpha * e + m * mp.log(1 - e * e) - logpeak)

    pts = sorted({mp.mpf(-1), max(-1, c - 8 * width), c, min(1, c + 8 * width), mp.mpf(1)})
    z = mp.quad(w, pts)
    z1 = mp.quad(lambda e: e * w(e), pts)
    z0 = mp.quad(
        lambda e: mp.exp(m * mp.log(1 - e * e)) if abs(e) < 1 else 0,
        [-1, -8 / mp.sqrt(d), 0, 8 / mp.sqrt(d), 1] if d > 70 else [-1, 0, 1],
    )
    return mp.log(z) + logpeak - mp.log(z0), z1 / z


def _theta_moments(alpha, d):
    """(log E[e^{alpha cos theta}], E_tilted[cos theta]) by quadrature in theta on [0, pi]."""
    alpha, k = mp.mpf(alpha), mp.mpf(d) - 2
    c = _peak_cos(alpha, k / 2) if d > 2 else mp.mpf(1)
    tpk = mp.acos(c)
    logpeak = alpha * c + k * mp.log(mp.sin(tpk)) if d > 2 else alpha

    def w(t):
        s = mp.sin(t)
        if s <= 0:
            return mp.exp(alpha * mp.cos(t) - logpeak) if k == 0 else mp.mpf(0)
        return mp.exp(alpha * mp.cos(t) + k * mp.log(s) - logpeak)

    width = 1 / mp.sqrt(alpha + d)
    pts = sorted({mp.mpf(0), max(0, tpk - 8 * width), tpk, min(mp.pi, tpk + 8 * width), +mp.pi})
    z = mp.quad(w, pts)
    z1 = mp.quad(lambda t: mp.cos(t) * w(t), pts)
    half = mp.pi / 2
    z0 = mp.quad(
        lambda t: mp.sin(t) ** k,
        [0, half - 8 / mp.sqrt(d), half, half + 8 / mp.sqrt(d), mp.pi]
        if d > 70
        else [0, half, mp.pi],
    )
    return mp.log(z) + logpeak - mp.log(z0), z1 / z


def _bessel_moments(alpha, d):
    """(log E[e^{alpha eta}], E_tilted[eta]) in closed form via modified Bessel functions."""
    alpha, nu = mp.mpf(alpha), mp.mpf(d) / 2 - 1
    if alpha == 0:
        return mp.mpf(0), mp.mpf(0)
    logm = mp.loggamma(nu + 1) + nu * mp.log(2 / alpha) + mp.log(mp.besseli(nu, alpha))
    return logm, mp.besseli(nu + 1, alpha) / mp.besseli(nu, alpha)


def cos_moments(alpha: float, d: int, method: str = "eta") -> tuple[mp.mpf, mp.mpf]:
    """``(log E[e^{alpha eta}], E[eta e^{alpha eta}] / E[e^{alpha eta}])`` for ``eta`` ~ p_d.

    .. math:: E[e^{\\alpha\\eta}] = \\frac{\\int_0^\\pi e^{\\alpha\\cos\\theta}
              \\sin^{d-2}\\theta\\,d\\theta}{\\int_0^\\pi \\sin^{d-2}\\theta\\,d\\theta}
              = \\Gamma(d/2)\\,(2/\\alpha)^{d/2-1} I_{d/2-1}(\\alpha)

    (InfoScale paper Eq. 9 and Eq. 17; closed form: von Mises-Fisher normaliser.)

    >>> lm, m = cos_moments(0, 16)
    >>> float(lm), float(m)
    (0.0, 0.0)
    """
    _check(d, alpha)
    fn = {"theta": _theta_moments, "eta": _eta_moments, "bessel": _bessel_moments}.get(method)
    if fn is None:
        raise ValueError(f"method must be one of {METHODS}, got {method!r}")
    if alpha == 0:
        return mp.mpf(0), mp.mpf(0)
    return fn(alpha, d)


def kl_deficit(alpha: float, d: int, method: str = "eta") -> mp.mpf:
    """``log n - H_hat(n)``: the KL divergence of the tilted cosine law from p_d (>= 0).

    >>> float(kl_deficit(0, 64))
    0.0
    """
    logm, mean = cos_moments(alpha, d, method)
    return alpha * mean - logm


def lln_entropy(n: float, d: int, alpha: float, method: str = "eta") -> mp.mpf:
    """Exact attention entropy under Assumptions 3.1-3.2 (InfoScale paper Eq. 9).

    .. math:: \\hat H = \\log n + \\log\\frac{\\int_0^\\pi e^{\\alpha\\cos\\theta}\\sin^{d-2}
              \\theta\\,d\\theta}{\\int_0^\\pi\\sin^{d-2}\\theta\\,d\\theta}
              - \\frac{\\int_0^\\pi \\alpha\\cos\\theta\\, e^{\\alpha\\cos\\theta}
              \\sin^{d-2}\\theta\\,d\\theta}{\\int_0^\\pi e^{\\alpha\\cos\\theta}
              \\sin^{d-2}\\theta\\,d\\theta}

    ``alpha = lambda * v * d`` (Assumption 3.2).  At ``alpha = 0`` it is ``log n``.

    >>> float(lln_entropy(100, 32, 0)) == math.log(100)
    True
    >>> abs(lln_entropy(64, 32, 10, "theta") - lln_entropy(64, 32, 10, "bessel")) < 1e-12
    True
    """
    if not n >= 1:
        raise ValueError(f"n must be >= 1, got {n}")
    return mp.log(n) - kl_deficit(alpha, d, method)


# --------------------------------------------------------------------------- Monte Carlo
def sample_cosines(
    d: int, size: int, rng: np.random.Generator, method: str = "chi2", chunk: int = 20000
) -> np.ndarray:
    """Cosines between a fixed unit vector and ``size`` uniformly random unit vectors in R^d.

    ``"vectors"`` draws Gaussian vectors in R^d and normalises them (``eta = x_1/|x|``);
    ``"chi2"`` draws the same law in O(1) per sample: ``|x|^2 = x_1^2 + chi^2_{d-1}``.

    >>> x = sample_cosines(64, 1000, np.random.default_rng(0))
    >>> bool(np.all(np.abs(x) <= 1))
    True
    """
    if method == "chi2":
        x1 = rng.standard_normal(size)
        return x1 / np.sqrt(x1 * x1 + rng.chisquare(d - 1, size))
    if method != "vectors":
        raise ValueError(f"method must be 'chi2' or 'vectors', got {method!r}")
    out = np.empty(size)
    for i in range(0, size, chunk):
        x = rng.standard_normal((min(chunk, size - i), d))
        out[i : i + len(x)] = x[:, 0] / np.linalg.norm(x, axis=1)
    return out


def mc_lln_entropy(
    n: float, d: int, alpha: float, samples: int = 200_000, seed: int = 0, method: str = "chi2"
) -> dict:
    """Monte Carlo estimate of Eq. 9 from random unit vectors, with its standard error.

    Uses sample means of ``w = e^{alpha eta}`` and ``w eta`` and the delta method.  The
    effective sample size ``(sum w)^2 / sum w^2`` is reported: it collapses like
    ``samples * exp(-alpha^2/d)``, so the estimate is only usable where it is large.

    >>> r = mc_lln_entropy(64, 32, 4.0, samples=20000, seed=1)
    >>> bool(abs(r["entropy"] - float(lln_entropy(64, 32, 4.0))) < 5 * r["stderr"])
    True
    """
    eta = sample_cosines(d, samples, np.random.default_rng(seed), method)
    shift = alpha * eta.max()
    w = np.exp(alpha * eta - shift)
    a, b = w.mean(), (w * eta).mean()
    h = math.log(n) + math.log(a) + shift - alpha * b / a
    grad = np.array([1 / a + alpha * b / a**2, -alpha / a])
    cov = np.cov(np.vstack([w, w * eta])) / samples
    se = float(np.sqrt(max(grad @ cov @ grad, 0.0)))
    ess = float(w.sum() ** 2 / (w * w).sum())
    return {"entropy": h, "stderr": se, "ess": ess, "samples": samples}


def mc_softmax_entropy(
    n: int, d: int, alpha: float, trials: int = 200, seed: int = 0, method: str = "chi2"
) -> dict:
    """Mean entropy of softmax(alpha * cos) over ``n`` random unit keys (no Assumption 3.1).

    This is the quantity Assumption 3.1 approximates by :func:`lln_entropy`.

    >>> r = mc_softmax_entropy(4096, 64, 0.0, trials=2)
    >>> abs(r["entropy"] - math.log(4096)) < 1e-9
    True
    """
    rng = np.random.default_rng(seed)
    hs = np.empty(trials)
    for i in range(trials):
        z = alpha * sample_cosines(d, n, rng, method)
        z -= z.max()
        p = np.exp(z)
        p /= p.sum()
        hs[i] = -np.sum(p * np.log(np.where(p > 0, p, 1.0)))
    return {
        "entropy": float(hs.mean()),
        "stderr": float(hs.std(ddof=1) / math.sqrt(trials)) if trials > 1 else 0.0,
        "trials": trials,
        "n": n,
    }


def sphere_normaliser(d: int) -> mp.mpf:
    """``int_0^pi sin^{d-2} theta d theta = sqrt(pi) Gamma((d-1)/2) / Gamma(d/2)`` exactly.

    The paper's App. A.4 writes ``sqrt(2 pi / d)`` (a Laplace approximation).

    >>> round(float(sphere_normaliser(3)), 12)
    2.0
    """
    d = mp.mpf(d)
    return mp.sqrt(mp.pi) * mp.gamma((d - 1) / 2) / mp.gamma(d / 2)
