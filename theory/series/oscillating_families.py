r"""Oscillating families with free parameters decided by Dirichlet's test and by an exact
splitting of an alternating quotient.

* :func:`~theory.series.oscillating_parts.collected_oscillation` writes
  :math:`b_n = G(n)\,t(n)`, the summands of b sharing one oscillating factor t up to
  constants (``sin(n)/n**p - sin(n)/n**q``: :math:`G = n^{-p} - n^{-q}`, :math:`t = \sin n`).
* :func:`dirichlet_family`: t a trigonometric polynomial free of the parameters,
  :math:`t(n) = \sum_j c_j e^{i\theta_j n}`, every :math:`\theta_j \notin 2\pi\mathbb{Z}`
  (sin/cos of linear arguments, ``(-1)**n``, or a periodic sign such as
  ``(-1)**floor(n/2)``, whose residue classes give :math:`\theta_j = 2\pi k/q`), not 0 at
  every integer; G exp-log.  For every value of the parameters G lies in a Hardy field,
  so it is eventually monotone with a limit in :math:`[-\infty, \infty]`.  Where
  :math:`G \to 0` the partial sums of :math:`e^{i\theta_j n}` are at most
  :math:`1/|\sin(\theta_j/2)|` and Dirichlet's test gives convergence; where not,
  :math:`|G| \ge c > 0` for large n while t(n) does not tend to 0 (its mean square over n
  is the sum of its squared amplitudes, > 0): the terms do not tend to 0.  So the series
  converges exactly where :math:`G \to 0` (``(-1)**floor(n/2)/n**p`` iff p > 0;
  ``sin(n)/n**p - sin(n)/n**q`` iff (p > 0 and q > 0) or p = q).  The sign of G does
  not matter: G may change sign with the parameters.  A t of mean :math:`c_0 \ne 0`
  (``(-1)**floor(2*n/3)``, mean 1/3) leaves :math:`c_0 \sum G` where G -> 0 (G of one
  sign).
* :func:`sine_frequency_family`: :math:`t = \sin(\theta n)` with a frequency θ that holds
  the parameters, G exp-log (it may hold parameters too).  Where
  :math:`\theta \in \pi\mathbb{Z}` (:math:`\sin\theta = 0`) every term is 0; elsewhere
  :math:`\pm\theta \notin 2\pi\mathbb{Z}`: Dirichlet's test gives convergence where
  :math:`G \to 0`, and where not :math:`|G| \ge c > 0` while :math:`\sin(\theta n)` does not
  tend to 0 (:math:`\sin^2 = (1 - \cos 2\theta n)/2` has mean 1/2).  So the region is
  :math:`G \to 0` or :math:`\sin\theta = 0` (``sin(a*n)/n**p``: ``p > 0 or sin(a) = 0``).
* :func:`cosine_frequency_family`: :math:`t = \cos(\theta n)` with a frequency θ that
  holds the parameters and G exp-log (it may hold parameters too), of one sign.  Where
  :math:`\theta \notin 2\pi\mathbb{Z}` (:math:`\cos\theta \ne 1`) the partial sums of
  :math:`\cos(\theta n)` are at most :math:`1/|\sin(\theta/2)|`: Dirichlet's test gives
  convergence where :math:`G \to 0`, and where not the terms do not tend to 0
  (:math:`\cos^2 = (1 + \cos 2\theta n)/2` has mean 1/2 or is 1).  Where
  :math:`\theta \in 2\pi\mathbb{Z}`, :math:`\cos(\theta n) = 1` for every integer n and
  :math:`b_n = G(n)`.  Since :math:`\sum G` converges only where G -> 0, the region is
  :math:`G \to 0` and (:math:`\cos\theta \ne 1` or :math:`\sum G` converges)
  (``cos(a*n)/n``: ``cos(a) != 1``, i.e. a not a multiple of 2 pi; ``cos(a*n)/n**p``:
  ``p > 1 or (cos(a) != 1 and p > 0)``).  The lattice points :math:`\theta = 2\pi`
  (:math:`\pi` for the sine) are decided again by the confirmation.
* :func:`alternating_quotient_family`: :math:`b_n = (-1)^n a/(d + (-1)^n e)` with a, d,
  e exp-log and :math:`g = e/d \to 0`.  With :math:`x = (-1)^n g`,

  .. math:: b_n = \frac{(-1)^n a/d}{1 + x} = (-1)^n \frac{a}{d} - \frac{a e}{d^2}\,\frac{1}{1 + x}

  exactly ((-1)^n x = g).  Once :math:`|g| \le 1/2`, :math:`1/(1 + x) \in [2/3, 2]`, so the
  second part has one sign and lies within a factor 3 of :math:`a e/d^2`: its sum converges
  iff :math:`\sum a e/d^2` does (comparison).  The first part converges where
  :math:`a/d \to 0` (Leibniz: a/d exp-log, eventually monotone); where not,
  :math:`|b_n| \ge |a/d|/2` does not tend to 0.  So the series converges iff
  :math:`a/d \to 0` and :math:`\sum a e/d^2` converges: ``(-1)**n/(n**p + (-1)**n)``
  (n >= 2) converges iff p > 1/2, since :math:`a e/d^2 = n^{-2p}`.

Each function decides one sign case (the parameters positive symbols) and returns the
region where the series converges (a condition on them), or None when the family does not
apply or a step is unsure (never a guess).
"""

