"""Streaming, mergeable statistics of attention rows (attention-alignment paper, Sec. 4, 6).

Every softmax row ``p = softmax(l / tau)`` of every captured attention module feeds,
per head, a handful of running **sums and counts** (float64), so many sequences, many
forward passes and many processes combine exactly by addition:

* ``pmax_sum``   :math:`\\sum_i \\max_j p_{ij}` (Algorithm 1, mode Maximum Probability);
* ``ent_sum``    :math:`\\sum_i H(p_i) = -\\sum_i \\sum_j p_{ij} \\log p_{ij}` (mode Entropy);
* ``dist_sum``   :math:`\\sum_i \\sum_j p_{ij} |j - i|` (the attention-weighted mean
  distance);
* for chosen layers (``mass_layers``), ``mass``: :math:`\\sum_i p_{i, i+d}` for every
  signed offset :math:`d = j - i` (the per-distance attention mass, from which receptive
  fields follow);
* for chosen layers, ``sorted_sum`` / ``sorted_count``: the rank-wise sum of the
  individually *descending*-sorted pre-softmax logit rows (Sec. 6.1: "logit vectors are
  individually sorted, and we calculate the average"), whose mean is the paper's
  *averaged logit vector*; its centred standard deviation is :math:`\\sigma`, its
  centred largest entry :math:`l_{max}` (Assumptions 1-2, Table 7).

Rows are processed block by block, so memory is O(L x block x heads).  Masked entries
are ``-inf`` logits (probability 0); rows of a causal model have fewer valid entries, and
rank ``r`` of the sorted mean then averages only the rows with more than ``r`` entries.

Example (one head, two rows of length 3, no mask):

>>> import torch
>>> s = AttentionStats(sorted_layers=["a"])
>>> l = torch.tensor([[[[0.0, 0.0, 0.0], [2.0, 0.0, 0.0]]]])
>>> s.update("a", l, torch.softmax(l, -1), row0=0)
>>> round(s.summary()["a"]["pmax"], 6)   # (1/3 + e^2/(e^2+2)) / 2
0.56016
"""

from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np
import torch


