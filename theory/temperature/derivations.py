"""Props. 1 and 2 of the attention-alignment paper as checked derivations.

Each line of App. A.2 (Prop. 1, maximum-probability alignment) and App. A.3 (Prop. 2,
entropy alignment) is a :class:`theory.core.derivation.Step`: algebra and Gaussian integrals
are proved by sympy and spot-checked with mpmath (quadrature for the integrals); the
approximations are measured against the exact i.i.d.-Gaussian truth of
:mod:`theory.temperature.gaussian_softmax`; the assumptions are recorded, and where the paper's
rule is wrong (the "larger root" choice) a step is refuted with its counterexample.

.. math:: \\text{Prop. 1: } A\\tau^2 - B\\tau + C = 0,\\qquad
          \\text{Prop. 2: } \\tau = \\sigma_{ex}/\\sqrt{\\sigma_{tr}^2 + 2\\log(L_{ex}/L_{tr})}

>>> [s.kind for s in prop2_derivation(fast=True).steps][:3]
['assumption', 'exact', 'exact']
"""

from __future__ import annotations

import math

import mpmath as mp
import sympy as sp

from theory.core.derivation import Derivation, Step
from theory.temperature.gaussian_softmax import (
    entropy_alignment_tau_exact,
    expected_entropy,
    expected_log_partition,
    expected_max_std_normal,
    expected_pmax,
    laplace_integrals,
)

PAPER = "attention-alignment-t5"
l = sp.Symbol("l", real=True)
sigma, tau = sp.symbols("sigma tau", positive=True)
L, L_tr, L_ex, P = sp.symbols("L L_tr L_ex P", positive=True)
s_tr, s_ex = sp.symbols("sigma_tr sigma_ex", positive=True)
lmax, lmax_tr, lmax_ex, m_L = sp.symbols("l_max l_max^tr l_max^ex m_L", real=True)
A, B, C = sp.symbols("A B C", positive=True)
x1, x2, x3, c = sp.symbols("x1 x2 x3 c", real=True)

#: (L, sigma) points for the approximations: inside and outside the LLN regime
LLN_POINTS = [(64, 0.5), (512, 1.0), (512, 2.7), (15000, 2.7), (64, 3.0), (10**6, 6.0)]
FAST_POINTS = [(512, 1.0), (512, 2.7)]


def gaussian_pdf(var: sp.Expr = l, sd: sp.Expr = sigma) -> sp.Expr:
    """:math:`\\varphi_\\sigma(l) = e^{-l^2/(2\\sigma^2)}/(\\sigma\\sqrt{2\\pi})`."""
    return sp.exp(-(var**2) / (2 * sd**2)) / (sd * sp.sqrt(2 * sp.pi))


def _gauss_integral(integrand):
    return sp.Integral(integrand, (l, -sp.oo, sp.oo))


def _pts(points):
    return [{L: Lv, sigma: sv, tau: 1.0} for Lv, sv in points]


def moment_steps() -> list:
    """Eq. 1's moment, Eq. 3 and its four-line expansion (App. A.3), tempered form."""
    phi, pref = gaussian_pdf(), 1 / (sigma * sp.sqrt(2 * sp.pi))
    dom = {sigma: (0.3, 3.0)}
    return [
        Step(
            "Gaussian moment of Eq. 1",
            _gauss_integral(sp.exp(l / tau) * phi),
            sp.exp(sigma**2 / (2 * tau**2)),
            "complete the square",
            source="Eq. 1",
            domain={sigma: (0.3, 3.0), tau: (0.4, 1.5)},
        ),
        Step(
            "Eq. 3, line 1 -> 2",
            _gauss_integral(l * sp.exp(l) * phi),
            _gauss_integral(l * pref * sp.exp((2 * sigma**2 * l - l**2) / (2 * sigma**2))),
            "merge the exponents",
            source="Eq. 3 (A.3)",
            domain=dom,
        ),
        Step(
            "Eq. 3, line 2 -> 3",
            _gauss_integral(l * pref * sp.exp((2 * sigma**2 * l - l**2) / (2 * sigma**2))),
            _gauss_integral(l * pref * sp.exp(-((l - sigma**2) ** 2 - sigma**4) / (2 * sigma**2))),
            "2 sigma^2 l - l^2 = -((l - sigma^2)^2 - sigma^4)",
            source="Eq. 3 (A.3)",
            domain=dom,
        ),
        Step(
            "Eq. 3, line 3 -> 4",
            _gauss_integral(l * pref * sp.exp(-((l - sigma**2) ** 2 - sigma**4) / (2 * sigma**2))),
            sp.exp(sigma**2 / 2)
            * _gauss_integral(l * pref * sp.exp(-((l - sigma**2) ** 2) / (2 * sigma**2))),
            "factor out exp(sigma^4 / (2 sigma^2)) = exp(sigma^2/2)",
            source="Eq. 3 (A.3)",
            domain=dom,
        ),
        Step(
            "Eq. 3, line 4 -> 5",
            sp.exp(sigma**2 / 2)
            * _gauss_integral(l * pref * sp.exp(-((l - sigma**2) ** 2) / (2 * sigma**2))),
            sp.exp(sigma**2 / 2) * sigma**2,
            "mean of N(sigma^2, sigma^2)",
            source="Eq. 3 (A.3)",
            domain=dom,
        ),
        Step(
            "Eq. 3 with temperature",
            _gauss_integral(l / tau * sp.exp(l / tau) * phi),
            sigma**2 / tau**2 * sp.exp(sigma**2 / (2 * tau**2)),
            "Eq. 3 for l/tau ~ N(0, sigma^2/tau^2) (used implicitly in A.3)",
            source="A.3",
            domain={sigma: (0.3, 3.0), tau: (0.4, 1.5)},
        ),
    ]