from __future__ import annotations

import itertools
from collections.abc import Callable

import sympy as sp

from theory.core.budget import StepTimeout, step_budget
from theory.series.conditions import bool_text, normal_form
from theory.series.decision import Decision, Undecided, require_defined_somewhere
from theory.series.eventual_signs import periodic_pieces
from theory.series.expressions import N
from theory.series.family_parts import exp_log, sign_for_all, summable_region, zero_region
from theory.series.limits import STEP_BUDGET
from theory.series.oscillating_parts import collected_oscillation
from theory.series.periodic_means import analytic_periodic_mean
from theory.series.sign_changing import nonzero_at_integers, oscillating_split
from theory.series.trig_minorants import frequency_pieces

DecidePositive = Callable[..., Decision]

#: power terms of G whose cancellations are enumerated, at most
MAX_POWER_TERMS = 4


def _power_terms(G: sp.Expr) -> list | None:
    """[(c_i, e_i)] with G = sum c_i n^e_i, c_i nonzero real numbers and e_i free of n."""
    terms = []
    for u in sp.Add.make_args(G):
        c, rest = u.as_coeff_Mul()
        if rest == 1 or not (c.is_real and c != 0):
            return None
        if rest == N:
            e = sp.Integer(1)
        elif isinstance(rest, sp.Pow) and rest.base == N and not rest.exp.has(N):
            e = rest.exp
        else:
            return None
        terms.append((c, e))
    return terms if 0 < len(terms) <= MAX_POWER_TERMS else None


def power_sum_zero_region(terms: list) -> sp.Basic:
    r"""Where :math:`\sum_i c_i n^{e_i} \to 0`: the terms with equal exponents collected,
    every exponent whose collected coefficient is not 0 is negative.  For each i:
    :math:`e_i < 0`, or the set S of the j with :math:`e_j = e_i` has
    :math:`\sum_{j \in S} c_j = 0`.

    >>> p, q = sp.symbols("p q", real=True)
    >>> power_sum_zero_region([(1, -p), (-1, -q)])
    Eq(p, q) | ((p > 0) & (q > 0))
    """
    idx = range(len(terms))
    clauses = []
    for i, (_, ei) in enumerate(terms):
        options = [ei < 0]
        others = [j for j in idx if j != i]
        for r in range(len(others) + 1):
            for chosen in itertools.combinations(others, r):
                S = (i, *chosen)
                if sum(terms[j][0] for j in S) != 0:
                    continue
                options.append(
                    sp.And(
                        *(sp.Eq(terms[j][1], ei) for j in chosen),
                        *(sp.Ne(terms[j][1], ei) for j in others if j not in chosen),
                    )
                )
        clauses.append(sp.Or(*options))
    return sp.simplify_logic(normal_form(sp.And(*clauses)))


def _g_zero_region(G: sp.Expr, params: list) -> tuple:
    """(region where G -> 0, sample points) for G exp-log of any sign; raise Undecided."""
    terms = _power_terms(G)
    if terms is not None:
        return power_sum_zero_region(terms), []
    s = sign_for_all(G, params)
    if s is None:
        raise Undecided(f"the sign of {G} is not known for every value of the parameters")
    return zero_region(s * G, params)


