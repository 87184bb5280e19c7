"""Exact statistics of softmax over L i.i.d. Gaussian logits, and the paper's
approximations of them (attention-alignment paper, Eqs. 1-3, App. A.2-A.3).

With :math:`x_i = l_i/\\tau \\sim N(0, s^2)`, :math:`s = \\sigma/\\tau`,
:math:`D = \\sum_{i=1}^L e^{x_i}`, :math:`S = \\sum_i x_i e^{x_i}`:

* the paper approximates :math:`\\log D \\approx \\log L + s^2/2` (Eq. 1, a law of
  large numbers for a log-normal sum), :math:`H \\approx \\log L - s^2/2` and
  :math:`P_{max} \\approx e^{l_{max}/\\tau}/(L e^{s^2/2})`;
* the truth is computed here **exactly by one-dimensional quadrature** through Laplace
  transforms (:math:`M(t) = E[e^{-t e^x}]`):

  .. math:: E[\\log D] = \\int_0^\\infty \\frac{e^{-t} - M(t)^L}{t}\\,dt,\\qquad
            E[S/D] = L\\int_0^\\infty E[x e^x e^{-t e^x}]\\,M(t)^{L-1}\\,dt,

  and :math:`E[H] = E[\\log D] - E[S/D]`; and **independently by Monte Carlo** with
  standard errors (:func:`mc_softmax_stats`, also the only route for
  :math:`E[P_{max}]`).

The annealed formula :math:`\\log L + s^2/2` is the Random Energy Model's high-temperature
free energy; it is right only for :math:`s < \\sqrt{2\\ln L}` (and its fluctuations are
small only for :math:`L \\gg e^{s^2}`); beyond that the sum is dominated by the
largest term and :math:`\\log D \\approx s\\sqrt{2\\ln L}`, while the paper's entropy
:math:`\\log L - s^2/2` turns negative.

>>> round(expected_log_partition(1000, 0.5), 4), round(math.log(1000) + 0.125, 4)
(7.0326, 7.0328)
"""

from __future__ import annotations

import math

import numpy as np
from scipy import integrate, special

from theory.core.progress import Progress
from theory.temperature.rules import softmax_pmax_entropy

_MAX_S = 50.0


def _x_nodes(s: float, refine: int = 1):
    """Trapezoid nodes and weights for :math:`E[f(x)]`, :math:`x \\sim N(0, s^2)`."""
    h = min(0.04, s / 30) / refine
    half = 12.0 * s
    n = int(math.ceil(2 * half / h)) + 1
    x = np.linspace(-half, half, n)
    w = np.full(n, x[1] - x[0]) * np.exp(-0.5 * (x / s) ** 2) / (s * math.sqrt(2 * math.pi))
    w[0] *= 0.5
    w[-1] *= 0.5
    return x, w


def laplace_integrals(L: float, s: float, du: float = 0.2, chunk: int = 256) -> tuple[float, float]:
    """Return :math:`(E[\\log D], E[S/D])` for L i.i.d. N(0, s^2) logits."""
    if not (0 < s <= _MAX_S):
        raise ValueError(f"s = sigma/tau must be in (0, {_MAX_S}], got {s}")
    if L < 1:
        raise ValueError(f"L must be >= 1, got {L}")
    x, w = _x_nodes(s)
    ex = np.exp(x)
    # upper end: M(t)^L ~ Phi(-ln t / s)^L decays slowly in u = ln t when L is small
    u = np.arange(-(math.log(L) + s * s / 2 + 45.0), 6.0 + 9.0 * s + du, du)
    wu = np.full(u.size, du)
    wu[0] *= 0.5
    wu[-1] *= 0.5
    log_d = sd = 0.0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore"):
        for a in range(0, u.size, chunk):
            t = np.exp(u[a : a + chunk])
            tex = t[:, None] * ex[None, :]
            G = (-np.expm1(-tex)) @ w  # 1 - M(t), accurate when tiny
            K = (x * np.exp(x[None, :] - tex)) @ w  # E[x e^x e^{-t e^x}]
            logM = np.log1p(-np.minimum(G, 1.0))
            log_d += np.sum(wu[a : a + chunk] * (np.exp(-t) - np.exp(L * logM)))
            sd += L * np.sum(wu[a : a + chunk] * K * t * np.exp((L - 1) * logM))
    return float(log_d), float(sd)


