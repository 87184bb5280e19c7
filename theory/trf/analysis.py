r"""The full analysis of ``python -m theory.trf`` (:mod:`theory.trf.cli` runs it): its
options, every stage under one budget, and the printed report.

For :math:`b_n = \exp(\mathrm{RPE}(n))` it prints the convergence verdict of
:math:`\sum_{n\ge s} b_n` with its certificate (RPE paper Thm 3.4), the sum :math:`B` with an
error bound, the TRF table (Eq. 22) and the asymptotic order of TRF(eps) as eps -> 0.

>>> run(["--rpe", "1/n**2", "--eps", "0.01", "--json"])  # doctest: +ELLIPSIS
{"series": "n**(-2)", ..."trf": [{"eps": 0.01, "value": 61, "exact": true, ...
0
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Sequence
from types import SimpleNamespace

import sympy as sp

# sympy imports sympy.tensor.tensor (and with it sympy.combinatorics, ~20 ms) on the first
# Add it builds, and sympy.codegen.ast (~80 ms) on the first lambdify: once here, inherited
# by the forked children, instead of once in each child
import sympy.codegen.ast  # noqa: F401
import sympy.tensor.tensor  # noqa: F401

from theory.core import startup
from theory.core.arguments import open_unit_float, output_file, positive_int
from theory.core.budget import BudgetExceeded, run_guarded
from theory.core.cli import CommandParser
from theory.core.cli import dumps as json_dumps
from theory.series.certified_trf import TIE_SECONDS, WideResult, merge_brackets, resolve_ties
from theory.series.comparison import compare_trf
from theory.series.convergence import decide
from theory.series.decision import SeriesError
from theory.series.expressions import (
    ExpressionError,
    keep_products,
    parse_assignments,
    parse_assumptions,
    parse_expression,
)
from theory.series.lower_bounds import partial_sum_bounds, terms_nonnegative
from theory.series.numeric import check_terms, zero_at_integers
from theory.series.product_terms import decide_product, has_product
from theory.series.rpe_library import (
    LIBRARY,
    RPE,
    TAIL_ASSUMPTIONS,
    bias_log_scale,
    formula_log_scale,
    load_bias_file,
    parameter_help,
    resolve_rpe,
)
from theory.series.scale_verdict import quick_verdict
from theory.series.trf_search import analyse_series
from theory.series.truncated import trf_truncated
from theory.trf.brackets import (
    check_product_options,
    product_result,
    stand_in_brackets,
    wide_result,
)
from theory.trf.nonpositive import negate_fields, negated_if_nonpositive
from theory.trf.outward import outward
from theory.trf.plot import plot_trf
from theory.trf.report import (
    FULL_ENGINE,
    QUICK_ENGINE,
    VERDICT_ONLY_HELP,
    answer_fields,
)
from theory.trf.sum_text import exact_scale, human_text, scale_fields, sum_fields, times_scale

EPILOG = (
    """examples:
  python -m theory.trf --rpe "exp(-ln(n)**2)"              # the paper's Type2
  python -m theory.trf --rpe type1 --eps 1e-3 1e-6 --json
  python -m theory.trf --rpe kerple-log --param r=1.5 --param k=1
  python -m theory.trf --rpe "(1 + k*n)**(-r)" --free k --free r --assume "k>0" --assume "r>0"
  python -m theory.trf --rpe "exp(-Abs(k)*n)" --param k=-1  # values go in before simplifying
  python -m theory.trf --bias="-2*ln(n)"                    # the RPE itself: b_n = exp(-2 ln n)
  python -m theory.trf --bias-file bias.npy --bias-tail constant
  python -m theory.trf --rpe type2 --compare type1          # Thm 3.5
  python -m theory.trf --rpe type1 --truncate 10000         # the paper's App. E procedure
  python -m theory.trf --rpe alibi --plot trf_alibi.png
  python -m theory.trf --rpe "1/(n*log(n)**2)" --start 2 --verdict-only  # the verdict alone

named RPEs: """
    + ", ".join(LIBRARY)
    + """ (kerple_log, inv_n, ... are accepted too)
their parameters (--param NAME=VALUE; t5 also takes --bucket-values):
"""
    + parameter_help()
    + """
