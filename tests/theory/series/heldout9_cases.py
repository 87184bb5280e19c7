"""Held-out set 9: commands as a researcher types them into ``python -m theory.trf``, with
the verdict derived by hand (the argument in each ``note``) and, where the series converges,
a reference B and TRF(eps) computed independently with mpmath at 50 digits
(``heldout9_reference``): closed forms (Hurwitz zeta and its derivative, digamma, polylog,
Lerch Phi, Beta, theta functions, telescoping sums) or direct sums with a proved tail bound.

The fields of a :class:`Case` are those of set 7 (``heldout7_cases``): ``verdict`` True /
False / None (must be refused) / ``"open"``; ``B()`` -> (value, error); ``trf()`` ->
{eps: int, or ("log10", value, tol)}; ``cond`` (predicate, grid) for ``--free`` families;
``files`` written beside the run (the name in ``args`` replaced by the path, so a name with
a suffix gives the file that suffix); ``error_ok`` a named refusal is honest; ``others`` the
decision lies in the sign-changing or free-parameter engines.
"""

from __future__ import annotations

import io
from fractions import Fraction

import mpmath as mp
import numpy as np

try:
    from . import heldout9_reference as R
    from .heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes
except ImportError:  # run as a script from this folder
    import heldout9_reference as R
    from heldout7_cases import Case, cached, eps_args, exact, npy_bytes, txt_bytes

E3 = (0.1, 0.01, 0.001)
E2 = (0.1, 0.01)
E4 = (0.2, 0.02, 0.002)
TINY = mp.mpf(10) ** -45


def geo_trf(rate, eps_list):
    """TRF of b = C q^t (q = e^-rate, also signed: |R_j|/|B| = q^j): least j > ln(1/eps)/rate."""

    def trf():
        r = rate() if callable(rate) else mp.mpf(rate)
        return {e: int(mp.floor(mp.log(1 / R.eps_mp(e)) / r)) + 1 for e in eps_list}

    return cached(trf)


def frac_tail(tail, B, eps_list, hi=10**7):
    """Exact TRF of a rational tail ``tail(j)`` (a Fraction) against the rational B."""
    return lambda: R.trf_from_tail(tail, Fraction(B), eps_list, hi)


CASES: list[Case] = []


def add(*a, **k):
    CASES.append(Case(*a, **k))


def fam(id_, args, pred, grid, note, others=True):
    add(id_, args, None, note, cond=(pred, grid), others=others)


# ---------------------------------------------------------------------------------------
# (a) Positional encodings in the papers' style at new parameters
# ---------------------------------------------------------------------------------------
_R25 = lambda: mp.mpf(2) ** mp.mpf(2.5)  # noqa: E731
add(
    "named/kerple-log-r2.5-k0.5",
    ["--rpe", "kerple-log", "--param", "r=2.5", "--param", "k=0.5", *eps_args(E3)],
    True,
    "(1 + t/2)^-2.5 = 2^2.5 (t + 2)^-2.5, t >= 0: B = 2^2.5 zeta(2.5, 2), R_j = 2^2.5 "
    "zeta(2.5, 2 + j) (Hurwitz).",
    cached(lambda: (_R25() * mp.zeta(2.5, 2), TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: _R25() * mp.zeta(2.5, 2 + j), _R25() * mp.zeta(2.5, 2), E3, hi=10**8
        )
    ),
    start=0,
)
add(
    "named/kerple-log-r1-k7",
    ["--rpe", "kerple-log", "--param", "r=1", "--param", "k=7"],
    False,
    "(1 + 7t)^-1 >= 1/(8t) for t >= 1: harmonic minorant.",
)


def _kl_near1():
    s = mp.mpf("1.0001")
    return s, mp.zeta(s)


