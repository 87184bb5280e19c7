"""The capture's per-head means against eager attention computed in float64: the rows'
statistics are summed in float64, so the mean entropy of 512 rows stays within a few
float32 roundings of one row (summing the rows in float32 left 1.2e-7 (blocked path,
BERT) and 3.6e-7 (tiled causal path, LLaMA) here, measured)."""

import pytest
import torch
import transformers

from empirical.capture.checkpoints import tiny_config
from empirical.capture.discovery import attention_module_names
from empirical.capture.session import capture
from empirical.capture.stats import AttentionStats
from empirical.capture.sweep.architectures import reference_statistics

LENGTH = 512


@pytest.mark.parametrize("model_type", ["bert", "llama"])  # blocked, tiled causal
def test_means_within_float32_rounding_of_float64_eager(model_type):
    torch.manual_seed(0)
    cfg = tiny_config(model_type, max_position_embeddings=2 * LENGTH)
    model = transformers.AutoModel.from_config(cfg, attn_implementation="eager").eval()
    ids = torch.randint(4, 500, (1, LENGTH), generator=torch.Generator().manual_seed(0))
    with torch.no_grad():
        ref = model.double()(input_ids=ids, output_attentions=True).attentions
    model.float()
    stats = AttentionStats()
    with torch.no_grad(), capture(model, stats=stats):
        model(input_ids=ids)
    names = attention_module_names(model)
    assert len(names) == len(ref)
    for name, p in zip(names, ref):
        r = reference_statistics(p, LENGTH)
        st = stats.layers[name]
        rows = torch.as_tensor(st.rows)
        assert (rows == LENGTH).all()
        ent = torch.as_tensor(st.ent_sum) / rows
        pmax = torch.as_tensor(st.pmax_sum) / rows
        dist = torch.as_tensor(st.mean_distance())
        assert float((ent - r["entropy"]).abs().max()) < 5e-8, name
        assert float((pmax - r["pmax"]).abs().max()) < 5e-9, name
        assert float((dist - r["mean_distance"]).abs().max()) < 1e-5, name
