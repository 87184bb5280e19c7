"""The scale an empirical verdict rests on: the rungs of the ladder of trained models (or
the model or table a check measured), beside the paper's own setting.

An empirical claim is decided at one scale and says which.  A check of the seeded
models is run on every rung (:func:`on_rungs`: ci and the stored rungs of
:func:`empirical.agreement.bundle_io.rung_names`, smallest span of text first); the
**top** rung's evidence decides the verdict, exactly as the one bundle's did, and every
lower rung's evidence is judged apart and shown beside it.  Where a catalogue contrast
(:mod:`empirical.agreement.catalogue`) decides the claim, the trend of the theory's error
across the rungs is the scale report's declared rule
(:func:`empirical.agreement.scales.trend`).  So a "does not hold" is one at the top rung,
with the trend; a claim that fails only below the top says so in its own words, e.g.

    holds at kjv192 (m = 192 bpe2048 tokens of kjv, ~600 characters; the paper: 512 BPE
    tokens ...); does not hold at ci, bytes128 (m <= 128 tokens); the theory's error
    falls with scale

A check that measures a model of its own (:func:`own`) or the paper's printed tables
(:func:`rests_on`) names that scale instead, as a rung ``"own: <model and lengths>"`` or
``"paper: <table>"``.  :func:`record` makes the ``scale`` of a verdict (its ``rungs``,
per-rung verdicts, trends and wording); the verdict's status stays in the fixed
vocabulary (:data:`paper_checks.items.VERDICTS`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from paper_checks.evidence import Evidence, Verdict
from paper_checks.items import APPROX, CANNOT, DEPENDS, FAILS, HOLDS, MissingInput

#: the setting each paper made its empirical claims at
PAPER_SETTINGS = {
    "rpe": "the paper: 512 BPE tokens of Wikitext-103/Books/Github/WikiBook, evaluated to 9216",
    "align": "the paper: Flan-T5-XL/XXL, 512 -> 15k tokens",
    "infoscale": "the paper: GAU-α trained at 512 tokens (64 in Sec. 4.1.2), evaluated to 64x",
}
#: how each verdict is said at a scale
SAID = {
    HOLDS: "holds",
    APPROX: "holds approximately",
    FAILS: "does not hold",
    CANNOT: "cannot be checked",
    DEPENDS: "depends on the reading",
}
#: how each trend of :func:`empirical.agreement.scales.trend` is said
TREND_SAID = {
    "falls": "falls with scale",
    "rises": "rises with scale",
    "no trend": "shows no trend across the rungs",
}
NO_CONTRAST = (
    "no trend of the theory's error is measured (no catalogue contrast decides it on every rung)"
)
ONE_RUNG = "one rung only, so no trend across scale"


@dataclass
class Scale:
    """What an empirical evidence rests on.

    ``rungs``: the names, smallest first, the last deciding; ``setting``: each name's
    scale in words; ``seq_len``: each rung's training length m in tokens (None for a
    model or table of the check's own); ``paper``: the paper's own setting; ``lower``:
    the evidence of each rung below the top (judged apart, shown); ``trends``: per
    catalogue contrast deciding the claim, the trend of the theory's error across the
    rungs."""

    rungs: list
    setting: dict
    paper: str
    seq_len: dict = field(default_factory=dict)
    lower: dict = field(default_factory=dict)
    trends: dict = field(default_factory=dict)
    contrasts: dict = field(default_factory=dict)  # rung -> [contrast rows]
    ladder: bool = False  # rungs of the ladder (else a model or table of the check's own)

    def __post_init__(self):
        if not self.rungs:
            raise ValueError("an empirical scale names at least one rung")
        if set(self.lower) - set(self.rungs[:-1]):
            raise ValueError("lower-rung evidence for a rung that is not below the top")

    def record(self, top: Verdict, lower: dict) -> dict:
        """The ``scale`` of a verdict (JSON-able): ``top`` is the deciding verdict, ``lower``
        maps each lower rung to its own verdict (:class:`paper_checks.evidence.Verdict`)."""
        name = self.rungs[-1]
        statuses = {n: v.status for n, v in lower.items()} | {name: top.status}
        per = {
            n: {
                "setting": self.setting[n],
                "verdict": v.label,
                "summary": v.summary,
                "table": v.table,
                "contrasts": self.contrasts.get(n, []),
            }
            for n, v in lower.items()
        }
        per[name] = {
            "setting": self.setting[name],
            "verdict": top.label,
            "decides": True,
            "contrasts": self.contrasts.get(name, []),
        }
        return {
            "text": wording(self, statuses),
            "rungs": list(self.rungs),
            "top": name,
            "paper_setting": self.paper,
            "per_rung": {n: per[n] for n in self.rungs if n in per},
            "trends": dict(self.trends),
            "ladder": self.ladder,
        }


def group(status: str) -> str:
    """``status`` with "holds approximately" counted as "holds"."""
    return HOLDS if status == APPROX else status


def _span(scale: Scale, names: Sequence[str]) -> str:
    if len(names) == 1:
        return scale.setting[names[0]]
    ms = [scale.seq_len.get(n) for n in names]
    if all(m is not None for m in ms):
        return f"m <= {max(ms)} tokens"
    return "; ".join(scale.setting[n] for n in names)


def trend_words(trends: dict, n_rungs: int) -> str:
    """The trend of the theory's error in words: one phrase when every contrast shows the
    same trend, else how many contrasts show each (each contrast's trend is in the
    verdict's ``scale["trends"]``)."""
    if not trends:
        return NO_CONTRAST
    if n_rungs < 2:
        return ONE_RUNG
    by: dict = {}
    for title, t in trends.items():
        by.setdefault(t, []).append(title)
    if len(by) == 1:
        return f"the theory's error {TREND_SAID[next(iter(by))]}"
    return "the theory's error " + ", ".join(
        f"{TREND_SAID[t]} in {len(titles)} of {len(trends)} contrasts" for t, titles in by.items()
    )


def wording(scale: Scale, statuses: dict) -> str:
    """The verdict stated at its scale: the top rung's verdict with its setting and the
    paper's, then the lower rungs grouped by verdict, then the trend.  ``statuses`` maps
    each rung to its verdict status (the top one decides).

    >>> s = Scale(["ci", "big"], {"ci": "m = 32 bytes", "big": "m = 192 tokens"}, "the paper: 512",
    ...           seq_len={"ci": 32, "big": 192}, trends={"t": "falls"}, ladder=True)
    >>> wording(s, {"ci": FAILS, "big": HOLDS})
    "holds at big (m = 192 tokens; the paper: 512); does not hold at ci (m = 32 bytes); the theory's error falls with scale"
    """
    if not scale.ladder:  # a scale of its own: every name decides
        settings = "; ".join(scale.setting[n] for n in scale.rungs)
        return f"{SAID[statuses[scale.rungs[-1]]]} on {settings} ({scale.paper})"
    top, lower = scale.rungs[-1], scale.rungs[:-1]
    head = f"{SAID[statuses[top]]} at {top} ({scale.setting[top]}; {scale.paper})"
    parts, seen = [head], {}
    for n in lower:
        seen.setdefault(group(statuses[n]), []).append(n)
    for g, names in seen.items():
        said = f"{SAID[g]} at {', '.join(names)} ({_span(scale, names)})"
        parts.append(("also " + said) if g == group(statuses[top]) else said)
    if scale.trends or lower:
        parts.append(trend_words(scale.trends, len(scale.rungs)))
    return "; ".join(parts)


# ------------------------------------------------------------------ the seeded models
NEEDS = "the seeded bundle: python -m empirical.bundle --profile ci --out runs/ci"


def rung_setting(b: dict) -> str:
    """A rung's scale in words: its training length m in tokens, the tokenizer, the text
    and (for subword tokens) the characters in one training window."""
    from empirical.agreement.bundle_io import text_span  # the empirical extra is optional

    st = b["settings"]
    m, tok, corpus = st["seq_len"], st.get("tokenizer", "bytes"), st.get("corpus", "stdlib")
    if tok == "bytes":
        return f"m = {m} bytes of {corpus}"
    return f"m = {m} {tok} tokens of {corpus}, ~{text_span(b):.0f} characters"


def contrast_rows(contrasts: list) -> list:
    """Each contrast at one rung: the theory's error interval, whether it agrees, whom it
    loses to."""
    return [
        {
            "title": c.title,
            "theory": [c.theory_error().lo, c.theory_error().mean, c.theory_error().hi],
            "agrees": c.agrees(),
            "loses_to": c.losers(),
        }
        for c in contrasts
    ]


def trends_of(per_rung: dict) -> dict:
    """``{title: trend}`` of the catalogue contrasts over the rungs (``per_rung`` maps each
    rung, smallest first, to its contrasts, in one order), by the scale report's rule."""
    from empirical.agreement.scales import trend

    names = list(per_rung)
    titles = [c.title for c in per_rung[names[-1]]]
    return {t: trend([per_rung[n][i].theory_error() for n in names]) for i, t in enumerate(titles)}


def on_rungs(paper: str, quantity: str) -> Callable:
    """Decorate ``check(ctx, b) -> Evidence`` (one bundle) into ``check(ctx)`` run on every
    rung: the top rung's evidence returned, with its :class:`Scale` (the lower rungs'
    evidence, each rung's contrasts, their trend).  Without the ci bundle, the evidence is
    the missing bundle (named ``quantity``)."""

    def wrap(one: Callable) -> Callable:
        @functools.wraps(one)
        def check(ctx):
            from empirical.agreement import bundle_io

            if bundle_io.find_profile_bundle() is None:
                return Evidence(
                    [MissingInput(quantity, missing=NEEDS)],
                    scale=Scale(
                        ["ci"], {"ci": "not trained here yet"}, PAPER_SETTINGS[paper], ladder=True
                    ),
                )
            names = bundle_io.rung_names()
            bundles = {n: bundle_io.load_rung(n) for n in names}
            per = {n: one(ctx, b) for n, b in bundles.items()}
            top = per[names[-1]]
            contrasts = {n: ev.contrasts for n, ev in per.items()}
            top.scale = Scale(
                list(names),
                {n: rung_setting(b) for n, b in bundles.items()},
                PAPER_SETTINGS[paper],
                seq_len={n: bundle_io.train_len(b) for n, b in bundles.items()},
                lower={n: per[n] for n in names[:-1]},
                trends=trends_of(contrasts) if all(contrasts.values()) else {},
                contrasts={n: contrast_rows(cs) for n, cs in contrasts.items()},
                ladder=True,
            )
            return top

        check.rests_on = lambda ctx=None: _ladder_names()
        return check

    return wrap


def _ladder_names() -> list:
    from empirical.agreement import bundle_io

    return bundle_io.rung_names()


# ------------------------------------------------------------------ other scales
def own(paper: str, what: str, setting: str = "") -> Scale:
    """The scale of a check that measures a model of its own: one rung ``own: what``
    (``setting``: the model and lengths in words, ``what`` if empty)."""
    name = f"own: {what}"
    return Scale([name], {name: setting or what}, PAPER_SETTINGS[paper])


def fixed(paper: str, settings: dict) -> Scale:
    """The scale of evidence resting on fixed scales: ``settings`` maps each name (a
    table of the paper, a model of the check's own) to its setting in words."""
    return Scale(list(settings), dict(settings), PAPER_SETTINGS[paper])


def rests_on(paper: str, settings: dict) -> Callable:
    """Decorate a check whose evidence rests on fixed scales (the paper's printed tables,
    a model of its own; ``settings`` as in :func:`fixed`) unless it states its own."""

    def wrap(fn: Callable) -> Callable:
        @functools.wraps(fn)
        def check(ctx):
            ev = fn(ctx)
            if ev.scale is None:
                ev.scale = fixed(paper, settings)
            return ev

        check.rests_on = lambda ctx=None: list(settings)
        return check

    return wrap


def planned_rungs(check: Callable, ctx: object = None) -> list:
    """The rungs a check rests on when it runs (for a row that was not run); [] if it
    does not declare them."""
    fn = getattr(check, "rests_on", None)
    return list(fn(ctx)) if fn else []