def _pmax_integral(L: float, s: float, du: float = 0.2, chunk: int = 128, refine: int = 1) -> float:
    r""":math:`E[P_{max}] = L\int\varphi_s(x)\,e^x\int_0^\infty e^{-t e^x}
    N(x,t)^{L-1}\,dt\,dx`, :math:`N(x,t) = E[e^{-t e^y}; y < x]`, with
    :math:`1 - N = P(y \ge x) + E[1 - e^{-t e^y}; y < x]` (cumulative trapezoid)."""
    if not (0 < s <= _MAX_S) or L < 1:
        raise ValueError(f"need L >= 1 and 0 < s <= {_MAX_S}, got L={L}, s={s}")
    if L == 1:
        return 1.0
    x, w = _x_nodes(s, refine)
    ex = np.exp(x)
    sf = special.ndtr(-x / s)  # P(y >= x), exact
    u = np.arange(-(math.log(L) + s * s / 2 + 45.0), 6.0 + 9.0 * s + du, du)
    wu = np.full(u.size, du)
    wu[0] *= 0.5
    wu[-1] *= 0.5
    total = 0.0
    with np.errstate(over="ignore", invalid="ignore", divide="ignore", under="ignore"):
        for a in range(0, u.size, chunk):
            t = np.exp(u[a : a + chunk])[:, None]
            tex = t * ex[None, :]
            g = w * (-np.expm1(-tex))  # w_j (1 - e^{-t e^y_j})
            below = np.cumsum(g, axis=1) - 0.5 * g  # y < x_k, half weight at k
            logN = np.log1p(-np.minimum(sf[None, :] + below, 1.0))
            inner = (w * np.exp(x[None, :] - tex + (L - 1) * logN)).sum(axis=1)
            total += L * np.sum(wu[a : a + chunk] * t[:, 0] * inner)
    return float(total)


def expected_pmax(L: float, s: float) -> float:
    """Exact :math:`E[P_{max}]` of softmax over L i.i.d. N(0, s^2) logits (2-D
    quadrature, see :func:`_pmax_integral`, Richardson-extrapolated over the x step:
    the cumulative trapezoid is O(h^2)); Monte Carlo is the independent check.

    >>> round(expected_pmax(1, 2.0), 8), round(expected_pmax(10**4, 1e-3), 6)
    (1.0, 0.0001)
    """
    return (4 * _pmax_integral(L, s, refine=2) - _pmax_integral(L, s, refine=1)) / 3


def expected_log_partition(L: float, s: float) -> float:
    """:math:`E[\\log\\sum_{i\\le L} e^{x_i}]`, :math:`x_i \\sim N(0, s^2)` i.i.d.,
    by quadrature (module docstring).

    >>> expected_log_partition(1, 1.0) < 1e-8
    True
    """
    return laplace_integrals(L, s)[0]


def expected_entropy(L: float, s: float) -> float:
    """Exact :math:`E[H]` of softmax over L i.i.d. N(0, s^2) logits (quadrature).

    >>> round(expected_entropy(1000, 1e-3), 6) == round(math.log(1000), 6)
    True
    """
    log_d, sd = laplace_integrals(L, s)
    return log_d - sd


def approx_log_partition(L: float, s: float) -> float:
    """Eq. 1 of the paper in log form: :math:`\\log D \\approx \\log L + s^2/2`.

    >>> float(approx_log_partition(1, 2.0))
    2.0
    """
    return np.log(L) + np.asarray(s) ** 2 / 2


def approx_entropy(L: float, s: float) -> float:
    """The paper's entropy approximation (App. A.3): :math:`H \\approx \\log L - s^2/2`.

    >>> float(approx_entropy(1, 2.0))
    -2.0
    """
    return np.log(L) - np.asarray(s) ** 2 / 2