def _trig_pieces(t: sp.Expr) -> tuple | None:
    """(c_0, pieces) of t as a trigonometric polynomial, from its frequencies or, for a
    periodic sign, from its residue classes; None for another form."""
    fp = frequency_pieces(t)
    if fp is None:
        fp = periodic_pieces(t)
    return fp


def dirichlet_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """G t, t a trigonometric polynomial free of the parameters (module doc); t is the
    oscillation shared by every summand of b, or the product of b's oscillating factors
    (``(-1)**n*(2 + cos(n))/n**p``)."""
    split = collected_oscillation(b) or oscillating_split(b)
    if split is None:
        return None
    G, t = split
    if t.free_symbols - {N} or not G.free_symbols & set(params) or not exp_log(G):
        return None
    fp = _trig_pieces(t)
    if fp is not None:
        if not fp[1] or not nonzero_at_integers(t):
            return None
        thetas = ", ".join(sorted({str(k) for _, k in fp[1]}))
        c0 = fp[0]
        why = f"t = {t} = {c0} + sum_j c_j e^(i theta_j n), theta_j in {{{thetas}}}, none in 2 pi Z"
        if c0 != 0 and not (c0.is_number and c0.is_real):
            return None
        zero, c0_text = c0 == 0, str(c0)
    else:  # t = H(w n), H analytic and periodic: its Fourier series (periodic_means)
        m = analytic_periodic_mean(t)
        if m is None or not nonzero_at_integers(t):
            return None
        zero, c0_text, why = m.zero, m.mean, f"t = {t}: {m.certificate}"
    if not zero:
        return _with_mean(G, why, c0_text, params, start, decide_positive)
    try:
        region, points = _g_zero_region(G, params)
    except (Undecided, StepTimeout):
        return None
    return Decision(
        None,
        f"b_n = G(n) t(n) with {why}, mean 0, not 0 at every integer, and G = {G} exp-log "
        "(for every value eventually monotone, with a limit): where G -> 0 Dirichlet's test "
        "gives convergence (the partial sums of t are bounded), elsewhere "
        "|G| >= c > 0 for large n while t(n) does not tend to 0 (a positive mean square), "
        f"so the terms do not; G -> 0 iff {bool_text(region)}",
        test="Dirichlet family",
        details={"region": region, "points": points},
    )


def _with_mean(G, why: str, c0: str, params, start, decide_positive) -> Decision | None:
    """G t with t of mean c_0 != 0 (``why``: t and why the partial sums of t - c_0 are
    bounded): where G -> 0 the series has the verdict of c_0 sum G (G of one sign); where
    not, t(n) does not tend to 0 (its mean is not 0) and neither do the terms.  Since sum G
    converges only where G -> 0, the region is where sum G converges
    (``(-1)**floor(2*n/3)/n**p``, mean 1/3: iff p > 1)."""
    s = sign_for_all(G, params)
    if s is None:
        return None
    try:
        region, points, undefined, cert = summable_region(s * G, params, start, decide_positive)
    except (Undecided, StepTimeout):
        return None
    if region is None:
        return None
    return Decision(
        None,
        f"b_n = G(n) t(n) with {why}, and G = {G} exp-log of one sign: where G -> 0, "
        f"sum G (t - c_0) converges (Dirichlet's test), so the series converges iff "
        f"sum G does; elsewhere t(n), of mean c_0 = {c0} != 0, does not tend to 0 and neither "
        f"do the terms; sum G converges only where G -> 0: sum {'' if s > 0 else '-'}G: {cert}",
        test="Dirichlet family",
        details={"region": region, "points": points, "undefined": undefined},
    )


def _frequency_split(b: sp.Expr, trig: type, params: list) -> tuple | None:
    """(G, theta) with b = G trig(theta n), theta a real multiple of n holding the
    parameters and G exp-log in n and the parameters; else None."""
    split = collected_oscillation(b)
    if split is None:
        return None
    G, t = split
    if not (isinstance(t, trig) and exp_log(G)) or G.free_symbols - {N} - set(params):
        return None
    theta = sp.cancel(t.args[0] / N)
    if theta.has(N) or not theta.free_symbols & set(params) or not theta.is_real:
        return None
    return G, theta


