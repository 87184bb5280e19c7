"""Run a model over token sequences under :func:`empirical.capture.session.capture` and collect
:class:`empirical.capture.stats.AttentionStats` -- the one loop shared by ``align``,
``assumptions``, ``collect``, ``audit``, the figures and the claims."""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator
from contextlib import contextmanager
from types import TracebackType

import torch
import transformers

from empirical.capture.discovery import config_value
from empirical.capture.models import LoadedModel, run_encoder
from empirical.capture.positions import check_length
from empirical.capture.session import capture
from empirical.capture.stats import AttentionStats
from empirical.training.corpora import document_windows, load_documents
from theory.core.progress import Progress


def sequences(
    lm: LoadedModel, source: str, length: int, n: int, offset: int = 0, text_field: str = "text"
) -> list:
    """``n`` windows of ``length`` tokens of ``source`` (a built-in corpus, a file, a
    folder or a JSONL file: :func:`empirical.training.corpora.load_documents`) for ``lm``, with
    its tokenizer's special tokens (LongTensor (1, L) each)."""
    check_length(lm.model, length)
    if lm.max_positions is not None and length > lm.max_positions:
        raise ValueError(
            f"{lm.spec} has absolute positions up to {lm.max_positions}; "
            f"length {length} cannot be run"
        )
    docs = load_documents(source, text_field)
    return [
        torch.tensor([s])
        for s in document_windows(docs, lm.encode, length, n, offset, lm.prefix, lm.suffix)
    ]


def batches(seqs: list, batch_size: int) -> list:
    """Sequences of equal length stacked ``batch_size`` at a time (no padding).

    >>> [tuple(b.shape) for b in batches([torch.zeros(1, 4)] * 5, 2)]
    [(2, 4), (2, 4), (1, 4)]
    """
    if batch_size < 1:
        raise ValueError(f"batch size must be >= 1, got {batch_size}")
    return [torch.cat(seqs[i : i + batch_size]) for i in range(0, len(seqs), batch_size)]


class ForwardError(RuntimeError):
    """A forward pass of the model failed (torch's or the model's own error), named by
    the module where it was raised and the input's length (one line)."""


def failing_module(model: torch.nn.Module, tb: TracebackType | None) -> str | None:
    """The name of the innermost module of ``model`` whose code is on the traceback
    ``tb`` (the frame's ``self``), ``""`` for ``model`` itself, None when none is."""
    names = {id(m): n for n, m in model.named_modules()}
    found = None
    while tb is not None:
        me = tb.tb_frame.f_locals.get("self")
        if isinstance(me, torch.nn.Module) and id(me) in names:
            found = names[id(me)]
        tb = tb.tb_next
    return found


def forward_error(model: torch.nn.Module, exc: BaseException, ids: torch.Tensor) -> ForwardError:
    """:class:`ForwardError` for ``exc`` raised by a forward pass of ``model`` on ``ids``
    (B, L): the module where it was raised, its class, the batch and length, and the first
    line of torch's message.

    >>> m = torch.nn.Sequential(torch.nn.Linear(4, 4), torch.nn.Linear(5, 2))
    >>> try:
    ...     m(torch.zeros(1, 3, 4))
    ... except RuntimeError as exc:
    ...     print(forward_error(m, exc, torch.zeros(1, 3, dtype=torch.long)))
    the forward pass of Sequential failed in module '1' (Linear) on an input of 1 x 3 tokens: RuntimeError: mat1 and mat2 shapes cannot be multiplied (3x4 and 5x2)
    """
    name = failing_module(model, exc.__traceback__)
    mods = dict(model.named_modules())
    where = f" in module {name!r} ({type(mods[name]).__name__})" if name else ""
    lines = [ln.strip() for ln in str(exc).splitlines() if ln.strip()]
    why = lines[0] if lines else ""
    return ForwardError(
        f"the forward pass of {type(model).__name__} failed{where} on an input of "
        f"{ids.shape[0]} x {ids.shape[-1]} tokens: {type(exc).__name__}: {why}"
    )


def run_checked(model: torch.nn.Module, ids: torch.Tensor) -> transformers.utils.ModelOutput:
    """:func:`~empirical.capture.models.run_encoder` with torch's errors raised in the
    forward pass (``RuntimeError``, ``IndexError``; the capture's own refusals excepted)
    and the model's own checks of its input (``AssertionError``: Longformer's
    question-answering head asserts three separator tokens) turned into a
    :class:`ForwardError` naming the module and the input's length."""
    try:
        return run_encoder(model, ids)
    except NotImplementedError:  # the capture's refusal (CaptureUnsupported), by name
        raise
    except (RuntimeError, IndexError, AssertionError) as exc:
        raise forward_error(model, exc, ids) from exc


