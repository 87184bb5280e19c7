"""Claims of the InfoScale / CosScale paper (infoscale-cosscale.txt), ids ``infoscale-*``.

Every numbered equation, assumption, theorem and appendix step of Sec. 3 / App. A.4-A.6,
the tables whose numbers follow from formulas or from each other, and the experimental
claims (registered as "cannot be checked here" with the reason).
"""
from __future__ import annotations

import functools
import math

import mpmath as mp
import numpy as np
import sympy as sp

from paper_checks.infoscale import tables as T
from paper_checks.registry import APPROX, CANNOT, FAILS, HOLDS, Verdict, claim
from theory.infoscale.cosscale import (cosscale_logits, eta_star, eta_star_series, eta_star_symbolic,
                             mc_peak, tilted_mode_numeric)
from theory.infoscale.hypersphere_entropy import (cos_moments, lln_entropy, mc_lln_entropy, mc_softmax_entropy,
                                        sample_cosines, sphere_normaliser)
from theory.infoscale.infoscale import (consistent_eps, drift_grid, eq10_entropy, eq12_entropy,
                              infoscale, laplace_entropy, softmax_plus_scale, training_alpha)
from theory.infoscale.derivation import infoscale_derivation

P = "infoscale"


def _claim(id, location, statement, kind="numeric"):
    return claim(id=id, paper=P, location=location, statement=statement, kind=kind)


@functools.lru_cache(maxsize=2)
def _derivation(quick: bool):
    rep = infoscale_derivation(quick=quick).verify(seed=0)
    return {r.step.label: r for r in rep.results}


def _step(ctx, label):
    return _derivation(bool(ctx.quick))[label]


def _step_verdict(ctx, label, ok_status=HOLDS, summary=""):
    r = _step(ctx, label)
    ev = r.as_dict()
    if r.verdict == "refuted":
        return Verdict(FAILS, summary or f"refuted: {r.note}", ev)
    if r.verdict in ("proved", "verified numerically"):
        return Verdict(ok_status, summary or f"{r.verdict} (sympy={r.symbolic}; numeric "
                       f"max error {r.max_error:.2g})", ev)
    return Verdict(APPROX, summary, ev, error=r.max_error, measured_range=str(r.worst_point))


@functools.lru_cache(maxsize=2)
def _grid(quick: bool):
    mults = (1, 4, 16, 64) if quick else (1, 2, 4, 8, 16, 32, 64)
    return drift_grid(multipliers=mults, method="bessel")


# ====================================================================== Sec. 2, Eqs. 2-7
@_claim("infoscale-eq5", "Eq. 5", "The attention entropy equals -sum lambda q k e^{..}/Z + "
        "log Z (Z = sum of e^{lambda q k}).", "symbolic")
def eq5(ctx):
    return _step_verdict(ctx, "attention entropy of softmax(lambda q k)")


@_claim("infoscale-eq6", "Eqs. 6-7", "softmax(q k / sqrt d) = softmax(|q||k| cos theta / "
        "sqrt d); with |q||k| replaced by a constant S it is scaled cosine attention.")
def eq6(ctx):
    rng = np.random.default_rng(0)
    q, k = rng.standard_normal((5, 16)), rng.standard_normal((7, 16))
    direct = q @ k.T
    via_cos = cosscale_logits(q, k, 1.0) * np.outer(np.linalg.norm(q, axis=1),
                                                   np.linalg.norm(k, axis=1))
    err = float(np.max(np.abs(direct - via_cos)))
    return Verdict(HOLDS if err < 1e-12 else FAILS, f"identity; max |difference| {err:.1e} "
                   "on random 16-dim vectors", {"max_abs_diff": err})


# =============================================================== Sec. 3.1, InfoScale
@_claim("infoscale-assumption3.1", "Assumption 3.1 / Eq. 8", "Law of large numbers: the "
        "softmax normaliser sum_j e^{x_j} ~ n E[e^x], so H ~ log n + log E[e^x] - E[x e^x]/E[e^x].")
def a31(ctx):
    a0 = training_alpha(64, 128)
    trials = 60 if ctx.quick else 200
    rows = []
    for n in (64, 512, 4096):
        mc = mc_softmax_entropy(n, 128, a0, trials, seed=0)
        rows.append({"n": n, "finite_n_entropy": mc["entropy"], "se": mc["stderr"],
                     "lln_entropy": float(lln_entropy(n, 128, a0, "bessel"))})
    err = max(abs(r["finite_n_entropy"] - r["lln_entropy"]) for r in rows)
    # E[w^2]/E[w]^2 for w = e^{alpha eta}, exactly (Bessel); exp(alpha^2/d) is only its
    # small-alpha Gaussian approximation (3144 here, 3.7x too large)
    ratio = float(mp.exp(cos_moments(2 * a0, 128, "bessel")[0]
                         - 2 * cos_moments(a0, 128, "bessel")[0]))
    r0 = rows[0]
    return Verdict(FAILS, f"At the paper's own operating point (d=128, alpha=lambda v d="
                   f"{a0:.1f} from Eq. 14, n_tr=64) the true mean softmax entropy over n random "
                   f"unit keys differs from the law-of-large-numbers value by up to {err:.2f} "
                   f"nats (n=64: {r0['finite_n_entropy']:.2f} +- {r0['se']:.2f} vs "
                   f"{r0['lln_entropy']:.2f}). The LLN needs n >> E[w^2]/E[w]^2 = "
                   f"{ratio:.0f} (w = e^(alpha eta), exact via Bessel).",
                   {"rows": rows, "alpha": a0, "second_moment_ratio": ratio},
                   error=err, measured_range="d=128, n in {64, 512, 4096}")


@_claim("infoscale-assumption3.2", "Assumption 3.2", "Embeddings with per-coordinate "
        "variance v lie on a sphere of radius sqrt(v d); then lambda q k = alpha cos theta, "
        "alpha = lambda v d, with cos theta distributed as for uniform directions.")
def a32(ctx):
    rng = np.random.default_rng(0)
    out = {}
    for d in (32, 128, 768):
        x = rng.standard_normal((20000, d))
        r2 = np.sum(x * x, axis=1) / d
        out[d] = {"rel_sd_norm_sq": float(r2.std()), "theory_sqrt_2_over_d": math.sqrt(2 / d)}
    return Verdict(APPROX, "For Gaussian initialisation |q|^2/(v d) has relative spread "
                   f"sqrt(2/d) ({out[128]['rel_sd_norm_sq']:.3f} at d=128), so the sphere is "
                   "approximate; the cosine law of independent isotropic vectors is exactly "
                   "p_d (checked in infoscale-eq9). Nothing guarantees it after training (the "
                   "paper says so in Sec. 3.2).", {"by_d": out},
                   error=out[128]["rel_sd_norm_sq"], measured_range="d=32..768, Gaussian init")