def lln_step(points: int) -> Step:
    """Eq. 1 in log form: E[log D] ~ log L + sigma^2/(2 tau^2), truth by quadrature."""
    return Step(
        "Eq. 1: law of large numbers for the denominator",
        sp.Symbol(r"\mathbb{E}\log\sum_{i=1}^{L} e^{l_i/\tau}"),
        sp.log(L) + sigma**2 / (2 * tau**2),
        "sum of L i.i.d. log-normals ~ L times the mean",
        exact=False,
        points=_pts(points),
        source="Eq. 1",
        lhs_value=lambda p: mp.mpf(
            expected_log_partition(float(p["L"]), float(p["sigma"] / p["tau"]))
        ),
        regime="L >> exp(sigma^2/tau^2); wrong beyond sigma/tau = sqrt(2 ln L)",
    )


def prop1_derivation(fast: bool = False) -> Derivation:
    """App. A.2 of the attention-alignment paper, step by step."""
    pts = FAST_POINTS if fast else LLN_POINTS
    p_tr = sp.exp(lmax_tr) / (L_tr * sp.exp(s_tr**2 / 2))
    K = P * L_tr * sp.exp(s_tr**2 / 2)
    p_ex = K ** (1 / tau) / (L_ex * sp.exp(s_ex**2 / (2 * tau**2)))
    Ae, Be, Ce = sp.log(L_ex) + sp.log(P), sp.log(L_tr) + sp.log(P) + s_tr**2 / 2, s_ex**2 / 2
    root_plus = (B + sp.sqrt(B**2 - 4 * A * C)) / (2 * A)
    steps = [
        Step(
            "Assumption 1: averaged logits l_i ~ N(0, sigma^2)",
            None,
            None,
            "QQ plots (Fig. 2/5); tested on real models by the capture area",
            kind="assumption",
            source="Assumption 1",
        ),
        Step(
            "Assumption 2: l_max^ex = l_max^tr",
            lmax_ex,
            lmax_tr,
            "Table 7",
            kind="assumption",
            source="Assumption 2",
        ),
        Step(
            "Softmax is shift-invariant (zero-mean logits w.l.o.g.)",
            sp.exp((x1 + c) / tau) / sum(sp.exp((xi + c) / tau) for xi in (x1, x2, x3)),
            sp.exp(x1 / tau) / sum(sp.exp(xi / tau) for xi in (x1, x2, x3)),
            "common factor exp(c/tau)",
            domain={x1: (-3, 3), x2: (-3, 3), x3: (-3, 3), c: (-5, 5), tau: (0.3, 2)},
            source="A.2",
        ),
        moment_steps()[0],
        lln_step(pts),
        Step(
            "P_max approximation with l_max = E[max] (exact i.i.d. E[P_max])",
            sp.Symbol(r"\mathbb{E}P_{max}"),
            sp.exp(sigma * m_L / tau) / (L * sp.exp(sigma**2 / (2 * tau**2))),
            "Eq. 1 in P_max = exp(l_max/tau)/D; m_L = E[max of L std normals]; truth "
            "E[P_max] by 2-D quadrature",
            exact=False,
            source="A.2",
            points=[
                {L: Lv, sigma: sv, tau: 1.0, m_L: expected_max_std_normal(Lv)}
                for Lv, sv in pts
                if Lv <= 15000
            ],
            lhs_value=lambda p: mp.mpf(expected_pmax(float(p["L"]), float(p["sigma"] / p["tau"]))),
            regime="as Eq. 1",
        ),
        Step(
            "Eq. 2: l_max^tr from P_max^tr",
            sp.log(p_tr * L_tr * sp.exp(s_tr**2 / 2)),
            lmax_tr,
            "take logs of the tau=1 case",
            source="Eq. 2",
            domain={lmax_tr: (1, 10), L_tr: (100, 2000), s_tr: (0.3, 3)},
        ),
        Step(
            "Assumption 1-2 vs i.i.d. Gaussians: l_max grows with L",
            sp.Symbol(r"\sigma\,\mathbb{E}\max_{i\le L_{ex}} Z_i"),
            sigma * m_L,
            "Assumption 2 would need E[max] independent of L; here m_L = E[max] at L_tr",
            exact=False,
            source="Assumption 2",
            points=[
                {sigma: 1.0, m_L: expected_max_std_normal(512), L_ex: Le}
                for Le in (2048, 15000, 10**6)
            ],
            lhs_value=lambda p: mp.mpf(expected_max_std_normal(int(p["L_ex"]))),
            regime="only if sigma_ex shrinks as 1/E[max] grows",
        ),
        Step(
            "A.2: substitute Eq. 2 into P_max^ex (after Assumption 2)",
            sp.exp(sp.log(K) / tau) / (L_ex * sp.exp(s_ex**2 / (2 * tau**2))),
            p_ex,
            "exp(log(K)/tau) = K^(1/tau)",
            source="A.2",
            domain={
                P: (0.05, 0.9),
                L_tr: (100, 2000),
                L_ex: (2000, 20000),
                s_tr: (0.3, 3),
                s_ex: (0.3, 3),
                tau: (0.3, 1),
            },
        ),
        Step(
            "Align P_ex = P: log form equals (B - tau(A + C/tau^2))/tau",
            sp.log(p_ex) - sp.log(P),
            (Be - tau * (Ae + Ce / tau**2)) / tau,
            "log of both sides; zero iff tau = B/(A + C/tau^2)",
            source="Prop. 1",
            domain={
                P: (0.05, 0.9),
                L_tr: (100, 2000),
                L_ex: (2000, 20000),
                s_tr: (0.3, 3),
                s_ex: (0.3, 3),
                tau: (0.3, 1),
            },
        ),
        Step(
            "Prop. 1: B/(A + C/tau^2) = B tau^2/(A tau^2 + C)",
            B / (A + C / tau**2),
            B * tau**2 / (A * tau**2 + C),
            "multiply by tau^2/tau^2",
            source="Prop. 1",
            domain={A: (1, 10), B: (1, 10), C: (0.1, 5), tau: (0.2, 1)},
        ),
        Step(
            "tau(A tau^2 + C) - B tau^2 = tau (A tau^2 - B tau + C)",
            tau * (A * tau**2 + C) - B * tau**2,
            tau * (A * tau**2 - B * tau + C),
            "so for tau != 0 the fixed point is the quadratic",
            source="Prop. 1",
            domain={A: (1, 10), B: (1, 10), C: (0.1, 5), tau: (0.2, 1)},
        ),
        Step(
            "larger root solves the quadratic",
            A * root_plus**2 - B * root_plus + C,
            sp.Integer(0),
            "quadratic formula",
            source="Prop. 1",
            error="absolute",
            domain={A: (5, 10), B: (6, 10), C: (0.1, 0.8)},
        ),
        Step(
            "'pick the larger root' gives tau = 1 when L_ex = L_tr, sigma_ex = sigma_tr",
            root_plus.subs({B: A + C}),
            sp.Integer(1),
            "roots are 1 and C/A; the larger is 1 only if C < A, i.e. sigma^2/2 < log(L P) "
            "(equivalently l_max > sigma^2); counterexample at C > A",
            source="Prop. 1",
            points=[
                {A: math.log(512 * 0.28), C: 0.5},
                {A: math.log(512 * 0.28), C: 3.645},
                {A: math.log(512 * 0.28), C: 6.125},
            ],
        ),
    ]
    return Derivation(
        "Prop. 1: maximum-probability alignment (App. A.2)",
        f"{PAPER}, Sec. 6.2 and App. A.2",
        steps,
    )


