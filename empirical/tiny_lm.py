"""A small causal Transformer language model (nanoGPT style) with a pluggable RPE.

Shapes: B batch, L sequence length, D = d_model, H heads, Dh = D / H, V vocabulary.
The RPE enters as an additive bias on the attention logits (RPE paper Eq. 5):

.. math::

    O = \\mathrm{Softmax}\\big(QK^\\top/\\sqrt{D_h} + R\\big) V,\\qquad
    R_{ij} = \\log b_{\\mathrm{start}+i-j}\\ (j \\le i),\\ -\\infty\\ (j > i)

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

from .rpe import build_rpe, sinusoidal_embedding


@dataclass
class LMConfig:
    rpe: str = "type2"
    vocab_size: int = 256          # byte-level tokens
    n_layer: int = 2
    n_head: int = 4
    d_model: int = 128
    d_ff: int = 512
    dropout: float = 0.0
    seed: int = 0                  # seeds the initialisation (incl. learnable RPE params)

    def as_dict(self) -> dict:
        return asdict(self)


class Attention(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.h, self.dh = cfg.n_head, cfg.d_model // cfg.n_head
        self.qkv = nn.Linear(cfg.d_model, 3 * cfg.d_model)
        self.proj = nn.Linear(cfg.d_model, cfg.d_model)
        self.drop = nn.Dropout(cfg.dropout)

    def forward(self, x, bias, want_probs=False):
        B, L, D = x.shape
        q, k, v = self.qkv(x).split(D, dim=-1)                        # 3 x (B, L, D)
        q, k, v = (z.view(B, L, self.h, self.dh).transpose(1, 2) for z in (q, k, v))
        logits = q @ k.transpose(-1, -2) / math.sqrt(self.dh)           # (B, H, L, L)
        probs = torch.softmax(logits + bias[None], dim=-1)              # bias (H, L, L)
        out = (self.drop(probs) @ v).transpose(1, 2).reshape(B, L, D)   # (B, L, D)
        return self.proj(out), (probs if want_probs else None)


class Block(nn.Module):
    def __init__(self, cfg: LMConfig):
        super().__init__()
        self.ln1, self.ln2 = nn.LayerNorm(cfg.d_model), nn.LayerNorm(cfg.d_model)
        self.attn = Attention(cfg)
        self.mlp = nn.Sequential(nn.Linear(cfg.d_model, cfg.d_ff), nn.GELU(),
                                 nn.Linear(cfg.d_ff, cfg.d_model), nn.Dropout(cfg.dropout))

    def forward(self, x, bias, want_probs=False):
        a, probs = self.attn(self.ln1(x), bias, want_probs)
        x = x + a
        return x + self.mlp(self.ln2(x)), probs


class TinyLM(nn.Module):
    """Pre-LN decoder; one RPE module shared by all layers (as ALiBi/Kerple do)."""

    def __init__(self, cfg: LMConfig):
        super().__init__()
        torch.manual_seed(cfg.seed)
        self.cfg = cfg
        self.emb = nn.Embedding(cfg.vocab_size, cfg.d_model)
        self.rpe = build_rpe(cfg.rpe, cfg.n_head)
        self.blocks = nn.ModuleList(Block(cfg) for _ in range(cfg.n_layer))
        self.ln_f = nn.LayerNorm(cfg.d_model)
        self.head = nn.Linear(cfg.d_model, cfg.vocab_size, bias=False)
        self.head.weight = self.emb.weight                               # weight tying
        self.apply(self._init_weights)

    @staticmethod
    def _init_weights(mod):
        """nanoGPT initialisation: N(0, 0.02) weights, zero biases."""
        if isinstance(mod, (nn.Linear, nn.Embedding)):
            nn.init.normal_(mod.weight, std=0.02)
        if isinstance(mod, nn.Linear) and mod.bias is not None:
            nn.init.zeros_(mod.bias)

    def forward(self, idx, want_probs=False):
        """idx (B, L) long -> logits (B, L, V); with ``want_probs`` also a list of
        per-layer attention probabilities (B, H, L, L)."""
        B, L = idx.shape
        x = self.emb(idx)                                                # (B, L, D)
        if self.rpe.absolute:
            # fairseq convention: scale token embeddings by sqrt(D) before adding the
            # unit-amplitude sinusoid, else it swamps the N(0, 0.02) token embedding
            x = x * math.sqrt(self.cfg.d_model) + sinusoidal_embedding(L, self.cfg.d_model).to(x)
        bias = self.rpe.bias_matrix(L).to(x)                             # (H, L, L)
        all_probs = []
        for blk in self.blocks:
            x, probs = blk(x, bias, want_probs)
            all_probs.append(probs)
        logits = self.head(self.ln_f(x))                                 # (B, L, V)
        return (logits, all_probs) if want_probs else logits

    def loss(self, idx):
        """Mean next-token cross entropy (nats) over positions 0..L-2 of idx (B, L)."""
        logits = self(idx[:, :-1])
        return F.cross_entropy(logits.reshape(-1, logits.size(-1)), idx[:, 1:].reshape(-1))

    def n_params(self) -> int:
        return sum(p.numel() for p in self.parameters())