@dataclass
class LayerStats:
    """Running sums for one attention module (all heads)."""

    n_heads: int
    max_len: int
    rows: np.ndarray = None  # (H,) number of softmax rows seen
    pmax_sum: np.ndarray = None  # (H,)
    ent_sum: np.ndarray = None  # (H,)
    dist_sum: np.ndarray = None  # (H,) sum_i sum_j p_ij |j - i|
    mass: np.ndarray | None = None  # (H, 2*max_len-1): offset d = j - i at index d+max_len-1
    sorted_sum: np.ndarray | None = None  # (H, max_len) descending ranks
    sorted_count: np.ndarray | None = None  # (H, max_len)
    sink_sum: np.ndarray | None = None  # (H,) sum_i of the attention sink's mass

    SUM_FIELDS = ("rows", "pmax_sum", "ent_sum", "dist_sum", "mass", "sorted_sum", "sorted_count")

    def __post_init__(self):
        h = self.n_heads
        for name in ("rows", "pmax_sum", "ent_sum", "dist_sum"):
            if getattr(self, name) is None:
                setattr(self, name, np.zeros(h))

    def grow(self, max_len: int) -> None:
        """Zero-pad the length-indexed arrays to ``max_len`` (sums stay exact)."""
        if max_len <= self.max_len:
            return
        pad = max_len - self.max_len
        if self.mass is not None:
            self.mass = np.pad(self.mass, ((0, 0), (pad, pad)))
        if self.sorted_sum is not None:
            self.sorted_sum = np.pad(self.sorted_sum, ((0, 0), (0, pad)))
            self.sorted_count = np.pad(self.sorted_count, ((0, 0), (0, pad)))
        self.max_len = max_len

    def merge(self, other: LayerStats) -> None:
        """Add ``other``'s sums into this one (exact: sums and counts)."""
        if other.n_heads != self.n_heads:
            raise ValueError(f"cannot merge {other.n_heads} heads into {self.n_heads}")
        self.grow(other.max_len)
        other.grow(self.max_len)
        for f in ("rows", "pmax_sum", "ent_sum", "dist_sum"):
            setattr(self, f, getattr(self, f) + getattr(other, f))
        for group in (("mass",), ("sorted_sum", "sorted_count"), ("sink_sum",)):
            if getattr(other, group[0]) is None:
                continue
            for f in group:
                if getattr(self, f) is None:
                    setattr(self, f, np.zeros_like(getattr(other, f)))
                setattr(self, f, getattr(self, f) + getattr(other, f))

    # ---- derived quantities -------------------------------------------------------
    def offsets(self) -> np.ndarray:
        return np.arange(-(self.max_len - 1), self.max_len)

    def mean_distance(self) -> np.ndarray:
        """Per head :math:`\\frac{1}{N}\\sum_i\\sum_j p_{ij}\\lvert j-i\\rvert`."""
        return self.dist_sum / np.maximum(self.rows, 1)

    def receptive_field(self, eps: float = 0.05) -> np.ndarray:
        """Per head, the smallest distance d with a share of at least 1 - eps of the
        attention mass at offsets ``|j - i| <= d`` (an empirical receptive field).

        >>> ls = LayerStats(1, 3, mass=np.array([[0.0, 0.5, 1.0, 0.5, 0.0]]))  # offsets -2..2
        >>> ls.receptive_field(0.1).tolist(), ls.receptive_field(0.6).tolist()
        ([1], [0])
        """
        if self.mass is None:
            raise ValueError("the per-offset mass was not collected (AttentionStats mass_layers)")
        off = np.abs(self.offsets())
        by_d = np.zeros((self.n_heads, self.max_len))
        for h in range(self.n_heads):
            by_d[h] = np.bincount(off, weights=self.mass[h], minlength=self.max_len)
        cum = np.cumsum(by_d, 1) / np.maximum(by_d.sum(1, keepdims=True), 1e-300)
        return (cum >= 1 - eps - 1e-12).argmax(1)

    def averaged_logit_vector(self) -> np.ndarray | None:
        """Mean over heads and rows of the descending-sorted logit rows (Sec. 6.1)."""
        if self.sorted_sum is None:
            return None
        cnt = self.sorted_count.sum(0)
        keep = cnt > 0
        return self.sorted_sum.sum(0)[keep] / cnt[keep]

    def summary(self) -> dict:
        rows = np.maximum(self.rows, 1)
        out = {
            "rows": float(self.rows.sum()),
            "pmax": float(self.pmax_sum.sum() / rows.sum()),
            "entropy": float(self.ent_sum.sum() / rows.sum()),
            "mean_distance": float((self.mean_distance() * self.rows).sum() / rows.sum()),
            "per_head": {
                "pmax": (self.pmax_sum / rows).tolist(),
                "entropy": (self.ent_sum / rows).tolist(),
                "mean_distance": self.mean_distance().tolist(),
            },
        }
        if self.sink_sum is not None:
            out["sink_mass"] = float(self.sink_sum.sum() / rows.sum())
            out["per_head"]["sink_mass"] = (self.sink_sum / rows).tolist()
        if self.mass is not None:
            out["per_head"]["receptive_field_95"] = self.receptive_field(0.05).tolist()
        v = self.averaged_logit_vector()
        if v is not None:
            out.update(sorted_logit_summary(v))
        return out


def sorted_logit_summary(v: np.ndarray) -> dict:
    """sigma and lmax of an averaged (descending) logit vector, made zero-mean first.

    .. math:: \\sigma = \\sqrt{\\tfrac1L \\sum_i (v_i - \\bar v)^2}, \\qquad
              l_{max} = \\max_i v_i - \\bar v

    (App. A.2: "the logit vector can always be made zero-mean").

    >>> sorted_logit_summary(np.array([1.0, 0.0, -1.0]))["lmax"]
    1.0
    """
    c = v - v.mean()
    return {
        "sigma": float(np.sqrt((c**2).mean())),
        "lmax": float(c.max()),
        "lmax_raw": float(v.max()),
        "mean_raw": float(v.mean()),
        "length": int(v.size),
    }