add(
    "named/kerple-log-r1.0001-k1",
    ["--rpe", "kerple-log", "--param", "r=1.0001", "--param", "k=1", "--eps", "0.5", "0.1"],
    True,
    "(1 + t)^-1.0001: B = zeta(1.0001) ~ 10000.58; R_j = zeta(1.0001, j + 1) ~ (j + 1)^-1e-4 "
    "/1e-4 (the next term is (j + 1)^-1.0001/2, relatively 5e-5/(j + 1)): log10 TRF = "
    "-1e4 log10(eps B 1e-4).",
    cached(lambda: (_kl_near1()[1], TINY)),
    cached(
        lambda: {
            e: (
                "log10",
                float(
                    -mp.log10(R.eps_mp(e) * _kl_near1()[1] * (_kl_near1()[0] - 1))
                    / (_kl_near1()[0] - 1)
                ),
                1e-6,
            )
            for e in (0.5, 0.1)
        }
    ),
    start=0,
)
_KP = (mp.mpf("0.5"), mp.mpf("0.75"))
_KPT = cached(lambda: [mp.exp(-_KP[0] * mp.mpf(t) ** _KP[1]) for t in range(0, 3000)])
_B_kp = cached(
    lambda: R.direct_sum(
        lambda t: mp.exp(-_KP[0] * t ** _KP[1]), 0, 8000, R.stretched_tail(_KP[0], _KP[1])
    )
)
add(
    "named/kerple-power-r0.75-k0.5",
    ["--rpe", "kerple-power", "--param", "r=0.75", "--param", "k=0.5", *eps_args(E3)],
    True,
    "e^(-t^0.75/2), t >= 0: stretched exponential; tail beyond N below the term at N plus "
    "Gamma(4/3, N^0.75/2)/(0.75 * 0.5^(4/3)).",
    _B_kp,
    cached(lambda: R.trf_from_terms(_KPT(), _B_kp()[0], E3)),
    start=0,
)
_KA = lambda: mp.mpf("0.4529")  # noqa: E731 (2^(-8/7) to four digits: head 7 of 7 heads)
add(
    "named/alibi-seven-heads-slope",
    ["--rpe", "alibi", "--param", "k=0.4529", "--eps", "0.1", "1e-05", "1e-300"],
    True,
    "e^(-k t), t >= 0, k = 0.4529 (the decimal typed): B = 1/(1 - e^-k), R_j/B = e^(-k j).",
    cached(lambda: (-1 / mp.expm1(-_KA()), TINY)),
    geo_trf(_KA, (0.1, 1e-05, 1e-300)),
    start=0,
)
_KB = lambda: mp.mpf("0.0078125")  # noqa: E731 (2^-7, exact in binary)
add(
    "named/alibi-slope-2-pow-minus-7",
    ["--rpe", "alibi", "--param", "k=0.0078125", *eps_args(E3)],
    True,
    "k = 2^-7: B = 1/(1 - e^(-1/128)) ~ 128.5; TRF = floor(128 ln(1/eps)) + 1.",
    cached(lambda: (-1 / mp.expm1(-_KB()), TINY)),
    geo_trf(_KB, E3),
    start=0,
)
add(
    "named/alibi-negative-slope",
    ["--rpe", "alibi", "--param", "k=-0.25"],
    False,
    "e^(0.25 t) grows (a refusal of k < 0 as outside the named RPE's range is honest).",
    error_ok=True,
)
add(
    "named/t5-odd-unidirectional",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=7",
        "--param",
        "max_distance=50",
        "--bucket-values=-0.5,-1,-1.5,-2,-2.5,-3,-3.5",
    ],
    False,
    "every distance beyond max_distance falls in the last bucket: b = e^-3.5 forever.",
)
add(
    "named/t5-bidirectional-ten",
    [
        "--rpe",
        "t5",
        "--param",
        "num_buckets=10",
        "--param",
        "max_distance=20",
        "--param",
        "bidirectional=1",
        "--bucket-values=0,-1,-2,-3,-4,-5,-6,-7,-8,-9",
    ],
    False,
    "the last bucket of the key side holds every large distance: a constant positive term.",
)
add(
    "named/sandwich-d6-k3-r2",
    ["--rpe", "sandwich", "--param", "k=3", "--param", "r=2", "--param", "d=6"],
    False,
    "each of the 3 cosines - 1 is >= -2: b_t >= e^(-3 * 3 * 2)... > 0, no decay to 0.",
)