def _entropy_points(pts):
    return [{L: Lv, sigma: sv, tau: 1.0} for Lv, sv in pts]


def prop2_derivation(fast: bool = False) -> Derivation:
    """App. A.3 of the attention-alignment paper, step by step."""
    pts = FAST_POINTS if fast else LLN_POINTS
    xs = (x1, x2, x3)
    D = sum(sp.exp(xi) for xi in xs)
    H_def = -sum(sp.exp(xi) / D * sp.log(sp.exp(xi) / D) for xi in xs)
    tau2 = s_ex / sp.sqrt(s_tr**2 + 2 * sp.log(L_ex / L_tr))
    align_pts = [(512, 2048, 1.0, 1.0)] if fast else [(512, 2048, 1.0, 1.0), (512, 15000, 2.7, 2.7)]
    steps = [
        Step(
            "Assumption 1: averaged logits l_i ~ N(0, sigma^2)",
            None,
            None,
            "QQ plots (Fig. 2/5)",
            kind="assumption",
            source="Assumption 1",
        ),
        Step(
            "Entropy of a softmax = log D - sum_i x_i e^{x_i}/D (x_i = l_i/tau)",
            H_def,
            sp.log(D) - sum(xi * sp.exp(xi) for xi in xs) / D,
            "log(e^x/D) = x - log D",
            domain={x1: (-3, 3), x2: (-3, 3), x3: (-3, 3)},
            source="A.3",
        ),
        *moment_steps(),
        lln_step(pts),
        Step(
            "ratio of sums: sum x e^x / D ~ E[x e^x]/E[e^x] = sigma^2/tau^2",
            sp.Symbol(r"\mathbb{E}[S/D]"),
            sigma**2 / tau**2,
            "Eq. 1 and Eq. 3 (both sums by the law of large numbers)",
            exact=False,
            points=_entropy_points(pts),
            source="A.3",
            error="absolute",
            lhs_value=lambda p: mp.mpf(
                laplace_integrals(float(p["L"]), float(p["sigma"] / p["tau"]))[1]
            ),
            regime="as Eq. 1",
        ),
        Step(
            "combine Eq. 1 and Eq. 3",
            sp.log(L)
            + sigma**2 / (2 * tau**2)
            - L
            * sp.exp(sigma**2 / (2 * tau**2))
            * sigma**2
            / tau**2
            / (L * sp.exp(sigma**2 / (2 * tau**2))),
            sp.log(L) - sigma**2 / (2 * tau**2),
            "cancel L e^{sigma^2/(2 tau^2)}",
            domain={L: (10, 1e5), sigma: (0.3, 3), tau: (0.3, 1.5)},
            source="A.3",
        ),
        Step(
            "entropy approximation H ~ log L - sigma^2/(2 tau^2)",
            sp.Symbol(r"\mathbb{E}H"),
            sp.log(L) - sigma**2 / (2 * tau**2),
            "exact E[H] by quadrature (Laplace transform)",
            exact=False,
            error="absolute",
            points=_entropy_points(pts),
            source="A.3",
            lhs_value=lambda p: mp.mpf(
                expected_entropy(float(p["L"]), float(p["sigma"] / p["tau"]))
            ),
            regime="sigma/tau << sqrt(2 ln L); negative (impossible) beyond",
        ),
        Step(
            "Prop. 2 solves log L_ex - sigma_ex^2/(2 tau^2) = log L_tr - sigma_tr^2/2",
            sp.log(L_ex) - s_ex**2 / (2 * tau2**2),
            sp.log(L_tr) - s_tr**2 / 2,
            "substitute tau of Prop. 2",
            source="Prop. 2",
            domain={L_tr: (100, 2000), L_ex: (2000, 1e5), s_tr: (0.3, 3), s_ex: (0.3, 3)},
        ),
        Step(
            "Prop. 2 vs the exact entropy-aligning tau (i.i.d. Gaussians)",
            sp.Symbol(r"\tau^{*}"),
            tau2,
            "E[H](L_ex, sigma_ex/tau*) = E[H](L_tr, sigma_tr)",
            exact=False,
            source="Prop. 2",
            points=[{L_tr: a, L_ex: b, s_tr: st, s_ex: se} for a, b, st, se in align_pts],
            lhs_value=lambda p: mp.mpf(
                entropy_alignment_tau_exact(
                    float(p["L_tr"]), float(p["L_ex"]), float(p["sigma_tr"]), float(p["sigma_ex"])
                )
            ),
            regime="as Eq. 1 at both lengths",
        ),
    ]
    return Derivation(
        "Prop. 2: entropy alignment (App. A.3)", f"{PAPER}, Sec. 6.3 and App. A.3", steps
    )


DERIVATIONS = {"prop1": prop1_derivation, "prop2": prop2_derivation}