def _signed_zero_region(G: sp.Expr, params: list) -> tuple:
    """(sign s of G for large n, region where G -> 0, its points); raise Undecided."""
    used = [p for p in params if G.has(p)]
    s = sign_for_all(G, used)
    if s is None:
        raise Undecided(f"the sign of {G} is not known for every value of the parameters")
    zero, points = zero_region(s * G, used)
    return s, zero, points


def sine_frequency_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """G sin(theta n), the frequency theta holding the parameters (module doc): converges
    iff G -> 0 or sin(theta) = 0."""
    split = _frequency_split(b, sp.sin, params)
    if split is None:
        return None
    G, a = split
    try:
        _, zero, points = _signed_zero_region(G, params)
    except (Undecided, StepTimeout):
        return None
    region = sp.true if zero is sp.true else sp.Or(zero, sp.Eq(sp.sin(a), 0))
    lattice = [] if zero is sp.true else _lattice_points(a, sp.pi)
    return Decision(
        True if zero is sp.true else None,
        f"b_n = G(n) sin(theta n) with theta = {a} and G = {G} exp-log (for every value "
        "eventually monotone, with a limit): where theta is a multiple of pi "
        "(sin(theta) = 0) every term is 0; elsewhere the frequencies +-theta are not "
        "multiples of 2 pi: where G -> 0 the partial sums of sin(theta n) are at most "
        "1/|sin(theta/2)| and Dirichlet's test gives convergence, where not |G| >= c > 0 "
        "while sin(theta n) does not tend to 0 (sin^2 = (1 - cos(2 theta n))/2, mean 1/2), "
        f"so the terms do not; G -> 0 iff {bool_text(zero)}",
        test="Dirichlet family",
        details={"region": region, "points": points + lattice},
    )


def cosine_frequency_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """G cos(theta n), the frequency theta holding the parameters (module doc): converges
    iff G -> 0 and (cos(theta) != 1 or sum G converges)."""
    split = _frequency_split(b, sp.cos, params)
    if split is None:
        return None
    G, a = split
    require_defined_somewhere(b, start)
    try:
        s, zero, points = _signed_zero_region(G, params)
        if zero is sp.false:
            summable, cert, undefined = sp.false, "G does not tend to 0 for any value", False
        else:
            summable, pts, undefined, cert = summable_region(s * G, params, start, decide_positive)
            points = points + pts
    except (Undecided, StepTimeout):
        return None
    if summable is None:
        return None
    region = sp.And(zero, sp.Or(sp.Ne(sp.cos(a), 1), summable))
    lattice = [] if region in (sp.true, sp.false) else _lattice_points(a, 2 * sp.pi, points)
    return Decision(
        None,
        f"b_n = G(n) cos(theta n) with theta = {a} and G = {G} exp-log (for every value "
        "eventually monotone and of one sign, with a limit): where theta is not a multiple "
        "of 2 pi (cos(theta) != 1) the frequencies +-theta are not multiples of 2 pi, so "
        "where G -> 0 the partial sums of cos(theta n) are at most 1/|sin(theta/2)| and "
        "Dirichlet's test gives convergence, and where not |G| >= c > 0 while cos(theta n) "
        "does not tend to 0 (cos^2 = (1 + cos(2 theta n))/2, of mean 1/2 or 1), so the "
        "terms do not; where theta is a multiple of 2 pi (cos(theta) = 1), cos(theta n) = 1 "
        f"and b_n = G(n); G -> 0 iff {bool_text(zero)}; sum "
        f"{'' if s > 0 else '-'}G: {cert}",
        test="Dirichlet family",
        details={"region": region, "points": points + lattice, "undefined": undefined},
    )


def _lattice_points(a: sp.Expr, step: sp.Expr, others: list = ()) -> list:
    """Values of the parameter of a = c p (c a nonzero number) where a = ``step`` (2 pi
    for cos(a) != 1, pi for sin(a) = 0): the boundary of the lattice condition, where the
    confirmation decides the series again; with up to two of the points ``others`` (values
    of the other parameters) each."""
    (p,) = a.free_symbols if len(a.free_symbols) == 1 else (None,)
    if p is None:
        return []
    c = sp.cancel(a / p)
    if c.has(p) or not c.is_number or c == 0:
        return []
    at = step / abs(c)
    extra = [{**w, p: at} for w in list(others)[:2] if p not in w]
    return [{p: at}] + extra