@_claim("infoscale-eq9", "Eq. 9 / App. A.4 density", "Under Assumption 3.2 the expectations "
        "of Eq. 8 are the sin^{d-2}-weighted integrals of Eq. 9.")
def eq9(ctx):
    pts = [(32, 10.0), (128, 32.1), (768, 80.0)]
    rows, worst = [], 0.0
    for d, a in pts:
        v = {m: lln_entropy(64, d, a, m) for m in ("theta", "eta", "bessel")}
        spread = float(max(v.values()) - min(v.values()))
        mc = mc_lln_entropy(64, d, a, samples=100_000 if ctx.quick else 400_000, seed=0)
        z = (mc["entropy"] - float(v["bessel"])) / mc["stderr"]
        worst = max(worst, spread)
        rows.append({"d": d, "alpha": a, "H": float(v["bessel"]), "route_spread": spread,
                     "mc": mc["entropy"], "mc_se": mc["stderr"], "z": z, "ess": mc["ess"]})
    ok = worst < 1e-10 and all(abs(r["z"]) < 4 for r in rows)
    return Verdict(HOLDS if ok else FAILS, f"Quadrature in theta, quadrature in eta and the "
                   f"Bessel closed form agree to {worst:.1e}; Monte Carlo on random unit "
                   f"vectors agrees within {max(abs(r['z']) for r in rows):.1f} standard errors.",
                   {"rows": rows, "normaliser_d128": float(sphere_normaliser(128))})


@_claim("infoscale-a4-density", "App. A.4/A.5", "p_n(theta) = Gamma(n/2)/(Gamma((n-1)/2) "
        "sqrt(pi)) sin^{n-2} theta is the density of the angle on the n-sphere.")
def a4_density(ctx):
    return _step_verdict(ctx, "hypersphere normaliser")


@_claim("infoscale-a4-laplace-point", "App. A.4", "g1 = alpha cos + d log sin is stationary "
        "at cos theta* = (-d + sqrt(d^2 + 4 alpha^2))/(2 alpha) with g1'' = -alpha(cos + 1/cos).",
        "symbolic")
def a4_point(ctx):
    r1, r2 = _step(ctx, "Laplace point theta_1^*"), _step(ctx, "curvature at theta_1^*")
    ok = r1.verdict == "proved" and r2.verdict == "proved"
    return Verdict(HOLDS if ok else FAILS, f"stationary point: {r1.verdict}; curvature: "
                   f"{r2.verdict}", {"point": r1.as_dict(), "curvature": r2.as_dict()})


@_claim("infoscale-a4-denominator", "App. A.4", "int_0^pi sin^{d-2} theta d theta = "
        "sqrt(2 pi / d) (written as an equality).")
def a4_den(ctx):
    rows = {d: float(sphere_normaliser(d) / math.sqrt(2 * math.pi / d) - 1)
            for d in (32, 64, 128, 768)}
    return Verdict(APPROX, "Not an equality: the exact value is sqrt(pi) Gamma((d-1)/2)/"
                   f"Gamma(d/2); sqrt(2 pi/d) is its Laplace approximation, relative error "
                   f"{rows[128]:.2e} at d=128 (~3/(4d)).", {"relative_error_by_d": rows},
                   error=rows[32], measured_range="d = 32..768")


def _path_points(quick):
    """(n, d, alpha) along InfoScale's own path: alpha_tr from Eq. 14 times InfoScale."""
    for d in ((32, 128) if quick else (32, 128, 768)):
        for nt in (64, 512):
            a0 = training_alpha(nt, d)
            for m in (1, 64):
                yield nt * m, d, a0 * infoscale(nt * m, nt, d)


@_claim("infoscale-assumption3.3", "Assumption 3.3 / App. A.4", "Laplace's approximation "
        "of the three integrals of Eq. 9 gives the entropy log n + d log sin theta* + "
        "1/2 log(d / (alpha (cos theta* + 1/cos theta*))).")
def a33(ctx):
    rows = [{"n": n, "d": d, "alpha": a, "exact": float(lln_entropy(n, d, a, "bessel")),
             "laplace": float(laplace_entropy(n, d, a))} for n, d, a in _path_points(ctx.quick)]
    err = max(abs(r["exact"] - r["laplace"]) for r in rows)
    return Verdict(APPROX, f"Along InfoScale's path (alpha from Eq. 14 times InfoScale, n up "
                   f"to 64 n_tr) the Laplace entropy is off by at most {err:.3f} nats "
                   "(d replaces d-2, Gaussian tails).", {"rows": rows}, error=err,
                   measured_range="d in {32,128,768}, n_tr in {64,512}, n in {n_tr, 64 n_tr}")


@_claim("infoscale-a4-sqrt-identity", "App. A.4", "With alpha = d sqrt(t): sin^2 theta* = "
        "(sqrt(4t+1)-1)/(2t) and lambda v (cos theta* + 1/cos theta*) = sqrt(4t+1).", "symbolic")
def a4_sqrt(ctx):
    r1 = _step(ctx, "sin^2 theta* = (sqrt(4t+1)-1)/(2t)")
    r2 = _step(ctx, "lambda v (cos theta* + 1/cos theta*) = sqrt(4t+1)")
    r3 = _step(ctx, "substitute r^2 = v d (alpha = d sqrt(t))")
    ok = r1.verdict == r2.verdict == "proved" and r3.verdict == "verified numerically"
    return Verdict(HOLDS if ok else FAILS, f"sin^2 identity: {r1.verdict}; curvature identity: "
                   f"{r2.verdict} (sympy, in s = sqrt(4t+1)); their insertion into the Laplace "
                   f"entropy: {r3.verdict} (max error {r3.max_error:.1g})",
                   {"sin2": r1.as_dict(), "curvature": r2.as_dict(), "combined": r3.as_dict()})


@_claim("infoscale-a4-drop-term", "App. A.4 -> Eq. 10", "The term -1/2 log sqrt(4t+1) "
        "vanishes as lambda -> 0, v -> 0 and can be dropped.")
def a4_drop(ctx):
    r = _step(ctx, "drop -1/4 log(4t+1) (Eq. 10)")
    return Verdict(APPROX, f"Dropped term is exactly -1/4 log(1+4t); along t = 1 - n^(-2/d) "
                   f"it is at most {r.max_error:.3f} nats over the grid.", r.as_dict(),
                   error=r.max_error, measured_range=str(r.worst_point))


