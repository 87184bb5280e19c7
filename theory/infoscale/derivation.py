"""The InfoScale derivation (InfoScale paper Eqs. 5, 8-15 and App. A.4) as checked steps.

Exact steps are proved with sympy and spot-checked with mpmath; integrals are evaluated
by mpmath quadrature (an independent route) against closed forms; every approximation
(law of large numbers, Laplace, dropped term, Taylor) gets its error measured over a grid
of the paper's parameters (``d`` = head dimension, ``alpha = lambda v d``,
``t = (alpha/d)^2``).

>>> d = infoscale_derivation(quick=True)
>>> [s.source for s in d.steps][:3]
['Eq. 5', 'Assumption 3.1', 'Eq. 8']
"""

from __future__ import annotations

import mpmath as mp
import sympy as sp

from theory.core.derivation import Derivation, Step
from theory.infoscale.hypersphere_entropy import cos_moments, lln_entropy, mc_softmax_entropy
from theory.infoscale.infoscale import infoscale, training_alpha

SRC = "InfoScale paper (infoscale-cosscale.txt)"
n, d, alpha, t, a = sp.symbols("n d alpha t a", positive=True)
lam, v, K, n_tr = sp.symbols("lambda v K n_tr", positive=True)
eps = sp.Symbol("epsilon", real=True)
theta, eta, x = sp.symbols("theta eta x", real=True)
S_ROOT = sp.Symbol("s", positive=True)  # sqrt(4t + 1)
C_STAR = (-d + sp.sqrt(d**2 + 4 * alpha**2)) / (2 * alpha)  # cos(theta_1^*), App. A.4
G1 = alpha * sp.cos(theta) + d * sp.log(sp.sin(theta))  # (d-2) replaced by d
NU = d / 2 - 1
BESSEL_LOGM = sp.loggamma(d / 2) + NU * sp.log(2 / alpha) + sp.log(sp.besseli(NU, alpha))
LAPLACE_H = (
    sp.log(n) + d * sp.log(sp.sqrt(1 - C_STAR**2)) + sp.log(d / (alpha * (C_STAR + 1 / C_STAR))) / 2
)
EQ10 = sp.log(n) + d / 2 * sp.log((sp.sqrt(4 * t + 1) - 1) / (2 * t))
EQ12 = sp.log(n) + d / 2 * sp.log(1 - t)


def _quad_theta(k, f):
    return (
        mp.quad(f, [0, mp.pi / 2, mp.pi])
        if k < 70
        else mp.quad(
            f, [0, mp.pi / 2 - 8 / mp.sqrt(k), mp.pi / 2, mp.pi / 2 + 8 / mp.sqrt(k), mp.pi]
        )
    )


def _eq5_step():
    xs = sp.symbols("x1:4", real=True)
    z = sum(sp.exp(xi) for xi in xs)
    lhs = -sum(sp.exp(xi) / z * sp.log(sp.exp(xi) / z) for xi in xs)
    rhs = -sum(xi * sp.exp(xi) for xi in xs) / z + sp.log(z)
    return Step(
        "attention entropy of softmax(lambda q k)",
        lhs,
        rhs,
        "beta_j = e^{x_j}/Z, so -log beta_j = log Z - x_j and sum beta_j = 1 "
        "(shown for n = 3 logits x_j = lambda q_i k_j)",
        domain={xi: (-4, 4) for xi in xs},
        source="Eq. 5",
    )


def _lln_step(quick):
    ns = [64, 4096] if quick else [64, 512, 4096]
    a_tr = training_alpha(64, 128)
    h = sp.log(n) + BESSEL_LOGM - alpha * sp.besseli(d / 2, alpha) / sp.besseli(NU, alpha)
    return Step(
        "law of large numbers: Z ~ n E[e^{alpha eta}]",
        sp.Symbol("H_n"),
        h,
        "Assumption 3.1; left side = Monte Carlo mean entropy of softmax over n "
        "random unit keys (200 trials), right side = Eq. 9 exactly",
        kind="approx",
        error="absolute",
        grid={n: ns, d: [128], alpha: [a_tr]},
        lhs_value=lambda p: mc_softmax_entropy(
            int(p["n"]), int(p["d"]), float(p["alpha"]), trials=60 if quick else 200, seed=0
        )["entropy"],
        regime="needs n >> E[w^2]/E[w]^2 = exp(alpha^2/d) roughly",
        source="Eq. 8",
    )