def expected_max_std_normal(L: int) -> float:
    """:math:`E[\\max_{i\\le L} Z_i]` for i.i.d. standard normals (scipy quadrature of
    :math:`x L\\varphi(x)\\Phi(x)^{L-1}`).

    >>> round(expected_max_std_normal(2), 6) == round(1 / math.sqrt(math.pi), 6)
    True
    """
    L = int(L)
    if L < 1:
        raise ValueError(f"L must be >= 1, got {L}")
    f = lambda z: (
        z * L * math.exp(-z * z / 2 + (L - 1) * special.log_ndtr(z)) / math.sqrt(2 * math.pi)
    )  # noqa: E731
    mode = math.sqrt(2 * math.log(L)) if L > 1 else 0.0
    val, _ = integrate.quad(f, -12, 14, points=[mode], limit=200, epsabs=1e-12)
    return val


def approx_pmax(L: float, sigma: float, tau: float, lmax: float) -> float:
    """The paper's :math:`P_{max} \\approx e^{l_{max}/\\tau}/(L e^{\\sigma^2/(2\\tau^2)})`.

    >>> round(float(approx_pmax(10, 1.0, 1.0, 0.5)), 6)
    0.1
    """
    return np.exp(np.asarray(lmax) / tau - np.log(L) - (sigma / tau) ** 2 / 2)


