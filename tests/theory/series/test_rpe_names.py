"""One table of RPE names for the toolkit, and one T5 bucket function."""

import numpy as np
import pytest

from theory.series.expressions import ExpressionError, parse_expression
from theory.series.rpe_library import LIBRARY, resolve_rpe, t5_bucket
from theory.series.rpe_names import RPE_NAMES, canonical_rpe_name, suggest_rpe_name

SPELLINGS = [
    ("kerple-log", "kerple-log"),
    ("kerple_log", "kerple-log"),
    ("Kerple_Log", "kerple-log"),
    ("inv_n", "inv-n"),
    ("inv-nlogn", "inv-nlogn"),
    ("inv_nlogn", "inv-nlogn"),
    ("kerple_power", "kerple-power"),
    ("TYPE1", "type1"),
    ("nope", "none"),
    ("sin", "sinusoidal"),
]


@pytest.mark.parametrize("text,name", SPELLINGS)
def test_both_spellings(text, name):
    assert canonical_rpe_name(text) == name


@pytest.mark.parametrize("text", ["kerple_log", "kerple-log", "inv_n", "inv-nlogn", "kerple_power"])
def test_theory_accepts_both_spellings(text):
    assert resolve_rpe(text).name == canonical_rpe_name(text)


def test_library_matches_the_name_table():
    series = {n for n, e in RPE_NAMES.items() if e.series}
    assert set(LIBRARY) == series
    for name, e in RPE_NAMES.items():
        if e.formula is not None:  # the fixed formulas and starts come from one place
            r = resolve_rpe(name)
            assert r.start == e.start and r.b == parse_expression(e.formula)


TYPOS = [
    ("kerple", "kerple-log"),
    ("kerpel_log", "kerple-log"),
    ("alibii", "alibi"),
    ("sandwhich", "sandwich"),
    ("type_2", "type2"),
    ("inv", "inv-n"),
    ("xyz", None),
]


@pytest.mark.parametrize("word,guess", TYPOS)
def test_typos_suggest_the_nearest_name(word, guess):
    assert suggest_rpe_name(word) == guess
    with pytest.raises(ExpressionError, match="unknown name") as info:
        resolve_rpe(word)
    if guess:
        assert f"did you mean the named RPE '{guess}' (--rpe {guess})?" in str(info.value)
    else:
        assert "--free" in str(info.value)


def test_empirical_names_derive_from_the_table():
    pytest.importorskip("torch")
    from empirical.training import rpe

    assert rpe.NAMED == tuple(n.replace("-", "_") for n in RPE_NAMES)
    assert rpe.LABELS["kerple_log"] == RPE_NAMES["kerple-log"].label
    assert rpe.canonical_name("kerple-log") == rpe.canonical_name("Kerple_Log") == "kerple_log"
    assert (
        rpe.canonical_name("1/(n ln n)") == "inv_nlogn" and rpe.canonical_name("1/n**3") == "1/n**3"
    )
    assert rpe.FIXED_FORMULAS["inv_nlogn"] == ("1/(n*ln(n))", 2, "inv-nlogn")


DIST = np.concatenate([np.arange(0, 3000), [10**4, 10**5, 10**6, 10**9]])


@pytest.mark.parametrize("bidirectional", [False, True])
@pytest.mark.parametrize("nb,md", [(32, 128), (16, 64), (64, 1000)])
def test_t5_bucket_agrees_with_transformers(bidirectional, nb, md):
    """numpy, torch (empirical) and the paper's bucket equal transformers' T5 bucket."""
    torch = pytest.importorskip("torch")
    t5 = pytest.importorskip("transformers.models.t5.modeling_t5")
    d = np.concatenate([DIST, -DIST]) if bidirectional else DIST
    want = t5.T5Attention._relative_position_bucket(
        torch.as_tensor(-d), bidirectional=bidirectional, num_buckets=nb, max_distance=md
    ).numpy()
    np.testing.assert_array_equal(t5_bucket(d, nb, md, bidirectional), want)
    assert [t5_bucket(int(x), nb, md, bidirectional) for x in d[:40]] == want[:40].tolist()
    if not bidirectional:
        from empirical.training.rpe import T5RPE

        got = T5RPE(1, nb, md).bucket(torch.as_tensor(d)).numpy()
        np.testing.assert_array_equal(got, want)
    elif (nb, md) == (32, 128):
        from empirical.audit.paper_runs import paper_bucket

        assert [paper_bucket(int(x)) for x in d[::97]] == want[::97].tolist()


@pytest.mark.parametrize("spec", ["sinusoidal", "NoPE", "nope"])
def test_a_name_without_a_series_is_named_as_such(spec, capsys):
    """An absolute encoding's name is not taken for an unknown formula variable."""
    from theory.trf.cli import main

    assert main(["--rpe", spec]) == 2
    err = capsys.readouterr().err
    assert err.startswith("error: ") and "adds no relative bias" in err, err
    assert err.count("\n") == 1