# bias files
_F32 = (np.float32(-0.37) * np.arange(17, dtype=np.float32)).astype(np.float32)
_ref_f32 = cached(lambda: R.linear_tail_ref(_F32))
add(
    "bias/float32-npy-slope-0.37",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "float32 multiples of -0.37 (the binary float32 values): slope from the last 2.",
    lambda: (_ref_f32()[0], TINY),
    cached(lambda: R.trf_from_tail(_ref_f32()[1], _ref_f32()[0], E3, hi=10**4)),
    files={"BIAS.npy": npy_bytes(_F32)},
    start=0,
)
_BIG = ["1000", "999", "998"]
_ref_big = cached(lambda: R.linear_tail_ref(np.array([float(v) for v in _BIG])))
add(
    "bias/text-e1000-linear",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "[1000, 999, 998] then slope -1: B = e^1000 (1 + 1/e + 1/e^2 + e^-3/(1 - 1/e)) = "
    "e^1000/(1 - 1/e) ~ 1e434 (below the rescaling threshold 1e4); R_j/B = e^-j.",
    lambda: (_ref_big()[0], _ref_big()[0] * mp.mpf(10) ** -45),
    geo_trf(1, E3),
    files={"BIAS.txt": txt_bytes(_BIG)},
    start=0,
)
_NEG = np.array([-3e4, -3e4 - 0.5, -3e4 - 1.0])
add(
    "bias/npy-minus-30000-scaled",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "[-3e4, -3e4 - 1/2, -3e4 - 1] and slope -1/2: B = e^-30000/(1 - e^-1/2), scaled by "
    "e^-M with M = -3e4 (|M| > 1e4); R_j/B = e^(-j/2).",
    cached(lambda: (-1 / mp.expm1(-mp.mpf(1) / 2), TINY)),
    geo_trf(0.5, E3),
    files={"BIAS.npy": npy_bytes(_NEG)},
    scaled=True,
    start=0,
)
_F32SUB = np.array([0.0, -(2.0**-149), -(2.0**-148)], dtype=np.float32)
_ref_f32sub = cached(lambda: R.linear_tail_ref(_F32SUB))
add(
    "bias/float32-subnormal-slope",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "float32 subnormals 0, -2^-149, -2^-148: slope -2^-149 ~ -1.4e-45, B ~ 2^149 ~ 7e44; "
    "TRF ~ ln(1/eps) 2^149.",
    lambda: (_ref_f32sub()[0], _ref_f32sub()[0] * mp.mpf(10) ** -30),
    lambda: {
        e: ("log10", float(mp.log10(mp.log(1 / R.eps_mp(e)) / -_ref_f32sub()[2])), 1e-6) for e in E3
    },
    files={"BIAS.npy": npy_bytes(_F32SUB)},
    start=0,
)
_ZT = ["0", "-0.5", "-1e-320"]
add(
    "bias/text-subnormal-zero-tail",
    ["--bias-file", "BIAS.txt", "--bias-tail", "zero", *eps_args(E3)],
    True,
    "b = 1, e^-1/2, e^(-1e-320) then 0: B = 2 + e^-1/2 - (1e-320); R_2 = e^(-1e-320) ~ 1 >= "
    "eps B, R_3 = 0: TRF = 3.",
    cached(lambda: (mp.fsum(mp.exp(mp.mpf(float(v))) for v in _ZT), TINY)),
    lambda: {e: 3 for e in E3},
    files={"BIAS.txt": txt_bytes(_ZT)},
    start=0,
)
add(
    "bias/text-in-npy-suffix",
    ["--bias-file", "BIAS.npy", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "a text file named .npy: read by its content (docs), [0, -1, -2] and slope -1: "
    "B = 1/(1 - 1/e); a refusal by content is honest.",
    cached(lambda: (1 / -mp.expm1(-1), TINY)),
    geo_trf(1, E3),
    files={"BIAS.npy": b"0\n-1\n-2\n"},
    start=0,
    error_ok=True,
)
add(
    "bias/npy-in-txt-suffix",
    ["--bias-file", "BIAS.txt", "--bias-tail", "linear", *eps_args(E3)],
    True,
    "an .npy array named .txt: read by its content, [0, -2, -4] and slope -2: "
    "B = 1/(1 - e^-2); a refusal by content is honest.",
    cached(lambda: (1 / -mp.expm1(-2), TINY)),
    geo_trf(2, E3),
    files={"BIAS.txt": npy_bytes([0.0, -2.0, -4.0])},
    start=0,
    error_ok=True,
)


def _object_npy() -> bytes:
    buf = io.BytesIO()
    np.save(buf, np.array([0.0, "-1", None], dtype=object), allow_pickle=True)
    return buf.getvalue()


_PNG = b"\x89PNG\r\n\x1a\n" + bytes(range(256)) * 4
for _name, _file, _data in [
    ("pickled-object-npy", "BIAS.npy", _object_npy()),
    ("png-named-npy", "BIAS.npy", _PNG),
    ("truncated-npy", "BIAS.npy", npy_bytes(np.arange(100.0))[:-40]),
    ("nan-text", "BIAS.txt", txt_bytes(["0", "nan", "-1"])),
    ("inf-npy", "BIAS.npy", npy_bytes([0.0, -1.0, -np.inf])),
    ("nan-float32-npy", "BIAS.npy", npy_bytes(np.array([0, np.nan], dtype=np.float32))),
    ("words-text", "BIAS.txt", b"distance,bias\n0,-1\n"),
]:
    add(
        f"bias/refuse-{_name}",
        ["--bias-file", _file, "--bias-tail", "linear"],
        None,
        "not a 1-D array of finite numbers by its content (a pickle is never loaded): refused.",
        files={_file: _data},
    )


# ---------------------------------------------------------------------------------------
# (b) Closed-form sums
# ---------------------------------------------------------------------------------------
_EPS_T = (0.1, 0.01, 0.001)
add(
    "closed/telescoping-square-difference-disguised",
    ["--rpe", "(2*n + 1)/(n**2*(n + 1)**2)", *eps_args(_EPS_T)],
    True,
    "(2n + 1)/(n^2 (n+1)^2) = 1/n^2 - 1/(n+1)^2: B = 1, R_j = 1/(j + 1)^2; eps = 0.01 is a "
    "tie at j = 9 (R_9 = eps B exactly, no crossing): TRF 3, 10, 31.",
    exact(1),
    frac_tail(lambda j: Fraction(1, (j + 1) ** 2), 1, _EPS_T),
)
add(
    "closed/four-factor-telescoping",
    ["--rpe", "1/(n*(n + 1)*(n + 2)*(n + 3))", *eps_args(E3)],
    True,
    "= (1/(n(n+1)(n+2)) - 1/((n+1)(n+2)(n+3)))/3: B = 1/18, R_j = 1/(3 (j+1)(j+2)(j+3)).",
    exact(Fraction(1, 18)),
    frac_tail(lambda j: Fraction(1, 3 * (j + 1) * (j + 2) * (j + 3)), Fraction(1, 18), E3),
)
add(
    "closed/arctan-telescoping",
    ["--rpe", "atan(1/(2*n**2))", *eps_args(E3)],
    True,
    "atan(1/(2n^2)) = atan(1/(2n - 1)) - atan(1/(2n + 1)): B = pi/4, R_j = atan(1/(2j + 1)).",
    cached(lambda: (mp.pi / 4, TINY)),
    cached(lambda: R.trf_from_tail(lambda j: mp.atan(mp.mpf(1) / (2 * j + 1)), mp.pi / 4, E3)),
)
add(
    "closed/log-telescoping-product",
    ["--rpe", "log((n + 1)**2/(n*(n + 2)))", *eps_args(E3)],
    True,
    "prod_{n<=N} (n+1)^2/(n(n+2)) = 2(N+1)/(N+2): B = log 2, R_j = log((j + 2)/(j + 1)).",
    cached(lambda: (mp.log(2), TINY)),
    cached(lambda: R.trf_from_tail(lambda j: mp.log(mp.mpf(j + 2) / (j + 1)), mp.log(2), E3)),
)
add(
    "closed/hurwitz-third-shift",
    ["--rpe", "1/(n + 1/3)**3", *eps_args(E3)],
    True,
    "B = zeta(3, 4/3), R_j = zeta(3, j + 4/3) (Hurwitz).",
    cached(lambda: (mp.zeta(3, mp.mpf(4) / 3), TINY)),
    cached(
        lambda: R.trf_from_tail(
            lambda j: mp.zeta(3, j + mp.mpf(4) / 3), mp.zeta(3, mp.mpf(4) / 3), E3
        )
    ),
)
add(
    "closed/zeta-derivative-five-halves",
    ["--rpe", "log(n)/n**(5/2)", *eps_args(E3)],
    True,
    "B = -zeta'(5/2), R_j = -zeta'(5/2, j + 1) (Hurwitz, first derivative in s).",
    cached(lambda: (-mp.zeta(2.5, 1, 1), TINY)),
    cached(lambda: R.trf_from_tail(lambda j: -mp.zeta(2.5, j + 1, 1), -mp.zeta(2.5, 1, 1), E3)),
)
_DI2 = cached(lambda: [1 / (mp.mpf(n) ** 2 * mp.mpf(3) ** n) for n in range(1, 200)])
add(
    "closed/dilog-one-third",
    ["--rpe", "1/(n**2*3**n)", *eps_args(E3)],
    True,
    "B = Li_2(1/3) (polylog).",
    cached(lambda: (mp.polylog(2, mp.mpf(1) / 3), TINY)),
    cached(lambda: R.trf_from_terms(_DI2(), mp.polylog(2, mp.mpf(1) / 3), E3)),
)
_L3 = cached(lambda: 7 * mp.zeta(3) / 8 - mp.pi**2 * mp.log(2) / 12 + mp.log(2) ** 3 / 6)
add(
    "closed/trilog-one-half",
    ["--rpe", "1/(n**3*2**n)", *eps_args(E3)],
    True,
    "B = Li_3(1/2) = 7 zeta(3)/8 - pi^2 log(2)/12 + log(2)^3/6.",
    cached(lambda: (_L3(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [1 / (mp.mpf(n) ** 3 * mp.mpf(2) ** n) for n in range(1, 200)], _L3(), E3
        )
    ),
)
_LER = cached(lambda: mp.lerchphi(mp.mpf(1) / 3, 2, mp.mpf(3) / 2) / 3)
add(
    "closed/lerch-half-shift-third",
    ["--rpe", "1/((n + 1/2)**2*3**n)", *eps_args(E3)],
    True,
    "sum_{n>=1} z^n/(n + a)^2 = z Phi(z, 2, a + 1) (Lerch), z = 1/3, a = 1/2.",
    cached(lambda: (_LER(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [1 / ((n + mp.mpf(1) / 2) ** 2 * mp.mpf(3) ** n) for n in range(1, 200)], _LER(), E3
        )
    ),
)
add(
    "closed/beta-n-five-halves",
    ["--rpe", "gamma(n)*gamma(5/2)/gamma(n + 5/2)", *eps_args(E3)],
    True,
    "b = Beta(n, 5/2) = int x^(n-1) (1 - x)^(3/2): sum_{n>j} = int x^j (1 - x)^(1/2) = "
    "Beta(j + 1, 3/2); B = Beta(1, 3/2) = 2/3.",
    exact(Fraction(2, 3)),
    cached(lambda: R.trf_from_tail(lambda j: mp.beta(j + 1, mp.mpf(3) / 2), mp.mpf(2) / 3, E3)),
)
_TH = cached(lambda: (mp.pi ** (mp.mpf(1) / 4) / mp.gamma(mp.mpf(3) / 4) - 1) / 2)
add(
    "closed/theta-e-minus-pi",
    ["--rpe", "exp(-pi*n**2)", "--eps", "0.1", "1e-10", "1e-40"],
    True,
    "theta_3(0, e^-pi) = pi^(1/4)/Gamma(3/4): B = (pi^(1/4)/Gamma(3/4) - 1)/2.",
    cached(lambda: (_TH(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [mp.exp(-mp.pi * n**2) for n in range(1, 12)], _TH(), (0.1, 1e-10, 1e-40)
        )
    ),
)
_LAM = cached(lambda: mp.mpf(1) / 24 - 1 / (8 * mp.pi))
add(
    "closed/n-over-exp-2pi-n-minus-1",
    ["--rpe", "n/(exp(2*pi*n) - 1)", "--eps", "0.1", "1e-06", "1e-20"],
    True,
    "sum n/(e^(2 pi n) - 1) = 1/24 - 1/(8 pi) (Ramanujan, E_2 at i).",
    cached(lambda: (_LAM(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [n / mp.expm1(2 * mp.pi * n) for n in range(1, 30)], _LAM(), (0.1, 1e-06, 1e-20)
        )
    ),
)
_CSCH = cached(lambda: mp.mpf(1) / 6 - 1 / (2 * mp.pi))
add(
    "closed/csch-squared",
    ["--rpe", "1/sinh(pi*n)**2", "--eps", "0.1", "1e-08"],
    True,
    "sum csch^2(pi n) = 1/6 - 1/(2 pi).",
    cached(lambda: (_CSCH(), TINY)),
    cached(
        lambda: R.trf_from_terms(
            [1 / mp.sinh(mp.pi * n) ** 2 for n in range(1, 30)], _CSCH(), (0.1, 1e-08)
        )
    ),
)


def _cube_n_tail(j):  # sum_{n>j} (1/n - n/(n^2 + 1)) = Re psi(j + 1 + i) - psi(j + 1)
    return mp.re(mp.digamma(mp.mpc(j + 1, 1))) - mp.digamma(j + 1)


add(
    "closed/inv-n-cubed-plus-n",
    ["--rpe", "1/(n**3 + n)", *eps_args(E3)],
    True,
    "1/(n^3 + n) = 1/n - Re 1/(n + i): R_j = Re psi(j + 1 + i) - psi(j + 1) (digamma), "
    "B = Re psi(1 + i) + gamma.",
    cached(lambda: (_cube_n_tail(0), TINY)),
    cached(lambda: R.trf_from_tail(_cube_n_tail, _cube_n_tail(0), E3)),
)
_OMC = cached(lambda: [(1 - mp.cos(n)) / mp.mpf(n) ** 2 for n in range(1, 4000)])
add(
    "closed/one-minus-cos-over-n2",
    ["--rpe", "(1 - cos(n))/n**2", *eps_args(E3)],
    True,
    "b >= 0; Re Li_2(e^(i t)) = pi^2/6 - pi t/2 + t^2/4 on [0, 2 pi]: B = pi/2 - 1/4.",
    cached(lambda: (mp.pi / 2 - mp.mpf(1) / 4, TINY)),
    cached(lambda: R.trf_from_terms(_OMC(), mp.pi / 2 - mp.mpf(1) / 4, E3)),
)


# ---------------------------------------------------------------------------------------
# (c) Borderline verdicts
# ---------------------------------------------------------------------------------------
for _id, _args, _v, _note in [
    (
        "border/power-minus-one-minus-inv-loglog",
        ["--rpe", "n**(-1 - 3/log(log(n + 1)))", "--start", "2"],
        True,
        "b = e^(-3 log n/log log(n + 1))/n and 3 log n/log log(n + 1) >= 2 log log n eventually: b <= "
        "1/(n log(n)^2), Bertrand.",
    ),
    (
        "border/power-minus-one-minus-inv-log",
        ["--rpe", "(n + 1)**(-1 - 1/log(n + 1))"],
        False,
        "m^(-1/log m) = e^-1 (m = n + 1): b = 1/(e (n + 1)), harmonic.",
    ),
    (
        "border/nlogn-in-disguise",
        ["--rpe", "1/(n*log(n)*exp(1/log(n)))", "--start", "3"],
        False,
        "e^(-1/log n) >= e^(-1/log 3): b >= c/(n log n), Cauchy condensation diverges.",
    ),
    (
        "border/nlog2n-in-disguise",
        ["--rpe", "(1 + 1/n)**n/(n*log(n)**2)", "--start", "2"],
        True,
        "(1 + 1/n)^n < e: b <= e/(n log(n)^2), Bertrand converges.",
    ),
    (
        "border/power-minus-one-minus-inv-sqrt-log",
        ["--rpe", "n**(-1 - 2/sqrt(log(n)))", "--start", "2"],
        True,
        "b = e^(-2 sqrt(log n))/n; u = log n: sum ~ int e^(-2 sqrt u) du < oo.",
    ),
    (
        "border/bertrand-level3-diverges",
        ["--rpe", "1/((n + 1)*log(n + 1)*log(log(n + 1))*log(log(log(n + 1))))", "--start", "15"],
        False,
        "Cauchy condensation three times: the level-3 Bertrand series with exponent 1.",
    ),
    (
        "border/bertrand-level3-converges",
        ["--rpe", "1/(n*log(n)*log(log(n))*log(log(log(n)))**(3/2))", "--start", "16"],
        True,
        "level-3 Bertrand series with exponent 3/2 > 1 on the last factor.",
    ),
    (
        "border/bertrand-level2-squared",
        ["--rpe", "1/(n*log(n)*log(log(n))**(3/2))", "--start", "5"],
        True,
        "level-2 Bertrand with exponent 3/2: condensation gives sum 1/(k log(k)^(3/2)).",
    ),
    (
        "border/log1p-inv-nlogn",
        ["--rpe", "log(1 + 1/(n*log(n)))", "--start", "2"],
        False,
        "log(1 + x) >= x/2 for x <= 1: b >= 1/(2 n log n).",
    ),
    (
        "border/sin-inv-nlogn",
        ["--rpe", "sin(1/(n*log(n)))", "--start", "2"],
        False,
        "sin x >= 2x/pi on [0, pi/2]: b >= 2/(pi n log n).",
    ),
    (
        "border/log-ratio-over-log",
        ["--rpe", "(log(n + 1) - log(n))/log(n)", "--start", "2"],
        False,
        "log(1 + 1/n) >= 1/(2n): b >= 1/(2 n log n).",
    ),
    (
        "border/exp-minus-loglog-squared-over-n",
        ["--rpe", "exp(-log(log(n))**2)/n", "--start", "3"],
        True,
        "u = log n: sum ~ int e^(-log(u)^2) du = int u^(-log u) du < oo.",
    ),
    (
        "border/loglog-over-nlogn",
        ["--rpe", "log(log(n))/(n*log(n))", "--start", "3"],
        False,
        "log log n >= 1 from n = 16: b >= 1/(n log n).",
    ),
]:
    add(_id, _args, _v, _note)


# ---------------------------------------------------------------------------------------
# (d) Sign-changing and oscillating terms
# ---------------------------------------------------------------------------------------
for _id, _args, _v, _note in [
    (
        "sign/leibniz-trap-two-plus-sign",
        ["--rpe", "(-1)**n*(3 + (-1)**n)/(2*n)"],
        False,
        "= 3 (-1)^n/(2n) + 1/(2n): a convergent plus half the harmonic series; |b| -> 0 but not monotone.",
    ),
    (
        "sign/leibniz-trap-sqrt-plus-sign",
        ["--rpe", "(-1)**n/(n**(1/2) + 2*(-1)**n)"],
        False,
        "= (-1)^n/sqrt(n) - 2/(sqrt(n) (sqrt(n) + 2 (-1)^n)) (sqrt n = 2 only at even n = 4): "
        "Leibniz part converges, the rest ~ -2/n diverges.",
    ),
    (
        "sign/leibniz-nonmonotone-converges",
        ["--rpe", "(-1)**n/(n + (-1)**n*sqrt(n))", "--start", "2"],
        True,
        "= (-1)^n/n - 1/(n (sqrt(n) + (-1)^n)): Leibniz plus an absolutely convergent part "
        "(~ n^-3/2).",
    ),
    (
        "sign/floor-sqrt-sign-over-n",
        ["--rpe", "(-1)**floor(sqrt(2*n))/n"],
        True,
        "blocks k^2/2 <= n < (k+1)^2/2 of one sign (-1)^k with block sums decreasing to 0 "
        "(~ 2/k): Leibniz on the blocks, within-block partial sums -> 0.",
    ),
    (
        "sign/sin-2n-log-over-n",
        ["--rpe", "sin(2*n)*log(n)/n"],
        True,
        "log(n)/n decreases from n = 3, partial sums of sin 2n bounded: Dirichlet.",
    ),
    (
        "sign/cos-squared-sign-over-sqrt",
        ["--rpe", "(-1)**n*cos(n)**2/sqrt(n)"],
        True,
        "(-1)^n cos^2 n = ((-1)^n + Re e^(i(2 + pi)n))/2: two Dirichlet series with 1/sqrt(n).",
    ),
    (
        "sign/sin-n-over-log-log",
        ["--rpe", "cos(n)/log(log(n + 2))"],
        True,
        "1/log(log(n + 2)) decreases to 0 (log log 3 > 0): Dirichlet.",
    ),
    (
        "sign/alternating-e-limit-squared",
        ["--rpe", "(-1)**n*(1 + 1/n)**(n**2)/exp(n)"],
        False,
        "|b| -> e^(-1/2) != 0.",
    ),
]:
    add(_id, _args, _v, _note, others=True)

_B_halfsin = cached(lambda: (-mp.log(2) - mp.mpf(1) / 4, mp.mpf(10) ** -40))
add(
    "sign/alternating-one-plus-half-sin-over-n",
    ["--rpe", "(-1)**n*(1 + sin(n)/2)/n", *eps_args(E3)],
    True,
    "amplitude (1 + sin n/2)/n not monotone; = (-1)^n/n + Im e^(i(1 + pi)n)/(2n): "
    "B = -log 2 + (pi - (1 + pi))/4 = -log 2 - 1/4; |R_k| <= (1 + 1/(2 cos(1/2)))/(k + 1) "
    "(Leibniz, and Abel with |sum e^(i t n)| <= 1/|sin(t/2)|).",
    _B_halfsin,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * (1 + mp.sin(n) / 2) / n,
            1,
            _B_halfsin()[0],
            E3,
            5000,
            lambda K: (1 + 1 / (2 * mp.cos(0.5))) / (K + 1),
        )
    ),
    others=True,
)
_B_cos3 = cached(
    lambda: (-(3 * mp.log(2 * mp.sin(0.5)) + mp.log(2 * mp.sin(1.5))) / 4, mp.mpf(10) ** -40)
)
add(
    "sign/cos-cubed-over-n",
    ["--rpe", "cos(n)**3/n", *eps_args(E2)],
    True,
    "cos^3 = (3 cos n + cos 3n)/4 and sum cos(t n)/n = -log|2 sin(t/2)|: B = -(3 log(2 sin "
    "1/2) + log(2 sin 3/2))/4; |R_k| <= (3/(4 sin(1/2)) + 1/(4 sin(3/2)))/(k + 1).",
    _B_cos3,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.cos(n) ** 3 / n,
            1,
            _B_cos3()[0],
            E2,
            20000,
            lambda K: (3 / (4 * mp.sin(0.5)) + 1 / (4 * mp.sin(1.5))) / (K + 1),
        )
    ),
    others=True,
)
_B_altsin2 = cached(lambda: (mp.log(abs(mp.cos(2))) / 2, mp.mpf(10) ** -40))
add(
    "sign/alternating-sin-2n-squared-over-n",
    ["--rpe", "(-1)**n*sin(2*n)**2/n", *eps_args(E2)],
    True,
    "(-1)^n sin^2 2n = (-1)^n/2 - Re e^(i(4 + pi)n)/2 and sum Re e^(i t n)/n = -log|2 sin(t/2)|"
    ": B = -log(2)/2 + log(2 |cos 2|)/2 = log|cos 2|/2; |R_k| <= (1 + 1/|cos 2|)/(2 (k + 1)).",
    _B_altsin2,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * mp.sin(2 * n) ** 2 / n,
            1,
            _B_altsin2()[0],
            E2,
            20000,
            lambda K: (1 + 1 / abs(mp.cos(2))) / (2 * (K + 1)),
        )
    ),
    others=True,
)
_B_cos5 = cached(lambda: (-mp.log(2 * mp.sin(mp.pi / 5)), mp.mpf(10) ** -40))
add(
    "sign/cos-2pi-n-over-5-over-n",
    ["--rpe", "cos(2*pi*n/5)/n", *eps_args(E2)],
    True,
    "period 5: B = -log(2 sin(pi/5)); |R_k| <= 1/(sin(pi/5) (k + 1)) (Abel).",
    _B_cos5,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: mp.cos(2 * mp.pi * n / 5) / n,
            1,
            _B_cos5()[0],
            E2,
            20000,
            lambda K: 1 / (mp.sin(mp.pi / 5) * (K + 1)),
        )
    ),
    others=True,
)
_Q7 = lambda: mp.mpf(1) / 7  # noqa: E731
add(
    "sign/alternating-geometric-seventh",
    ["--rpe", "(-1)**n*exp(-n/7)", *eps_args(E3)],
    True,
    "sum (-q)^n = -q/(1 + q), q = e^(-1/7); R_k = (-q)^(k+1)/(1 + q), |R_k|/|B| = q^k.",
    cached(lambda: (-mp.exp(-_Q7()) / (1 + mp.exp(-_Q7())), TINY)),
    geo_trf(_Q7, E3),
    others=True,
)
_TH4 = cached(lambda: ((mp.jtheta(4, 0, mp.exp(-mp.mpf(1) / 50)) - 1) / 2, TINY))
add(
    "sign/alternating-gaussian-fifty",
    ["--rpe", "(-1)**n*exp(-n**2/50)", *eps_args(E3)],
    True,
    "sum (-1)^n q^(n^2) = (theta_4(0, q) - 1)/2, q = e^(-1/50); |R_K| <= b_(K+1) (Leibniz).",
    _TH4,
    cached(
        lambda: R.signed_terms_trf(
            lambda n: (-1) ** int(n) * mp.exp(-(n**2) / 50),
            1,
            _TH4()[0],
            E3,
            200,
            lambda K: mp.exp(-(mp.mpf(K + 1) ** 2) / 50),
        )
    ),
    others=True,
)
_B_etap = cached(lambda: (mp.diff(mp.altzeta, mp.mpf(2) / 3), mp.mpf(10) ** -35))
add(
    "sign/alternating-log-over-sqrt",
    ["--rpe", "(-1)**n*log(n)/n**(2/3)"],
    True,
    "log(n)/n^(2/3) decreases from n = 5 (e^(3/2) < 5): Leibniz. B = eta'(2/3) (eta the "
    "alternating zeta: eta'(s) = sum (-1)^n log(n) n^-s).",
    _B_etap,
    others=True,
)