@_claim("infoscale-a4-v-to-zero", "App. A.4, Eq. 11", "The approximations hold because "
        "lambda -> 0 and v -> 0.")
def a4_v(ctx):
    rows = {f"d={d},n_tr={nt}": {"v": training_alpha(nt, d) / math.sqrt(d),
                                  "t": (training_alpha(nt, d) / d) ** 2}
            for d in (32, 128, 768) for nt in (64, 512)}
    v128 = rows["d=128,n_tr=64"]["v"]
    return Verdict(FAILS, f"Eq. 14 itself fixes v = 1/K = sqrt(d (1 - e^(2eps/d) n_tr^(-2/d))) "
                   f"= {v128:.2f} at d=128, n_tr=64, eps=0: v does not tend to 0 (lambda = "
                   "1/sqrt d is fixed too). Only t = lambda^2 v^2 is small, and the Taylor step "
                   "needs d t^2 small, not t (see infoscale-eq12).", {"by_setting": rows})


@_claim("infoscale-eq10", "Eq. 10", "H ~ log n + (d/2) log((sqrt(4t+1)-1)/(2t)), t = "
        "lambda^2 v^2.")
def eq10(ctx):
    rows = [{"n": n, "d": d, "alpha": a, "exact": float(lln_entropy(n, d, a, "bessel")),
             "eq10": float(eq10_entropy(n, d, a))} for n, d, a in _path_points(ctx.quick)]
    err = max(abs(r["exact"] - r["eq10"]) for r in rows)
    return Verdict(APPROX, f"Eq. 10 vs the exact Eq. 9 entropy along InfoScale's path: "
                   f"max error {err:.3f} nats.", {"rows": rows}, error=err,
                   measured_range="d in {32,128,768}, n in {n_tr, 64 n_tr}")


@_claim("infoscale-eq11", "Eq. 11 / App. A.4", "sqrt(4t+1) - 1 = 2t - 2t^2 + o(t^3).",
        "symbolic")
def eq11(ctx):
    s = sp.Symbol("t", positive=True)
    ser = sp.series(sp.sqrt(4 * s + 1) - 1, s, 0, 5).removeO()
    lim = sp.limit((sp.sqrt(4 * s + 1) - 1 - 2 * s + 2 * s ** 2) / s ** 3, s, 0)
    return Verdict(FAILS, f"Only the printed remainder is wrong (in Sec. 3.1 and App. A.4 "
                   f"alike): sqrt(4t+1) - 1 = {sp.sstr(sp.expand(ser))} + O(t^5), so "
                   f"remainder/t^3 -> {lim} and the remainder is O(t^3) (or o(t^2)), not o(t^3). "
                   "The two-term expansion 2t - 2t^2 itself is right and is all Eq. 12 uses; "
                   "the slip is notational. What goes wrong at Eq. 12 is the size of the "
                   "dropped terms (infoscale-eq12).",
                   {"series": sp.sstr(ser), "limit_remainder_over_t3": int(lim)})


@_claim("infoscale-eq12", "Eq. 12", "Substituting Eq. 11: H ~ log n + (d/2) log(1 - t) = eps.")
def eq12(ctx):
    r = _step(ctx, "Taylor step: Eq. 10 -> log n + d/2 log(1-t)")
    rows = [{"n": n, "d": d, "alpha": a, "exact": float(lln_entropy(n, d, a, "bessel")),
             "eq12": float(eq12_entropy(n, d, a))} for n, d, a in _path_points(ctx.quick)]
    err = max(abs(x["exact"] - x["eq12"]) for x in rows)
    wp = {k: round(float(v), 4) for k, v in (r.worst_point or {}).items()}
    # the step's own error (d/2)[log(2/(sqrt(4t+1)+1)) - log(1-t)] at d=128, t = 1 - n^(-2/d)
    tay = {nn: float(eq10_entropy(nn, 128, 128 * math.sqrt(1 - nn ** (-2 / 128)))
                     - eq12_entropy(nn, 128, 128 * math.sqrt(1 - nn ** (-2 / 128))))
           for nn in (64, 4096)}
    e10 = max(abs(float(eq10_entropy(x["n"], x["d"], x["alpha"])) - x["exact"]) for x in rows)
    return Verdict(FAILS, f"The Taylor step alone changes the entropy by up to {r.max_error:.2f} "
                   f"nats (at {wp}; error ~ d t^2, which is not small although t is); at d=128 "
                   f"it is {tay[64]:.2f} nats at n=64 and {tay[4096]:.2f} at n=4096, and the "
                   f"difference ({tay[4096] - tay[64]:.2f}) is InfoScale's whole exact drift "
                   "there (infoscale-entropy-invariance). Eq. 12 vs the exact entropy on "
                   f"InfoScale's path: up to {err:.2f} nats, while Eq. 10 before the step is "
                   f"within {e10:.2f} nats (infoscale-eq10).",
                   {"taylor_step": r.as_dict(), "rows": rows, "taylor_error_d128": tay},
                   error=err,
                   measured_range="d in {32,128,768}, n in {n_tr, 64 n_tr}")


@_claim("infoscale-eq12-eps", "Eq. 12 / Sec. 4.1.2", "eps is the (constant) entropy of the "
        "attention; the experiments use eps = 0.")
def eq12_eps(ctx):
    rows = []
    for d, nt in ((128, 64), (128, 512), (768, 64)):
        a0 = training_alpha(nt, d)
        mc = mc_softmax_entropy(nt, d, a0, 40 if ctx.quick else 150, seed=0)
        rows.append({"d": d, "n_tr": nt, "alpha_tr": a0, "eq12": float(eq12_entropy(nt, d, a0)),
                     "exact_lln": float(lln_entropy(nt, d, a0, "bessel")),
                     "finite_n_mc": mc["entropy"], "finite_n_se": mc["stderr"]})
    r = rows[0]
    return Verdict(FAILS, f"With eps = 0 Eq. 12 asserts zero entropy (one-hot attention) at "
                   f"n_tr; at d=128, n_tr=64 the exact Eq. 9 entropy is {r['exact_lln']:.2f} "
                   f"nats and the real finite-n entropy {r['finite_n_mc']:.2f} +- "
                   f"{r['finite_n_se']:.2f} nats. eps only labels a calibration; it is not the "
                   "entropy.", {"rows": rows})


@_claim("infoscale-eq13", "Eq. 13", "Solving Eq. 12: lambda = sqrt(1 - e^{2eps/d} n^{-2/d})/v.",
        "symbolic")
def eq13(ctx):
    return _step_verdict(ctx, "solve Eq. 12 = eps for lambda (Eq. 13)")