names in a formula: n, pi, E, the functions, and parameters declared with --param/--free;
free parameters are real unless --assume says more (e.g. --assume "k>0").
index convention: term k (k = 0, 1, ...) is b_{start+k}, the weight at distance k;
TRF(eps) = number of terms needed for the partial sum to exceed B(1-eps) (Eq. 22).
"""
)


DESCRIPTION = (
    "For b_n = exp(RPE(n)) it prints the convergence verdict of sum_{n>=s} b_n with its "
    "certificate (RPE paper Thm 3.4), the sum B with an error bound, the TRF table (Eq. 22) "
    "and the asymptotic order of TRF(eps) as eps -> 0."
)
DEFAULT_TIME_LIMIT = 10.0
DECISION_SHARE = 0.6  # the decision may use this share of the time limit
FREE_PARAMS_DECISION_SHARE = 0.9  # ... and this share with free parameters (nothing follows)
RESERVE = 0.15  # kept for the certified partial information when B is not certified
RESOLVE_SHARE = 0.3  # reading and building the series
CHECK_SHARE = 0.1  # the check that the first terms are finite real numbers
SIGN_SHARE = 0.1  # the proof that every term is <= 0 (B and TRF of -b_n then)


class Deadline:
    """The command's one time budget (wall clock: what the user waits for), counted from
    ``started`` (a ``time.monotonic()`` value; default now).  As a command
    (:data:`theory.core.startup.COMMAND_STARTED` set) it starts the CPU time the process
    has already spent before now: the interpreter's start-up and the imports are inside
    ``--time-limit``.

    >>> Deadline(10.0, started=time.monotonic() - 9.99).left() <= 0.05
    True
    """

    def __init__(self, seconds: float, started: float | None = None):
        begin = time.monotonic() if started is None else started
        self.seconds, self.end = seconds, begin + seconds

    def left(self, share: float = 1.0) -> float:
        return max(0.05, (self.end - time.monotonic()) * share)

    def wall(self, share: float = 1.0) -> float:
        """The wall-clock cap of a stage given ``left(share)`` (here the same seconds)."""
        return self.left(share)


def build_parser() -> argparse.ArgumentParser:
    p = CommandParser(
        prog="python -m theory.trf",
        description=DESCRIPTION,
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    src = p.add_mutually_exclusive_group(required=True)
    src.add_argument("--rpe", help="b_n = exp(RPE) as the paper writes it, or a named RPE")
    src.add_argument("--bias", help="the RPE itself (the attention bias); b_n = exp(BIAS)")
    src.add_argument(
        "--bias-file", help="learned bias, one value per distance 0, 1, ... (.npy or text)"
    )
    p.add_argument(
        "--bias-tail",
        default="constant",
        choices=sorted(TAIL_ASSUMPTIONS),
        help="what is assumed beyond the last value of --bias-file (default: constant)",
    )
    p.add_argument(
        "--bucket-values",
        help="t5: comma-separated bias value of each bucket "
        "(write --bucket-values=-0.1,... when the first value is negative)",
    )
    p.add_argument(
        "--start",
        type=int,
        default=None,
        help="first index n of the series (default 1; a named RPE uses its own)",
    )
    p.add_argument(
        "--eps",
        type=open_unit_float,
        nargs="+",
        default=[0.1, 0.01, 0.001],
        help="the tolerances of the TRF table, TRF(eps) (RPE paper, Eq. 22), each in (0, 1)",
    )
    p.add_argument(
        "--param",
        action="append",
        default=[],
        metavar="NAME=VALUE",
        help="a parameter's value, put in before any simplification",
    )
    p.add_argument(
        "--free",
        action="append",
        default=[],
        metavar="NAME",
        help="a parameter left symbolic (real unless --assume says more)",
    )
    p.add_argument(
        "--assume",
        action="append",
        default=[],
        metavar="'NAME>0'",
        help="an assumption on a free parameter: NAME>0, NAME<0, NAME>=0, NAME<=0",
    )
    p.add_argument(
        "--truncate",
        type=positive_int,
        metavar="M",
        help="also give the paper's truncated TRF (App. E): M terms, B = their sum",
    )
    p.add_argument("--compare", metavar="RPE", help="compare TRFs with this series (Thm 3.5)")
    p.add_argument(
        "--time-limit",
        type=float,
        default=DEFAULT_TIME_LIMIT,
        metavar="SECONDS",
        help="one time budget for the whole command: decision, B and TRF share it; the "
        f"command prints what it has by then (default: {DEFAULT_TIME_LIMIT:g})",
    )
    p.add_argument("--verdict-only", action="store_true", help=VERDICT_ONLY_HELP)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument(
        "--plot",
        metavar="PATH",
        type=output_file,
        help="PNG: TRF against eps and the normalised partial sums (data: "
        "PATH with suffix .json beside it)",
    )
    return p


def _resolve(args):
    params = parse_assignments(args.param)
    if args.bias_file:
        if params:
            raise ExpressionError("--param does not apply to --bias-file")
        return load_bias_file(
            args.bias_file, tail=args.bias_tail, start=0 if args.start is None else args.start
        )
    spec = args.rpe if args.rpe is not None else args.bias
    if args.bucket_values:
        vals = [parse_expression(v) for v in args.bucket_values.split(",")]
        params["values"] = vals
    assumptions = parse_assumptions(args.assume)
    undeclared = sorted(set(assumptions) - set(args.free))
    if undeclared:
        raise ExpressionError(
            f"--assume names {undeclared[0]!r}, which is not declared with --free"
        )
    with keep_products():  # a product without a real closed form: theory.series.product_terms
        rpe = resolve_rpe(
            spec, params, bias=args.bias is not None, free=tuple(args.free), assumptions=assumptions
        )
    other = args.truncate is not None or bool(args.compare) or bool(args.plot)
    check_product_options(rpe, bool(rpe.free_params), other)
    if not has_product(rpe.b) and rpe.head is None and (rpe.b == 0 or zero_at_integers(rpe.b)):
        raise ExpressionError("every term is 0 (b_n = 0): there is no series to analyse")
    if args.start is not None:
        rpe.start = args.start
    if rpe.start < 0:
        raise ExpressionError("--start must be >= 0")
    return rpe


def analyse(args: argparse.Namespace) -> dict:
    """All results as one dict (the --json object)."""
    return _analyse(args)[0]


def _analyse(args: argparse.Namespace) -> tuple[dict, object, object, Deadline]:
    """(the --json object, the series the numbers were computed on, its sum B / exp(M) or
    None, the command's clock).

    Every stage (reading and building the series, the term check, the decision, B and TRF,
    the partial information, --truncate, --compare) runs in a guarded child under what is
    left of ``--time-limit`` (CPU and wall-clock seconds, and the memory cap of
    :mod:`theory.core.budget`), so the command ends within it plus its start-up."""
    if not 0 < args.time_limit <= 3600:
        raise ExpressionError(f"--time-limit must be in (0, 3600] seconds, got {args.time_limit}")
    for e in args.eps:
        if not 0 < e < 1:
            raise ExpressionError(f"--eps values must be in (0, 1), got {e}")
    if args.truncate is not None and args.truncate < 1:
        raise ExpressionError("--truncate must be >= 1")
    verdict_only = getattr(args, "verdict_only", False)
    if verdict_only and (args.truncate is not None or args.compare or args.plot):
        raise ExpressionError("--verdict-only prints no TRF: drop --truncate, --compare, --plot")
    # as a command, the CPU time the process has spent starting (interpreter, imports) is
    # already taken from the limit; waiting for a busy machine's CPUs is not (the stages'
    # budgets count CPU time likewise)
    started = None if startup.COMMAND_STARTED is None else time.monotonic() - time.process_time()
    clock = Deadline(args.time_limit, started)
    rpe = _resolve_within(args, clock)
    # a learned bias far from 0: B = exp(M) x the sum of exp(bias - M), computed on the
    # rescaled series (exact; TRF is invariant under b -> c b)
    # likewise a formula whose log has a constant term M far from 0 (exp(1e308 - n))
    log_scale = bias_log_scale(rpe)
    if log_scale is None and not rpe.free_params:
        log_scale = formula_log_scale(rpe)
    work = rpe if log_scale is None else rpe.scaled(-exact_scale(log_scale))
    n0 = rpe.start + (0 if rpe.head is None else len(rpe.head))
    product = has_product(rpe.b)
    if not rpe.free_params and not product:
        _check_terms_within(work.b, n0, clock)
    # one decision; with free parameters no sum or TRF follows, so it may use nearly all
    share = FREE_PARAMS_DECISION_SHARE if rpe.free_params else DECISION_SHARE
    quick = quick_decision(args, rpe, n0) if log_scale is None and not product else None
    if quick is not None:
        d = quick
    elif product:
        d = _within(clock, "the decision", decide_product, (rpe.b, n0))
    else:
        d = decide(rpe.b, n0, budget=clock.left(share), prime=False, wall=clock.wall(share))
    out = answer_fields(
        series=str(rpe.b),
        name=rpe.name,
        description=rpe.description,
        params={k: str(v) for k, v in rpe.params.items()},
        free_params=rpe.free_params,
        start=rpe.start,
        time_limit=args.time_limit,
        converges=d.converges,
        certificate=d.certificate,
        condition=d.condition,
    )
    if verdict_only:
        out.update(verdict_only=True, decided_by=FULL_ENGINE if quick is None else QUICK_ENGINE)
    if rpe.head is not None:
        out["head_terms"] = int(len(rpe.head))
        out["tail_assumption"] = rpe.tail_assumption
    scaled_sum = None
    if d.converges and not rpe.free_params and not verdict_only:
        if product:
            fields, scaled_sum = _product_sum(rpe, args.eps, clock)
        elif (negated := _negated_within(work, n0, clock)) is not None:
            fields, scaled_sum = _sum_and_trf(negated, n0, args.eps, clock, log_scale)
            fields = negate_fields(fields)
            scaled_sum = None if scaled_sum is None else -scaled_sum
        else:
            fields, scaled_sum = _sum_and_trf(work, n0, args.eps, clock, log_scale)
        out.update(fields)
    if args.truncate is not None and not rpe.free_params:
        out["trf_truncated"] = _within(
            clock, "the truncated TRF", _truncated_table, (work, args.eps, args.truncate)
        )
    if args.compare:
        out["comparison"] = _within(clock, "the comparison", _comparison, (work, args))
    return out, work, scaled_sum, clock


def quick_decision(args: argparse.Namespace, rpe: RPE, n0: int) -> SimpleNamespace | None:
    """The verdict of the asymptotic scale (:mod:`theory.series.scale_verdict`, no sympy)
    on a plain user formula (no parameters, bias or file), or None where it does not decide:
    the sum and TRF then get the seconds the full decision would have spent."""
    plain = (
        args.rpe is not None
        and args.bias is None
        and args.bias_file is None
        and args.bucket_values is None
        and not args.param
        and not args.free
        and rpe.description == "user formula"
        and rpe.head is None
        and not rpe.free_params
    )
    if not plain:
        return None
    verdict = quick_verdict(args.rpe, n0)
    if verdict is None:
        return None
    return SimpleNamespace(
        converges=verdict.converges, certificate=verdict.certificate, condition=None
    )


def _within(clock: Deadline, what: str, fn, args: tuple):
    """fn(*args) in a guarded child under the time left; running out of it is one named
    error (the stage was asked for, so no partial answer replaces it)."""
    try:
        return run_guarded(fn, args, budget=clock.left(), wall=clock.wall())
    except BudgetExceeded as exc:
        raise BudgetExceeded(
            f"{what} did not finish within --time-limit {clock.seconds:g} s ({exc})"
        ) from None


def _negated_within(work, n0: int, clock: Deadline):
    """:func:`negated_if_nonpositive` in a guarded child under its share of the time left:
    its sympy rewriting can run into one long big-integer operation (the gcd of polynomials
    in n^(1/500000)) that no timer interrupts.  Running out of the share: None (the sign is
    then not used; B and TRF are sought for b_n itself)."""
    try:
        return run_guarded(
            negated_if_nonpositive,
            (work, n0),
            budget=clock.left(SIGN_SHARE),
            wall=clock.wall(SIGN_SHARE),
        )
    except BudgetExceeded:
        return None


def _resolve_within(args, clock: Deadline):
    """The series, parsed and built (sympy's automatic evaluation of a formula can build
    huge integers: (cos(n)/2)**(10**10) expands 2**(10**10)), in a guarded child under its
    share of the time limit."""
    budget = clock.left(RESOLVE_SHARE)
    try:
        return run_guarded(_resolve, (args,), budget=budget, wall=clock.wall(RESOLVE_SHARE))
    except BudgetExceeded as exc:
        raise ExpressionError(
            f"the series was not built within {budget:.3g} s, the {RESOLVE_SHARE:g} share of "
            f"--time-limit {clock.seconds:g} s given to parsing and building it (a busy machine, "
            f"a named RPE with a large parameter, or a formula whose constants have very many "
            f"digits): raise --time-limit ({exc})"
        ) from None


def _check_terms_within(b, n0: int, clock: Deadline) -> None:
    """:func:`check_terms` (finite real terms) in a guarded child: mpmath evaluates
    exp(-n**(10**10)) at n = 3 as an exact power of 15.8 billion bits (gigabytes and
    seconds in one C call that no timer interrupts).  A check that runs out of its share
    of the time says nothing, as a step time-out inside it does: terms that large or small
    are left to the decision and the enclosures, which check them in ball arithmetic."""
    try:
        run_guarded(
            check_terms,
            (b, n0),
            budget=clock.left(CHECK_SHARE),
            wall=clock.wall(CHECK_SHARE),
        )
    except BudgetExceeded:
        pass


def _truncated_table(rpe, eps: list, m: int) -> list:
    return [trf_truncated(rpe, e, m).as_dict() for e in eps]


def _sum_and_trf(
    rpe, n0: int, eps: list, clock: Deadline, log_scale: float | sp.Rational | None = None
):
    """(fields, the value of B / exp(log_scale) or None): B and the TRF table within the time
    left; when B is not certified, only what is: [S_M, unknown] and TRF lower bounds for
    nonnegative terms, else no estimate.  ``rpe`` is the series divided by exp(log_scale)
    (:func:`theory.series.rpe_library.bias_log_scale`); TRF does not depend on the scale."""
    out: dict = {}
    try:
        S, table, trf_error, a = analyse_series(
            rpe,
            eps,
            budget=clock.left(1 - RESERVE),
            wall=clock.wall(1 - RESERVE),
            estimate=False,
            decided=True,
        )
    except (SeriesError, BudgetExceeded) as exc:
        S, out["sum_error"] = None, str(exc).splitlines()[0]
    except Exception as exc:  # noqa: BLE001 - an internal failure of B keeps the verdict
        S = None
        out["sum_error"] = (
            f"no enclosure ({type(exc).__name__}: {(str(exc).splitlines() or [''])[0]})"
        )
    if S is not None and S.certified:
        out.update(sum_fields(S, log_scale))
        if table is not None:
            out["trf"] = [t.as_dict() for t in table]
            if not all(t.exact for t in table) and log_scale is None:
                left, wall = clock.left(1 - RESERVE), clock.wall(1 - RESERVE)
                wide = (
                    WideResult(S, S.trf_brackets)
                    if S.trf_brackets is not None
                    else wide_result(rpe, eps, left, wall, integral_only=True)
                )
                if wide is not None:
                    out["trf"] = merge_brackets(out["trf"], wide.trf)
                    if wide.sum.hi - wide.sum.lo < S.hi - S.lo:  # the narrower bracket of B
                        out.update(sum_fields(wide.sum))
            if rpe.head is None and not all(t.get("exact") for t in out["trf"]):
                left = min(TIE_SECONDS, clock.left(1 - RESERVE))
                out["trf"] = resolve_ties(rpe.b, rpe.start, out["trf"], left)
        else:  # no table (the search ran out, or no TRF): the certified brackets, if any
            left, wall = clock.left(1 - RESERVE), clock.wall(1 - RESERVE)
            brackets = stand_in_brackets(rpe, eps, S.trf_brackets, log_scale is None, left, wall)
            out.update({"trf": brackets} if brackets else {"trf_error": trf_error})
        if a is not None and log_scale is None:
            out["asymptotic"] = a.formula
            out["asymptotic_derivation"] = a.derivation
        return out, S.value
    if S is not None:
        out["sum_error"] = "no guaranteed enclosure: " + (
            S.assumptions.split("not certified: ")[-1] or S.method
        )
    left, wall = clock.left(1 - RESERVE), clock.wall(1 - RESERVE)
    # a wide certified tail exists only where it was too wide; else the integral test alone
    only = "wider than" not in out.get("sum_error", "")
    wide = wide_result(rpe, eps, left, wall, only) if log_scale is None else None
    if wide is not None:
        out.pop("sum_error", None)
        out.update(sum_fields(wide.sum))
        out["trf"] = wide.trf
        return out, wide.sum.value
    out.update(_partial_information(rpe, n0, eps, clock, log_scale))
    return out, None


def _product_sum(rpe, eps: list, clock: Deadline):
    """B and TRF brackets of a product-defined term (theory.series.product_terms)."""
    w = product_result(rpe, eps, clock.left(), clock.wall())
    if isinstance(w, str):
        return {"sum_status": f"no estimate ({w})"}, None
    return {**sum_fields(w.sum), "trf": w.trf}, w.sum.value


def _nonnegative_partial_sums(
    b, n0: int, start: int, head, eps: list, stop_at: float | None = None
):
    """:func:`partial_sum_bounds` where every term is proved >= 0, else None."""
    if not terms_nonnegative(b, n0):
        return None
    return partial_sum_bounds(b, start, head, eps, stop_at=stop_at)


def _partial_information(
    rpe, n0: int, eps: list, clock: Deadline, log_scale: float | sp.Rational | None = None
) -> dict:
    """[S_M, unknown] and TRF(eps) >= j for nonnegative terms (theory.series.lower_bounds),
    the sign proof included in the guarded child (its sympy work is no smaller than the
    sums')."""
    try:
        left = clock.left()
        stop = {"stop_at": time.monotonic() + 0.7 * left}
        lb = run_guarded(
            _nonnegative_partial_sums,
            (rpe.b, n0, rpe.start, rpe.head, eps),
            stop,
            budget=left,
            wall=clock.wall(),
        )
    except Exception as exc:  # noqa: BLE001 - nothing certified then
        return {"sum_status": f"no estimate ({type(exc).__name__}: {str(exc)[:80]})"}
    if lb is None:
        return {"sum_status": "no estimate (terms not proved nonnegative)"}
    out = {
        "sum_lo": times_scale(outward(lb.lower, -1), log_scale),
        "sum_status": f"lower bound only: B >= the sum of the first {lb.terms} terms "
        "(ball arithmetic; every term >= 0)",
        "trf": [
            {
                "eps": e,
                "value": None,
                "exact": False,
                "lower_bound": j,
                "definition": "Eq. 22 (full series)",
                "note": f"certified: the first {j - 1} terms sum to at most (1 - eps) B",
            }
            for e, j in zip(eps, lb.trf_lower)
        ],
    }
    if log_scale is not None:
        out.update(scale_fields(log_scale))
        out["sum_scaled_lo"] = outward(lb.lower, -1)
    return out


def _comparison(rpe, args) -> dict:
    other = resolve_rpe(args.compare)
    if other.free_params:
        raise ExpressionError("--compare needs a series without free parameters")
    c = compare_trf(
        rpe,
        other.b if other.start == rpe.start else other,
        rpe.start,
        eps_check=tuple(args.eps),
    )
    return {
        "other": str(other.b),
        "smaller": c.smaller,
        "ratio_limit": c.limit,
        "statement": c.statement,
        "numeric": c.numeric,
    }


def run(argv: Sequence[str] | None = None) -> int:
    """The command's body (:func:`main` runs it as a command; :mod:`theory.trf.quick`
    runs it where its quick path does not decide)."""
    args = build_parser().parse_args(argv)
    try:
        out, work, scaled_sum, clock = _analyse(args)
        if args.plot:
            plot_args = (out, work, scaled_sum, args.eps, args.plot)
            out["plot"] = str(_within(clock, "the plot", plot_trf, plot_args))
    except (
        ExpressionError,
        SeriesError,
        ValueError,
        BudgetExceeded,
        OSError,
        OverflowError,
    ) as exc:
        msg = str(exc).splitlines()[0] if str(exc) else type(exc).__name__
        print(f"error: {msg}", file=sys.stderr)
        return 2
    except Exception as exc:  # noqa: BLE001 - never a traceback for a user's formula
        msg = (str(exc).splitlines() or [""])[0]
        print(f"error: cannot analyse this series ({type(exc).__name__}: {msg})", file=sys.stderr)
        return 2
    print(json_dumps(out, default=str) if args.json else human_text(out))
    if args.plot and not args.json:
        print(f"plot:        {out['plot']} (data beside it, suffix .json)")
    return 0