@dataclass
class AttentionStats:
    """Per-module :class:`LayerStats`.  ``sorted_layers`` / ``mass_layers`` list the
    module names (or ``"all"``) whose sorted logit rows (a sort per row) / per-offset
    attention mass (a pass over the probabilities) are accumulated; P_max, entropy and
    the mean attended distance are always collected.  Rows of query positions below
    ``query_from`` are left out of every statistic (their outputs are computed as usual)."""

    sorted_layers: object = ()
    layers: dict = field(default_factory=dict)
    order: list = field(default_factory=list)
    mass_layers: object = ()
    query_from: int = 0

    def wants_sorted(self, name: str) -> bool:
        return self.sorted_layers == "all" or name in self.sorted_layers

    def wants_mass(self, name: str) -> bool:
        return self.mass_layers == "all" or name in self.mass_layers

    def _layer(self, name: str, n_heads: int, key_len: int) -> LayerStats:
        st = self.layers.get(name)
        if st is None:
            st = self.layers[name] = LayerStats(n_heads, key_len)
            self.order.append(name)
        st.grow(key_len)
        if self.wants_sorted(name) and st.sorted_sum is None:
            st.sorted_sum = np.zeros((n_heads, st.max_len))
            st.sorted_count = np.zeros((n_heads, st.max_len))
        if self.wants_mass(name) and st.mass is None:
            st.mass = np.zeros((n_heads, 2 * st.max_len - 1))
        return st

    def _keep_rows(self, row0: int, b: int, device) -> torch.Tensor:
        return torch.arange(row0, row0 + b, device=device) >= self.query_from

    @torch.no_grad()
    def update(
        self,
        name: str,
        logits: torch.Tensor,
        probs: torch.Tensor,
        row0: int,
        raw_logits: torch.Tensor | None = None,
        sorted_rows: bool = True,
    ) -> None:
        """Add one block of rows: ``logits``/``probs`` of shape (B, H, b, K), the rows
        being query positions ``row0 .. row0+b-1`` and the columns key positions
        ``0 .. K-1``; masked entries have ``-inf`` logits (rows without any valid entry
        are not counted).  ``raw_logits`` (before the temperature) feed the sorted
        statistics, default ``logits``."""
        bsz, h, b, k = probs.shape
        st = self._layer(name, h, max(k, row0 + b))
        keep = (probs.sum(-1) > 0) & self._keep_rows(row0, b, probs.device)
        p = probs * keep[..., None]
        st.rows += keep.sum((0, 2)).double().cpu().numpy()
        st.pmax_sum += p.amax(-1).sum((0, 2), dtype=torch.float64).cpu().numpy()
        st.ent_sum += torch.special.entr(p).sum(-1).sum((0, 2), dtype=torch.float64).cpu().numpy()
        d = (
            (
                torch.arange(k, device=p.device)[None, :]
                - torch.arange(row0, row0 + b, device=p.device)[:, None]
            )
            .abs()
            .to(p.dtype)
        )
        st.dist_sum += (p * d).sum(-1).sum((0, 2), dtype=torch.float64).cpu().numpy()
        if st.mass is not None:
            s = skew_sum(p.sum(0))  # (H, K+b-1), offset c-(b-1)-row0
            lo = st.max_len - 1 - (b - 1) - row0
            st.mass[:, lo : lo + k + b - 1] += s.double().cpu().numpy()
        if sorted_rows and st.sorted_sum is not None:
            self.update_sorted(name, logits if raw_logits is None else raw_logits, row0, keep)

    def add_sums(
        self,
        name: str,
        n_heads: int,
        max_len: int,
        rows: np.ndarray,
        pmax_sum: np.ndarray,
        ent_sum: np.ndarray,
        dist_sum: np.ndarray,
        mass: np.ndarray | None = None,
    ) -> None:
        """Add per-head sums computed elsewhere (the capture's attention pass); ``mass``
        (H, 2*max_len-1) is indexed like :attr:`LayerStats.mass` at ``max_len``."""
        st = self._layer(name, n_heads, max_len)
        st.rows += rows
        st.pmax_sum += pmax_sum
        st.ent_sum += ent_sum
        st.dist_sum += dist_sum
        if mass is not None:
            pad = st.max_len - max_len
            st.mass[:, pad : pad + mass.shape[1]] += mass

    def add_sink(self, name: str, sink_sum: np.ndarray) -> None:
        """Add per-head sums of an attention sink's mass (rows counted by
        :meth:`add_sums`; docs/conventions.md, "Attention sinks")."""
        st = self.layers[name]
        st.sink_sum = sink_sum if st.sink_sum is None else st.sink_sum + sink_sum

    @torch.no_grad()
    def update_sorted(
        self, name: str, logits: torch.Tensor, row0: int, keep: torch.Tensor | None = None
    ) -> None:
        """Rank-wise sums of the descending-sorted rows of ``logits`` (B, H, b, K);
        ``keep`` (broadcastable to (B, H, b)) selects the rows that count (default: the
        rows at positions >= ``query_from``)."""
        bsz, h, b, k = logits.shape
        st = self._layer(name, h, max(k, row0 + b))
        if st.sorted_sum is None:
            return
        if keep is None:
            keep = self._keep_rows(row0, b, logits.device)
        srt = torch.sort(logits, dim=-1, descending=True).values
        fin = torch.isfinite(srt) & keep.to(logits.device)[..., None]
        st.sorted_sum[:, :k] += torch.where(fin, srt, 0.0).sum((0, 2)).double().cpu().numpy()
        st.sorted_count[:, :k] += fin.sum((0, 2)).double().cpu().numpy()

    def merge(self, other: AttentionStats) -> AttentionStats:
        for name in other.order:
            if name in self.layers:
                self.layers[name].merge(other.layers[name])
            else:
                ls = other.layers[name]
                self.layers[name] = LayerStats(ls.n_heads, 1)
                self.layers[name].merge(ls)
                self.order.append(name)
        return self

    def summary(self) -> dict:
        return {name: self.layers[name].summary() for name in self.order}

    def overall(self, stat: str) -> float:
        """Algorithm 1's avg(s): the mean of ``stat`` ("pmax" or "entropy") over all
        rows of all heads of all captured modules (N = R x H x L logit vectors)."""
        key = {"pmax": "pmax_sum", "entropy": "ent_sum"}[stat]
        num = sum(getattr(st, key).sum() for st in self.layers.values())
        den = sum(st.rows.sum() for st in self.layers.values())
        if den == 0:
            raise ValueError("no attention rows were captured")
        return float(num / den)

    # ---- flat (de)serialisation for all-reduce and JSON ---------------------------
    def state(self) -> dict:
        def names(x):
            return x if x == "all" else list(x)

        return {
            "sorted_layers": names(self.sorted_layers),
            "mass_layers": names(self.mass_layers),
            "query_from": self.query_from,
            "order": list(self.order),
            "layers": {
                n: {
                    k: (v.tolist() if isinstance(v, np.ndarray) else v)
                    for k, v in vars(self.layers[n]).items()
                }
                for n in self.order
            },
        }

    @classmethod
    def from_state(cls, state: dict) -> AttentionStats:
        s = cls(
            sorted_layers=state["sorted_layers"],
            mass_layers=state.get("mass_layers", ()),
            query_from=state.get("query_from", 0),
        )
        for n in state["order"]:
            d = {
                k: (np.asarray(v, dtype=float) if isinstance(v, list) else v)
                for k, v in state["layers"][n].items()
            }
            s.layers[n] = LayerStats(**d)
            s.order.append(n)
        return s