# ---------------------------------------------------------------------------------------
# (e) Nasty input: exit 2 and one error line
# ---------------------------------------------------------------------------------------
_REFUSE = [
    ["--rpe", "frobnicate(n)/n**2"],
    ["--rpe", "__import__('os').getpid()"],
    ["--rpe", "lambda: 0"],
    ["--rpe", ""],
    ["--rpe", "   "],
    ["--rpe", "log(n - 5)", "--start", "3"],
    ["--rpe", "1/log(n/2)"],
    ["--rpe", "sqrt(n - 10)/n**3"],
    ["--rpe", "exp(-2*n)", "--eps", "0"],
    ["--rpe", "exp(-2*n)", "--eps", "1.5"],
    ["--rpe", "exp(-2*n)", "--eps", "nan"],
    ["--rpe", "exp(-2*n)", "--eps", "-0.1"],
    ["--rpe", "1/n**2 + (", "--eps", "0.1"],
    ["--rpe", "(n).__dict__"],
    ["--rpe", "1/n**2; import os"],
    ["--rpe", "1/(n - 2)**2", "--start", "-3"],
    ["--rpe", "alibi", "--param", "k=abc"],
    ["--rpe", "alibi", "--param", "k=nan"],
    ["--rpe", "1/n**4", "--start", "1e400"],
]
for _i, _args in enumerate(_REFUSE):
    add(f"refuse/{_i:02d}", _args, None, "malformed, undefined or out-of-domain input: refused.")