def _integral_steps():
    th = sp.Integral(sp.exp(alpha * sp.cos(theta)) * sp.sin(theta) ** (d - 2), (theta, 0, sp.pi))
    et = sp.Integral(sp.exp(alpha * eta) * (1 - eta**2) ** ((d - 3) / 2), (eta, -1, 1))
    norm = sp.sqrt(sp.pi) * sp.gamma((d - 1) / 2) / sp.gamma(d / 2)
    closed = sp.exp(BESSEL_LOGM) * norm
    dom = {d: (4, 800), alpha: (0.5, 150)}  # covers the Laplace grids' d = 768
    return [
        Step(
            "hypersphere normaliser",
            sp.Integral(sp.sin(theta) ** (d - 2), (theta, 0, sp.pi)),
            norm,
            "p_d(theta) = Gamma(d/2)/(Gamma((d-1)/2) sqrt(pi)) sin^{d-2} theta integrates "
            "to 1 (mpmath quadrature vs Gamma closed form)",
            domain={d: (3, 800)},
            symbolic_check=False,
            source="App. A.4/A.5",
            lhs_value=lambda p: _quad_theta(p["d"], lambda s: mp.sin(s) ** (p["d"] - 2)),
        ),
        Step(
            "E[e^{alpha cos theta}] integral in theta = closed form",
            th,
            closed,
            "quadrature in theta on [0, pi] vs Gamma(d/2)(2/alpha)^{d/2-1} I_{d/2-1}(alpha) "
            "times the normaliser (von Mises-Fisher)",
            domain=dom,
            symbolic_check=False,
            source="Eq. 9",
            lhs_value=lambda p: (
                mp.exp(cos_moments(p["alpha"], p["d"], "theta")[0])
                * _quad_theta(p["d"], lambda s: mp.sin(s) ** (p["d"] - 2))
            ),
        ),
        Step(
            "same integral in eta = cos theta",
            et,
            closed,
            "substitution eta = cos theta, d eta = -sin theta d theta; quadrature in eta",
            domain=dom,
            symbolic_check=False,
            source="Eq. 17",
            lhs_value=lambda p: (
                mp.exp(cos_moments(p["alpha"], p["d"], "eta")[0])
                * _quad_theta(p["d"], lambda s: mp.sin(s) ** (p["d"] - 2))
            ),
        ),
    ]


def _laplace_steps(quick):
    dgrid = [32, 128] if quick else [32, 128, 768]
    agrid = [8, 32] if quick else [8, 32, 128]
    tstar = sp.acos(C_STAR)
    lap_num = sp.sqrt(2 * sp.pi / (alpha * (1 / C_STAR + C_STAR))) * sp.exp(
        alpha * C_STAR + d * sp.log(sp.sqrt(1 - C_STAR**2))
    )
    # the exact side by the Bessel closed form, which the two integral steps before verify
    # against quadrature in theta and in eta (same d range); ~10x faster than quadrature
    quad_num = lambda p: (
        mp.exp(cos_moments(p["alpha"], p["d"], "bessel")[0])
        * _quad_theta(  # noqa
            p["d"], lambda s: mp.sin(s) ** (p["d"] - 2)
        )
    )
    return [
        Step(
            "Laplace point theta_1^*",
            sp.diff(G1, theta).subs(theta, tstar),
            sp.Integer(0),
            "g1' = -alpha sin + d cos/sin = 0  <=>  alpha(1 - c^2) = d c",
            error="absolute",
            domain={d: (4, 800), alpha: (0.5, 300)},
            source="App. A.4",
        ),
        Step(
            "curvature at theta_1^*",
            sp.diff(G1, theta, 2).subs(theta, tstar),
            -alpha * (C_STAR + 1 / C_STAR),
            "d/sin^2 = alpha/cos at the stationary point",
            domain={d: (4, 800), alpha: (0.5, 300)},
            source="App. A.4",
        ),
        Step(
            "Gaussian integral",
            sp.Integral(sp.exp(-a * x**2 / 2), (x, -sp.oo, sp.oo)),
            sp.sqrt(2 * sp.pi / a),
            "standard",
            domain={a: (0.1, 50)},
            source="App. A.4",
        ),
        Step(
            "Laplace: int e^{alpha cos} sin^{d-2}",
            sp.Symbol("I_1"),
            lap_num,
            "Assumption 3.3 with (d-2) log sin replaced by d log sin; quadrature on the left",
            kind="approx",
            grid={d: dgrid, alpha: agrid},
            lhs_value=quad_num,
            regime="large d; relative error",
            source="App. A.4",
        ),
        Step(
            "Laplace: int sin^{d-2} = sqrt(2 pi/d)",
            sp.Integral(sp.sin(theta) ** (d - 2), (theta, 0, sp.pi)),
            sp.sqrt(2 * sp.pi / d),
            "g2 = (d-2) log sin ~ -d/2 (theta - pi/2)^2; the paper writes '='",
            kind="approx",
            grid={d: [32, 64, 128, 768]},
            lhs_value=lambda p: _quad_theta(p["d"], lambda s: mp.sin(s) ** (p["d"] - 2)),
            source="App. A.4",
        ),
        Step(
            "Laplace: E_tilted[alpha cos] = alpha cos theta_1^*",
            sp.Symbol("m_alpha"),
            alpha * C_STAR,
            "the slowly varying factor alpha cos theta taken at the peak",
            kind="approx",
            error="absolute",
            grid={d: dgrid, alpha: agrid},
            lhs_value=lambda p: p["alpha"] * cos_moments(p["alpha"], p["d"], "bessel")[1],
            regime="absolute error in nats",
            source="App. A.4",
        ),
        Step(
            "Laplace entropy vs exact Eq. 9",
            sp.Symbol("H_hat"),
            LAPLACE_H,
            "all three Laplace approximations together (n = 64)",
            kind="approx",
            error="absolute",
            grid={n: [64], d: dgrid, alpha: agrid},
            lhs_value=lambda p: lln_entropy(p["n"], p["d"], p["alpha"], "bessel"),
            regime="absolute error in nats",
            source="App. A.4",
        ),
    ]