@_claim("infoscale-eq14", "Eq. 14", "lambda = 1/sqrt(d) at n = n_tr gives K = 1/sqrt((1 - "
        "e^{2eps/d} n_tr^{-2/d}) d).", "symbolic")
def eq14(ctx):
    return _step_verdict(ctx, "K from lambda = 1/sqrt(d) at n = n_tr (Eq. 14)")


@_claim("infoscale-eq15", "Eq. 15", "lambda = InfoScale / sqrt(d) with InfoScale = sqrt((1 - "
        "e^{2eps/d} n^{-2/d}) / (1 - e^{2eps/d} n_tr^{-2/d})).", "symbolic")
def eq15(ctx):
    return _step_verdict(ctx, "InfoScale (Eq. 15)")


@_claim("infoscale-table6", "Table 6 (App. A.8)", "The scale temperatures: InfoScale = "
        "sqrt((1 - n^{-2/d})/(1 - n_tr^{-2/d})), Softmax Plus log_512 n, pre-softmax "
        "(0.1 ln(n/n_tr) + 1)^2.")
def table6(ctx):
    got = infoscale(4096, 512, 128)
    ref = math.sqrt((1 - 4096 ** (-2 / 128)) / (1 - 512 ** (-2 / 128)))
    return Verdict(HOLDS, f"Table 6's InfoScale is Eq. 15 at eps = 0 ({got:.6f} = {ref:.6f} "
                   "at n=4096, n_tr=512, d=128); Softmax Plus is log_512 n; the pre-softmax "
                   "column is the square of sqrt(1/t) as stated.",
                   {"infoscale": got, "softmax_plus_4096": softmax_plus_scale(4096, 512)})


@_claim("infoscale-entropy-invariance", "Sec. 3.1, Abstract", "Scaling lambda by InfoScale "
        "keeps the attention entropy invariant as n grows (training-free).")
def invariance(ctx):
    rows = _grid(bool(ctx.quick))
    top = [r for r in rows if r["n"] == 64 * r["n_tr"]]
    ev = {f"d={r['d']},n_tr={r['n_tr']}": {"infoscale": r["drift"]["infoscale"],
                                            "none": r["drift"]["none"],
                                            "softmax_plus": r["drift"]["softmax_plus"],
                                            "infoscale_factor": r["scale"]["infoscale"],
                                            "invariant_factor": r["scale"]["invariant"]}
          for r in top}
    worst = max(abs(r["drift"]["infoscale"]) for r in rows)
    w10 = max(abs(r["eq10_no_taylor"]["drift"]) for r in rows)
    for r in top:
        ev[f"d={r['d']},n_tr={r['n_tr']}"]["eq10_no_taylor"] = r["eq10_no_taylor"]
    k = ev["d=128,n_tr=64"]
    # not an artefact of eps = 0: any alpha_tr with its Eq.-12-consistent eps (d=128, 64 -> 4096)
    other = {}
    for a0 in (8.0, 16.0, 24.0, 40.0):
        e = consistent_eps(64, 128, a0)
        other[a0] = {"eps": e, "drift": float(lln_entropy(4096, 128, infoscale(4096, 64, 128, e)
                                                          * a0, "bessel")
                                              - lln_entropy(64, 128, a0, "bessel"))}
    lo = min(v["drift"] for v in other.values())
    return Verdict(FAILS, f"Under the paper's own Assumptions 3.1-3.2 (exact Eq. 9, alpha_tr "
                   f"from Eq. 14, eps = 0) InfoScale leaves an entropy drift of up to "
                   f"{worst:.2f} nats at 64 n_tr (d=32); at d=128, n_tr=64: {k['infoscale']:.2f} "
                   f"nats (no scaling {k['none']:.2f}, log_n_tr n {k['softmax_plus']:.2f}); "
                   f"invariant factor {k['invariant_factor']:.3f} vs InfoScale "
                   f"{k['infoscale_factor']:.3f}. It is nearly invariant only at d=768 (<= 0.33 "
                   "nats). Other calibrations (alpha_tr 8..40 at d=128 with the eps that makes "
                   f"Eq. 12 hold at n_tr) still drift >= {lo:.2f} nats at 64 n_tr. The culprit "
                   "is the Taylor step: solving Eq. 10 exactly gives "
                   "InfoScale * (n/n_tr)^(2/d), which with its own calibration keeps the exact "
                   f"entropy within {w10:.3f} nats on the same grid.",
                   {"at_64x": ev, "other_calibrations_d128_ntr64_n4096": other},
                   error=worst,
                   measured_range="d in {32,64,128,768}, n_tr in {64,512}, n <= 64 n_tr")


@_claim("infoscale-ntr-consistency", "Secs. 4.1.2, 4.2, 4.5, Table 6", "The text says which "
        "training length n_tr enters InfoScale (Eq. 14) in the experiments: 64 or 512.")
def ntr(ctx):
    # Audit note: an earlier version called 64 vs 512 a contradiction.  On a fair reading they
    # are two stages (the original GAU-alpha checkpoint pre-trained at 512, the authors'
    # training at 64), so the finding is an ambiguity, not an inconsistency.
    return Verdict(CANNOT, "Not a contradiction: 64 is the authors' training length (Sec. "
                   "4.1.2; 4096 = 64 x 64 matches the abstract's '64 times'), 512 the length the "
                   "original GAU-alpha was trained with (Sec. 4.2 says 'the original GAU-alpha "
                   "model', Sec. 4.5 'pre-training length'; Softmax Plus uses log_512). But the "
                   "text never says which one is n_tr in InfoScale (Eq. 14 speaks of 'pre-"
                   "trained by a maximum length n_tr'), and it matters: InfoScale(4096) = "
                   f"{infoscale(4096, 64, 128):.3f} with n_tr=64 but "
                   f"{infoscale(4096, 512, 128):.3f} with n_tr=512 (d=128, eps=0).",
                   {"infoscale_ntr64": infoscale(4096, 64, 128),
                    "infoscale_ntr512": infoscale(4096, 512, 128)})


# ================================================================ Sec. 3.2, CosScale
@_claim("infoscale-eq16", "Eq. 16", "E[a_ij] = (1/n^2) sum_ij e^{alpha cos theta_ij} ~ "
        "E[e^{alpha cos theta}].")
