"""A small causal Transformer language model (nanoGPT style) with a pluggable RPE.

Shapes: B batch, L sequence length, D = d_model, H heads, Dh = D / H, V vocabulary.
The RPE enters as an additive bias on the attention logits (RPE paper Eq. 5):

.. math::

    O = \\mathrm{Softmax}\\big(g_i\\,(QK^\\top/\\sqrt{D_h} + R)\\big) V,\\qquad
    R_{ij} = \\log b_{\\mathrm{start}+i-j}\\ (j \\le i),\\ -\\infty\\ (j > i)

``g_i`` is a per-query logit factor, 1 unless asked for.  Trained into the model
(``LMConfig.attn_scale``): ``"log_n"`` (log-length scaling, Chiang & Cholak 2022:
``g_i = ln(max(i+1, 2))/ln m``, m the training length; query 0 has one key, and a factor
0 would turn its masked logits into NaN) or ``"cosscale"`` (scaled cosine attention,
InfoScale paper Eqs. 6-7: ``q.k/sqrt(D_h)`` replaced by ``alpha cos(q, k)``).  Set at
inference only (:meth:`TinyLM.set_inference`), for queries that see more than m keys
(``i >= m``; the model is unchanged where it was trained): a temperature
(``g_i = 1/tau``, attention-alignment paper Algorithm 1), InfoScale
(``g_i = InfoScale(i+1)``, InfoScale paper Eq. 15, eps = 0) or the inference-only log rule
(``g_i = ln(i+1)/ln m``).

>>> import torch
>>> m = TinyLM(LMConfig(rpe="type2", n_layer=1, d_model=32, n_head=2, d_ff=64))
>>> m(torch.zeros(2, 10, dtype=torch.long)).shape
torch.Size([2, 10, 256])
"""

from __future__ import annotations

import math
from dataclasses import asdict, dataclass

import torch
import torch.nn as nn
import torch.nn.functional as F

from empirical.training.rpe import T5RPE, build_rpe, sinusoidal_embedding
from theory.infoscale.infoscale import infoscale

SCALINGS = ("none", "log_n", "cosscale")  # trained into the model
INFERENCE_RULES = ("none", "tau", "infoscale", "log_n")  # applied beyond m at inference


@dataclass
class LMConfig:
    rpe: str = "type2"
    vocab_size: int = 256  # byte-level tokens
    n_layer: int = 2
    n_head: int = 4
    d_model: int = 128
    d_ff: int = 512
    dropout: float = 0.0
    seed: int = 0  # seeds the initialisation (incl. learnable RPE params)
    attn_scale: str = "none"  # one of SCALINGS
    cos_alpha: float = 0.0  # CosScale alpha (attn_scale == "cosscale")
    train_len: int = 0  # m, for "log_n" and the inference rules
    t5_buckets: int = 32  # T5 bias: number of causal buckets
    t5_max_distance: int = 128  # T5 bias: distances >= this share the last bucket

    def as_dict(self) -> dict:
        return asdict(self)


