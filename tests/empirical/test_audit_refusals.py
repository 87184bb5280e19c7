"""The audit on checkpoints of architectures whose attention it cannot measure, saved as
a researcher saves them (tiny, seeded, built from configs): each refused by name, exit
2 and one ``error:`` line naming the module class and the reason, never exit 1.
"""

from pathlib import Path

import pytest

torch = pytest.importorskip("torch")
transformers = pytest.importorskip("transformers")

pytestmark = pytest.mark.empirical
transformers.logging.set_verbosity_error()
transformers.utils.logging.disable_progress_bar()


@pytest.fixture(scope="module")
def root(tmp_path_factory):
    return tmp_path_factory.mktemp("ckpts")


def _save(root: Path, model_type: str, cls: str | None = None, **overrides) -> Path:
    from capture_helpers import save_tiny_type_checkpoint

    folder = root / "_".join([model_type, str(cls), *map(str, overrides.values())])
    if not (folder / "config.json").exists():
        save_tiny_type_checkpoint(model_type, folder, seed=1, cls=cls, **overrides)
    return folder


def _refusal(folder: Path, out: Path, capsys) -> str:
    """The audit's one error line on ``folder`` (asserting exit 2 and nothing else on
    stderr)."""
    from empirical.audit.cli import main

    capsys.readouterr()
    argv = ["--model", str(folder), "--text", "stdlib", "--L-tr", "16", "--L-ex", "32"]
    rc = main([*argv, "--n-tr", "1", "--out", str(out), "--quiet"])
    err = capsys.readouterr().err.strip().splitlines()
    assert rc == 2 and len(err) == 1 and err[0].startswith("error: "), (rc, err)
    return err[0]


def test_blt_refused_by_its_cross_attention(root, tmp_path, capsys):
    """BLT's forward builds a key/value cache from a config without
    ``num_hidden_layers`` (transformers' ``AttributeError``) unless the cache is off;
    with it off, its cross-attention between bytes and patches (rows and keys of two
    sequences) is refused by name."""
    err = _refusal(_save(root, "blt"), tmp_path / "o", capsys)
    assert "BltForCausalLM" in err and "(BltCrossAttention)" in err, err
    assert "cross-attention between the input's positions and another sequence" in err
