"""Held-out set 13: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath (``heldout13_reference``):
polylogarithms on the unit circle (Clausen functions, checked against Jonquiere's formula
with the Hurwitz zeta function) after the Jacobi-Anger expansion e^(x cos y) = sum_k I_k(x)
e^(i k y), Hurwitz zeta block sums, exact Beatty signs (integer square roots, pi and e to
200 bits) with long float64 sums and proved majorant tails, Euler-Maclaurin with integrals
in u = log x computed two ways.

Families not in sets 5-12, and not among the formulas of the project's own tests and docs
(each formula grepped there first):

1. terms of both signs under a summable majorant: (-1)^n, (-1)^floor(n/3), Beatty signs
   (-1)^floor(c n) with c = sqrt(7), sqrt(3), sqrt(2), pi, e, signs in blocks
   (-1)^floor(sqrt(n)), times exp(cos(n)), exp(sin(n)), 2 + sin(n), log(n); TRF by the tail
   rule with a proved bound on every later tail;
2. Beatty signs that converge only conditionally (verdict only; quadratic slopes by bounded
   partial quotients, pi and e by their irrationality measures);
3. quotients whose dominant part is 1/(n log(n)^q), q > 1 (TRFs beyond 10^12: log10);
4. rare and near angles (exp(-n cos(n)^2)/n, (1 - sin(n)^2/2)^(n^2), ...);
5. divergent series that need an argument (block signs, positive means, Beatty density);
6. free-parameter families whose region is proved on the whole line, and named RPEs at new
   parameters / starts.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``).
"""

from __future__ import annotations

import math

import mpmath as mp
import numpy as np

try:
    from . import heldout13_reference as R
    from .heldout7_cases import Case, cached, eps_args
    from .heldout9_cases import geo_trf
except ImportError:  # run as a script from this folder
    import heldout13_reference as R
    from heldout7_cases import Case, cached, eps_args
    from heldout9_cases import geo_trf

E3 = (0.1, 0.01, 0.001)
E2 = (0.1, 0.01)
TINY = mp.mpf(10) ** -35


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


# ---------------------------------------------------------------------------------------
# 1a. Trigonometric factors with a sign: B from polylogarithms, TRF by the tail rule with
#     the Abel bound |R_k| <= g(start + k) sum_j |c_j|/|sin(theta_j/2)|
# ---------------------------------------------------------------------------------------
class Fourier:
    """b_n = term(n) for n >= first (n the summation index of the formula); ``trig`` the
    coefficients in m = n + shift (m >= 1, g(m) = m^-s or log(m) m^-s) so that b_n =
    Re sum c e^(i theta m) g(m)."""

    def __init__(self, term, trig, s, eps, first=1, shift=0, log_factor=False):
        self.term, self.trig, self.s, self.eps = term, trig, mp.mpf(s), eps
        self.first, self.shift, self.log_factor = first, shift, log_factor

    def g(self, m):
        return (mp.log(m) if self.log_factor else 1) / m**self.s

    def B(self):
        if not hasattr(self, "_B"):
            self._B = (R.fourier_B(self.trig(), self.s, log_factor=self.log_factor), TINY)
        return self._B

    def trf(self):
        B, rerr = self.B()
        bound = R.fourier_bound(self.trig(), self.g)
        # the tail after k terms starts at n = first + k, i.e. m = first + shift + k (>= 2
        # where g carries log(m): log(m)/m^s decreases from m = 2 on for s >= 1)
        m0 = self.first + self.shift
        thr = min(abs(B) * R.eps_mp(e) for e in self.eps)
        K = 16
        while bound(m0 + K) >= thr / 2:
            K *= 2
        terms = [self.term(mp.mpf(self.first + k)) for k in range(K)]
        # consistency of the Fourier form with the formula itself
        assert abs(B - mp.fsum(terms)) <= bound(m0 + K), "coefficients disagree with the terms"
        return R.trf_signed_checked(terms, B, rerr, self.eps, lambda k: bound(m0 + k))


def fourier_case(id_, formula, note, F, extra=(), start=None):
    add(
        id_,
        ["--rpe", formula, *extra, *eps_args(F.eps)],
        True,
        note,
        cached(F.B),
        cached(F.trf),
        start=start,
        others=True,
    )


