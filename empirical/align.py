"""Algorithm 1 of the attention-alignment paper on a real model, with Props. 1-2.

``python -m empirical.align --model SPEC --corpus NAME --L-tr 512 --L-ex 4096 --mode pmax``

1. target :math:`\\overline{S^{tr}}(1)` = FINDS(1.0) on length-``L_tr`` sequences;
2. the paper's grid :math:`\\tau_{ex} \\in \\{1.0, 0.95, \\dots, 0.5\\}`, answer
   :math:`\\arg\\min_\\tau |\\overline{S^{ex}}(\\tau) - \\overline{S^{tr}}(1)|`;
3. a continuous search (bisection on tau in ``[lo, hi]``, to ``--tol``), fewer forward
   passes and a finer answer; the bracket is checked, since with several layers
   :math:`\\overline{S^{ex}}(\\tau)` need not be monotone;
4. Props. 1-2 from sigma, lmax and :math:`P^{tr}_{max}` measured on the first layer
   (Sec. 6: the averaged sorted logit vector), and the length-only rule
   :math:`\\tau = \\log_{L_{ex}} L_{tr}`.

Prop. 1: :math:`A\\tau^2 - B\\tau + C = 0` with :math:`A = \\log L_{ex} + \\log P`,
:math:`B = \\log L_{tr} + \\log P + \\sigma_{tr}^2/2`, :math:`C = \\sigma_{ex}^2/2`, larger
root.  Prop. 2: :math:`\\tau = \\sigma_{ex}/\\sqrt{\\sigma_{tr}^2 + 2\\log(L_{ex}/L_{tr})}`.

>>> round(prop2_tau(512, 4096, 2.0, 2.0), 4)   # 2 / sqrt(4 + 2 ln 8)
0.7002
"""
from __future__ import annotations

import argparse
import json
import math
import sys
import time

import numpy as np
from theory.core.cli import CommandParser, command, fail, nonnegative_int, positive_float, positive_int

from .cli_util import add_device_map_argument, setup_torch, threads_int

PAPER_GRID = tuple(round(1.0 - 0.05 * i, 2) for i in range(11))   # Algorithm 1

EXAMPLES = """examples:
  python -m empirical.align --model t5-config:tiny --L-tr 128 --L-ex 512 --mode pmax
  python -m empirical.align --model minilm --corpus kjv --L-tr 128 --L-ex 512 --mode entropy --json
  python -m empirical.align --model /path/to/flan-t5-xl --L-tr 512 --L-ex 15000 --mode pmax
"""


# ---- local references of the propositions (the theory module is preferred) ---------
def prop1_tau(l_tr, l_ex, sigma_tr, sigma_ex, pmax_tr):
    """Larger root of :math:`A\\tau^2 - B\\tau + C = 0` (Prop. 1); None if complex."""
    a = math.log(l_ex) + math.log(pmax_tr)
    b = math.log(l_tr) + math.log(pmax_tr) + sigma_tr ** 2 / 2
    c = sigma_ex ** 2 / 2
    disc = b * b - 4 * a * c
    if disc < 0 or a == 0:
        return None
    return max((b + math.sqrt(disc)) / (2 * a), (b - math.sqrt(disc)) / (2 * a))


def prop2_tau(l_tr, l_ex, sigma_tr, sigma_ex):
    """:math:`\\sigma_{ex}/\\sqrt{\\sigma_{tr}^2 + 2\\log(L_{ex}/L_{tr})}` (Prop. 2)."""
    return sigma_ex / math.sqrt(sigma_tr ** 2 + 2 * math.log(l_ex / l_tr))


def log_rule_tau(l_tr, l_ex):
    """:math:`\\log_{L_{ex}} L_{tr}` (Yao et al. 2021; Su 2021)."""
    return math.log(l_tr) / math.log(l_ex)


def theory_rules(l_tr, l_ex, sigma_tr, sigma_ex, pmax_tr, d=None) -> dict:
    """Props. 1-2 and the log rule: from ``theory.temperature.rules`` when that module
    exists (another area), else the local references above; ``source`` says which."""
    try:
        from theory.temperature import rules as tst
        rules = tst.temperature_rules(l_tr, l_ex, sigma_tr=sigma_tr, sigma_ex=sigma_ex,
                                      pmax_tr=pmax_tr, d=d)
        return {k: {"tau": None if v.tau is None else float(v.tau), "source": v.source,
                    "note": getattr(v, "note", "")} for k, v in rules.items()}
    except ImportError:
        src = "empirical.align local reference (theory.temperature.rules not present)"
        return {"prop1": {"tau": prop1_tau(l_tr, l_ex, sigma_tr, sigma_ex, pmax_tr),
                          "source": src, "note": "larger root"},
                "prop2": {"tau": prop2_tau(l_tr, l_ex, sigma_tr, sigma_ex), "source": src,
                          "note": ""},
                "log_rule": {"tau": log_rule_tau(l_tr, l_ex), "source": src, "note": ""}}


