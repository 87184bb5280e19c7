"""``python -m empirical.align``: Algorithm 1 (attention alignment by softmax temperature) on a
model, the paper grid, a Brent search and every rule (:func:`empirical.audit.align.align`)."""

from __future__ import annotations

import argparse

from empirical.audit.align import align
from empirical.cli_util import add_device_map_argument, setup_torch, threads_int
from theory.core.arguments import nonnegative_int, positive_float, positive_int
from theory.core.cli import CommandParser, command, fail
from theory.core.cli import dumps as json_dumps

EXAMPLES = """examples:
  python -m empirical.align --model t5-config:tiny --L-tr 128 --L-ex 512 --mode pmax
  python -m empirical.align --model minilm --corpus kjv --L-tr 128 --L-ex 512 --mode entropy --json
  python -m empirical.align --model /path/to/flan-t5-xl --L-tr 512 --L-ex 15000 --mode pmax
"""


def _print_text(res):
    print(
        f"model {res['model']}  corpus {res['corpus']}  mode {res['mode']}  "
        f"L_tr {res['L_tr']}  L_ex {res['L_ex']}"
    )
    print(f"target S_tr(1) = {res['target_S_tr_1']:.6f}   S_ex(1) = {res['S_ex_1']:.6f}")
    print("tau    S_ex(tau)")
    for t, v in res["grid"]["grid"]:
        print(f"{t:4.2f}   {v:.6f}")
    g, c = res["grid"], res["continuous"]
    print(f"Algorithm 1 grid:       tau = {g['tau']:.2f}  S = {g['stat']:.6f}  gap {g['gap']:+.2e}")
    print(
        f"continuous (Brent):     tau = {c['tau']:.4f}  S = {c['stat']:.6f}  gap "
        f"{c['gap']:+.2e}  ({c['evaluations']} evaluations, bracketed={c['bracketed']})"
    )
    m = res["first_layer_measured"]
    print(
        f"first layer {res['first_layer']}: sigma_tr {m['tr']['sigma']:.4f} sigma_ex "
        f"{m['ex']['sigma']:.4f} lmax_tr {m['tr']['lmax']:.4f} lmax_ex {m['ex']['lmax']:.4f}"
        f" Pmax_tr {m['tr']['pmax']:.4f}"
    )
    for k, v in res["predictions"].items():
        tau = "n/a (no real root)" if v["tau"] is None else f"{v['tau']:.4f}"
        print(f"{k:9s} tau = {tau}")


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.align",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="Algorithm 1 (attention alignment by softmax "
        "temperature) on a model: paper grid, Brent search, every rule.",
    )
    p.add_argument(
        "--model", default="t5-config:tiny", help="model SPEC (see empirical.capture.models)"
    )
    p.add_argument("--corpus", default="stdlib", help="stdlib (default), kjv or pydoc")
    p.add_argument("--L-tr", dest="l_tr", type=positive_int, default=512)
    p.add_argument("--L-ex", dest="l_ex", type=positive_int, default=4096)
    p.add_argument("--mode", choices=("pmax", "entropy"), default="pmax")
    p.add_argument("--n-tr", type=positive_int, default=4, help="training-length sequences")
    p.add_argument("--n-ex", type=positive_int, default=1, help="extrapolation-length sequences")
    p.add_argument("--lo", type=positive_float, default=0.05, help="continuous search: lower end")
    p.add_argument("--hi", type=positive_float, default=1.0, help="continuous search: upper end")
    p.add_argument(
        "--tol", type=positive_float, default=1e-3, help="continuous search: tolerance on tau"
    )
    p.add_argument("--layers", nargs="*", help="restrict the statistic to these modules")
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument(
        "--allow-weight-mismatch",
        action="store_true",
        help="accept a checkpoint whose weights transformers reports missing, unexpected "
        "or of another shape (default: an error naming them)",
    )
    p.add_argument("--threads", type=threads_int, default=1, help="torch threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_device_map_argument(p)
    a = p.parse_args(argv)
    if not 1 < a.l_tr < a.l_ex:
        return fail("need 1 < --L-tr < --L-ex")
    if not 0 < a.lo < a.hi:
        return fail("need 0 < --lo < --hi")
    if a.n_tr < 1 or a.n_ex < 1:
        return fail(f"need --n-tr >= 1 and --n-ex >= 1 (got {a.n_tr}, {a.n_ex})")
    setup_torch(a.threads)
    try:
        from empirical.capture.models import load_model

        lm = load_model(
            a.model,
            corpus=a.corpus,
            seed=a.seed,
            device_map=a.device_map,
            allow_weight_mismatch=a.allow_weight_mismatch,
        )
        res = align(
            lm,
            a.corpus,
            a.l_tr,
            a.l_ex,
            a.mode,
            a.n_tr,
            a.n_ex,
            lo=a.lo,
            hi=a.hi,
            tol=a.tol,
            layers=a.layers,
        )
    except (ValueError, RuntimeError, NotImplementedError) as exc:
        return fail(exc)
    if a.json:
        print(json_dumps(res))
    else:
        _print_text(res)
    return 0