add(
    "refuse/tower-exponent-decaying",
    ["--rpe", "n**(-10**10**10)", "--eps", "0.1"],
    True,
    "b_1 = 1, b_n = n^(-10^(10^10)) beyond: converges, B = 1 + 2^-(10^10^10) + ... (a clean "
    "refusal of the 10^(10^10)-digit exponent is honest).",
    error_ok=True,
)
add(
    "refuse/tower-exponent-growing",
    ["--rpe", "n**(10**10**10)"],
    False,
    "b_n >= 1: diverges (a clean refusal of the tower exponent is honest).",
    error_ok=True,
)
add(
    "refuse/tower-constant",
    ["--rpe", "10**10**10*exp(-n)"],
    True,
    "a constant times e^-n converges (B = 10^(10^10)/(e - 1); a clean refusal is honest).",
    error_ok=True,
)

# ---------------------------------------------------------------------------------------
# (f) Free-parameter families
# ---------------------------------------------------------------------------------------
fam(
    "free/bertrand-two-parameters",
    ["--rpe", "1/(n**p*log(n + 1)**q)", "--free", "p", "--free", "q"],
    lambda d: d["p"] > 1 or (d["p"] == 1 and d["q"] > 1),
    [{"p": p, "q": q} for p in (0.5, 1, 2) for q in (-1, 0, 1, 2)],
    "Bertrand: p > 1 converges, p < 1 diverges, p = 1 needs q > 1 (condensation).",
)
fam(
    "free/n-squared-geometric",
    ["--rpe", "n**2*x**n", "--free", "x", "--assume", "x>0"],
    lambda d: d["x"] < 1,
    [{"x": v} for v in (0.5, 1, 2)],
    "ratio x (1 + 1/n)^2 -> x; at x = 1 the terms n^2 grow.",
)
fam(
    "free/sin-2n-squared-over-power",
    ["--rpe", "sin(2*n)**2/n**p", "--free", "p"],
    lambda d: d["p"] > 1,
    [{"p": v} for v in (0, 1, 1.5, 3)],
    "sin^2(2n) = (1 - cos 4n)/2: the cosine part converges for p > 0 (Dirichlet), the "
    "constant part 1/(2 n^p) needs p > 1; for p <= 0 the terms do not tend to 0.",
)
fam(
    "free/exp-rate-and-power",
    ["--rpe", "n**b*exp(-a*n)", "--free", "a", "--free", "b"],
    lambda d: d["a"] > 0 or (d["a"] == 0 and d["b"] < -1),
    [{"a": a, "b": b} for a in (-1, 0, 1) for b in (-2, -1, 0, 1)],
    "a > 0: geometric beats any power; a < 0: grows; a = 0: the p-series n^b.",
)
fam(
    "free/loglog-exponent",
    ["--rpe", "n**(-1 - a/log(log(n)))", "--free", "a", "--start", "3"],
    lambda d: d["a"] > 0,
    [{"a": v} for v in (-1, 0, 0.5, 2)],
    "b = e^(-a log n/log log n)/n: for a > 0 below 1/(n log(n)^2) eventually; a = 0 "
    "harmonic; a < 0 above 1/n.",
)

