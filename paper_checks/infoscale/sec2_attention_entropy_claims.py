"""InfoScale / CosScale paper, Sec. 2 (Eqs. 5-7): attention entropy and scaled cosine
attention.
"""

from __future__ import annotations

import numpy as np

from paper_checks.evidence import (
    Equal,
    Evidence,
)
from paper_checks.infoscale.setting import (
    P,
    derivation_items,
)
from paper_checks.registry import Context, Tol, claim
from theory.infoscale.cosscale import (
    cosscale_logits,
)


# ====================================================================== Sec. 2, Eqs. 5-7
@claim(
    id="infoscale-eq5",
    paper=P,
    location="Eqs. 5-7",
    statement="The attention entropy equals -sum lambda q k e^{..}/Z "
    "+ log Z (Z = sum of e^{lambda q k}); softmax(q k / sqrt d) = softmax(|q||k| cos "
    "theta / sqrt d), which with |q||k| replaced by a constant S is scaled cosine "
    "attention.",
    kind="symbolic",
    tolerances={
        "q k = |q||k| cos theta": Tol(rtol=1e-12, basis="numeric", reason="double precision")
    },
)
def attention_entropy_identity(ctx: Context) -> Evidence:
    rng = np.random.default_rng(ctx.seed)
    q, k = rng.standard_normal((5, 16)), rng.standard_normal((7, 16))
    via_cos = cosscale_logits(q, k, 1.0) * np.outer(
        np.linalg.norm(q, axis=1), np.linalg.norm(k, axis=1)
    )
    return Evidence(
        [
            *derivation_items("attention entropy"),
            Equal(
                "q k = |q||k| cos theta",
                computed=(q @ k.T).ravel().tolist(),
                paper=via_cos.ravel().tolist(),
                source="Eq. 6",
                where="35 random 16-dim pairs",
            ),
        ]
    )
