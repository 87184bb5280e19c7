"""``python -m empirical.assumptions``: Assumptions 1-2 (attention-alignment paper, Sec. 6.1)
on a model: Gaussianity numbers and QQ plots of the sorted logits
(:func:`empirical.audit.assumptions.assumption_table`)."""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from empirical.audit.assumptions import assumption_table, write_outputs
from empirical.cli_util import add_device_map_argument, setup_torch, threads_int
from theory.core.arguments import nonnegative_int, output_dir, positive_int
from theory.core.cli import (
    OVERWRITE_HELP,
    CommandParser,
    check_output_folder,
    command,
    fail,
    output_folder,
)
from theory.core.cli import dumps as json_dumps

EXAMPLES = """examples:
  python -m empirical.assumptions --model t5-config:tiny --L-tr 128 --L-ex 1024 --out runs/assump
  python -m empirical.assumptions --model minilm --corpus kjv --L-tr 128 --L-ex 512 --json
"""


def _print_table(res):
    print(f"model {res['model']}  corpus {res['corpus']}")
    print(
        f"{'layer':42s} {'L':>6s} {'sigma':>7s} {'lmax':>7s} {'lmax(G)':>8s} "
        f"{'QQ r':>7s} {'SW W':>7s} {'skew':>6s} {'kurt':>6s} {'Pmax':>7s} {'H':>7s}"
    )
    for name in res["layers"]:
        for tag in ("tr", "ex"):
            d = res["lengths"][tag]["per_layer"][name]
            print(
                f"{name[-42:]:42s} {res['lengths'][tag]['L']:6d} {d['sigma']:7.4f} "
                f"{d['lmax']:7.4f} {d['gaussian_implied_lmax']:8.4f} "
                f"{d['qq_correlation']:7.4f} {d['shapiro_w']:7.4f} {d['skewness']:6.2f} "
                f"{d['excess_kurtosis']:6.2f} {d['pmax']:7.4f} {d['entropy']:7.4f}"
            )
    for tag in ("tr", "ex"):
        a = res["lengths"][tag]["all_layers"]
        print(
            f"all layers, L = {res['lengths'][tag]['L']}: Pmax {a['pmax']:.4f}  "
            f"H {a['entropy']:.4f}"
        )


@command
def main(argv: list[str] | None = None) -> int:
    p = CommandParser(
        prog="python -m empirical.assumptions",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
        description="QQ plots (Assumption 1) and the lmax/sigma "
        "table (Assumption 2, Table 7) of a model's attention logits.",
    )
    p.add_argument("--model", default="t5-config:tiny")
    p.add_argument("--corpus", default="stdlib")
    p.add_argument("--L-tr", dest="l_tr", type=positive_int, default=512)
    p.add_argument("--L-ex", dest="l_ex", type=positive_int, default=4096)
    p.add_argument("--n-tr", type=positive_int, default=4)
    p.add_argument("--n-ex", type=positive_int, default=1)
    p.add_argument("--layers", nargs="*", help="attention module names (default: first)")
    p.add_argument(
        "--out", type=output_dir, default="runs/assumptions", help="folder for PNG/CSV/JSON"
    )
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument(
        "--allow-weight-mismatch",
        action="store_true",
        help="accept a checkpoint whose weights transformers reports missing, unexpected "
        "or of another shape (default: an error naming them)",
    )
    p.add_argument("--threads", type=threads_int, default=1)
    p.add_argument("--json", action="store_true", help="print one JSON object")
    p.add_argument("--overwrite", action="store_true", help=OVERWRITE_HELP)
    add_device_map_argument(p)
    a = p.parse_args(argv)
    if not 1 < a.l_tr < a.l_ex:
        return fail("need 1 < --L-tr < --L-ex")
    try:
        check_output_folder(a.out, a.overwrite)
    except ValueError as exc:
        return fail(exc)
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
        res = assumption_table(lm, a.corpus, a.l_tr, a.l_ex, a.n_tr, a.n_ex, a.layers)
    except (ValueError, RuntimeError, NotImplementedError) as exc:
        return fail(exc)
    with output_folder(a.out, mark=True):
        files = write_outputs(res, Path(a.out))
    if a.json:
        slim = json.loads(Path(files["json"]).read_text())
        print(json_dumps({**slim, "files": files}))
    else:
        _print_table(res)
        print("wrote", ", ".join(files["png"] + files["csv"] + [files["json"]]))
    return 0
