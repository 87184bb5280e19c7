"""The ladder of rungs: tokenizers, stored rungs, the trend rule, re-run comparison."""

import gzip
import json
import subprocess
import sys

import pytest

pytest.importorskip("torch")
pytest.importorskip("tokenizers")

from empirical.agreement import bundle_io  # noqa: E402
from empirical.agreement.contrast import seed_interval  # noqa: E402
from empirical.agreement.scales import gap_sign, trend  # noqa: E402
from empirical.training import profile_bundle  # noqa: E402
from empirical.training.data import check_tokenizer, decode, tokenize_split  # noqa: E402
from empirical.training.reproduce import compare_measurements  # noqa: E402

pytestmark = pytest.mark.empirical

TEXT = (
    "".join(
        f"And the {w} said unto the {v}, Let there be {x} in the {y}.\n"
        for w, v, x, y in [
            ("king", "people", "light", "morning"),
            ("prophet", "king", "peace", "city"),
            ("people", "prophet", "bread", "wilderness"),
        ]
        * 60
    )
    + "Zebulun quartered the xylophones."
)  # only in the test split


@pytest.mark.parametrize("name", ["bytes", "bpe257", "bpe2048", "bpe65536"])
def test_tokenizer_names_accepted(name):
    assert check_tokenizer(name) == name


@pytest.mark.parametrize("name", ["bpe", "bpe256", "bpe65537", "BPE512", "bpe-512", "words", ""])
def test_tokenizer_names_refused(name):
    with pytest.raises(ValueError, match="tokenizer"):
        check_tokenizer(name)


def test_bpe_is_trained_on_the_training_split_only_and_is_deterministic():
    splits, info = tokenize_split(TEXT, "bpe300", frac=0.05)
    again, info2 = tokenize_split(TEXT, "bpe300", frac=0.05)
    assert info["tokenizer_sha256"] == info2["tokenizer_sha256"]
    assert all(bool((splits[k] == again[k]).all()) for k in splits)
    assert info["vocab_size"] <= 300 and max(int(t.max()) for t in splits.values()) < 300
    # the split is cut on characters: the test part decodes to the text's last 5%
    from empirical.training.data import train_bpe

    n_eval = int(len(TEXT) * 0.05)
    tok = train_bpe(TEXT[: len(TEXT) - 2 * n_eval], 300)
    assert tok.decode(splits["test"].tolist()) == TEXT[len(TEXT) - n_eval :]
    # a word seen only in the test split is not one token (the BPE never saw it)
    assert "Zebulun" not in tok.get_vocab() and "ĠZebulun" not in tok.get_vocab()
    assert info["chars_per_token"] == round(n_eval / len(splits["test"]), 4)


def test_bytes_tokenizer_is_utf8():
    splits, info = tokenize_split("héllo wörld " * 50, "bytes", frac=0.1)
    assert info == {"tokenizer": "bytes", "vocab_size": 256}
    assert decode(splits["test"]).endswith("wörld ")


def test_profiles_grow_the_span_of_text():
    """Every rung above ci trains on at least 4x ci's span of text, the top one on a BPE of
    natural language extrapolated to at least 16x (issue: the ladder's item 1)."""
    ci = profile_bundle.PROFILES["ci"]
    cpu = [p for n, p in profile_bundle.PROFILES.items() if n != "ci" and "device" not in p]
    assert len(cpu) >= 2
    assert all(p["seq_len"] >= 4 * ci["seq_len"] for p in cpu)
    top = cpu[-1]
    assert top["tokenizer"].startswith("bpe") and top["corpus"] in ("kjv", "pydoc")
    assert max(top["rpe_factors"]) >= 16 and 18 in top["rpe_factors"]


def test_compare_measurements():
    a = {"ppl": {"32": 2.5, "64": 3.0}, "erf": {"attention": [0.5, 0.25]}, "train_s": 3.0}
    b = json.loads(json.dumps(a)) | {"train_s": 99.0, "measure_s": 1.0}
    assert compare_measurements(a, b)["identical"]
    b["erf"]["attention"][1] = 0.25 * (1 + 1e-6)
    r = compare_measurements(a, b)
    assert not r["identical"] and r["worst"] == "erf.attention[1]"
    assert r["max_rel"] == pytest.approx(1e-6, rel=1e-5)  # relative to the stored value
    del b["ppl"]["64"]
    assert compare_measurements(a, b)["mismatched"] == ["ppl.64"]