def _algebra_steps(quick):
    sub = {alpha: d * sp.sqrt(t)}
    dgrid = [32, 128] if quick else [32, 128, 768]
    on_path = {t: 1 - n ** (-2 / d)}  # t along InfoScale's own path (eps = 0, Eq. 13)
    ngrid = [64, 4096] if quick else [64, 512, 4096, 32768]
    # the two identities of App. A.4 in s = sqrt(4t+1) > 1 (t = (s^2-1)/4), where sympy
    # proves them; alpha = d sqrt(t) is r^2 = v d with lambda v = sqrt(t)
    c_s = C_STAR.subs(alpha, d * sp.sqrt((S_ROOT**2 - 1) / 4))
    t_s = (S_ROOT**2 - 1) / 4
    return [
        Step(
            "sin^2 theta* = (sqrt(4t+1)-1)/(2t)",
            1 - c_s**2,
            (S_ROOT - 1) / (2 * t_s),
            "cos theta* from alpha(1-c^2) = d c with alpha = d sqrt(t); s = sqrt(4t+1)",
            domain={S_ROOT: (1.001, 3.7), d: (4, 800)},
            source="App. A.4",
        ),
        Step(
            "lambda v (cos theta* + 1/cos theta*) = sqrt(4t+1)",
            sp.sqrt(t_s) * (c_s + 1 / c_s),
            S_ROOT,
            "lambda v = sqrt(t); s = sqrt(4t+1)",
            domain={S_ROOT: (1.001, 3.7), d: (4, 800)},
            source="App. A.4",
        ),
        Step(
            "substitute r^2 = v d (alpha = d sqrt(t))",
            LAPLACE_H.subs(sub),
            EQ10 - sp.log(4 * t + 1) / 4,
            "the two identities above inserted into the Laplace entropy (log algebra; "
            "sympy does not close it, so checked numerically)",
            symbolic_check=False,
            domain={d: (4, 800), t: (1e-3, 3), n: (2, 1e5)},
            source="App. A.4",
        ),
        Step(
            "drop -1/4 log(4t+1) (Eq. 10)",
            (EQ10 - sp.log(4 * t + 1) / 4).subs(on_path),
            EQ10.subs(on_path),
            "'as lambda -> 0, v -> 0'; t = 1 - n^{-2/d} (eps = 0)",
            kind="approx",
            error="absolute",
            grid={n: ngrid, d: dgrid},
            regime="absolute, nats, along t(n) = 1 - n^(-2/d)",
            source="Eq. 10",
        ),
        Step(
            "Taylor series of sqrt(4t+1) - 1",
            sp.series(sp.sqrt(4 * t + 1) - 1, t, 0, 4).removeO(),
            2 * t - 2 * t**2 + 4 * t**3,
            "the t^3 coefficient is 4, not 0",
            domain={t: (0.01, 1)},
            source="Eq. 11",
        ),
        Step(
            "Eq. 11 remainder is o(t^3)",
            sp.Limit((sp.sqrt(4 * t + 1) - 1 - 2 * t + 2 * t**2) / t**3, t, 0),
            sp.Integer(0),
            "the paper writes 2t - 2t^2 + o(t^3); the limit of remainder/t^3 is 4, so the "
            "remainder is O(t^3), not o(t^3)",
            source="Eq. 11",
        ),
        Step(
            "Taylor step: Eq. 10 -> log n + d/2 log(1-t)",
            EQ10.subs(on_path),
            EQ12.subs(on_path),
            "(2t - 2t^2)/(2t) = 1 - t; error ~ d t^2 (not small just because t is); "
            "t = 1 - n^{-2/d} (eps = 0)",
            kind="approx",
            error="absolute",
            grid={n: ngrid, d: dgrid},
            regime="needs d t^2 << 1; absolute, nats",
            source="Eq. 12",
        ),
    ]