def skew_sum(p: torch.Tensor) -> torch.Tensor:
    """Sum a block of rows along diagonals: for ``p`` of shape (H, b, K) return ``s`` of
    shape (H, K+b-1) with :math:`s[c] = \\sum_t p[t, c - (b-1) + t]`, i.e. index ``c``
    collects offset ``j - t = c - (b-1)`` (the classic relative-position skew).

    >>> skew_sum(torch.tensor([[[1., 2.], [3., 4.]]])).tolist()
    [[3.0, 5.0, 2.0]]
    """
    h, b, k = p.shape
    x = torch.flip(p, dims=(1,))  # row t' = b-1-t
    x = torch.nn.functional.pad(x, (0, b))  # (H, b, K+b)
    x = x.reshape(h, b * (k + b))[:, : b * (k + b - 1)].reshape(h, b, k + b - 1)
    return x.sum(1)


def entropy_from_logsumexp(logits: torch.Tensor) -> torch.Tensor:
    """Softmax entropy :math:`H = \\log D - \\sum_i p_i l_i` (App. A.3), a second method.

    >>> import math
    >>> round(float(entropy_from_logsumexp(torch.zeros(4))), 6) == round(math.log(4), 6)
    True
    """
    lse = torch.logsumexp(logits, -1)
    p = torch.softmax(logits, -1)
    return lse - torch.where(p > 0, p * logits, 0.0).sum(-1)