def head_dim(model):
    c = model.config
    d = getattr(c, "d_kv", None) or getattr(c, "head_dim", None)
    if d is None and getattr(c, "hidden_size", None) and getattr(c, "num_attention_heads", None):
        d = c.hidden_size // c.num_attention_heads
    return d


def _theory_grid(stat_fn, target, grid):
    """Cross-check: theory.temperature.rules.algorithm1_grid on the same (cached)
    statistic; None when that module is absent."""
    try:
        from theory.temperature.rules import algorithm1_grid
    except ImportError:
        return None
    return algorithm1_grid(stat_fn, target, grid).tau


# ---- the searches -------------------------------------------------------------------
def grid_search(stat_fn, target, grid=PAPER_GRID) -> dict:
    """Algorithm 1: evaluate ``stat_fn`` on ``grid``, return the closest to ``target``."""
    values = [(float(t), float(stat_fn(t))) for t in grid]
    best = min(values, key=lambda tv: abs(tv[1] - target))
    return {"tau": best[0], "stat": best[1], "gap": best[1] - target, "grid": values,
            "evaluations": len(values)}


def bisect_search(stat_fn, target, lo=0.05, hi=1.0, tol=1e-3, max_iter=40) -> dict:
    """Bisection on tau for ``stat_fn(tau) = target``.  If the bracket [lo, hi] does not
    contain a sign change, the closer end is returned with ``bracketed=False``."""
    f_lo, f_hi = stat_fn(lo) - target, stat_fn(hi) - target
    n = 2
    if f_lo == 0 or f_hi == 0 or np.sign(f_lo) != np.sign(f_hi):
        while hi - lo > tol and n < max_iter:
            mid = 0.5 * (lo + hi)
            f_mid = stat_fn(mid) - target
            n += 1
            if np.sign(f_mid) == np.sign(f_lo):
                lo, f_lo = mid, f_mid
            else:
                hi, f_hi = mid, f_mid
        tau, gap = (lo, f_lo) if abs(f_lo) <= abs(f_hi) else (hi, f_hi)
        return {"tau": tau, "stat": gap + target, "gap": gap, "bracketed": True,
                "interval": [lo, hi], "evaluations": n}
    tau, gap = (lo, f_lo) if abs(f_lo) <= abs(f_hi) else (hi, f_hi)
    return {"tau": tau, "stat": gap + target, "gap": gap, "bracketed": False,
            "interval": [lo, hi], "evaluations": n}


def align(lm, corpus="stdlib", l_tr=512, l_ex=4096, mode="pmax", n_tr=4, n_ex=1,
          grid=PAPER_GRID, lo=0.05, hi=1.0, tol=1e-3, layers=None, progress=True) -> dict:
    """Algorithm 1 (grid and continuous) plus Props. 1-2 on the model ``lm``."""
    from .capture import attention_module_names
    from .measure import collect_stats, sequences
    if mode not in ("pmax", "entropy"):
        raise ValueError(f"mode must be pmax or entropy, not {mode!r}")
    t0 = time.perf_counter()
    s_tr, s_ex = sequences(lm, corpus, l_tr, n_tr), sequences(lm, corpus, l_ex, n_ex, offset=1)
    first = attention_module_names(lm.model)[0]
    from theory.core.progress import Progress
    label = Progress("Algorithm 1 forward passes", unit="passes", leave=False) \
        if progress else None

    def overall(st):
        if layers:
            sub = {k: v for k, v in st.layers.items() if k in layers}
            if not sub:
                raise ValueError(f"none of the layers {layers} was captured")
            st.layers, st.order = sub, [k for k in st.order if k in sub]
        return st.overall(mode)

    tr = collect_stats(lm.model, s_tr, 1.0, sorted_layers=[first], progress=label)
    ex1 = collect_stats(lm.model, s_ex, 1.0, sorted_layers=[first], progress=label)
    meas = {"tr": tr.layers[first].summary(), "ex": ex1.layers[first].summary()}
    target, s_ex_1 = overall(tr), overall(ex1)
    cache = {1.0: s_ex_1}

    def stat_fn(tau):
        key = round(float(tau), 12)
        if key not in cache:
            cache[key] = overall(collect_stats(lm.model, s_ex, tau, progress=label))
        return cache[key]

    g = grid_search(stat_fn, target, grid)
    c = bisect_search(stat_fn, target, lo, hi, tol)
    if label is not None:
        label.close()
    rules = theory_rules(l_tr, l_ex, meas["tr"]["sigma"], meas["ex"]["sigma"],
                         meas["tr"]["pmax"], head_dim(lm.model))
    g["theory_grid_tau"] = _theory_grid(stat_fn, target, grid)
    return {"model": lm.description, "corpus": corpus, "mode": mode, "L_tr": l_tr,
            "L_ex": l_ex, "n_tr": n_tr, "n_ex": n_ex, "layers": layers or "all",
            "target_S_tr_1": target, "S_ex_1": s_ex_1, "grid": g, "continuous": c,
            "first_layer": first,
            "first_layer_measured": {k: {q: v[q] for q in ("pmax", "entropy", "sigma",
                                                             "lmax", "lmax_raw")}
                                     for k, v in meas.items()},
            "predictions": rules, "forward_passes": (len(cache) + 1) * n_ex + n_tr,
            "seconds": round(time.perf_counter() - t0, 2)}


