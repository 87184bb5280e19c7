"""The scale report (``python -m empirical.results --scales``) on the rungs of this run:
its layout is the documented one and its numbers are the contrasts' own, rung by rung."""

import pytest

pytest.importorskip("torch")

from empirical.agreement import bundle_io, scales  # noqa: E402
from empirical.agreement.catalogue import entry  # noqa: E402

pytestmark = [pytest.mark.agreement, pytest.mark.empirical]


def test_scale_report_layout_and_numbers(request, agreement_bundle):
    names = request.config.getoption("--rung") or bundle_io.rung_names()
    bundles = {n: agreement_bundle if n == "ci" else bundle_io.load_rung(n) for n in names}
    e = entry("align-dispersion-2m")
    per = scales.contrast_by_rung(e, bundles)
    rec = scales.contrast_scales(e, per)
    assert set(rec["rungs"]) == set(names) and rec["paper_check"] == e.check
    assert rec["trend"] in scales.TRENDS and rec["top_rung"] == names[-1]
    for n, c in per.items():
        r = rec["rungs"][n]
        assert r["theory"] == [c.theory_error().lo, c.theory_error().mean, c.theory_error().hi]
        assert r["agrees"] == c.agrees() and set(r["alternatives"]) == set(c.alternatives)
    rungs = [scales.rung_record(n, bundles[n]) for n in names]
    keys = {"name", "seq_len", "chars_per_token", "tokenizer", "corpus", "n_layer", "d_model"}
    assert all(keys <= set(r) for r in rungs)
    assert [r["span_chars"] for r in rungs] == sorted(r["span_chars"] for r in rungs)
    for n in names:
        exp = scales.rpe_experiments(bundles[n])
        assert exp["sinusoidal"]["converges"] is None and "16m" in exp["alibi"]["ppl_ratio"]
        if n != "ci":  # every rung above ci stores the RPE paper's 18x
            assert "18m" in exp["alibi"]["ppl_ratio"]
