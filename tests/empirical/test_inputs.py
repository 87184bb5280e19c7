"""Inputs of the empirical commands: text sources cut into windows inside documents with
the tokenizer's special tokens, devices and dtypes, config keys, one Algorithm 1."""

import json

import pytest

pytestmark = pytest.mark.empirical


def chars(text):  # one "token" per character
    return [ord(c) for c in text]


@pytest.fixture
def sources(tmp_path):
    folder = tmp_path / "docs"
    folder.mkdir()
    (folder / "a.txt").write_text("a" * 25)
    (folder / "b.txt").write_text("b" * 12)
    (folder / ".hidden").write_text("h" * 100)
    (folder / "c.jsonl").write_text(
        json.dumps({"body": "c" * 11}) + "\n\n" + json.dumps({"body": "d" * 3}) + "\n"
    )
    return {"folder": folder, "file": folder / "a.txt", "jsonl": folder / "c.jsonl"}


WINDOWS = [  # (source, length, n, prefix, suffix, expected windows as strings)
    ("file", 10, 2, (), (), ["a" * 10, "a" * 10]),
    ("file", 10, 2, (ord("^"),), (), ["^" + "a" * 9, "^" + "a" * 9]),
    ("file", 10, 1, (ord("^"),), (ord("$"),), ["^" + "a" * 8 + "$"]),
    # a window never spans two documents; hidden files are skipped; JSONL gives records
    ("folder", 10, 4, (), (), ["a" * 10, "a" * 10, "b" * 10, "c" * 10]),
    ("jsonl", 5, 2, (), (), ["c" * 5, "c" * 5]),
]


@pytest.mark.parametrize("source,length,n,prefix,suffix,expected", WINDOWS)
def test_document_windows(sources, source, length, n, prefix, suffix, expected):
    from empirical.training.corpora import document_windows, load_documents

    docs = load_documents(str(sources[source]), text_field="body")
    got = document_windows(docs, chars, length, n, prefix=prefix, suffix=suffix)
    assert ["".join(map(chr, w)) for w in got] == expected


ERRORS = [  # (source, field, length, n, message)
    ("file", "text", 26, 1, "larger than the text"),
    ("folder", "body", 10, 5, "longest document has 25 tokens"),
    ("jsonl", "text", 5, 1, "no string field 'text'"),
    ("missing", "text", 5, 1, "no such file"),
]


@pytest.mark.parametrize("source,field,length,n,message", ERRORS)
def test_text_errors(sources, source, field, length, n, message):
    from empirical.training.corpora import CorpusError, document_windows, load_documents

    path = str(sources.get(source, sources["folder"] / "nope.txt"))
    with pytest.raises(CorpusError, match=message):
        document_windows(load_documents(path, field), chars, length, n)


def test_bos_is_added_as_the_tokenizer_does(tmp_path):
    """LLaMA-like: BOS before; T5: EOS after; what the tokenizer's own encoding adds."""
    import transformers

    from empirical.capture.checkpoints import save_tiny_checkpoint
    from empirical.capture.models import load_model, special_ends

    for family, where in (("llama", 0), ("t5_encoder", 1)):
        path = save_tiny_checkpoint(family, tmp_path / family)
        tok = transformers.AutoTokenizer.from_pretrained(path)
        ends = special_ends(tok)
        full = tok("x = 1")["input_ids"]
        assert len(ends[where]) == 1 and ends[1 - where] == ()
        assert (full[0] if where == 0 else full[-1]) == ends[where][0]
        lm = load_model(str(path))
        assert (lm.prefix, lm.suffix) == ends


DEVICES = [  # (text, error or None)
    ("cpu", None),
    ("cuda:0", "CUDA is not available"),
    ("cuda", "CUDA is not available"),
    ("tpu", "unknown device"),
    ("meta", "unsupported device"),
]


@pytest.mark.parametrize("text,error", DEVICES)
def test_resolve_device(text, error):
    import torch

    from empirical.capture.devices import DeviceError, resolve_device

    if torch.cuda.is_available() and text.startswith("cuda"):
        assert resolve_device(text).type == "cuda"
    elif error is None:
        assert resolve_device(text) == torch.device(text)
    else:
        with pytest.raises(DeviceError, match=error):
            resolve_device(text)


def test_resolve_dtype():
    import torch

    from empirical.capture.devices import DeviceError, resolve_dtype

    assert resolve_dtype("float16") is torch.float16 and resolve_dtype(None) is torch.float32
    with pytest.raises(DeviceError, match="unknown dtype"):
        resolve_dtype("int8")


@pytest.mark.parametrize(
    "spec,ok",
    [
        ("t5-config:tiny,num_heads=2,d_kv=32", True),
        ("t5-config:tiny,foo=3", False),
        ("llama-config:tiny,rope_theta=500000", True),
        ("llama-config:tiny,num_layers=3", False),
        ("bloom-config:tiny,n_head=2", True),
    ],
)
def test_config_keys_are_checked(spec, ok):
    from empirical.capture.models import ModelSpecError, load_model

    if ok:
        load_model(spec)
    else:
        with pytest.raises(ModelSpecError, match="unknown .*Config key"):
            load_model(spec)


def test_one_algorithm1():
    """empirical.audit.align has no search of its own: it calls theory.temperature.rules."""
    import empirical.audit.align as ea
    import theory.temperature.rules as tr

    for name in (
        "grid_search",
        "bisect_search",
        "theory_rules",
        "PAPER_GRID_LOCAL",
        "prop1_tau",
        "prop2_tau",
        "log_rule_tau",
    ):
        assert not hasattr(ea, name)
    assert ea.algorithm1_grid is tr.algorithm1_grid
    assert ea.algorithm1_continuous is tr.algorithm1_continuous and ea.PAPER_GRID is tr.PAPER_GRID