def eq16(ctx):
    n_pairs, seeds = (200_000, 2) if ctx.quick else (1_000_000, 4)
    etas = [sample_cosines(128, n_pairs, np.random.default_rng(k)) for k in range(seeds)]
    rows = []
    for a in (8, 16, 32, 64, 128):
        logm = float(cos_moments(a, 128, "bessel")[0])
        # log of the sample mean, computed as log(mean(e^{a eta - a})) + a to avoid overflow
        gaps = [logm - (float(np.log(np.mean(np.exp(a * e - a)))) + a) for e in etas]
        # E[w^2]/E[w]^2 (w = e^{alpha eta}), exactly: the sample size the average needs
        ratio_log = float(cos_moments(2 * a, 128, "bessel")[0]) - 2 * logm
        rows.append({"alpha": a, "log_exact": logm, "gap_nats_by_seed": gaps,
                     "log_second_moment_ratio": ratio_log})
    bad = [r for r in rows if max(abs(g) for g in r["gap_nats_by_seed"]) > 0.1]
    g = rows[-1]["gap_nats_by_seed"]
    return Verdict(FAILS if bad else APPROX, f"With {n_pairs} random pairs at d=128 the "
                   "sample mean tracks E[e^{alpha eta}] for small alpha but not at the "
                   f"paper's CosScale: at alpha=128 it falls short by {min(g):.1f} to "
                   f"{max(g):.1f} nats over {seeds} seeds (it is dominated by pairs it never "
                   "samples: it needs n^2 >> E[w^2]/E[w]^2 = e^"
                   f"{rows[-1]['log_second_moment_ratio']:.0f}, w = e^(alpha eta)). Eq. 18 "
                   "does not depend on this step.", {"rows": rows, "pairs": n_pairs, "d": 128})


@_claim("infoscale-eq17", "Eq. 17 / App. A.5", "With eta = cos theta, p_d(eta) is "
        "proportional to (1-eta^2)^{(d-3)/2} and E[e^{alpha eta}] = I1/I0.")
def eq17(ctx):
    return _step_verdict(ctx, "same integral in eta = cos theta")


@_claim("infoscale-a5-derivative", "App. A.5", "p1'(eta) = alpha e^{alpha eta}(1-eta^2)^{(d-3)/2}"
        " - (d-3) eta e^{alpha eta} (1-eta^2)^{(d-5)/2}; zero iff alpha(1-eta^2) = (d-3) eta.",
        "symbolic")
def a5_deriv(ctx):
    a, d, e = sp.symbols("alpha d eta", positive=True)
    f = sp.exp(a * e) * (1 - e ** 2) ** ((d - 3) / 2)
    paper = (a * sp.exp(a * e) * (1 - e ** 2) ** ((d - 3) / 2)
             - (d - 3) * e * sp.exp(a * e) * (1 - e ** 2) ** ((d - 5) / 2))
    diff = sp.simplify(sp.diff(f, e) - paper)
    factor = sp.simplify(paper / (sp.exp(a * e) * (1 - e ** 2) ** ((d - 5) / 2))
                         - (a * (1 - e ** 2) - (d - 3) * e))
    ok = diff == 0 and factor == 0
    return Verdict(HOLDS if ok else FAILS, f"sympy: derivative difference {diff}, factored "
                   f"condition difference {factor}", {"diff": str(diff), "factor": str(factor)})


@_claim("infoscale-eq18", "Eq. 18", "The maximum of the integrand of I1 is at eta* = (-(d-3) + "
        "sqrt((d-3)^2 + 4 alpha^2)) / (2 alpha).", "symbolic")
def eq18(ctx):
    sym = eta_star_symbolic()
    grid = [(a, d) for a in (8, 16, 32, 64, 96, 128, 256) for d in (4, 16, 32, 64, 128, 768)]
    err = max(abs(tilted_mode_numeric(a, d) - eta_star(a, d)) for a, d in grid)
    mc = [mc_peak(a, 128, 50_000, 10, 0, "wood") for a in (8, 64, 256)]
    z = [abs(r["peak"] - r["kde_bias"] - r["eta_star"]) / r["stderr"] for r in mc]
    ok = sym["matches_eq18"] and err < 1e-7 and max(z) < 4
    return Verdict(HOLDS if ok else FAILS, f"sympy solves alpha(1-eta^2) = (d-3) eta to Eq. 18 "
                   f"(root in (0,1)); Brent's numeric mode agrees to {err:.1e} over alpha 8..256, "
                   f"d 4..768; vMF Monte Carlo peaks at d=128 within {max(z):.1f} s.e.",
                   {"numeric_max_abs": err, "mc_d128": mc, "z": z,
                    "symbolic_root": str(sym["eta_star"])})


@_claim("infoscale-thm3.4", "Thm 3.4 / App. A.5", "eta* increases with CosScale alpha and "
        "tends to 1 as alpha grows.", "symbolic")
def thm34(ctx):
    sym = eta_star_symbolic()
    vals = {a: eta_star(a, 128) for a in (8, 16, 32, 64, 128, 256)}
    mono = all(np.diff(list(vals.values())) > 0)
    need95 = 125 * 0.95 / (1 - 0.95 ** 2)
    return Verdict(HOLDS if sym["limit"] == 1 and mono else FAILS,
                   "For the attention-weighted (tilted) cosine law: limit 1 (sympy), strictly "
                   f"increasing; but slowly: at d=128, eta* = {vals[8]:.3f} (alpha=8) .. "
                   f"{vals[256]:.3f} (alpha=256); eta* = 0.95 needs alpha = {need95:.0f}. "
                   "Correct rate: 1 - eta* = (d-3)/(2 alpha) - (d-3)^2/(8 alpha^2) + O(alpha^-4).",
                   {"eta_star_d128": vals, "series": str(sym["one_minus_series"])})


@_claim("infoscale-thm3.4-asymptotic", "Thm 3.4 (rate, not stated in the paper)",
        "1 - eta* ~ (d-3)/(2 alpha) as alpha -> infinity.", "symbolic")
def thm34_rate(ctx):
    rows = []
    for a in (8, 32, 128, 256, 1024, 8192):
        ex = 1 - eta_star(a, 128)
        rows.append({"alpha": a, "exact": ex, "lead_rel_err": eta_star_series(a, 128, 1) / ex - 1,
                     "two_term_rel_err": eta_star_series(a, 128, 2) / ex - 1})
    r256 = rows[3]
    a, m = sp.symbols("alpha m", positive=True)   # m = d - 3
    one_minus = 1 - (-m + sp.sqrt(m ** 2 + 4 * a ** 2)) / (2 * a)   # Eq. 18
    lim = sp.limit(one_minus / (m / (2 * a)), a, sp.oo)
    # an asymptotic equivalence is exact or false; its finite-alpha accuracy is reported
    # below, not folded into the verdict (an earlier version said "holds approximately")
    return Verdict(HOLDS if lim == 1 else FAILS, "Holds as an asymptotic statement: sympy "
                   f"gives lim (1 - eta*) / ((d-3)/(2 alpha)) = {lim} as alpha -> oo (Eq. 18; "
                   "next term -(d-3)^2/(8 alpha^2)). It is useful only "
                   f"for alpha >> d-3: at d=128 the leading term is off by "
                   f"{r256['lead_rel_err']:.1%} at alpha=256 and exceeds 1 (meaningless) below "
                   f"alpha = 62.5; two terms: {r256['two_term_rel_err']:.2%} at alpha=256. For "
                   "alpha << d-3, eta* ~ alpha/(d-3) instead.",
                   {"rows": rows, "limit_of_ratio": str(lim)}, error=r256["lead_rel_err"],
                   measured_range="d=128, alpha 8..8192")


