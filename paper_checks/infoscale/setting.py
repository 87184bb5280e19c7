"""What the InfoScale / CosScale checks share: the paper's key, the
entropy tolerance, the App. A.4 derivation verified on its grid, the drift grid and
InfoScale's own path (n, d, alpha) along which approximations are measured.

Entropies are in nats; the band of an entropy approximation is a quarter nat (a factor
e^0.25 = 1.28 in the effective number of attended keys).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Iterator

from paper_checks.evidence import (
    Equal,
    derivation_steps,
)
from paper_checks.registry import Context, Tol
from theory.core.derivation import DerivationReport
from theory.infoscale.derivation import infoscale_derivation
from theory.infoscale.hypersphere_entropy import (
    lln_entropy,
)
from theory.infoscale.infoscale import (
    drift_grid,
    infoscale,
    training_alpha,
)

P = "infoscale"
ENTROPY = Tol(
    atol=1e-3,
    approx_atol=0.25,
    reason="a quarter nat: a factor e^0.25 = 1.28 in the effective number of attended keys",
)
GAU = (
    "the authors' GAU-α checkpoints (400 epochs on 4 V100s) and the "
    "WJ patent data of LongData-Corpus; neither is available offline"
)
Z4 = Tol(atol=4.0, basis="numeric", reason="a Monte Carlo estimate within four standard errors")


@functools.cache
def derivation_report() -> DerivationReport:
    """The App. A.4 derivation verified on its full grid (n up to 32768, d up to 768) in
    every mode: n = 32768 at d = 32 decides the dropped-term step, and the full grid
    costs little more than the quick one."""
    return infoscale_derivation(quick=False).verify(seed=0)


def derivation_items(*labels: str) -> list:
    """The derivation steps whose label starts with one of ``labels``."""
    return [it for it in derivation_steps(derivation_report()) if it.quantity.startswith(labels)]


@functools.lru_cache(maxsize=2)
def drift_table(quick: bool) -> list:
    mults = (1, 4, 16, 64) if quick else (1, 2, 4, 8, 16, 32, 64)
    return drift_grid(multipliers=mults, method="bessel")


def path_points(quick: bool) -> Iterator[tuple[int, int, float]]:
    """(n, d, alpha) along InfoScale's own path: alpha_tr from Eq. 14 times InfoScale."""
    for d in (32, 128) if quick else (32, 128, 768):
        for nt in (64, 512):
            a0 = training_alpha(nt, d)
            for m in (1, 64):
                yield nt * m, d, a0 * infoscale(nt * m, nt, d)


PATH = (
    "d in {32, 128(, 768)}, n_tr in {64, 512}, n in {n_tr, 64 n_tr}, alpha from Eq. 14 "
    "times InfoScale"
)


def along_path(ctx: Context, formula: Callable, quantity: str, source: str) -> Equal:
    pts = list(path_points(ctx.quick))
    return Equal(
        quantity,
        computed=[float(lln_entropy(n, d, a, "bessel")) for n, d, a in pts],
        paper=[float(formula(n, d, a)) for n, d, a in pts],
        source=source,
        where=PATH,
        note="exact Eq. 9 entropy (Bessel closed form)",
    )