def collect_stats(
    model: torch.nn.Module,
    seqs: list[torch.Tensor],
    tau: float = 1.0,
    sorted_layers: str | Collection[str] = (),
    tau_layers: Iterable[str] | None = None,
    progress: str | Progress | None = None,
    block_bytes: int = 64 * 2**20,
    batch_size: int = 1,
    on_output: Callable[[torch.Tensor, object], object] | None = None,
    query_from: int = 0,
    mass_layers: str | Collection[str] = (),
) -> AttentionStats:
    """Statistics of every softmax of ``model`` over ``seqs`` at temperature ``tau``,
    ``batch_size`` sequences per forward pass, counting the query rows at positions
    ``>= query_from``.  ``progress``: a label (own progress display on stderr) or a
    :class:`theory.core.progress.Progress` (or tqdm bar) to advance per sequence.
    ``on_output(ids, output)`` sees every forward pass's output."""
    stats = AttentionStats(
        sorted_layers=sorted_layers, mass_layers=mass_layers, query_from=query_from
    )
    bar = (
        Progress(progress, total=len(seqs), leave=False) if isinstance(progress, str) else progress
    )
    with capture(model, stats=stats, tau=tau, tau_layers=tau_layers, block_bytes=block_bytes):
        for ids in batches(seqs, batch_size):
            out = run_checked(model, ids)
            if on_output is not None:
                on_output(ids, out)
            if bar is not None:
                bar.update(ids.shape[0])
    if isinstance(progress, str):
        bar.close()
    return stats


class NLLAccumulator(torch.nn.Module):
    """Stands in for a causal LM's output layer during :func:`nll_head`: computes the
    next-token negative log-likelihood chunk by chunk (never the (B, L, vocab) logits at
    once) and returns a (B, L, 1) zero tensor as the "logits".  Predictions from query
    positions ``>= query_from`` are summed in ``beyond``, all of them in ``all``
    ([sum of nll, count]).  ``softcap`` is Gemma's final logit soft-capping."""

    def __init__(
        self,
        head: torch.nn.Module,
        query_from: int = 0,
        softcap: float | None = None,
        chunk: int = 1024,
    ):
        super().__init__()
        self.head, self.query_from, self.softcap, self.chunk = head, query_from, softcap, chunk
        self.targets = None
        self.beyond, self.all = [0.0, 0], [0.0, 0]

    @property
    def bias(self) -> torch.Tensor | None:
        """The head's bias: models whose ``set_output_embeddings`` ties their head's
        bias to the new layer's (BERT's ``cls.predictions.bias``) read it."""
        return getattr(self.head, "bias", None)

    def forward(self, hidden: torch.Tensor) -> torch.Tensor:
        t = self.targets.to(hidden.device)
        n = min(hidden.shape[1], t.shape[1]) - 1
        for a in range(0, n, self.chunk):
            b = min(n, a + self.chunk)
            logits = self.head(hidden[:, a:b]).float()
            if self.softcap:
                logits = torch.tanh(logits / self.softcap) * self.softcap
            nll = torch.logsumexp(logits, -1) - logits.gather(-1, t[:, a + 1 : b + 1, None])[..., 0]
            self.all[0] += float(nll.double().sum())
            self.all[1] += nll.numel()
            keep = nll[:, max(0, self.query_from - a) :]
            self.beyond[0] += float(keep.double().sum())
            self.beyond[1] += keep.numel()
        return hidden.new_zeros(*hidden.shape[:2], 1)


@contextmanager
def nll_head(model: torch.nn.Module, query_from: int = 0) -> Iterator[NLLAccumulator]:
    """Swap ``model``'s output layer for an :class:`NLLAccumulator` (restored on exit);
    the input ids of each forward pass are its targets.  Yields the accumulator."""
    head = model.get_output_embeddings()
    if head is None:
        raise ValueError(f"{type(model).__name__} has no language-model head")
    cfg = model.config.get_text_config() if hasattr(model.config, "get_text_config") else None
    cap = config_value(cfg or model.config, "final_logit_softcapping", None)
    acc = NLLAccumulator(head, query_from, cap)

    def grab(mod, args, kwargs) -> None:
        ids = kwargs.get("input_ids", args[0] if args else None)
        acc.targets = ids

    hook = model.register_forward_pre_hook(grab, with_kwargs=True)
    model.set_output_embeddings(acc)
    try:
        yield acc
    finally:
        hook.remove()
        model.set_output_embeddings(head)