def mc_softmax_stats(
    L: int,
    sigma: float,
    tau: float,
    draws: int,
    seed: int = 0,
    max_elems: int = 4_000_000,
    progress: Progress | None = None,
) -> dict:
    """Monte Carlo over ``draws`` logit vectors of L i.i.d. N(0, sigma^2) entries:
    mean and standard error of P_max, H, log D and l_max.

    >>> r = mc_softmax_stats(4, 1e-6, 1.0, 10, seed=0)
    >>> round(r["entropy"][0], 6), round(r["pmax"][0], 6)
    (1.386294, 0.25)
    """
    L, draws = int(L), int(draws)
    rng = np.random.default_rng(seed)
    batch = max(1, min(draws, max_elems // max(L, 1)))
    acc = {k: [] for k in ("pmax", "entropy", "log_partition", "lmax")}
    done = 0
    while done < draws:
        n = min(batch, draws - done)
        l = sigma * rng.standard_normal((n, L))
        p, h = softmax_pmax_entropy(l, tau)
        acc["pmax"].append(p)
        acc["entropy"].append(h)
        acc["log_partition"].append(special.logsumexp(l / tau, axis=1))
        acc["lmax"].append(l.max(axis=1))
        done += n
        if progress is not None:
            progress.update(n)
    out = {}
    for k, v in acc.items():
        a = np.concatenate(v)
        se = float(a.std(ddof=1) / math.sqrt(a.size)) if a.size > 1 else float("nan")
        out[k] = (float(a.mean()), se)
    return out


def lln_relative_error(L: float, s: float) -> float:
    """Relative error of Eq. 1 in log form:
    :math:`(\\log L + s^2/2 - E[\\log D]) / E[\\log D]` (exact E by quadrature).

    >>> abs(lln_relative_error(10**5, 0.5)) < 1e-5
    True
    """
    truth = expected_log_partition(L, s)
    return float((approx_log_partition(L, s) - truth) / truth)


def rem_critical_s(L: float) -> float:
    """:math:`s_c = \\sqrt{2\\ln L}`: above it the sum is dominated by its largest term
    (Random Energy Model freezing), and :math:`\\log L - s^2/2` would be negative.

    >>> round(rem_critical_s(math.e ** 2), 6)
    2.0
    """
    return math.sqrt(2 * math.log(L))


def entropy_alignment_tau_exact(
    L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float, lo: float = 0.02, hi: float = 4.0
) -> float:
    """The true entropy-aligning temperature for i.i.d. Gaussian logits: solves
    :math:`E[H](L_{ex}, \\sigma_{ex}/\\tau) = E[H](L_{tr}, \\sigma_{tr})` (quadrature
    on both sides; Brent's method).  None when not bracketed in [lo, hi].

    >>> round(entropy_alignment_tau_exact(512, 512, 1.0, 1.0), 6)
    1.0
    """
    from scipy.optimize import brentq

    target = expected_entropy(L_tr, sigma_tr)
    f = lambda tau: expected_entropy(L_ex, sigma_ex / tau) - target  # noqa: E731
    s_cap = min(_MAX_S, 3 * rem_critical_s(max(L_ex, 2)) + 5)  # deep in the frozen phase
    lo = max(lo, sigma_ex / s_cap)
    guess = sigma_ex / math.sqrt(sigma_tr**2 + 2 * math.log(L_ex / L_tr))  # Prop. 2
    a, b = max(lo, 0.8 * guess), min(hi, 1.25 * guess)  # usually brackets already
    fa, fb = f(a), f(b)
    if fa * fb > 0:
        a, b = lo, hi
        fa, fb = f(a), f(b)
        if fa * fb > 0:
            return None
    return float(brentq(f, a, b, xtol=1e-9))


def pmax_alignment_tau_exact(
    L_tr: float, L_ex: float, sigma_tr: float, sigma_ex: float, lo: float = 0.05, hi: float = 4.0
) -> float:
    """The true P_max-aligning temperature for i.i.d. Gaussian logits: solves
    :math:`E[P_{max}](L_{ex}, \\sigma_{ex}/\\tau) = E[P_{max}](L_{tr}, \\sigma_{tr})`
    (quadrature on both sides; Brent's method).  None when not bracketed.

    >>> round(pmax_alignment_tau_exact(512, 512, 1.0, 1.0), 6)
    1.0
    """
    from scipy.optimize import brentq

    target = expected_pmax(L_tr, sigma_tr)
    f = lambda tau: expected_pmax(L_ex, sigma_ex / tau) - target  # noqa: E731
    s_cap = min(_MAX_S, 3 * rem_critical_s(max(L_ex, 2)) + 5)
    lo = max(lo, sigma_ex / s_cap)
    for a, b in ((max(lo, 0.45), min(hi, 1.0)), (lo, hi)):  # cheap bracket first
        fa, fb = f(a), f(b)
        if fa * fb <= 0:
            return float(brentq(f, a, b, xtol=1e-7))
    return None


def softmax_truth(
    L: int,
    sigma: float,
    tau: float = 1.0,
    draws: int = 0,
    seed: int = 0,
    progress: Progress | None = None,
) -> dict:
    """For given (L, sigma, tau): exact E[P_max], E[H], E[log D] of softmax over L i.i.d.
    N(0, sigma^2) logits (quadrature), the paper's approximations next to them, and
    optionally a Monte Carlo estimate with standard errors.  ``progress`` (a
    :class:`theory.core.progress.Progress`) advances by 1 per quadrature (3) and per draw.

    .. math:: H \\approx \\log L - \\frac{\\sigma^2}{2\\tau^2},\\quad
              P_{max} \\approx \\frac{e^{\\sigma m_L/\\tau}}{L e^{\\sigma^2/(2\\tau^2)}}

    >>> t = softmax_truth(512, 1.0, 1.0)
    >>> round(t["exact"]["entropy"], 4), round(t["approx"]["entropy"], 4)
    (5.7419, 5.7383)
    """
    s = sigma / tau
    step = progress.update if progress is not None else (lambda n=1: None)
    log_d, sd = laplace_integrals(L, s)
    step()
    m = expected_max_std_normal(int(L))
    pmax = expected_pmax(L, s)
    step(2)
    out = {
        "L": L,
        "sigma": sigma,
        "tau": tau,
        "s": s,
        "regime": {
            "exp_s2": math.exp(min(s * s, 700.0)),
            "s_c": rem_critical_s(max(L, 2)),
            "lln_ok": L > 10 * math.exp(min(s * s, 700.0)),
        },
        "exact": {"pmax": pmax, "entropy": log_d - sd, "log_partition": log_d, "lmax": sigma * m},
        "approx": {
            "pmax": float(approx_pmax(L, sigma, tau, sigma * m)),
            "entropy": float(approx_entropy(L, s)),
            "log_partition": float(approx_log_partition(L, s)),
        },
    }
    if draws:
        mc = mc_softmax_stats(int(L), sigma, tau, draws, seed, progress=progress)
        out["monte_carlo"] = {k: {"mean": v[0], "se": v[1]} for k, v in mc.items()}
    return out