@_claim("infoscale-thm3.4-unweighted", "Thm 3.4 statement", "Read literally, under "
        "Assumption 3.2: the peak of the QK (cosine) distribution before RoPE shifts toward 1 as "
        "CosScale grows.")
def thm34_unweighted(ctx):
    eta = sample_cosines(128, 200_000, np.random.default_rng(0))
    hist, edges = np.histogram(eta, bins=81, range=(-0.4, 0.4))
    mode = float(0.5 * (edges[np.argmax(hist)] + edges[np.argmax(hist) + 1]))
    return Verdict(FAILS, "Not implied by the derivation: under Assumption 3.2 the cosine law "
                   "p_d(eta) ~ (1-eta^2)^((d-3)/2) does not involve alpha at all and peaks at "
                   f"eta = 0 for every alpha (random-vector histogram at d=128: mode {mode:.3f}, "
                   "bin width 0.01). Eq. 18 is the peak of the attention-weighted law "
                   "e^{alpha eta} p_d(eta) (that reading holds: infoscale-thm3.4); a shift of "
                   "the raw QK histogram of trained models (Fig. 6) can only come from "
                   "training and is not checkable here.", {"unweighted_mode_d128": mode,
                                                           "exact_mode": 0.0})


@_claim("infoscale-fig4", "Fig. 4 / App. A.6.1", "Theoretical eta* of Eq. 18 agrees closely "
        "with the experimental peak for CosScale 8..256.")
def fig4(ctx):
    from figures.infoscale import make_fig4
    res = make_fig4(ctx.outdir, quick=True)
    c = res["comparison"]
    return Verdict(CANNOT, "The paper's experimental peaks come from a trained GAU-alpha "
                   "(not available). What can be checked holds: for the tilted law of random "
                   f"vectors, vMF Monte Carlo peaks match Eq. 18 within {c['max_abs_z_wood']:.1f}"
                   " s.e. over alpha 8..256, d 16..128; reweighting uniform random vectors "
                   f"is usable at only {c['reweight_usable_points']}/{c['points']} points "
                   "(effective size ~ N exp(-alpha^2/d)).", c, figures=[res["png"]])


@_claim("infoscale-sec3.2-figref", "Sec. 3.2 (after Eq. 18)", "Figure 5 illustrates the "
        "relationship between alpha and eta*.")
def figref(ctx):
    return Verdict(FAILS, "Wrong cross-reference: the alpha-eta* plot is Figure 4 (App. A.6.1); "
                   "Figure 5 shows QK heatmaps before/after RoPE.")


@_claim("infoscale-thm3.5", "Thm 3.5 / App. A.6.2 / Fig. 5", "RoPE becomes more dominant in "
        "the attention score as alpha increases (q_i k_j converge for all j).")
def thm35(ctx):
    rows = [{"alpha": a, "raw_cos_sd": 1 / math.sqrt(128), "raw_logit_sd": a / math.sqrt(128),
             "tilted_mean_cos": float(cos_moments(a, 128, "bessel")[1])}
            for a in (8, 32, 128, 256)]
    return Verdict(CANNOT, "Needs a trained GAU-alpha with RoPE (heatmaps of Fig. 5). The "
                   "argument offered (from Thm 3.4) concerns the attention-weighted cosine law; "
                   "under Assumption 3.2 the raw cosines keep spread 1/sqrt(d) and the logit "
                   "spread alpha/sqrt(d) grows with alpha, so Thm 3.5 does not follow from "
                   "Thm 3.4 without training effects.", {"rows": rows})


# ========================================================= tables and text vs tables
def _acc(table, row, length):
    return T.cells(table[row])[T.LENGTHS.index(length)][1]


def _ppl(table, row, length):
    return T.cells(table[row])[T.LENGTHS.index(length)][0]


@_claim("infoscale-table4", "Table 4 (App. A.1.1)", "WJ dataset statistics: 80% train split; "
        "average/min/max lengths per split.")
def table4(ctx):
    names = ("train", "evaluation", "test")
    bad = [n for i, n in enumerate(names)
           if not T.TABLE4["min length"][i] <= T.TABLE4["average length"][i]
           <= T.TABLE4["max length"][i]]
    frac = T.TABLE4["number of samples"][0] / sum(T.TABLE4["number of samples"])
    return Verdict(FAILS if bad else HOLDS, f"Train fraction {frac:.4f} (80% holds), but the "
                   f"{', '.join(bad)} column is impossible: min 20987 > average 18971 > max "
                   "15959 (it would be consistent with min and max swapped).",
                   {"train_fraction": frac, "bad_columns": bad})


def compatible(a: str, b: str) -> bool:
    """Two printed cells can describe one number: equal, or a censored bound ('<0.1', '>500')
    against a 2-decimal value that could round from inside the bound."""
    if a == b:
        return True
    for x, y in ((a, b), (b, a)):
        if x[0] in "<>" and y[0] not in "<>":
            bound, val = float(x[1:]), float(y)
            return val - 0.005 < bound if x[0] == "<" else val + 0.005 > bound
    return False


@_claim("infoscale-tables-consistency", "Tables 1, 5, 7, 8, 9, 10, 2, 3", "Rows repeated "
        "across tables report the same numbers.")