_F1 = Fourier(
    lambda n: (-1) ** int(n) * mp.exp(mp.cos(2 * n)) / n**2,
    lambda: R.alt() * R.exp_cos(q=2),
    2,
    E3,
)
fourier_case(
    "sgn/alt-exp-cos-2n-over-square",
    "(-1)**n*exp(cos(2*n))/n**2",
    "|b| <= e/n^2: converges absolutely. e^(cos 2n) = sum_k I_|k|(1) e^(2ikn), (-1)^n = "
    "e^(i pi n): B = Re sum_k I_|k|(1) Li_2(e^(i(2k + pi))) (Clausen / Jonquiere). Signed: "
    "tail rule, |R_k| <= (k+1)^-2 sum |c|/|cos k|.",
    _F1,
)
_F2 = Fourier(
    lambda n: (-1) ** int(n) * mp.exp(mp.cos(n)) / n ** (mp.mpf(3) / 2),
    lambda: R.alt() * R.exp_cos(),
    mp.mpf(3) / 2,
    E3,
)
fourier_case(
    "sgn/alt-exp-cos-over-n-three-halves",
    "(-1)**n*exp(cos(n))/n**(3/2)",
    "|b| <= e n^(-3/2): converges absolutely. B = Re sum_k I_|k|(1) Li_(3/2)(e^(i(k + pi))); "
    "|R_k| <= (k+1)^(-3/2) sum_k I_|k|(1)/|cos(k/2)| (Abel).",
    _F2,
)
_F3 = Fourier(
    lambda n: (-1) ** int(n) * (2 + mp.sin(n)) / n**3,
    lambda: R.alt() * (R.const(2) + R.sin_n()),
    3,
    E3,
)
fourier_case(
    "sgn/alt-two-plus-sin-over-cube",
    "(-1)**n*(2 + sin(n))/n**3",
    "|b| <= 3/n^3. (-1)^n sin n = sin((1 + pi) n): B = -2 eta(3) + Cl_sin(3, 1 + pi) "
    "(= 2 Li_3(-1) + Im Li_3(e^(i(1 + pi)))); signed, tail rule with the Abel bound.",
    _F3,
)
_F4 = Fourier(
    lambda n: mp.sin(n) * mp.exp(mp.cos(n)) / n**3,
    lambda: R.sin_n() * R.exp_cos(),
    3,
    E3,
)
fourier_case(
    "sgn/sin-exp-cos-over-cube",
    "sin(n)*exp(cos(n))/n**3",
    "|b| <= e/n^3. sin(y) e^(cos y) = 2 sum_k k I_k(1) sin(k y) (the derivative of the "
    "Jacobi-Anger series; here formed as the product of the two series): B = Re sum c "
    "Li_3(e^(i theta)); signed (sin 1 > 0, sin 4 < 0), tail rule.",
    _F4,
)
_SIGN3 = lambda: R.periodic_sign([1, 1, 1, -1, -1, -1])  # noqa: E731
_F5 = Fourier(
    lambda n: (-1) ** (int(n) // 3) * mp.exp(mp.cos(n)) / n**2,
    lambda: _SIGN3() * R.exp_cos(),
    2,
    E3,
)
fourier_case(
    "sgn/floor-third-sign-exp-cos-over-square",
    "(-1)**floor(n/3)*exp(cos(n))/n**2",
    "|b| <= e/n^2. The sign has period 6 (n = 0, 1, 2 mod 6: +1; 3, 4, 5: -1), its discrete "
    "Fourier sum has frequencies pi r/3, mean 0: B = Re sum_(r, k) a_r I_|k|(1) Li_2(e^(i(k + "
    "pi r/3))); no frequency k + pi r/3 lies in 2 pi Z except k = r = 0 (a_0 = 0).",
    _F5,
)
_F6 = Fourier(
    lambda n: (-1) ** int(n) * mp.exp(mp.sin(n)) / n ** (mp.mpf(5) / 2),
    lambda: R.alt() * R.exp_cos(phase=mp.pi / 2),
    mp.mpf(5) / 2,
    E3,
)
fourier_case(
    "sgn/alt-exp-sin-over-n-five-halves",
    "(-1)**n*exp(sin(n))/n**(5/2)",
    "|b| <= e n^(-5/2). e^(sin y) = e^(cos(y - pi/2)) = sum_k I_|k|(1) e^(-i k pi/2) e^(i k y): "
    "B = Re sum c Li_(5/2)(e^(i(k + pi))) (Jonquiere at s = 5/2); tail rule.",
    _F6,
)
_F7 = Fourier(
    lambda n: (-1) ** int(n) * mp.exp(mp.cos(n)) / (n + 1) ** 2,
    lambda: (R.alt() * R.exp_cos()).shifted(1),
    2,
    E3,
    first=0,
    shift=1,
)
fourier_case(
    "sgn/alt-exp-cos-shifted-start-0",
    "(-1)**n*exp(cos(n))/(n + 1)**2",
    "from n = 0 (b_0 = e): m = n + 1, b = (-1)^(m-1) e^(cos(m-1))/m^2, each coefficient times "
    "e^(-i theta): B = Re sum c e^(-i theta) Li_2(e^(i theta)), theta = k + pi; tail rule.",
    _F7,
    extra=("--start", "0"),
    start=0,
)
_F8 = Fourier(
    lambda n: (-1) ** int(n) * mp.log(n) * mp.exp(mp.cos(n)) / n**2,
    lambda: R.alt() * R.exp_cos(kmax=26),
    2,
    E3,
    log_factor=True,
)
fourier_case(
    "sgn/alt-log-exp-cos-over-square",
    "(-1)**n*log(n)*exp(cos(n))/n**2",
    "|b| <= e log(n)/n^2 (b_1 = 0). sum log(n) e^(i theta n)/n^s = -d/ds Li_s(e^(i theta)) "
    "(central differences of the Clausen and of the Jonquiere forms, h = 1e-12 at 90 digits; "
    "|k| <= 26: I_27(1) < 1e-36). log(n)/n^2 decreases from n = 2: Abel bound, tail rule.",
    _F8,
)


class FourierPositive(Fourier):
    def trf(self):
        B, rerr = self.B()
        K = int(4 / (min(self.eps) * B) * mp.besseli(0, mp.sqrt(2))) + 10
        terms = [self.term(mp.mpf(n)) for n in range(1, K + 1)]
        return R.trf_positive_checked(terms, B, rerr, self.eps)


_F9 = FourierPositive(
    lambda n: mp.exp(mp.cos(n) + mp.sin(n)) / n**2,
    lambda: R.exp_cos(x=mp.sqrt(2), phase=mp.pi / 4),
    2,
    E3,
)
add(
    "pos/exp-cos-plus-sin-over-square",
    ["--rpe", "exp(cos(n) + sin(n))/n**2", *eps_args(E3)],
    True,
    "0 < b <= e^(sqrt 2)/n^2 (cos + sin = sqrt(2) cos(y - pi/4)). B = I_0(sqrt 2) zeta(2) + Re "
    "sum_(k != 0) I_|k|(sqrt 2) e^(-i k pi/4) Li_2(e^(i k)); terms > 0: Eq. 22 from the "
    "partial sums (R_j ~ I_0(sqrt 2)/j, the terms up to 4 I_0/(eps B)).",
    cached(_F9.B),
    cached(_F9.trf),
)


# ---------------------------------------------------------------------------------------
# 1b. Beatty signs and signs in blocks: long exact-sign sums with majorant tails
# ---------------------------------------------------------------------------------------
class Beatty:
    """b_n = sign(n) h(n), |b_n| <= maj(n); ``tail(N)`` >= sum_(n >= N) maj(n) (proved in
    the note).  B = the float64 sum to N plus tail/2, error tail/2 + 1e-14; TRF by the tail
    rule over partial sums in mpmath (exact signs), |R_k| <= tail(first + k)."""

    def __init__(self, kind, h_mp, h_np, tail, N, eps, first=1):
        self.kind, self.h_mp, self.h_np, self.tail = kind, h_mp, h_np, tail
        self.N, self.eps, self.first = N, eps, first

    def B(self):
        if not hasattr(self, "_B"):
            self._B = self._sum()
        return self._B

    def _sum(self):
        with mp.workdps(30):
            head = mp.fsum(
                R.sign_exact(self.kind, n) * self.h_mp(mp.mpf(n)) for n in range(self.first, 2000)
            )
        rest = R.long_float_sum(self.kind, self.h_np, 2000, self.N)
        U = self.tail(self.N)
        return mp.mpf(head) + mp.mpf(rest) + U / 2, U / 2 + mp.mpf(10) ** -14

    def trf(self):
        B, rerr = self.B()
        thr = min(abs(B) * R.eps_mp(e) for e in self.eps)
        K = 16
        while self.tail(self.first + K) >= thr / 2:
            K *= 2
        terms = [
            R.sign_exact(self.kind, self.first + k) * self.h_mp(mp.mpf(self.first + k))
            for k in range(K)
        ]
        return R.trf_signed_checked(terms, B, rerr, self.eps, lambda k: self.tail(self.first + k))


def beatty_case(id_, formula, note, Bt, extra=(), start=None):
    add(
        id_,
        ["--rpe", formula, *extra, *eps_args(Bt.eps)],
        True,
        note,
        cached(Bt.B),
        cached(Bt.trf),
        start=start,
        others=True,
    )


_B10 = Beatty(
    ("sqrt", 7),
    lambda n: 1 / n**2,
    lambda x: 1 / x**2,
    lambda N: 1 / mp.mpf(N - 1),
    10**8,
    E3,
)
beatty_case(
    "beatty/sqrt7-over-square",
    "(-1)**floor(sqrt(7)*n)/n**2",
    "|b| = 1/n^2. floor(sqrt(7) n) = isqrt(7 n^2) exactly; B = the sum to 10^8 plus half of "
    "sum_(n >= N) n^-2 < 1/(N - 1) (error 1e-8); |R_k| < 1/k for the tail rule.",
    _B10,
)
_B11 = Beatty(
    ("sqrt", 3),
    lambda n: mp.log(n) / n**3,
    lambda x: np.log(x) / x**3,
    lambda N: (2 * mp.log(N - 1) + 1) / (4 * mp.mpf(N - 1) ** 2),
    10**6,
    E3,
)
beatty_case(
    "beatty/sqrt3-log-over-cube",
    "(-1)**floor(sqrt(3)*n)*log(n)/n**3",
    "|b| = log(n)/n^3 (b_1 = 0), decreasing from n = 2: sum_(n >= N) <= int_(N-1)^oo log(x)/x^3 "
    "= (2 log(N-1) + 1)/(4 (N-1)^2). Signs isqrt(3 n^2); sum to 10^6 (error 4e-12).",
    _B11,
)
_B12 = Beatty(
    ("pi",),
    lambda n: n ** (-mp.mpf(5) / 2),
    lambda x: x**-2.5,
    lambda N: 2 / (3 * mp.mpf(N - 1) ** (mp.mpf(3) / 2)),
    10**7,
    E3,
)
beatty_case(
    "beatty/pi-over-n-five-halves",
    "(-1)**floor(pi*n)/n**(5/2)",
    "|b| = n^(-5/2): converges absolutely whatever the slope. floor(pi n) from pi to 200 bits "
    "(exact for n < 10^9); sum to 10^7, tail <= (2/3) (N-1)^(-3/2) (error 1e-11).",
    _B12,
)
_B13 = Beatty(
    ("E",),
    lambda n: (2 + mp.sin(n)) / n**3,
    lambda x: (2 + np.sin(x)) / x**3,
    lambda N: 3 / (2 * mp.mpf(N - 1) ** 2),
    10**6,
    E3,
)
beatty_case(
    "beatty/e-two-plus-sin-over-cube",
    "(-1)**floor(E*n)*(2 + sin(n))/n**3",
    "|b| <= 3/n^3. floor(e n) from e to 200 bits; sum to 10^6, tail <= 3/(2 (N-1)^2).",
    _B13,
)
_B14 = Beatty(
    ("root",),
    lambda n: mp.exp(mp.cos(n)) / n ** (mp.mpf(5) / 2),
    lambda x: np.exp(np.cos(x)) / x**2.5,
    lambda N: 2 * mp.e / (3 * mp.mpf(N - 1) ** (mp.mpf(3) / 2)),
    10**7,
    E3,
)
beatty_case(
    "blocks/floor-sqrt-exp-cos-over-n-five-halves",
    "(-1)**floor(sqrt(n))*exp(cos(n))/n**(5/2)",
    "|b| <= e n^(-5/2). Signs isqrt(n); sum to 10^7, tail <= (2e/3) (N-1)^(-3/2).",
    _B14,
)
_B16 = Beatty(
    ("sqrt", 2),
    lambda n: mp.exp(mp.cos(n)) / n**3,
    lambda x: np.exp(np.cos(x)) / x**3,
    lambda N: mp.e / (2 * mp.mpf(N - 1) ** 2),
    10**6,
    E3,
)
beatty_case(
    "beatty/sqrt2-exp-cos-over-cube",
    "(-1)**floor(sqrt(2)*n)*exp(cos(n))/n**3",
    "|b| <= e/n^3. Signs isqrt(2 n^2); sum to 10^6, tail <= e/(2 (N-1)^2).",
    _B16,
)


# (-1)^floor(sqrt(n))/n^(3/2): block j = [j^2, (j+1)^2) has the sign (-1)^j and the sum
# T_j = zeta(3/2, j^2) - zeta(3/2, (j+1)^2).  T decreases: by Euler-Maclaurin T_j = M_j + E_j,
# M_j = 2/(j (j+1)) + (j^-3 - (j+1)^-3)/2, |E_j| <= |f'(j^2)|/12 = j^-5/8, and M_j - M_(j+1)
# >= 4/(j (j+1) (j+2)) > j^-5/4 >= |E_j| + |E_(j+1)|.  A tail from inside block k is a part
# of T_k plus an alternating series of decreasing terms: |R| <= T_k + T_(k+1) <= 2 U(k),
# U(k) = M_k + k^-5/8 (decreasing in k).
def _T15(j):
    j = mp.mpf(j)
    return mp.zeta(mp.mpf(3) / 2, j * j) - mp.zeta(mp.mpf(3) / 2, (j + 1) ** 2)


def _U15(k):
    k = mp.mpf(k)
    return 2 / (k * (k + 1)) + (k**-3 - (k + 1) ** -3) / 2 + k**-5 / 8


def _B15_compute():
    P = lambda i: _T15(2 * i) - _T15(2 * i - 1)  # noqa: E731  (blocks paired: smooth in i)
    A = lambda j: (-1) ** int(j) * _T15(j)  # noqa: E731  (the alternating block series)
    v, err = R.two_ways(lambda: mp.nsum(P, [1, mp.inf]), lambda: mp.nsum(A, [1, mp.inf]))
    # and inside the Leibniz bracket [S_201, S_200] of the block sums
    s = mp.fsum((-1) ** j * _T15(j) for j in range(1, 201))
    assert s - _T15(201) - err <= v <= s + err
    return v, err


_B15 = cached(_B15_compute)


def _trf15():
    B, rerr = _B15()
    thr = min(abs(B) * R.eps_mp(e) for e in E3)
    K = 16
    while 2 * _U15(mp.sqrt(K + 1) - 1) >= thr / 2:
        K *= 2
    terms = [(-1) ** math.isqrt(n) / mp.mpf(n) ** (mp.mpf(3) / 2) for n in range(1, K + 1)]
    # the tail after k terms starts at n = k + 1, inside block isqrt(k + 1) >= sqrt(k+1) - 1
    return R.trf_signed_checked(terms, B, rerr, E3, lambda k: 2 * _U15(mp.sqrt(k + 1) - 1))


add(
    "blocks/floor-sqrt-over-n-three-halves",
    ["--rpe", "(-1)**floor(sqrt(n))/n**(3/2)", *eps_args(E3)],
    True,
    "|b| = n^(-3/2). Block j = [j^2, (j+1)^2), sign (-1)^j, sum T_j = zeta(3/2, j^2) - "
    "zeta(3/2, (j+1)^2) (Hurwitz), decreasing (Euler-Maclaurin, proof beside the code): B = "
    "sum (-1)^j T_j (paired blocks and the alternating series summed apart agree; inside the Leibniz bracket); "
    "|R| <= T_k + T_(k+1) inside block k (tail rule).",
    _B15,
    cached(_trf15),
    others=True,
)

# ---------------------------------------------------------------------------------------
# 2. Beatty signs, convergent only conditionally: verdicts (B is not asked)
# ---------------------------------------------------------------------------------------
_ABEL = (
    "Abel summation: sum s_n g(n) converges when g decreases to 0, S(N) g(N) -> 0 and "
    "sum |S(n)| (g(n) - g(n+1)) < oo, S(N) = sum_(n<=N) s_n = 2 #{n <= N: {n a/2} < 1/2} - N, "
    "|S(N)| <= 2 N D_N(a/2) (D_N the discrepancy of n a/2 mod 1)."
)
add(
    "cond/sqrt5-over-sqrt",
    ["--rpe", "(-1)**floor(sqrt(5)*n)/sqrt(n)"],
    True,
    "sqrt(5)/2 is a quadratic irrational: bounded partial quotients, N D_N = O(log N) "
    "(Kuipers-Niederreiter II.3.4). g = n^(-1/2): sum log(n) n^(-3/2) < oo. " + _ABEL,
    others=True,
)
add(
    "cond/golden-over-cube-root",
    ["--rpe", "(-1)**floor((1 + sqrt(5))*n/2)/n**(1/3)"],
    True,
    "slope the golden ratio, (1 + sqrt 5)/4 quadratic: S(N) = O(log N); g = n^(-1/3): "
    "sum log(n) n^(-4/3) < oo. " + _ABEL,
    others=True,
)
add(
    "cond/sqrt2-log-over-n",
    ["--rpe", "(-1)**floor(sqrt(2)*n)*log(n)/n"],
    True,
    "g = log(n)/n decreases from n = 3 to 0, g(n) - g(n+1) = O(log(n)/n^2), S(N) = O(log N): "
    "sum log(n)^2/n^2 < oo: converges (not absolutely: sum log(n)/n diverges). " + _ABEL,
    others=True,
)
add(
    "cond/sqrt3-shifted-over-sqrt",
    ["--rpe", "(-1)**floor(sqrt(3)*n + 1/2)/sqrt(n)"],
    True,
    "floor(2x) is even iff {x} < 1/2, x = n sqrt(3)/2 + 1/4: s_n = +1 iff {n sqrt(3)/2} lies "
    "in [0, 1/4) u [3/4, 1) (measure 1/2): |S(N)| <= 4 N D_N = O(log N) (bounded partial "
    "quotients); g = n^(-1/2). " + _ABEL,
    others=True,
)
add(
    "cond/pi-over-n-nine-tenths",
    ["--rpe", "(-1)**floor(pi*n)/n**(9/10)"],
    True,
    "pi/2 has irrationality measure mu(pi) <= 7.1033 (Zeilberger-Zudilin 2020), type eta = mu "
    "- 1 < 6.104: D_N = O(N^(-1/eta + d)) for every d > 0 (Kuipers-Niederreiter II.3.2), so "
    "S(N) = O(N^0.8362), S(N) N^-0.9 -> 0 and sum N^0.8362 N^-1.9 < oo. " + _ABEL,
    others=True,
)
add(
    "cond/e-over-sqrt",
    ["--rpe", "(-1)**floor(E*n)/sqrt(n)"],
    True,
    "e (and e/2) has irrationality measure 2 (its continued fraction [2; 1, 2, 1, 1, 4, 1, "
    "...] has a_k = O(k)), type 1: D_N = O(N^(-1 + d)), S(N) = O(N^d); g = n^(-1/2): sum N^d "
    "N^(-3/2) < oo. " + _ABEL,
    others=True,
)


def _ab(I):
    """The two ways of an integral I(U) = (a, b) as two functions of U: b (closed form plus an
    exponentially small correction, or a series) in the bisections, a to check it."""
    return (lambda U: I(U)[1]()), (lambda U: I(U)[0]())


# ---------------------------------------------------------------------------------------
# 3. Quotients with dominant part 1/(n log(n)^q): Euler-Maclaurin, integrals in u = log x
# ---------------------------------------------------------------------------------------
def _I23(U):  # int_U^oo (u^2 + 1)/(u^4 + e^-u) du
    U = mp.mpf(U)
    a = lambda: mp.quad(lambda v: (1 + v**2) / (1 + v**4 * mp.exp(-1 / v)), [0, 1 / U])  # noqa
    b = lambda: (  # noqa: E731
        1 / U
        + 1 / (3 * U**3)
        - mp.quad(lambda u: (u**2 + 1) * mp.exp(-u) / (u**4 * (u**4 + mp.exp(-u))), [U, mp.inf])
    )
    return a, b


_S23 = R.SlowTail(lambda x: (mp.log(x) ** 2 + 1) / (x * mp.log(x) ** 4 + 1), 2, *_ab(_I23))
add(
    "quot/log2-plus-1-over-n-log4-plus-1-start-2",
    ["--rpe", "(log(n)**2 + 1)/(n*log(n)**4 + 1)", "--start", "2", *eps_args(E3)],
    True,
    "b ~ 1/(n log(n)^2) (b - a = 2 > 1): converges. x = e^u: int_M^oo b = int_(log M)^oo (u^2 "
    "+ 1)/(u^4 + e^-u) du (two ways: in v = 1/u, and 1/U + 1/(3U^3) minus an exponentially "
    "small integral); B = head + Euler-Maclaurin (splits 4000, 8000); TRF(0.01), TRF(0.001) "
    "beyond 10^12 (log10 from the crossing in t = log M).",
    cached(_S23.B),
    cached(lambda: _S23.trf(E3)),
    start=2,
)


def _I24(U):  # int_U^oo (1 + 3 e^-u)/(u^2 + 2 e^-2u) du
    U = mp.mpf(U)
    a = lambda: mp.quad(  # noqa: E731
        lambda v: (1 + 3 * mp.exp(-1 / v)) / (1 + 2 * v**2 * mp.exp(-2 / v)), [0, 1 / U]
    )
    b = lambda: (
        1 / U
        + mp.quad(  # noqa: E731
            lambda u: (
                (3 * u**2 * mp.exp(-u) - 2 * mp.exp(-2 * u)) / (u**2 * (u**2 + 2 * mp.exp(-2 * u)))
            ),
            [U, mp.inf],
        )
    )
    return a, b


_S24 = R.SlowTail(lambda x: (x + 3) / (x**2 * mp.log(x) ** 2 + 2), 2, *_ab(_I24))
add(
    "quot/n-plus-3-over-n2-log2-plus-2-start-2",
    ["--rpe", "(n + 3)/(n**2*log(n)**2 + 2)", "--start", "2", *eps_args(E3)],
    True,
    "b ~ 1/(n log(n)^2): converges. int_M^oo b = int_(log M)^oo (1 + 3e^-u)/(u^2 + 2e^-2u) du "
    "(two ways); B head + Euler-Maclaurin; large TRFs as log10.",
    cached(_S24.B),
    cached(lambda: _S24.trf(E3)),
    start=2,
)


def _I25(U):  # int_U^oo (u^3 + 2)/(u^5 + 3 e^-u) du
    U = mp.mpf(U)
    a = lambda: mp.quad(  # noqa: E731
        lambda v: (1 + 2 * v**3) / (1 + 3 * v**5 * mp.exp(-1 / v)), [0, 1 / U]
    )
    b = lambda: (  # noqa: E731
        1 / U
        + 1 / (2 * U**4)
        - mp.quad(
            lambda u: 3 * (u**3 + 2) * mp.exp(-u) / (u**5 * (u**5 + 3 * mp.exp(-u))), [U, mp.inf]
        )
    )
    return a, b


_S25 = R.SlowTail(lambda x: (mp.log(x) ** 3 + 2) / (x * mp.log(x) ** 5 + 3), 3, *_ab(_I25))
add(
    "quot/log3-plus-2-over-n-log5-plus-3-start-3",
    ["--rpe", "(log(n)**3 + 2)/(n*log(n)**5 + 3)", "--start", "3", *eps_args(E3)],
    True,
    "b ~ 1/(n log(n)^2): converges. int_M^oo b = int (u^3 + 2)/(u^5 + 3 e^-u) du (two ways); "
    "B head + Euler-Maclaurin from n = 3; large TRFs as log10.",
    cached(_S25.B),
    cached(lambda: _S25.trf(E3)),
    start=3,
)


def _I26(U):  # int_U^oo (sqrt(u) + 1)/(u^2 + e^-u) du
    U = mp.mpf(U)
    a = lambda: mp.quad(  # noqa: E731  (v = 1/u = w^2)
        lambda w: 2 * (1 + w) / (1 + w**4 * mp.exp(-1 / w**2)), [0, 1 / mp.sqrt(U)]
    )
    b = lambda: (  # noqa: E731
        2 / mp.sqrt(U)
        + 1 / U
        - mp.quad(
            lambda u: (mp.sqrt(u) + 1) * mp.exp(-u) / (u**2 * (u**2 + mp.exp(-u))), [U, mp.inf]
        )
    )
    return a, b


_S26 = R.SlowTail(lambda x: (mp.sqrt(mp.log(x)) + 1) / (x * mp.log(x) ** 2 + 1), 2, *_ab(_I26))
add(
    "quot/sqrt-log-plus-1-over-n-log2-plus-1-start-2",
    ["--rpe", "(sqrt(log(n)) + 1)/(n*log(n)**2 + 1)", "--start", "2", *eps_args(E3)],
    True,
    "b ~ 1/(n log(n)^(3/2)): converges (Bertrand 3/2 > 1). int_M^oo b = int (sqrt(u) + 1)/(u^2 "
    "+ e^-u) du ~ 2/sqrt(log M) (two ways): every TRF beyond 10^12 (log10 up to ~10^5).",
    cached(_S26.B),
    cached(lambda: _S26.trf(E3)),
    start=2,
)


def _I27(U):  # int_U^oo du/(u^2 - log u)
    U = mp.mpf(U)
    a = lambda: mp.quad(lambda v: 1 / (1 + v**2 * mp.log(v)), [0, 1 / U])  # noqa: E731
    # 1/(u^2 - log u) = sum_k log(u)^k/u^(2k+2); w = log u:
    # int_U^oo log(u)^k u^(-2k-2) du = Gamma(k + 1, (2k + 1) log U)/(2k + 1)^(k + 1)
    b = lambda: mp.fsum(  # noqa: E731
        mp.gammainc(k + 1, (2 * k + 1) * mp.log(U)) / mp.mpf(2 * k + 1) ** (k + 1)
        for k in range(60)
    )
    return a, b


_S27 = R.SlowTail(lambda x: 1 / (x * mp.log(x) ** 2 - x * mp.log(mp.log(x))), 3, *_ab(_I27))
add(
    "quot/n-log2-minus-n-loglog-start-3",
    ["--rpe", "1/(n*log(n)**2 - n*log(log(n)))", "--start", "3", *eps_args(E3)],
    True,
    "u^2 - log u > 0 for every u > 0: b > 0, b ~ 1/(n log(n)^2): converges. int_M^oo b = "
    "int du/(u^2 - log u), two ways (v = 1/u; the series sum_k Gamma(k + 1, (2k+1) log U)/"
    "(2k+1)^(k+1)); B head + Euler-Maclaurin from 3.",
    cached(_S27.B),
    cached(lambda: _S27.trf(E3)),
    start=3,
)


def _I28(U):  # int_U^oo (2u + 3)/(u^3 + 1) du
    U = mp.mpf(U)
    a = lambda: mp.quad(lambda v: (2 + 3 * v) / (1 + v**3), [0, 1 / U])  # noqa: E731
    # partial fractions: (1/3)/(u + 1) + (-u/3 + 8/3)/(u^2 - u + 1)
    b = lambda: (
        mp.log((U**2 - U + 1) / (U + 1) ** 2) / 6
        + 5
        / mp.sqrt(3)
        * mp.atan(  # noqa
            mp.sqrt(3) / (2 * U - 1)
        )
    )
    return a, b


_S28 = R.SlowTail(lambda x: (2 * mp.log(x) + 3) / (x * mp.log(x) ** 3 + x), 2, *_ab(_I28))
add(
    "quot/2log-plus-3-over-n-log3-plus-n-start-2",
    ["--rpe", "(2*log(n) + 3)/(n*log(n)**3 + n)", "--start", "2", *eps_args(E3)],
    True,
    "b ~ 2/(n log(n)^2): converges. int_M^oo b = int_(log M)^oo (2u + 3)/(u^3 + 1) du = "
    "log((U^2 - U + 1)/(U + 1)^2)/6 + (5/sqrt 3) atan(sqrt(3)/(2U - 1)) (partial fractions; "
    "also by quadrature); B head + Euler-Maclaurin.",
    cached(_S28.B),
    cached(lambda: _S28.trf(E3)),
    start=2,
)
add(
    "quot/div-log2-plus-1-over-n-log3-plus-1-start-2",
    ["--rpe", "(log(n)**2 + 1)/(n*log(n)**3 + 1)", "--start", "2"],
    False,
    "b - a = 1: b ~ 1/(n log n) (b >= 1/(2 n log n) for large n), integral log log x -> oo: "
    "diverges.",
    start=2,
)
add(
    "quot/div-n-plus-log-over-n2-log-plus-1-start-2",
    ["--rpe", "(n + log(n))/(n**2*log(n) + 1)", "--start", "2"],
    False,
    "b >= n/(n^2 log n + n^2 log n) = 1/(2 n log n) for n >= 2 (1 <= n^2 log n): diverges.",
    start=2,
)


# ---------------------------------------------------------------------------------------
# 4. Rare and near angles
# ---------------------------------------------------------------------------------------
_F31 = lambda n: (3 + mp.cos(n)) ** (-n) / n  # noqa: E731
_B31 = cached(lambda: R.direct_sum(_F31, 1, 300, lambda N: 2 * mp.mpf(2) ** -N))
add(
    "angle/three-plus-cos-to-minus-n-over-n",
    ["--rpe", "(3 + cos(n))**(-n)/n", *eps_args(E3)],
    True,
    "3 + cos n >= 2: 0 < b <= 2^-n/n, geometric majorant. B direct to 300 (tail < 2^-299); "
    "TRF from the partial sums (terms > 0).",
    _B31,
    cached(
        lambda: R.trf_positive_checked(
            [_F31(mp.mpf(n)) for n in range(1, 300)], _B31()[0], _B31()[1], E3
        )
    ),
)
_RARE = (
    "In a block [M, 2M): where |T(n)| >= M^(-1/3), b <= e^(-c M^(1/3))/M; the n with |T(n)| < "
    "M^(-1/3) number O(M^(2/3)) + O(M D_M(1/pi)) = O(M^0.84) (1/pi has finite type < 6.11, "
    "Zeilberger-Zudilin, Kuipers-Niederreiter II.3.2): the block sums are O(M^-0.16), summable "
    "over M = 2^j: converges."
)
add(
    "angle/exp-minus-n-cos-squared-over-n",
    ["--rpe", "exp(-n*cos(n)**2)/n"],
    True,
    "b = e^(-n T^2)/n, T = cos n (near 1 only where n is near pi/2 mod pi). " + _RARE,
)
add(
    "angle/one-plus-sin-squared-to-minus-n-over-n",
    ["--rpe", "(1 + sin(n)**2)**(-n)/n"],
    True,
    "log(1 + x) >= x log 2 on [0, 1] (concave): b <= e^(-(log 2) n T^2)/n, T = sin n. " + _RARE,
)
add(
    "angle/one-minus-half-sin-squared-to-n-squared",
    ["--rpe", "(1 - sin(n)**2/2)**(n**2)"],
    False,
    "Dirichlet: |q pi - p| < 1/q for infinitely many p, q; then |sin p| < 1/q < 4/p and b_p "
    ">= (1 - 8/p^2)^(p^2) -> e^-8 > 0: the terms do not tend to 0.",
)
add(
    "angle/two-over-two-plus-cos-to-n-over-square",
    ["--rpe", "(2/(2 + cos(n)))**n/n**2"],
    False,
    "cos n < -1/2 for a third of all n (equidistribution): there b >= (4/3)^n/n^2 -> oo.",
)
_F36 = lambda n: mp.exp(-n * mp.sin(n) ** 2) / n**2  # noqa: E731


def _B36():
    head = mp.fsum(_F36(mp.mpf(n)) for n in range(1, 2000))
    N = 5 * 10**7
    rest = R.long_float_sum(None, lambda x: np.exp(-x * np.sin(x) ** 2) / x**2, 2000, N)
    U = 1 / mp.mpf(N - 1)  # 0 < tail <= sum_(n >= N) n^-2
    return head + rest + U / 2, U / 2 + mp.mpf(10) ** -14


_B36c = cached(_B36)
add(
    "angle/exp-minus-n-sin-squared-over-square",
    ["--rpe", "exp(-n*sin(n)**2)/n**2", *eps_args(E3)],
    True,
    "0 < b <= 1/n^2. B: the sum to 5e7 (float64) plus half of the tail bound 1/(N - 1) "
    "(error 1e-8); terms > 0: TRF from the partial sums (margin checked).",
    _B36c,
    cached(
        lambda: R.trf_positive_checked(
            [_F36(mp.mpf(n)) for n in range(1, 30001)], _B36c()[0], _B36c()[1], E3
        )
    ),
)

# ---------------------------------------------------------------------------------------
# 5. Divergent series that need an argument
# ---------------------------------------------------------------------------------------
add(
    "div/floor-two-log-sign-over-n",
    ["--rpe", "(-1)**floor(2*log(n))/n"],
    False,
    "the sign is constant on [e^(k/2), e^((k+1)/2)); a block sum of 1/n is >= log(b/a), a, b "
    "the integer ends, -> 1/2: the partial sums swing by ~1/2 forever (Cauchy fails).",
    others=True,
)
add(
    "div/inverse-n-two-plus-sin",
    ["--rpe", "1/(n*(2 + sin(n)))"],
    False,
    "2 + sin n <= 3: b >= 1/(3n).",
)
add(
    "div/one-plus-beatty-sqrt2-over-n",
    ["--rpe", "(1 + (-1)**floor(sqrt(2)*n))/n"],
    False,
    "b >= 0 and b = 1/n + s_n/n: sum s_n/n converges (Beatty sign, sqrt(2)/2 of bounded "
    "partial quotients, Abel), sum 1/n does not: diverges.",
    others=True,
)
add(
    "div/exp-cos-minus-one-over-n",
    ["--rpe", "(exp(cos(n)) - 1)/n"],
    False,
    "b changes sign (cos n < 0: e^cos - 1 < 0). e^(cos n) - 1 = (I_0(1) - 1) + 2 sum_k I_k(1) "
    "cos(k n), partial sums of the oscillating part bounded by sum 2 I_k(1)/|sin(k/2)| < oo "
    "(Dirichlet): the sum is (I_0(1) - 1) log N + O(1), I_0(1) - 1 = 0.266 > 0: diverges.",
    others=True,
)
add(
    "div/sin-squared-over-n-log-start-2",
    ["--rpe", "sin(n)**2/(n*log(n))", "--start", "2"],
    False,
    "sin^2 = (1 - cos 2n)/2: sum cos(2n)/(n log n) converges (Dirichlet), sum 1/(2 n log n) "
    "does not.",
    start=2,
)
add(
    "div/cos-plus-sin-squared-over-n",
    ["--rpe", "(cos(n) + sin(n)**2)/n"],
    False,
    "= cos(n)/n - cos(2n)/(2n) + 1/(2n): two Dirichlet series and half the harmonic series.",
    others=True,
)
add(
    "div/floor-fourth-root-sign-over-n-three-quarters",
    ["--rpe", "(-1)**floor(n**(1/4))/n**(3/4)"],
    False,
    "block [k^4, (k+1)^4) has >= 4k^3 terms, each >= (k+1)^-3: block sums >= 4k^3/(k+1)^3 "
    "-> 4, of alternating sign: Cauchy fails (the boundary e = 1 - 1/4 of the block rule).",
    others=True,
)
add(
    "div/max-cos-minus-cos-2n-over-n",
    ["--rpe", "Max(cos(n), -cos(2*n))/n"],
    False,
    "Max(a, b) = (a + b)/2 + |a - b|/2: F(y) = Max(cos y, -cos 2y) has mean (1/4 pi) int |cos y "
    "+ cos 2y| dy > 0, F continuous (of both signs): by Weyl sum_(n<=N) F(n) = m N + o(N), and "
    "by Abel summation sum F(n)/n = m log N + o(log N) -> oo.",
    others=True,
)

# ---------------------------------------------------------------------------------------
# 5b. Free parameters (region proved on the whole line)
# ---------------------------------------------------------------------------------------
_GRID = [{"p": v} for v in (-1, 0, 0.25, 0.5, 1, 2)]
fam(
    "free/alt-exp-cos-over-n-p",
    ["--rpe", "(-1)**n*exp(cos(n))/n**p", "--free", "p"],
    lambda d: d["p"] > 0,
    _GRID,
    "(-1)^n e^(cos n) = sum_k I_|k|(1) e^(i (k + pi) n): the partial sums are bounded by sum "
    "I_|k|(1)/|cos(k/2)| < oo (|cos(k/2)| >= c k^-7.2 by pi's irrationality measure, I_k(1) "
    "<= 1/k!): Dirichlet for p > 0; for p <= 0, |b| >= e^-1: converges iff p > 0.",
)
fam(
    "free/beatty-sqrt2-log-over-n-p",
    ["--rpe", "(-1)**floor(sqrt(2)*n)*log(n)/n**p", "--free", "p"],
    lambda d: d["p"] > 0,
    _GRID,
    "p > 0: g = log(n)/n^p decreases to 0 eventually, S(N) = O(log N) (sqrt(2)/2 has bounded "
    "partial quotients), sum log(n)^2 n^(-1-p) < oo: Abel. p <= 0: |b| = log(n) n^-p >= log n "
    "-> oo. Converges iff p > 0.",
)
fam(
    "free/floor-third-sign-log-over-n-p",
    ["--rpe", "(-1)**floor(n/3)*log(n)/n**p", "--free", "p"],
    lambda d: d["p"] > 0,
    _GRID,
    "the sign has period 6 and sum 0 over a period (partial sums in {0, 1, 2, 3}); p > 0: "
    "Dirichlet with g = log(n)/n^p eventually decreasing to 0; p <= 0: |b| >= log n. "
    "Converges iff p > 0.",
)
fam(
    "free/max-cos-zero-over-n-p",
    ["--rpe", "Max(cos(n), 0)/n**p", "--free", "p"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (-1, 0, 0.5, 1, 1.5, 3)],
    "0 <= b <= n^-p: converges for p > 1. Max(cos y, 0) >= cos(y)(1 + cos y)/2 = 1/4 + cos(y)/2 "
    "+ cos(2y)/4: for p <= 1, b >= n^-p/4 + (Dirichlet-convergent or bounded-oscillating "
    "parts; for p <= 0 the terms do not tend to 0): diverges. Converges iff p > 1.",
)
fam(
    "free/sin-exp-cos-over-n-p",
    ["--rpe", "sin(n)*exp(cos(n))/n**p", "--free", "p"],
    lambda d: d["p"] > 0,
    _GRID,
    "sin(y) e^(cos y) = 2 sum_k k I_k(1) sin(k y): partial sums bounded by sum 2 k I_k(1)/"
    "|sin(k/2)| < oo: Dirichlet for p > 0; p <= 0: |b| >= e^-1/2 whenever |sin n| >= 1/2 (a "
    "third of all n): terms do not tend to 0. Converges iff p > 0.",
)

# ---------------------------------------------------------------------------------------
# 6. Named RPEs at new parameters / starts
# ---------------------------------------------------------------------------------------
_KL4 = lambda j: 16 * mp.zeta(4, j + 2)  # noqa: E731
add(
    "named/kerple-log-r4-k0.5",
    ["--rpe", "kerple-log", "--param", "r=4", "--param", "k=0.5", *eps_args(E3)],
    True,
    "(1 + t/2)^-4 = 16 (t + 2)^-4, t >= 0: B = 16 zeta(4, 2) = 16 (pi^4/90 - 1), R_j = 16 "
    "zeta(4, j + 2).",
    cached(lambda: R.two_ways(lambda: _KL4(0), lambda: 16 * (mp.pi**4 / 90 - 1))),
    cached(lambda: R.trf_from_tail(_KL4, _KL4(0), E3, hi=10**6)),
    start=0,
)
_KP = lambda t: mp.exp(-mp.mpf(1) / 20 * t**2)  # noqa: E731
_B_kp = lambda: (mp.jtheta(3, 0, mp.exp(-mp.mpf(1) / 20)) + 1) / 2  # noqa: E731
add(
    "named/kerple-power-r2-k0.05",
    ["--rpe", "kerple-power", "--param", "r=2", "--param", "k=0.05", *eps_args(E3)],
    True,
    "e^(-0.05 t^2), t >= 0: B = (theta_3(0, e^-0.05) + 1)/2; TRF from the partial sums (terms "
    "below e^-1000 after t = 150).",
    cached(lambda: (_B_kp(), TINY)),
    cached(
        lambda: R.trf_positive_checked([_KP(mp.mpf(t)) for t in range(0, 200)], _B_kp(), TINY, E3)
    ),
    start=0,
)
add(
    "named/alibi-k0.2",
    ["--rpe", "alibi", "--param", "k=0.2", *eps_args(E3)],
    True,
    "e^(-0.2 t), t >= 0: B = 1/(1 - e^-0.2), R_j/B = e^(-0.2 j): TRF = floor(5 ln(1/eps)) + 1 "
    "(11.51, 23.03, 34.54: no tie) = 12, 24, 35.",
    cached(lambda: (1 / -mp.expm1(-mp.mpf(1) / 5), TINY)),
    geo_trf(lambda: mp.mpf(1) / 5, E3),
    start=0,
)
_T1 = lambda j: mp.zeta(2, 7 + j)  # noqa: E731
add(
    "named/type1-start-7",
    ["--rpe", "type1", "--start", "7", *eps_args(E3)],
    True,
    "1/n^2 from n = 7: B = zeta(2, 7) = pi^2/6 - H_6^(2), R_j = zeta(2, 7 + j).",
    cached(
        lambda: R.two_ways(
            lambda: _T1(0), lambda: mp.pi**2 / 6 - mp.fsum(mp.mpf(1) / n**2 for n in range(1, 7))
        )
    ),
    cached(lambda: R.trf_from_tail(_T1, _T1(0), E3, hi=10**6)),
    start=7,
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "(-1)**floor(sqrt(7)*n)/n**2"],
    ["--rpe", "(sqrt(log(n)) + 1)/(n*log(n)**2 + 1)", "--start", "2"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