def _print_text(res):
    print(f"model {res['model']}  corpus {res['corpus']}  mode {res['mode']}  "
          f"L_tr {res['L_tr']}  L_ex {res['L_ex']}")
    print(f"target S_tr(1) = {res['target_S_tr_1']:.6f}   S_ex(1) = {res['S_ex_1']:.6f}")
    print("tau    S_ex(tau)")
    for t, v in res["grid"]["grid"]:
        print(f"{t:4.2f}   {v:.6f}")
    g, c = res["grid"], res["continuous"]
    print(f"Algorithm 1 grid:       tau = {g['tau']:.2f}  S = {g['stat']:.6f}  gap {g['gap']:+.2e}")
    print(f"continuous (bisection): tau = {c['tau']:.4f}  S = {c['stat']:.6f}  gap "
          f"{c['gap']:+.2e}  ({c['evaluations']} evaluations, bracketed={c['bracketed']})")
    m = res["first_layer_measured"]
    print(f"first layer {res['first_layer']}: sigma_tr {m['tr']['sigma']:.4f} sigma_ex "
          f"{m['ex']['sigma']:.4f} lmax_tr {m['tr']['lmax']:.4f} lmax_ex {m['ex']['lmax']:.4f}"
          f" Pmax_tr {m['tr']['pmax']:.4f}")
    for k, v in res["predictions"].items():
        tau = "n/a (no real root)" if v["tau"] is None else f"{v['tau']:.4f}"
        print(f"{k:9s} tau = {tau}")


@command
def main(argv=None) -> int:
    p = CommandParser(prog="python -m empirical.align", epilog=EXAMPLES,
                                formatter_class=argparse.RawDescriptionHelpFormatter,
                                description="Algorithm 1 (attention alignment by softmax "
                                "temperature) on a model: paper grid, bisection, Props. 1-2.")
    p.add_argument("--model", default="t5-config:tiny", help="model SPEC (see empirical.models)")
    p.add_argument("--corpus", default="stdlib", help="stdlib (default), kjv or pydoc")
    p.add_argument("--L-tr", dest="l_tr", type=positive_int, default=512)
    p.add_argument("--L-ex", dest="l_ex", type=positive_int, default=4096)
    p.add_argument("--mode", choices=("pmax", "entropy"), default="pmax")
    p.add_argument("--n-tr", type=positive_int, default=4, help="training-length sequences")
    p.add_argument("--n-ex", type=positive_int, default=1, help="extrapolation-length sequences")
    p.add_argument("--lo", type=positive_float, default=0.05, help="bisection lower end")
    p.add_argument("--hi", type=positive_float, default=1.0, help="bisection upper end")
    p.add_argument("--tol", type=positive_float, default=1e-3, help="bisection tolerance on tau")
    p.add_argument("--layers", nargs="*", help="restrict the statistic to these modules")
    p.add_argument("--seed", type=nonnegative_int, default=0)
    p.add_argument("--threads", type=threads_int, default=1, help="torch threads")
    p.add_argument("--json", action="store_true", help="print one JSON object")
    add_device_map_argument(p)
    a = p.parse_args(argv)
    if not 1 < a.l_tr < a.l_ex:
        return fail("need 1 < --L-tr < --L-ex")
    if not 0 < a.lo < a.hi:
        return fail("need 0 < --lo < --hi")
    setup_torch(a.threads)
    try:
        from .models import load_model
        lm = load_model(a.model, corpus=a.corpus, seed=a.seed,
                        device_map=a.device_map)
        res = align(lm, a.corpus, a.l_tr, a.l_ex, a.mode, a.n_tr, a.n_ex, lo=a.lo, hi=a.hi,
                    tol=a.tol, layers=a.layers)
    except (ValueError, RuntimeError) as exc:
        return fail(exc)
    if a.json:
        print(json.dumps(res))
    else:
        _print_text(res)
    return 0


if __name__ == "__main__":
    sys.exit(main())