def _solve_steps():
    lam13 = sp.sqrt(1 - sp.exp(2 * eps / d) * n ** (-2 / d)) / v
    k14 = 1 / sp.sqrt((1 - sp.exp(2 * eps / d) * n_tr ** (-2 / d)) * d)
    info = sp.sqrt(
        (1 - sp.exp(2 * eps / d) * n ** (-2 / d)) / (1 - sp.exp(2 * eps / d) * n_tr ** (-2 / d))
    )
    dom = {n: (100, 1e5), n_tr: (20, 90), d: (8, 800), v: (0.1, 3), eps: (-1, 1)}
    return [
        Step(
            "solve Eq. 12 = eps for lambda (Eq. 13)",
            sp.log(n) + d / 2 * sp.log(1 - lam13**2 * v**2),
            eps,
            "1 - t = e^{2 eps/d} n^{-2/d}, t = lambda^2 v^2, K = 1/v",
            domain=dom,
            source="Eq. 13",
        ),
        Step(
            "K from lambda = 1/sqrt(d) at n = n_tr (Eq. 14)",
            k14 * sp.sqrt(1 - sp.exp(2 * eps / d) * n_tr ** (-2 / d)),
            1 / sp.sqrt(d),
            "model 'perfectly trained' at n_tr",
            domain=dom,
            source="Eq. 14",
        ),
        # squared: both sides are products of principal square roots (>= 0), so equal
        # squares prove the identity; sympy cannot combine the roots unsquared
        Step(
            "InfoScale (Eq. 15)",
            (k14 * sp.sqrt(1 - sp.exp(2 * eps / d) * n ** (-2 / d))) ** 2,
            (info / sp.sqrt(d)) ** 2,
            "substitute K; both sides >= 0, so compared squared",
            domain=dom,
            source="Eq. 15",
        ),
    ]


def _bottom_line_step(quick):
    mults = [2, 64] if quick else [2, 8, 64]

    def drift(p):
        nt, dd = int(p["n_tr"]), int(p["d"])
        a0 = training_alpha(nt, dd)
        nn = nt * int(p["n"])
        return lln_entropy(nn, dd, infoscale(nn, nt, dd) * a0, "bessel") - lln_entropy(
            nt, dd, a0, "bessel"
        )

    return Step(
        "InfoScale keeps the exact Eq. 9 entropy at its n_tr value",
        sp.Symbol("Delta_H"),
        sp.Integer(0),
        "the derivation's purpose; left side = exact drift H(n) - H(n_tr) with "
        "alpha_tr from Eq. 14 (eps = 0); grid symbol n is the multiple n/n_tr",
        kind="approx",
        error="absolute",
        grid={n: mults, n_tr: [64, 512], d: [32, 128, 768]},
        lhs_value=drift,
        regime="absolute drift in nats",
        source="Eq. 15 / Sec. 3.1",
    )


def infoscale_derivation(quick: bool = False) -> Derivation:
    """InfoScale's derivation, Eq. 5 to Eq. 15, with every approximation measured."""
    steps = [
        _eq5_step(),
        Step(
            "Assumption 3.1 (law of large numbers)",
            None,
            None,
            "sum_j y_j = n E[y]",
            kind="assumption",
            source="Assumption 3.1",
        ),
        _lln_step(quick),
        Step(
            "Assumption 3.2 (hypersphere, alpha = lambda v d)",
            None,
            None,
            "q, k on a sphere of radius sqrt(v d); cosines of independent uniform directions",
            kind="assumption",
            source="Assumption 3.2",
        ),
        *_integral_steps(),
        Step(
            "Assumption 3.3 (Laplace's method)",
            None,
            None,
            "the integrals of Eq. 9",
            kind="assumption",
            source="Assumption 3.3",
        ),
        *_laplace_steps(quick),
        *_algebra_steps(quick),
        *_solve_steps(),
        _bottom_line_step(quick),
    ]
    return Derivation("InfoScale from entropy invariance", SRC + ", Sec. 3.1 and App. A.4", steps)