def quotient_parts(b: sp.Expr) -> tuple | None:
    """(a, d, e) with b = (-1)^n a/(d + (-1)^n e), a, d, e exp-log; else None."""
    sign = sp.Pow(-1, N)
    with step_budget(STEP_BUDGET):
        num, den = sp.fraction(sp.together(b))
        num, den = sp.expand(num), sp.expand(den)
    a = sp.cancel(num / sign)
    e = den.coeff(sign)
    d = sp.expand(den - e * sign)
    if any(x.has(sign) or not exp_log(x) for x in (a, d, e)) or e == 0:
        return None
    if not (a.has(N) or d.has(N)):
        return None
    return a, d, e


def alternating_quotient_family(
    b: sp.Expr, params: list, start: int, decide_positive: DecidePositive
) -> Decision | None:
    """(-1)^n a/(d + (-1)^n e) with e/d -> 0 (module doc)."""
    try:
        parts = quotient_parts(b)
    except (StepTimeout, TypeError, ValueError, sp.PolynomialError):
        return None
    if parts is None:
        return None
    a, d, e = parts
    g, lead, rest = e / d, a / d, sp.powsimp(a * e / d**2, force=True)
    s_g, s_lead, s_rest = (sign_for_all(x, params) for x in (g, lead, rest))
    if None in (s_g, s_lead, s_rest):
        return None
    require_defined_somewhere(b, start)
    try:
        small, pts_g = zero_region(s_g * g, params)
        if small is sp.false:
            return _large_alternating_part(a, d, e, params)
        if small is not sp.true:
            return None
        lead_zero, pts_a = zero_region(s_lead * lead, params)
        summable, pts_r, undefined, cert = summable_region(
            s_rest * rest, params, start, decide_positive
        )
    except (Undecided, StepTimeout):
        return None
    if summable is None:
        return None
    return Decision(
        None,
        f"b_n = (-1)^n a/(d + (-1)^n e) with a = {a}, d = {d}, e = {e} exp-log and "
        f"g = e/d -> 0: with x = (-1)^n g, b_n = (-1)^n a/d - (a e/d^2)/(1 + x) exactly, "
        "and once |g| <= 1/2, 1/(1 + x) lies in [2/3, 2]: the second part has one sign and "
        "is within a factor 3 of a e/d^2, so its sum converges iff sum a e/d^2 does; "
        "sum (-1)^n a/d converges where a/d -> 0 (Leibniz, a/d eventually monotone), and "
        "where not |b_n| >= |a/d|/2 does not tend to 0; so the series converges iff "
        f"a/d -> 0 ({bool_text(lead_zero)}) and sum a e/d^2 converges "
        f"({bool_text(summable)}): sum {rest}: {cert}",
        test="alternating quotient family",
        details={
            "region": lead_zero & summable,
            "points": pts_g + pts_a + pts_r,
            "undefined": undefined,
        },
    )


def _large_alternating_part(a, d, e, params) -> Decision | None:
    """d/e -> 0 and a/e not -> 0 at every value: b_n = (a/e)/(1 + (-1)^n d/e) and once
    |d/e| <= 1/2, |b_n| >= (2/3)|a/e|, which does not tend to 0: diverges; else None."""
    h, lead = d / e, a / e
    s_h, s_lead = sign_for_all(h, params), sign_for_all(lead, params)
    if s_h is None or s_lead is None:
        return None
    try:
        if zero_region(s_h * h, params)[0] is not sp.true:
            return None
        lead_zero, points = zero_region(s_lead * lead, params)
    except (Undecided, StepTimeout):
        return None
    if lead_zero is not sp.false:
        return None
    return Decision(
        None,
        f"b_n = (-1)^n a/(d + (-1)^n e) = (a/e)/(1 + (-1)^n d/e) with a = {a}, d = {d}, "
        f"e = {e} exp-log, d/e -> 0 and a/e not -> 0: once |d/e| <= 1/2, "
        "|b_n| >= (2/3)|a/e|, so the terms do not tend to 0: diverges",
        test="alternating quotient family",
        details={"region": sp.false, "points": points},
    )