def test_trend_rule():
    iv = seed_interval
    falling = [iv([0.5, 0.6, 0.55]), iv([0.3, 0.35, 0.32]), iv([0.1, 0.12, 0.11])]
    assert trend(falling) == "falls"
    assert trend(falling[::-1]) == "rises"
    # a fall that is not monotone is no trend; so is an overlap of the end intervals
    assert trend([falling[0], iv([0.7, 0.8, 0.75]), falling[2]]) == "no trend"
    assert trend([iv([0.5, 0.6, 0.55]), iv([0.45, 0.58, 0.5])]) == "no trend"
    assert trend(falling[:1]) == "no trend"
    assert gap_sign(iv([0.1, 0.2, 0.15])) == "theory better"
    assert gap_sign(iv([-0.1, -0.2, -0.15])) == "alternative better"
    assert gap_sign(iv([-0.1, 0.2, 0.05])) == "tied"


def test_stored_rungs_are_named_and_checked(tmp_path, monkeypatch):
    monkeypatch.setattr(bundle_io, "RUNGS_DIR", tmp_path)
    monkeypatch.setattr(bundle_io, "_RUNGS", {})
    with pytest.raises(bundle_io.BundleError, match="no rung 'nope'.*known: ci"):
        bundle_io.load_rung("nope")
    (tmp_path / "cut.json.gz").write_bytes(gzip.compress(b'{"format": 4')[:-6])
    with pytest.raises(bundle_io.BundleError, match="cut.json.gz"):
        bundle_io.load_rung("cut")
    (tmp_path / "old.json.gz").write_bytes(gzip.compress(b'{"format": 3}'))
    with pytest.raises(bundle_io.BundleError, match="format 3"):
        bundle_io.load_rung("old")


def test_every_stored_rung_reads_and_records_its_scale():
    """The stored rungs in the repository: readable, measurements only (no theory field),
    with their settings, text, tokenizer, machine and regenerating command."""
    for name in bundle_io.stored_rungs():
        b = bundle_io.load_rung(name)
        assert b["profile"] == name and b["command"].endswith(f"--profile {name} --workers 2")
        assert b["data"]["sha256"] and b["machine"]["torch"]
        assert set(b["results"]) == set(profile_bundle.MODELS)
        seeds = [str(s) for s in profile_bundle.PROFILES[name]["seeds"]]
        assert all(sorted(r) == seeds for r in b["results"].values())
        text = json.dumps(b["results"])
        assert "trf" not in text.lower() and "theory" not in text.lower()


def test_pytest_refuses_an_unknown_rung():
    r = subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-m", "agreement", "--rung", "no-such-rung",
         "tests/agreement/test_rpe_paper.py", "-p", "no:cacheprovider", "--co"],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode != 0 and "no-such-rung" in r.stdout + r.stderr


@pytest.mark.skipif(
    __import__("torch").cuda.is_available(), reason="a CUDA device is here: the rung would run"
)
def test_paper_rung_refuses_a_machine_without_cuda(tmp_path):
    r = subprocess.run(
        [sys.executable, "-m", "empirical.bundle", "--profile", "paper", "--out", str(tmp_path / "p")],
        capture_output=True, text=True, check=False,
    )  # fmt: skip
    assert r.returncode == 2 and r.stderr.startswith("error:") and "CUDA" in r.stderr
    assert not (tmp_path / "p").exists() or not any((tmp_path / "p").iterdir())


@pytest.mark.parametrize(
    "rpe", ["type2", "alibi", "kerple_log", "kerple_power", "sandwich", "none", "exp(-n)"]
)
def test_rpe_bias_lives_on_the_model_device(rpe):
    """The paper rung trains on a GPU: every tensor of the forward pass must follow the
    model's device.  The meta device stands in for it here (an op mixing a CPU tensor with
    a meta one raises, as CPU with CUDA does); T5's bucketing reads values, so it is left out."""
    import torch

    from empirical.training.tiny_lm import LMConfig, TinyLM

    cfg = LMConfig(rpe=rpe, n_layer=1, d_model=16, n_head=2, d_ff=32, train_len=8)
    model = TinyLM(cfg).to("meta")
    out = model(torch.zeros(2, 12, dtype=torch.long, device="meta"))
    assert out.device.type == "meta" and out.shape == (2, 12, 256)
