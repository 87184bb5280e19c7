"""Break the theory side of an agreement test and show that the test then fails.

Run from the repository root after the ci bundle exists::

    PYTHONPATH=. python tests/empirical/break_theory.py prop2      # Prop. 2 without 2 log(L_ex/L_tr)
    PYTHONPATH=. python tests/empirical/break_theory.py trf        # TRF from 1/b_n instead of b_n
    PYTHONPATH=. python tests/empirical/break_theory.py infoscale  # Eq. 15's factor inverted

Each prints the test's numbers and exits non-zero when the broken theory is caught.
Importing this module changes nothing.
"""

from __future__ import annotations

import json
import math
import os
import sys
from pathlib import Path

TEST = "tests/empirical/test_agreement.py"


def run(select: str) -> int:
    import pytest

    return pytest.main(
        ["-p", "no:cacheprovider", "-m", "agreement", "-q", "-rA", TEST, "-k", select]
    )


def break_prop2() -> int:
    import theory.temperature.rules as rules

    orig = rules.prop2_temperature

    def broken(L_tr, L_ex, sigma_tr, sigma_ex):
        r = orig(L_tr, L_ex, sigma_tr, sigma_ex)
        r.tau = sigma_ex / math.sqrt(sigma_tr**2 + 0 * math.log(L_ex / L_tr))
        return r

    rules.prop2_temperature = broken
    return run("prop2")


def break_trf() -> int:
    import torch
    import empirical.training.erf as erf

    @torch.no_grad()
    def broken(model, length, first_query):
        bias = -model.rpe.bias_matrix(length).double()
        bias = bias.masked_fill(torch.isposinf(bias), float("-inf"))  # keep the causal mask
        mass = erf.query_distance_mass(torch.softmax(bias, dim=-1)[None], first_query)
        return (mass / mass.sum()).numpy()

    erf.rpe_only_attention = broken
    return run("fig6")


def break_infoscale(src: str = "runs/ci", dst: str = "runs/ci_broken_infoscale") -> int:
    import empirical.training.tiny_lm as tl
    from empirical.training import profile_bundle as pb
    from empirical.training.data import run_test_tokens
    from empirical.training.train import load_model

    orig = tl.infoscale
    tl.infoscale = lambda n, n_tr, d, eps=0.0: 1.0 / orig(n, n_tr, d, eps)
    b = json.loads((Path(src) / "bundle.json").read_text())
    pb.SCALE_RULES["nope"] = ("infoscale",)
    for seed in b["results"]["nope"]:
        model, cfg = load_model(Path(src) / "nope" / f"seed{seed}")
        res = pb.measure_scaling(
            "nope",
            model,
            run_test_tokens(cfg),
            b["settings"]["seq_len"],
            b["settings"]["eval_tokens"],
        )
        b["results"]["nope"][seed]["rules"]["infoscale"] = res["rules"]["infoscale"]
    Path(dst).mkdir(parents=True, exist_ok=True)
    (Path(dst) / "bundle.json").write_text(json.dumps(b))
    os.environ["LENGTHX_AGREEMENT"] = dst
    return run("drift and nope-infoscale")


if __name__ == "__main__":
    demos = {"prop2": break_prop2, "trf": break_trf, "infoscale": break_infoscale}
    if len(sys.argv) != 2 or sys.argv[1] not in demos:
        print(f"error: give one of {', '.join(demos)}", file=sys.stderr)
        raise SystemExit(2)
    raise SystemExit(demos[sys.argv[1]]())