def tables_consistency(ctx):
    pairs = [(f"{name}: {row}", vals, T.TABLE1.get(row)) for name, src in
             (("Table 5", T.TABLE5), ("Table 7", T.TABLE7), ("Table 8", T.TABLE8))
             for row, vals in src.items()]
    both = "GAU-α w/ C.S., I.S."
    pairs += [("Table 10 vs 9: GAU-α w/ C.S.", T.TABLE10["GAU-α w/ C.S."], T.TABLE9["128"]),
              ("Table 10 vs 2", T.TABLE10[both], T.TABLE2[both]),
              ("Table 10 vs 3", T.TABLE10["GAU-α w/ I.S."], T.TABLE3["GAU-α w/ I.S."])]
    differ, clash = [], []
    for where, x, y in pairs:
        for i, (a, b) in enumerate(zip(x.split(), (y or "").split())):
            if a != b:
                cell = {"where": where, "length": T.LENGTHS[i // 2],
                        "metric": "ACC" if i % 2 else "PPL", "printed": (a, b)}
                (differ if compatible(a, b) else clash).append(cell)
    missing = [w for w, _, y in pairs if y is None]
    # Audit note: an earlier version called PoSE@2048 ACC '<0.1' (Table 5) vs '0.10' (Tables
    # 1/7/8) a disagreement; both are true of any ACC in [0.095, 0.1).
    return Verdict(FAILS if clash or missing else HOLDS, f"{len(pairs)} repeated rows compared "
                   f"cell by cell: {len(clash)} contradictions, {len(missing)} rows missing from "
                   f"Table 1. {len(differ)} cell(s) printed differently but compatible: " +
                   "; ".join(f"{c['where']} at {c['length']} {c['metric']} {c['printed'][0]!r} "
                             f"vs {c['printed'][1]!r}" for c in differ) +
                   (" (true of any ACC in [0.095, 0.1))." if differ else "."),
                   {"contradictions": clash, "compatible_differences": differ,
                    "missing": missing, "rows_compared": len(pairs)})


@_claim("infoscale-sec4.2.3-ratios", "Sec. 4.2.3", "PoSE ACC improves 15.699x (C.S.) -> "
        "16.957x (C.S.+I.S.); ReRoPE 10.771x -> 11.371x at 4096.")
def ratios(ctx):
    out = {}
    for row, r1, r2 in (("PoSE", 15.699, 16.957), ("ReRoPE", 10.771, 11.371)):
        a1 = _acc(T.TABLE1, f"{row} w/ C.S.", 4096)
        a2 = _acc(T.TABLE1, f"{row} w/ C.S., I.S.", 4096)
        base = (a1 / r1)
        lo, hi = (a2 - 0.005) / ((a1 + 0.005) / r1), (a2 + 0.005) / ((a1 - 0.005) / r1)
        out[row] = {"implied_base_acc": base, "ratio_range_from_rounding": (lo, hi),
                    "claimed": r2, "consistent": lo <= r2 <= hi}
    ok = all(v["consistent"] for v in out.values())
    return Verdict(HOLDS if ok else FAILS, "Consistent with Table 1 up to rounding; the implied "
                   f"base accuracies ({out['PoSE']['implied_base_acc']:.3f}, "
                   f"{out['ReRoPE']['implied_base_acc']:.3f}) are printed only as '<0.1'.", out)


@_claim("infoscale-sec4.2.3-synergy", "Sec. 4.2.3", "CosScale + InfoScale together give a "
        "boost greater than the sum of their individual contributions.")
def synergy(ctx):
    rows = []
    for m in ("PoSE", "ReRoPE", "YaRN(s=16)", "YaRN(s=32)", "StreamingLLM", "LM-Infinite"):
        for n in (1024, 2048, 4096):
            b, c = _acc(T.TABLE1, m, n), _acc(T.TABLE1, f"{m} w/ C.S.", n)
            i, ci = _acc(T.TABLE1, f"{m} w/ I.S.", n), _acc(T.TABLE1, f"{m} w/ C.S., I.S.", n)
            if None in (b, c, i, ci):
                continue
            rows.append({"method": m, "n": n, "gain_both": round(ci - b, 4),
                         "sum_of_gains": round((c - b) + (i - b), 4),
                         "superadditive": ci - b > (c - b) + (i - b),
                         "superadditive_ratio": ci / b > (c / b) * (i / b)})
    n_sup = sum(r["superadditive"] for r in rows)
    n_mul = sum(r["superadditive_ratio"] for r in rows)
    # the paper's own example: ReRoPE at 4096, base ACC implied by its 10.771x (printed '<0.1')
    base = _acc(T.TABLE1, "ReRoPE w/ C.S.", 4096) / 10.771
    own = {"implied_base": base, **{k: _acc(T.TABLE1, f"ReRoPE w/ {k}", 4096) - base
                                    for k in ("C.S.", "I.S.", "C.S., I.S.")}}
    return Verdict(FAILS, f"ACC gains in Table 1 (uncensored cells, n >= 1024) are "
                   f"superadditive in only {n_sup} of {len(rows)} cases ({n_mul} as ratios); "
                   "e.g. ReRoPE at 1024: both +0.57 vs C.S. +0.55 plus I.S. +0.11; PoSE at "
                   "1024: +0.28 vs +0.27 + 0.14. Even the paper's own example, ReRoPE at 4096 "
                   f"with the base ACC its 10.771x implies ({base:.3f}), gives both "
                   f"+{own['C.S., I.S.']:.3f} < C.S. +{own['C.S.']:.3f} plus I.S. "
                   f"+{own['I.S.']:.3f}.", {"rows": rows, "rerope_4096_paper_example": own})


@_claim("infoscale-sec4.2.2-all-gain", "Sec. 4.2.2", "Except PI and ALiBi, all methods gain "
        "from CosScale at 4k.")
def all_gain(ctx):
    rows = {}
    for m, cs in (("PoSE", "PoSE w/ C.S."), ("StreamingLLM", "StreamingLLM w/ C.S."),
                  ("YaRN(s=16)", "YaRN(s=16) w/ C.S."), ("YaRN(s=32)", "YaRN(s=32) w/ C.S."),
                  ("W.A.", "W.A.(C.S.=16) w/ C.S."), ("LM-Infinite", "LM-Infinite w/ C.S."),
                  ("ReRoPE", "ReRoPE w/ C.S.")):
        p0, p1 = _ppl(T.TABLE1, m, 4096), _ppl(T.TABLE1, cs, 4096)
        a0, a1 = _acc(T.TABLE1, m, 4096), _acc(T.TABLE1, cs, 4096)
        rows[m] = {"ppl": (p0, p1), "acc": (a0, a1),
                   "gain": (p0 is None or p1 < p0) and (a0 is None or a1 >= a0)}
    losers = [m for m, r in rows.items() if not r["gain"]]
    return Verdict(FAILS if losers else HOLDS, f"Exceptions in Table 1 at 4096: {losers} "
                   "(W.A. PPL 4.24 -> 4.44, ACC 0.71 -> 0.71).", {"rows": rows})


@_claim("infoscale-sec4.2.1", "Sec. 4.2.1", "At 4k InfoScale boosts ReRoPE's ACC nearly "
        "tenfold and halves its PPL; it improves ACC for most baselines.")
def sec421(ctx):
    return Verdict(CANNOT, "Not checkable from the paper's own tables: ReRoPE at 4096 is "
                   "printed as PPL '>500', ACC '<0.1' (censored), against 311.24 / 0.12 with "
                   "InfoScale; tenfold needs a base ACC of ~0.012. Of 9 baselines, ACC rises at "
                   "4096 for 5 (StreamingLLM, YaRN x2, W.A., ReRoPE), is unchanged for "
                   "LM-Infinite (0.37), censored for 3.")


@_claim("infoscale-sec4.2.4", "Sec. 4.2.4, Tables 2-3", "InfoScale beats Softmax Plus in ACC "
        "in all conditions without CosScale, and overall with CosScale.")
def sec424(ctx):
    no_cs = [(n, _acc(T.TABLE3, "GAU-α w/ I.S.", n), _acc(T.TABLE3, "GAU-α w/ softmax+", n))
             for n in T.LENGTHS]
    with_cs = [(n, _acc(T.TABLE2, "GAU-α w/ C.S., I.S.", n),
                _acc(T.TABLE2, "GAU-α w/ C.S., softmax+", n)) for n in T.LENGTHS]
    wins = sum(1 for _, a, b in no_cs if a is not None and a > b)
    ties_beyond = [n for n, a, b in with_cs if n > 512 and a == b]
    return Verdict(HOLDS, f"Without CosScale InfoScale's ACC is higher at {wins}/5 uncensored "
                   f"lengths (4096 censored). With CosScale the ACC is identical at "
                   f"{ties_beyond} (all lengths beyond 512) and PPL is higher at 1024 and "
                   "2048: the 'overall' advantage comes only from n <= 512.",
                   {"no_cosscale": no_cs, "with_cosscale": with_cs})


@_claim("infoscale-sec4.3.2", "Sec. 4.3.2, Table 9", "Best CosScale: 32 at n=128, 256 at 1024, "
        "128 at 4096; CosScale 128 has the highest average ACC.")
def sec432(ctx):
    keys = [k for k in T.TABLE9 if k != "600"]
    best = {}
    for n in (128, 1024, 4096):
        best[n] = min(keys, key=lambda k: _ppl(T.TABLE9, k, n) or 1e9)
    avg = {k: float(np.mean([_acc(T.TABLE9, k, n) or 0.05 for n in T.LENGTHS])) for k in T.TABLE9}
    top = max(avg, key=avg.get)
    ok = best == {128: "32", 1024: "256", 4096: "128"} and top == "128"
    return Verdict(HOLDS if ok else FAILS, f"Best PPL by length {best}; highest mean ACC at "
                   f"CosScale {top} ({avg[top]:.3f}; '<0.1' counted as 0.05).",
                   {"best_ppl": best, "mean_acc": avg})


@_claim("infoscale-sec4.5", "Sec. 4.5, Table 10", "InfoScale + CosScale is best beyond the "
        "pre-training length 512.")
def sec45(ctx):
    rows = {n: {k: T.cells(v)[T.LENGTHS.index(n)] for k, v in T.TABLE10.items()}
            for n in (1024, 2048, 4096)}
    both = "GAU-α w/ C.S., I.S."
    ok = all(rows[n][both][1] >= max(a for _, a in rows[n].values() if a is not None)
             for n in rows)
    return Verdict(HOLDS if ok else FAILS, "Best or tied-best ACC at 1024 (tie with C.S. alone, "
                   "5.03/0.68), best at 2048 and 4096.", {str(k): v for k, v in rows.items()})


@_claim("infoscale-method-count", "Abstract / Sec. 1 / Sec. 5", "The methods the paper says "
        "it improves on are the ones it evaluates (abstract: 'outperforms seven existing "
        "methods'; conclusion: 'improves ... eight'; introduction: nine named, incl. CLEX).")
def method_count(ctx):
    base = [m for m in T.TABLE1 if " w/ " not in m]            # 9 rows, YaRN twice
    families = sorted({m.split("(")[0] for m in base})           # 8 methods
    improved = [m for m in base if _improved_at_4096(m)]
    # Audit note: an earlier version called 7 vs 8 a contradiction; both counts are borne out
    # by Table 1 on the natural readings, so only the CLEX claim remains unsupported.
    return Verdict(FAILS, f"The counts 7 and 8 are reconcilable: Table 1 has {len(families)} "
                   f"baseline methods (the conclusion's eight), and adding C.S. + I.S. improves "
                   f"{len(improved)} of its {len(base)} baseline rows at 4096 (all but "
                   f"{', '.join(m for m in base if m not in improved)}), i.e. "
                   f"{len({m.split('(')[0] for m in improved})} methods (the abstract's "
                   "seven). Not supported: the introduction claims improvements over CLEX, "
                   "which appears in no table, experiment or appendix (Sec. 4 and App. A.2 list "
                   "the same eight methods without it).",
                   {"table1_methods": families, "improved_at_4096": improved})


def _improved_at_4096(method: str) -> bool:
    row = f"{method} w/ C.S., I.S."
    if method.startswith("W.A."):
        row = "W.A.(C.S.=16) w/ C.S., I.S."
    (p0, a0), (p1, a1) = (T.cells(T.TABLE1[r])[-1] for r in (method, row))
    better_ppl = p1 is not None and (p0 is None or p1 < p0)
    better_acc = a1 is not None and (a0 is None or a1 > a0)
    return (better_ppl or better_acc) and not (a0 and a1 and a1 < a0)


@_claim("infoscale-experiments", "Tables 1-3, 5, 7-10; Figs. 2, 3, 6, 7", "Measured PPL/ACC "
        "of GAU-alpha variants on the WJ patent data up to 4096 tokens; attention histograms "
        "and heatmaps; training curves.")
def experiments(ctx):
    return Verdict(CANNOT, "Needs the GAU-alpha checkpoints, the WJ/LongData-Corpus data and "
                   "400-epoch training on 4 V100s; none is available offline here. Internal "
                   "consistency of the tables is checked by the other infoscale-table/sec "
                   "claims.")


@_claim("infoscale-sec4.3.1", "Sec. 4.3.1, Fig. 6", "As CosScale increases the cos theta "
        "histogram sharpens toward 1 and attention concentrates near the diagonal (windowed).")
def sec431(ctx):
    return Verdict(CANNOT, "Needs trained models at each CosScale (Fig. 6). Under Assumption "
                   "3.2 alone the raw histogram does not depend on CosScale (see "
                   "infoscale-thm3.4-unweighted).")