class Attention(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.h, self.dh = cfg.n_head, cfg.d_model // cfg.n_head
        self.cos_alpha = cfg.cos_alpha if cfg.attn_scale == "cosscale" else 0.0
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.drop = nn.Dropout(cfg.dropout)

    def scores(
        self, x: torch.Tensor, bias: torch.Tensor, g: torch.Tensor | None
    ) -> tuple[torch.Tensor, torch.Tensor]:
        """(B, H, L, L) attention logits g_i (content + bias) and v (B, H, L, Dh)."""
        B, L, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)  # 3 x (B, L, D)
        q, k, v = (z.view(B, L, self.h, self.dh).transpose(1, 2) for z in (q, k, v))
        if self.cos_alpha:
            q, k = F.normalize(q, dim=-1), F.normalize(k, dim=-1)
            logits = self.cos_alpha * (q @ k.transpose(-1, -2))  # alpha cos(q, k)
        else:
            logits = q @ k.transpose(-1, -2) / math.sqrt(self.dh)  # (B, H, L, L)
        logits = logits + bias[None]  # bias (H, L, L)
        return (logits if g is None else logits * g[:, None]), v  # g (L,) per query

    def forward(
        self,
        x: torch.Tensor,
        bias: torch.Tensor,
        want_probs: bool = False,
        g: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        B, L, D = x.shape
        logits, v = self.scores(x, bias, g)
        probs = torch.softmax(logits, dim=-1)
        out = (self.drop(probs) @ v).transpose(1, 2).reshape(B, L, D)  # (B, L, D)
        return self.proj(out), (probs if want_probs else None)


class Block(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.mlp = nn.Sequential(
            nn.Linear(cfg.d_model, cfg.d_ff),
            nn.GELU(),
            nn.Linear(cfg.d_ff, cfg.d_model),
            nn.Dropout(cfg.dropout),
        )

    def forward(
        self,
        x: torch.Tensor,
        bias: torch.Tensor,
        want_probs: bool = False,
        g: torch.Tensor | None = None,
    ) -> tuple[torch.Tensor, torch.Tensor | None]:
        a, probs = self.attn(self.ln1(x), bias, want_probs, g)
        x = x + a
        return x + self.mlp(self.ln2(x)), probs


class TinyLM(nn.Module):
    """Pre-LN decoder; one RPE module shared by all layers (as ALiBi/Kerple do)."""

    def __init__(self, cfg: LMConfig):
        super().__init__()
        torch.manual_seed(cfg.seed)
        self.cfg = cfg
        self.emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        if cfg.attn_scale not in SCALINGS:
            raise ValueError(f"attn_scale must be one of {SCALINGS}, got {cfg.attn_scale!r}")
        if cfg.attn_scale != "none" and cfg.train_len < 2:
            raise ValueError(f"attn_scale {cfg.attn_scale!r} needs train_len >= 2")
        if cfg.rpe == "t5":
            self.rpe = T5RPE(cfg.n_head, cfg.t5_buckets, cfg.t5_max_distance)
        else:
            self.rpe = build_rpe(cfg.rpe, cfg.n_head)
        self.rule, self.tau = "none", 1.0
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.head.weight = self.emb.weight  # weight tying
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(mod):
        """nanoGPT initialisation: N(0, 0.02) weights, zero biases."""
        if isinstance(mod, (nn.Linear, nn.Embedding)):
            nn.init.normal_(mod.weight, std=0.02)
        if isinstance(mod, nn.Linear) and mod.bias is not None:
            nn.init.zeros_(mod.bias)

    def set_inference(self, rule: str = "none", tau: float = 1.0) -> TinyLM:
        """Inference-only logit factor for queries i >= m (see the module docstring)."""
        if rule not in INFERENCE_RULES:
            raise ValueError(f"rule must be one of {INFERENCE_RULES}, got {rule!r}")
        if rule != "none" and self.cfg.train_len < 2:
            raise ValueError("inference rules need LMConfig.train_len")
        if not (math.isfinite(tau) and tau > 0):
            raise ValueError(f"tau must be > 0, got {tau}")
        self.rule, self.tau = rule, float(tau)
        return self

    def query_factors(self, L: int) -> torch.Tensor | None:
        """g_i, i < L: trained factor times the inference rule's factor (None if all 1)."""
        m, dh = self.cfg.train_len, self.cfg.d_model // self.cfg.n_head
        n = torch.arange(1, L + 1, dtype=torch.float64)  # keys seen by query i
        g = torch.ones(L, dtype=torch.float64)
        if self.cfg.attn_scale == "log_n":  # n >= 2: query 0 (one key) gets ln 2 / ln m
            g = torch.log(n.clamp(min=2)) / math.log(m)
        beyond = n > m
        if self.rule == "tau":
            g = torch.where(beyond, g / self.tau, g)
        elif self.rule == "log_n":
            g = torch.where(beyond, g * torch.log(n) / math.log(m), g)
        elif self.rule == "infoscale":
            f = torch.tensor(
                [infoscale(int(k), m, dh) if k > m else 1.0 for k in n.tolist()],
                dtype=torch.float64,
            )
            g = g * f
        if self.cfg.attn_scale == "none" and self.rule == "none":
            return None
        return g.float()

    def bias(self, L: int) -> torch.Tensor:
        """The RPE's (H, L, L) bias; cached for RPEs without parameters."""
        if any(True for _ in self.rpe.parameters()):
            return self.rpe.bias_matrix(L)
        cache = self.__dict__.setdefault("_bias_cache", {})
        if L not in cache:
            cache[L] = self.rpe.bias_matrix(L)
        return cache[L]

    def hidden(
        self, idx: torch.Tensor, want_probs: bool = False, upto: int | None = None
    ) -> tuple[torch.Tensor, list[torch.Tensor | None], torch.Tensor, torch.Tensor | None]:
        """Run the blocks (all, or the first ``upto``): (x, per-layer probs, bias, g)."""
        B, L = idx.shape
        x = self.emb(idx)  # (B, L, D)
        if self.rpe.absolute:
            # fairseq convention: scale token embeddings by sqrt(D) before adding the
            # unit-amplitude sinusoid, else it swamps the N(0, 0.02) token embedding
            x = x * math.sqrt(self.cfg.d_model) + sinusoidal_embedding(L, self.cfg.d_model).to(x)
        bias = self.bias(L).to(x)  # (H, L, L)
        g = self.query_factors(L)
        g = None if g is None else g.to(x)
        all_probs = []
        for blk in self.blocks[:upto]:
            x, probs = blk(x, bias, want_probs, g)
            all_probs.append(probs)
        return x, all_probs, bias, g

    def forward(
        self, idx: torch.Tensor, want_probs: bool = False
    ) -> torch.Tensor | tuple[torch.Tensor, list[torch.Tensor | None]]:
        """idx (B, L) long -> logits (B, L, V); with ``want_probs`` also a list of
        per-layer attention probabilities (B, H, L, L)."""
        x, all_probs, _, _ = self.hidden(idx, want_probs)
        logits = self.head(self.ln_f(x))  # (B, L, V)
        return (logits, all_probs) if want_probs else logits

    def loss(self, idx: torch.Tensor) -> torch.Tensor:
        """Mean next-token cross entropy (nats) over positions 0..L-2 of idx (B, L)."""
        logits = self(idx[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), idx[:, 1:].reshape(-1))

    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())