# ---------------------------------------------------------------------------------------
# (g) Extremes: starts, constants, rates
# ---------------------------------------------------------------------------------------
_N15 = mp.mpf(10) ** 15
add(
    "extreme/telescoping-start-1e15",
    ["--rpe", "2/(n**2 + 2*n)", "--start", "1000000000000000", *eps_args(E3)],
    True,
    "2/(n(n + 2)) = 1/n - 1/(n + 2), N = 10^15: B = 1/N + 1/(N + 1), R_j = 1/(N + j) + "
    "1/(N + j + 1) (exact rationals): TRF ~ 10^15 (1/eps - 1).",
    exact(Fraction(1, 10**15) + Fraction(1, 10**15 + 1)),
    frac_tail(
        lambda j: Fraction(1, 10**15 + j) + Fraction(1, 10**15 + j + 1),
        Fraction(1, 10**15) + Fraction(1, 10**15 + 1),
        E3,
        hi=10**20,
    ),
    start=10**15,
)
add(
    "extreme/exp-minus-5000-over-n2",
    ["--rpe", "exp(-5000)/n**2", *eps_args(E3)],
    True,
    "B = e^-5000 zeta(2) ~ 1e-2172 (below float64); TRF that of 1/n^2: zeta(2, j + 1) < "
    "eps zeta(2).",
    cached(lambda: (mp.exp(-5000) * mp.zeta(2), mp.exp(-5000) * mp.mpf(10) ** -45)),
    cached(lambda: R.trf_from_tail(lambda j: mp.zeta(2, j + 1), mp.zeta(2), E3)),
)
add(
    "extreme/exp-5000-telescoping-ties",
    ["--rpe", "exp(5000)/(n**2 + n)", *eps_args(E3)],
    True,
    "B = e^5000 (1/(n(n+1)) telescopes), R_j = e^5000/(j + 1): R_j < eps B iff j + 1 > 1/eps; "
    "ties at j + 1 = 1/eps: TRF 10, 100, 1000.",
    cached(lambda: (mp.exp(5000), mp.exp(5000) * mp.mpf(10) ** -45)),
    frac_tail(lambda j: Fraction(1, j + 1), 1, E3),
)
_K200 = lambda: mp.mpf(10) ** -200  # noqa: E731
add(
    "extreme/exp-minus-1e-200-n",
    ["--rpe", "exp(-1e-200*n)", *eps_args(E3)],
    True,
    "q = e^(-1e-200) (the decimal typed): B = 1/(e^(1e-200) - 1) ~ 1e200; TRF = "
    "floor(1e200 ln(1/eps)) + 1 ~ 10^200.36.",
    cached(lambda: (1 / mp.expm1(_K200()), mp.mpf(10) ** 160)),
    cached(
        lambda: {e: ("log10", float(mp.log10(mp.log(1 / R.eps_mp(e)) / _K200())), 1e-9) for e in E3}
    ),
)
add(
    "extreme/shifted-geometric-tiny-eps",
    ["--rpe", "exp(-n - 3)", "--eps", "0.5", "1e-300", "0.999999"],
    True,
    "B = e^-4/(1 - 1/e); R_j/B = e^-j: TRF = floor(ln(1/eps)) + 1 = 1, 691, 1.",
    cached(lambda: (mp.exp(-4) / -mp.expm1(-1), TINY)),
    geo_trf(1, (0.5, 1e-300, 0.999999)),
)
_N5 = 5000
add(
    "extreme/exp-minus-5000-n2-geometric",
    ["--rpe", "exp(-5000)*n**2*exp(-n)", *eps_args(E3)],
    True,
    "sum n^2 q^n = q (1 + q)/(1 - q)^3, q = 1/e: B = e^-5000 q (1 + q)/(1 - q)^3.",
    cached(
        lambda: (
            mp.exp(-_N5) * mp.exp(-1) * (1 + mp.exp(-1)) / (1 - mp.exp(-1)) ** 3,
            mp.exp(-_N5) * mp.mpf(10) ** -45,
        )
    ),
    cached(
        lambda: R.trf_from_terms(
            [mp.mpf(n) ** 2 * mp.exp(-n) for n in range(1, 100)],
            mp.exp(-1) * (1 + mp.exp(-1)) / (1 - mp.exp(-1)) ** 3,
            E3,
        )
    ),
)
add(
    "extreme/alternating-start-1e15",
    ["--rpe", "(-1)**n/(2*n)", "--start", "1000000000000000", "--eps", "0.5"],
    True,
    "N = 10^15 even: B = sum_m (-1)^m/(2 (N + m)) = (psi((N + 1)/2) - psi(N/2))/4 ~ 1/(4N).",
    cached(
        lambda: (
            (mp.digamma((_N15 + 1) / 2) - mp.digamma(_N15 / 2)) / 4,
            mp.mpf(10) ** -50,
        )
    ),
    others=True,
    start=10**15,
)

#: series for the Ctrl-C trials (each runs long enough to be interrupted)
SIGINT_SERIES = [
    ["--rpe", "1/(n*log(n)*log(log(n))*log(log(log(n)))**(3/2))", "--start", "16"],
    ["--rpe", "(-1)**floor(sqrt(2*n))/n"],
]

#: no extra cases: the whole set runs by default
EXTRA_CASES: list[Case] = []
assert len({c.id for c in CASES}) == len(CASES)
