"""Held-out set 5: 74 convergent series a researcher would type, each with its reference B
and TRF(eps) computed by :mod:`heldout5_reference` at 40 digits and naming its source.

``python tests/theory/series/heldout5_cases.py [TIME_LIMIT|-] [NAME|NAME...]`` runs the
command on them and prints the class of every B and TRF (exact / bracket / estimate /
lower / none / WRONG-... / ERROR).
"""

from __future__ import annotations

import collections
import json
import sys
import tempfile
from concurrent.futures import ThreadPoolExecutor
from fractions import Fraction
from pathlib import Path

import mpmath as mp

sys.path.insert(0, str(Path(__file__).parent))
from heldout5_reference import (  # noqa: E402
    DPS,
    Case,
    alt_tail,
    bessel_fourier,
    bias_geo,
    direct,
    em_tail,
    evaluate,
    gamma_ratio,
    hurwitz,
    logpower_B,
    logpower_log10,
    mpf,
    osc_tail,
    power_log10,
    root_t,
    run_cli,
    stretched,
)


def build_cases() -> list[Case]:
    """The held-out cases (constants built at DPS digits)."""
    with mp.workdps(DPS):
        return _build_cases()


def _build_cases() -> list[Case]:
    cs: list[Case] = []
    add = cs.append

    # ---- named RPEs with unusual parameters ---------------------------------------------
    for k in ("1e-200", "7e-5", "0.3", "40"):
        kk = mp.mpf(Fraction(k).numerator) / Fraction(k).denominator
        add(
            Case(
                f"alibi k={k}",
                ["--rpe", "alibi", "--param", f"k={k}"],
                B=(lambda kk=kk: 1 / -mp.expm1(-kk)),
                tail=(lambda j, kk=kk: mp.exp(-kk * j) / -mp.expm1(-kk)),
                start=0,
                source="geometric series, closed form",
                log10_trf=(
                    (lambda eps, B, kk=kk: mp.log10(mp.floor(-mp.log(eps) / kk) + 1))
                    if kk < 1e-10
                    else None
                ),
            )
        )
    for k, r in (("1", "1.001"), ("0.001", "2"), ("100000", "1.5"), ("2.5", "1.2")):
        K, Rr = (mpf(Fraction(x).numerator) / Fraction(x).denominator for x in (k, r))

        # (1 + K n)^-r = K^-r (n + 1/K)^-r: Hurwitz zeta
        def Bf(K=K, Rr=Rr):
            return K ** (-Rr) * mp.zeta(Rr, 1 / K)

        def tl(j, K=K, Rr=Rr):
            return K ** (-Rr) * mp.zeta(Rr, j + 1 / K)

        l10 = None
        if Rr - 1 < mpf("0.01"):
            base = power_log10(Rr)

            def l10(eps, B, K=K, Rr=Rr, base=base):
                return base(eps, B * K**Rr)  # x = j + 1/K with K = 1

        add(
            Case(
                f"kerple-log k={k} r={r}",
                ["--rpe", "kerple-log", "--param", f"k={k}", "--param", f"r={r}"],
                B=Bf,
                tail=tl,
                start=0,
                log10_trf=l10,
                source="Hurwitz zeta: (1+kn)^-r = k^-r (n+1/k)^-r",
            )
        )
    for k, r in (("1", "0.05"), ("0.001", "2"), ("5", "0.3"), ("0.5", "1.9")):
        K, Rr = (mpf(Fraction(x).numerator) / Fraction(x).denominator for x in (k, r))
        f, Bf, tl = stretched(Rr, K, start=0)
        l10 = None
        if Rr < 0.1:

            def l10(eps, B, f=f, K=K, Rr=Rr):
                integral = lambda a: mp.gammainc(1 / Rr, K * a**Rr) / (Rr * K ** (1 / Rr))  # noqa: E731
                g = lambda t: mp.log(integral(mp.exp(t)) + f(mp.exp(t)) / 2)  # noqa: E731
                return root_t(g, mp.log(eps * B), 50) / mp.log(10)

        add(
            Case(
                f"kerple-power k={k} r={r}",
                ["--rpe", "kerple-power", "--param", f"k={k}", "--param", f"r={r}"],
                B=Bf,
                tail=tl,
                term=f,
                start=0,
                log10_trf=l10,
                source="incomplete gamma integral + Euler-Maclaurin",
            )
        )
    add(
        Case(
            "type1 start 10",
            ["--rpe", "type1", "--start", "10"],
            *(),
            B=hurwitz(2, 10)[0],
            tail=lambda j: mp.zeta(2, 10 + j),
            start=10,
            source="Hurwitz zeta(2, 10)",
        )
    )
    f2 = lambda n: mp.exp(-(mp.log(n) ** 2))  # noqa: E731
    add(
        Case(
            "type2",
            ["--rpe", "type2"],
            B=lambda: (
                direct(f2, 1, 3000)
                + em_tail(
                    f2,
                    3000,
                    lambda a: (
                        mp.exp(mpf(1) / 4) * mp.sqrt(mp.pi) / 2 * mp.erfc(mp.log(a) - mpf(1) / 2)
                    ),
                )
            ),
            term=f2,
            source="int e^(-ln^2 t) dt = e^(1/4) sqrt(pi)/2 erfc(ln x - 1/2) + EM",
        )
    )

    # ---- geometric and near-geometric -----------------------------------------------------
    add(
        Case(
            "exp(-k*n) k=1e-300",
            ["--rpe", "exp(-k*n)", "--param", "k=1e-300"],
            B=lambda: mp.exp(-(mpf(10) ** -300)) / -mp.expm1(-(mpf(10) ** -300)),
            log10_trf=lambda eps, B: mp.log10(mp.floor(-mp.log(eps) * mpf(10) ** 300) + 1),
            source="geometric series from n = 1; R_j = e^(-kj) B",
        )
    )
    add(
        Case(
            "exp(-50*n)",
            ["--rpe", "exp(-50*n)"],
            B=lambda: mp.exp(-50) / -mp.expm1(-50),
            tail=lambda j: mp.exp(-50 * (j + 1)) / -mp.expm1(-50),
            source="geometric series",
        )
    )
    add(
        Case(
            "10**(-n) (ties)",
            ["--rpe", "10**(-n)"],
            B=lambda: mpf(1) / 9,
            exact_trf=lambda e: next(j for j in range(1, 99) if Fraction(1, 10**j) < e),
            source="R_j = 10^-j B exactly: the least j with 10^-j < eps (ties at every eps)",
        )
    )
    add(
        Case(
            "n**2*2**(-n)",
            ["--rpe", "n**2*2**(-n)"],
            B=lambda: mpf(6),
            term=lambda n: mpf(n) ** 2 / mpf(2) ** n,
            source="sum n^2 x^n = x(1+x)/(1-x)^3 at x = 1/2",
        )
    )
    f4 = lambda n: mpf(4) ** n / (mpf(n) ** 3 * mp.binomial(2 * n, n))  # noqa: E731
    f4c = lambda x: (
        mp.exp(  # noqa: E731
            x * mp.log(4) + 2 * mp.loggamma(x + 1) - mp.loggamma(2 * x + 1)
        )
        / x**3
    )
    add(
        Case(
            "4**n/(n**3*binomial(2*n,n))",
            ["--rpe", "4**n/(n**3*binomial(2*n, n))"],
            B=lambda: direct(f4, 1, 500) + em_tail(f4c, 500, lambda a: mp.quad(f4c, [a, mp.inf])),
            term=f4,
            source="direct sum + Euler-Maclaurin with the gamma form and quad",
        )
    )
    x = lambda: mp.exp(mpf(-1) / 10)  # noqa: E731
    add(
        Case(
            "n**3*exp(-n/10)",
            ["--rpe", "n**3*exp(-n/10)"],
            B=lambda: x() * (1 + 4 * x() + x() ** 2) / (1 - x()) ** 4,
            term=lambda n: mpf(n) ** 3 * mp.exp(-mpf(n) / 10),
            source="sum n^3 x^n = x(1+4x+x^2)/(1-x)^4",
        )
    )
    add(
        Case(
            "n**10*(9/10)**n",
            ["--rpe", "n**10*(9/10)**n"],
            B=lambda: mp.polylog(-10, mpf(9) / 10),
            term=lambda n: mpf(n) ** 10 * (mpf(9) / 10) ** n,
            source="polylog(-10, 0.9)",
        )
    )
    add(
        Case(
            "1/factorial(n)",
            ["--rpe", "1/factorial(n)"],
            B=lambda: mp.e - 1,
            term=lambda n: 1 / mp.factorial(n),
            source="e - 1",
        )
    )
    add(
        Case(
            "3**n/factorial(n) start 0",
            ["--rpe", "3**n/factorial(n)", "--start", "0"],
            start=0,
            B=lambda: mp.exp(3),
            term=lambda n: mpf(3) ** n / mp.factorial(n),
            source="e^3",
        )
    )
    add(
        Case(
            "factorial(n)/n**n",
            ["--rpe", "factorial(n)/n**n"],
            B=lambda: direct(lambda n: mp.factorial(n) / mpf(n) ** n, 1, 400),
            term=lambda n: mp.factorial(n) / mpf(n) ** n,
            source="direct sum (terms < 1e-160 beyond n = 400)",
        )
    )
    add(
        Case(
            "binomial(2*n,n)/5**n",
            ["--rpe", "binomial(2*n, n)/5**n"],
            B=lambda: mp.sqrt(5) - 1,
            term=lambda n: mp.binomial(2 * n, n) / mpf(5) ** n,
            source="sum C(2n,n) x^n = 1/sqrt(1-4x)",
        )
    )
    add(
        Case(
            "factorial(n)**2/factorial(2*n)",
            ["--rpe", "factorial(n)**2/factorial(2*n)"],
            B=lambda: mpf(1) / 3 + 2 * mp.pi * mp.sqrt(3) / 27,
            term=lambda n: mp.factorial(n) ** 2 / mp.factorial(2 * n),
            source="sum 1/C(2n,n) = 1/3 + 2 pi sqrt(3)/27",
        )
    )
    for a, b in (("1/2", "3"), ("0.3", "1.4"), ("2", "3.5")):
        A, Bb = (mpf(Fraction(v).numerator) / Fraction(v).denominator for v in (a, b))
        Bf, tl = gamma_ratio(A, Bb)
        l10 = None
        if Bb - A - 1 < mpf("0.2"):

            def l10(eps, B, A=A, Bb=Bb, tl=tl):
                def g(t, A=A, Bb=Bb):  # log of the tail at m = e^t, digits for the cancellation
                    with mp.workdps(50 + int(t)):
                        m = mp.exp(t)
                        r = mp.loggamma(m + A) - mp.loggamma(m + Bb - 1) - mp.log(Bb - A - 1)
                    return +r

                return root_t(g, mp.log(eps * B), 50) / mp.log(10)

        add(
            Case(
                f"gamma(n+{a})/gamma(n+{b})",
                ["--rpe", f"gamma(n + {a})/gamma(n + {b})"],
                B=Bf,
                tail=tl,
                log10_trf=l10,
                source="telescoping tail Gamma(m+a)/((b-a-1) Gamma(m+b-1))",
            )
        )
    add(
        Case(
            "1/cosh(n)",
            ["--rpe", "1/cosh(n)"],
            B=lambda: direct(lambda n: 1 / mp.cosh(n), 1, 120),
            term=lambda n: 1 / mp.cosh(n),
            source="direct sum (terms < 1e-50 beyond n = 120)",
        )
    )
    add(
        Case(
            "exp(-n/1000)*(1+1/n)",
            ["--rpe", "exp(-n/1000)*(1 + 1/n)"],
            B=lambda: (lambda q: q / (1 - q) - mp.log(1 - q))(mp.exp(-mpf(1) / 1000)),
            term=lambda n: mp.exp(-mpf(n) / 1000) * (1 + mpf(1) / n),
            source="x/(1-x) - ln(1-x), x = e^(-1/1000)",
            slow_only=True,
        )
    )

    # ---- power laws with small excess ---------------------------------------------------------
    for s, txt in ((mpf("1.01"), "1/n**1.01"), (mpf("1.001"), "1/n**1.001")):
        s = mpf(Fraction(txt[5:]).numerator) / Fraction(txt[5:]).denominator
        add(
            Case(
                txt,
                ["--rpe", txt],
                B=(lambda s=s: mp.zeta(s)),
                log10_trf=(lambda eps, B, s=s: power_log10(s)(eps, B)),
                source="zeta(s); tail x^(1-s)/(s-1) + x^-s/2",
            )
        )
    s6 = 1 + mpf(10) ** -6
    add(
        Case(
            "n**(-1-1e-6)",
            ["--rpe", "n**(-1-1e-6)"],
            B=lambda: mp.zeta(s6),
            log10_trf=lambda eps, B: power_log10(s6)(eps, B),
            source="zeta(1 + 1e-6); tail x^(-d)/d + x^(-1-d)/2",
        )
    )
    add(
        Case(
            "1/n**1.5 start 7",
            ["--rpe", "1/n**1.5", "--start", "7"],
            start=7,
            B=lambda: mp.zeta(1.5, 7),
            tail=lambda j: mp.zeta(1.5, 7 + j),
            source="Hurwitz zeta(3/2, 7)",
        )
    )
    add(
        Case(
            "1/(n*(n+1))",
            ["--rpe", "1/(n*(n+1))"],
            B=lambda: mpf(1),
            tail=lambda j: mpf(1) / (1 + j),
            source="telescoping: R_j = 1/(j+1); an exact tie R_9 = eps B at eps = 1/10",
        )
    )
    add(
        Case(
            "1/(n**2-1) start 2",
            ["--rpe", "1/(n**2 - 1)", "--start", "2"],
            start=2,
            B=lambda: mpf(3) / 4,
            tail=lambda j: (mpf(1) / (j + 1) + mpf(1) / (j + 2)) / 2,
            source="telescoping: sum_(n>=m) 1/(n^2-1) = (1/(m-1) + 1/m)/2",
        )
    )
    add(
        Case(
            "log(n)/n**2",
            ["--rpe", "log(n)/n**2"],
            B=lambda: -mp.zeta(2, 1, 1),
            tail=lambda j: -mp.zeta(2, 1 + j, 1),
            source="-zeta'(2, a) (Hurwitz derivative)",
        )
    )
    add(
        Case(
            "log(n)/n**1.1",
            ["--rpe", "log(n)/n**1.1"],
            B=lambda: -mp.zeta(mpf(11) / 10, 1, 1),
            log10_trf=lambda eps, B: (
                root_t(
                    lambda t: mp.log(
                        mp.exp(-t / 10) * (10 * t + 100) + mp.exp(-t * mpf(11) / 10) * t / 2
                    ),
                    mp.log(eps * B),
                    80,
                )
                / mp.log(10)
            ),
            source="-zeta'(1.1); tail x^-0.1 (10 ln x + 100) + f(x)/2",
        )
    )

    # ---- log-power ---------------------------------------------------------------------
    for q, st in ((mpf("1.5"), 2), (mpf("1.1"), 3), (mpf(3), 2)):
        qt = {mpf("1.5"): "1.5", mpf("1.1"): "1.1", mpf(3): "3"}[q]
        q = mpf(Fraction(qt).numerator) / Fraction(qt).denominator
        add(
            Case(
                f"1/(n*log(n)**{qt}) start {st}",
                ["--rpe", f"1/(n*log(n)**{qt})", "--start", str(st)],
                start=st,
                B=logpower_B(q, st),
                log10_trf=logpower_log10(q) if q < 2 else None,
                term=(lambda n, q=q: 1 / (n * mp.log(n) ** q)),
                tail=(
                    lambda j, q=q, st=st: (
                        em_tail(
                            lambda n: 1 / (n * mp.log(n) ** q),
                            st + j,
                            lambda a: mp.log(a) ** (1 - q) / (q - 1),
                        )
                        if st + j >= 1000
                        else logpower_B(q, st)()
                        - direct(lambda n: 1 / (n * mp.log(n) ** q), st, st + j)
                    )
                ),
                source="sum to 1000 + Euler-Maclaurin with int = ln^(1-q)/(q-1)",
            )
        )

    # ---- stretched exponentials ---------------------------------------------------------------
    f, Bf, tl = stretched(mpf("0.1"))

    def l10s(eps, B, f=f):
        integral = lambda a: mp.gammainc(10, a ** mpf("0.1")) * 10  # noqa: E731
        g = lambda t: mp.log(integral(mp.exp(t)) + f(mp.exp(t)) / 2)  # noqa: E731
        return root_t(g, mp.log(eps * B), 35) / mp.log(10)

    add(
        Case(
            "exp(-n**0.1)",
            ["--rpe", "exp(-n**0.1)"],
            B=Bf,
            tail=tl,
            log10_trf=l10s,
            source="10 Gamma(10, x^0.1) + Euler-Maclaurin",
        )
    )
    f, Bf, tl = stretched(mpf("0.5"))
    add(
        Case(
            "exp(-sqrt(n))",
            ["--rpe", "exp(-sqrt(n))"],
            B=Bf,
            tail=tl,
            term=f,
            source="2 Gamma(2, sqrt x) + Euler-Maclaurin",
        )
    )
    fs = lambda n: mp.exp(-mp.sqrt(n) * mp.log(n))  # noqa: E731
    add(
        Case(
            "exp(-sqrt(n)*log(n))",
            ["--rpe", "exp(-sqrt(n)*log(n))"],
            B=lambda: direct(fs, 1, 800),
            term=fs,
            source="direct sum (terms < 1e-60 beyond n = 800)",
        )
    )

    # ---- bounded oscillating factors (terms >= 0) -----------------------------------------
    for trig in ("sin", "cos"):
        fo = lambda n, trig=trig: mp.exp(getattr(mp, trig)(n)) / mpf(n) ** 2  # noqa: E731
        add(
            Case(
                f"exp({trig}(n))/n**2",
                ["--rpe", f"exp({trig}(n))/n**2"],
                B=bessel_fourier(trig, 2),
                term=fo,
                source="exp(cos t) = sum I_k(1) e^(ikt) (sin t = cos(t - pi/2)); Li_2(e^(ik))",
                slow_only=trig == "cos",
            )
        )
    add(
        Case(
            "(2+cos(n))/n**3",
            ["--rpe", "(2 + cos(n))/n**3"],
            B=lambda: 2 * mp.zeta(3) + mp.re(mp.polylog(3, mp.expj(1))),
            term=lambda n: (2 + mp.cos(n)) / mpf(n) ** 3,
            source="2 zeta(3) + Re Li_3(e^i)",
        )
    )
    add(
        Case(
            "sin(n)**2/n**2",
            ["--rpe", "sin(n)**2/n**2"],
            B=lambda: (mp.pi - 1) / 2,
            term=lambda n: mp.sin(n) ** 2 / mpf(n) ** 2,
            source="(zeta(2) - Re Li_2(e^(2i)))/2 = (pi - 1)/2",
        )
    )
    g15 = lambda x: 1 / x ** mpf("1.5")  # noqa: E731
    add(
        Case(
            "(2+sin(n))/n**1.5",
            ["--rpe", "(2 + sin(n))/n**1.5"],
            B=lambda: 2 * mp.zeta(1.5) + mp.im(mp.polylog(1.5, mp.expj(1))),
            tail=lambda j: (
                2 * mp.zeta(1.5, 1 + j) + mp.im(osc_tail(g15, mp.expj(1), 1 + j))
                if j >= 50
                else 2 * mp.zeta(1.5)
                + mp.im(mp.polylog(1.5, mp.expj(1)))
                - direct(lambda n: (2 + mp.sin(n)) / mpf(n) ** 1.5, 1, 1 + j)
            ),
            source="2 zeta(3/2, m) + Im sum e^(in)/n^(3/2) (Euler transform)",
            slow_only=True,
        )
    )

    # ---- alternating / signed ------------------------------------------------------------------
    gh = lambda x: 1 / mp.sqrt(x)  # noqa: E731
    add(
        Case(
            "(-1)**n/sqrt(n)",
            ["--rpe", "(-1)**n/sqrt(n)"],
            signed=True,
            B=lambda: -(1 - mp.sqrt(2)) * mp.zeta(0.5),
            tail=alt_tail(gh, 1),
            term=lambda n: (-1) ** n / mp.sqrt(n),
            monotone_from=0,
            source="-eta(1/2); |R_k| decreasing (1/sqrt completely monotone)",
        )
    )
    gl = lambda x: mp.log(x) / x  # noqa: E731
    add(
        Case(
            "(-1)**n*log(n)/n",
            ["--rpe", "(-1)**n*log(n)/n"],
            signed=True,
            B=lambda: mp.euler * mp.log(2) - mp.log(2) ** 2 / 2,
            tail=alt_tail(gl, 1),
            term=lambda n: (-1) ** n * mp.log(n) / n,
            monotone_from=30,
            source="gamma ln2 - ln^2 2/2; |R_k| decreasing for k >= 30 (ln x/x convex there)",
        )
    )
    g01 = lambda x: x ** -mpf("0.1")  # noqa: E731
    add(
        Case(
            "(-1)**n/n**0.1",
            ["--rpe", "(-1)**n/n**0.1"],
            signed=True,
            B=lambda: -(1 - mpf(2) ** mpf("0.9")) * mp.zeta(mpf("0.1")),
            tail=alt_tail(g01, 1),
            monotone_from=0,
            log10_trf=lambda eps, B: (
                root_t(
                    lambda t: mp.log(abs(osc_tail(g01, -1, mp.exp(t), terms=4))),
                    mp.log(eps * abs(B)),
                    -10 * mp.log(2 * eps * abs(B)),
                )
                / mp.log(10)
            ),
            source="-eta(0.1) = -(1 - 2^0.9) zeta(0.1); |R(x)| = x^-0.1/2 + ...",
        )
    )
    gL = lambda x: 1 / mp.log(x)  # noqa: E731

    def B_alt_log():
        return direct(lambda n: (-1) ** n / mp.log(n), 2, 60) + osc_tail(gL, -1, 60)

    add(
        Case(
            "(-1)**n/log(n) start 2",
            ["--rpe", "(-1)**n/log(n)", "--start", "2"],
            start=2,
            signed=True,
            B=B_alt_log,
            tail=alt_tail(gL, 2),
            monotone_from=0,
            log10_trf=lambda eps, B: (
                root_t(
                    lambda t: mp.log(abs(osc_tail(gL, -1, mp.exp(t), terms=4))),
                    mp.log(eps * abs(B)),
                    1 / (2 * eps * abs(B)),
                )
                / mp.log(10)
            ),
            source="Euler transform; |R(x)| = 1/(2 ln x) + ...",
        )
    )
    add(
        Case(
            "sin(n)/n",
            ["--rpe", "sin(n)/n"],
            signed=True,
            B=lambda: (mp.pi - 1) / 2,
            term=lambda n: mp.sin(n) / n,
            envelope=lambda eps, B: int(1 / (mp.sin(0.5) * eps * abs(B))) + 2,
            source="Im Li_1(e^i) = (pi - 1)/2; |R_m| <= g(m)/sin(1/2) (Abel)",
        )
    )
    add(
        Case(
            "sin(n)/n**2",
            ["--rpe", "sin(n)/n**2"],
            signed=True,
            B=lambda: mp.clsin(2, 1),
            term=lambda n: mp.sin(n) / mpf(n) ** 2,
            envelope=lambda eps, B: int(mp.sqrt(1 / (mp.sin(0.5) * eps * abs(B)))) + 2,
            source="Clausen Cl_2(1); |R_m| <= g(m)/sin(1/2) (Abel)",
        )
    )
    add(
        Case(
            "cos(2*n)/n**1.5",
            ["--rpe", "cos(2*n)/n**1.5"],
            signed=True,
            B=lambda: mp.re(mp.polylog(1.5, mp.expj(2))),
            term=lambda n: mp.cos(2 * n) / mpf(n) ** 1.5,
            envelope=lambda eps, B: int((1 / (mp.sin(1) * eps * abs(B))) ** (1 / mpf(1.5))) + 2,
            source="Re Li_(3/2)(e^(2i)); |R_m| <= g(m)/sin(1) (Abel)",
            slow_only=True,
        )
    )
    add(
        Case(
            "(-1)**n/(n**2+1) start 0",
            ["--rpe", "(-1)**n/(n**2 + 1)", "--start", "0"],
            start=0,
            signed=True,
            B=lambda: (1 + mp.pi / mp.sinh(mp.pi)) / 2,
            term=lambda n: mpf(-1) ** n / (mpf(n) ** 2 + 1),
            envelope=lambda eps, B: int(mp.sqrt(1 / (eps * abs(B)))) + 2,
            source="sum_(n>=0) (-1)^n/(n^2+1) = (1 + pi/sinh pi)/2; |R_m| <= 1/(m^2+1)",
        )
    )

    gq = lambda x: x / (x**2 + 1)  # noqa: E731
    add(
        Case(
            "(-1)**n*n/(n**2+1)",
            ["--rpe", "(-1)**n*n/(n**2 + 1)"],
            signed=True,
            B=lambda: direct(lambda n: (-1) ** n * gq(mpf(n)), 1, 40) + osc_tail(gq, -1, 40),
            tail=alt_tail(gq, 1),
            term=lambda n: (-1) ** n * gq(mpf(n)),
            monotone_from=8,
            source="Euler transform of the alternating tail; |R_k| decreasing from k = 8",
        )
    )
    add(
        Case(
            "cos(n)/n (small B)",
            ["--rpe", "cos(n)/n"],
            signed=True,
            B=lambda: -mp.log(2 * mp.sin(mpf(1) / 2)),
            term=lambda n: mp.cos(n) / n,
            envelope=lambda eps, B: int(1 / (mp.sin(0.5) * eps * abs(B))) + 2,
            source="Re Li_1(e^i) = -ln(2 sin(1/2)); |R_m| <= g(m)/sin(1/2) (Abel)",
            slow_only=True,
        )
    )
    add(
        Case(
            "exp(-n)*(2+sin(n))",
            ["--rpe", "exp(-n)*(2 + sin(n))"],
            B=lambda: 2 / (mp.e - 1) + mp.im(mp.expj(1) / mp.e / (1 - mp.expj(1) / mp.e)),
            term=lambda n: mp.exp(-n) * (2 + mp.sin(n)),
            source="2/(e - 1) + Im(w/(1 - w)), w = e^(i - 1)",
        )
    )
    add(
        Case(
            "(1+(-1)**n/2)/n**2",
            ["--rpe", "(1 + (-1)**n/2)/n**2"],
            B=lambda: mp.pi**2 / 8,
            tail=lambda j: (
                mp.zeta(2, 1 + j)
                + ((-1) ** (1 + j)) * (mp.zeta(2, mpf(1 + j) / 2) - mp.zeta(2, mpf(2 + j) / 2)) / 8
            ),
            source="zeta(2) - eta(2)/2 = pi^2/8; tail sum (-1)^n/n^2 = (+-)(zeta(2,m/2) - "
            "zeta(2,(m+1)/2))/8",
        )
    )
    fq = lambda n: 1 / (mpf(n) ** 2 * mp.log(n + 1))  # noqa: E731
    add(
        Case(
            "1/(n**2*log(n+1))",
            ["--rpe", "1/(n**2*log(n + 1))"],
            B=lambda: direct(fq, 1, 2000) + em_tail(fq, 2000, lambda a: mp.quad(fq, [a, mp.inf])),
            term=fq,
            source="direct sum + Euler-Maclaurin with quad",
        )
    )
    add(
        Case(
            "--bias -2*log(n+1) start 0",
            ["--bias=-2*log(n + 1)", "--start", "0"],
            start=0,
            B=lambda: mp.zeta(2),
            tail=lambda j: mp.zeta(2, 1 + j),
            source="zeta(2, 1 + j)",
        )
    )
    add(
        Case(
            "n*exp(-n**2/100)",
            ["--rpe", "n*exp(-n**2/100)"],
            B=lambda: direct(lambda n: n * mp.exp(-(mpf(n) ** 2) / 100), 1, 200),
            term=lambda n: n * mp.exp(-(mpf(n) ** 2) / 100),
            source="direct sum (terms < 1e-150 beyond n = 200)",
        )
    )

    # ---- --bias formulas -----------------------------------------------------------------
    add(
        Case(
            "--bias -0.5*n",
            ["--bias=-0.5*n"],
            B=lambda: mp.exp(-0.5) / -mp.expm1(-0.5),
            tail=lambda j: mp.exp(-0.5 * (j + 1)) / -mp.expm1(-0.5),
            source="geometric series",
        )
    )
    add(
        Case(
            "--bias -1.5*log(n) start 3",
            ["--bias=-1.5*log(n)", "--start", "3"],
            start=3,
            B=lambda: mp.zeta(1.5, 3),
            tail=lambda j: mp.zeta(1.5, 3 + j),
            source="Hurwitz zeta(3/2, 3)",
        )
    )

    # ---- bias files -------------------------------------------------------------------------------
    files = [
        ("lin-npy", "npy", "linear", [-0.3 * k for k in range(20)]),
        ("lin-txt-dec", "txt", "linear", [0.0, -1.25, -2.7, -3.3333, -4.1, -5.05, -6.2, -7.01]),
        ("zero-txt-extreme", "txt", "zero", [0.0, -745.5, -1000.0, 709.7, 1e-320, -3.5]),
        ("zero-npy-1e308", "npy", "zero", [1e308, 0.0, -1.0]),
        ("lin-npy-gentle", "npy", "linear", [-1e-3 * k - 0.5 for k in range(50)]),
        ("lin-txt-steep", "txt", "linear", [-40.0 * k for k in range(12)]),
        ("zero-npy-flat", "npy", "zero", [-2.0] * 30),
    ]
    for name, kind, tail, vals in files:
        fname = f"{name}.{kind}"
        term, Bf, tl = bias_geo(vals, tail)
        scale = max(vals) if max(vals) > 1e4 else None  # the tool sums B / e^max then
        if scale:
            term, Bf, tl = bias_geo(vals, tail, shift=scale)
        add(
            Case(
                f"bias-file {fname} {tail}",
                ["--bias-file", fname, "--bias-tail", tail]
                + (["--start", "3"] if "txt" in kind and tail == "linear" else []),
                start=0,
                B=Bf,
                tail=tl,
                files={fname: vals},
                source="head sum + geometric tail with the exact least-squares slope"
                + ("; B / e^max (the tool's log scale)" if scale else ""),
            )
        )
    return cs


def main() -> None:  # python -m tests.theory.series.heldout5_cases [time_limit] [name filter]
    tl = float(sys.argv[1]) if len(sys.argv) > 1 and sys.argv[1] != "-" else None
    flt = sys.argv[2] if len(sys.argv) > 2 else ""
    cases = [c for c in build_cases() if any(f in c.name for f in flt.split("|"))]
    with tempfile.TemporaryDirectory() as tmp:
        with ThreadPoolExecutor(2) as ex:
            ran = list(ex.map(lambda c: run_cli(c, Path(tmp), tl), cases))
        res = [evaluate(c, Path(tmp), tl, ran=r) for c, r in zip(cases, ran, strict=True)]
    counts = collections.Counter()
    for r in res:
        print(f"{r['name'][:42]:42s} rc={r['rc']} B={r['sum']:9s} " + " ".join(r["trf"]))
        if r["rc"] != 0:
            print("    ", r["stderr"])
        counts.update(r["trf"])
        counts["B:" + r["sum"]] += 1
    print(dict(sorted(counts.items())))
    Path("/tmp/heldout5_last.json").write_text(json.dumps(res, default=str, indent=1))


if __name__ == "__main__":
    main()
