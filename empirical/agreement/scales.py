"""Every contrast across the ladder of rungs: the theory's and each alternative's error per
rung, and the trend of the theory's error by one declared rule.

The rungs are ci (trained by the test run) and the stored ones
(:func:`empirical.agreement.bundle_io.rung_names`), ordered by the span of text in one
training window.  Each contrast is computed on each rung with the **same** declared
tolerance and margin (:mod:`empirical.agreement.catalogue`).

The trend rule (:func:`trend`), declared here before any rung was read: with ``e_r`` the
theory's error interval (95% Student-t over seeds) at rung r, smallest span first,

* ``"falls"`` when the means never rise from one rung to the next and the top rung's
  interval lies wholly below the bottom rung's (``hi(top) < lo(bottom)``);
* ``"rises"`` when the means never fall and ``lo(top) > hi(bottom)``;
* ``"no trend"`` otherwise (including a single rung).

A rung where a contrast cannot be formed (its bundle lacks a measurement the contrast
needs) is reported there as ``not formed`` with the reason and left out of the rule: the
trend and the top rung's gap signs rest on the rungs where it was formed, named beside
the trend (``trend_rests_on``, ``trend_basis``).

Beside it, for each alternative, the sign of the paired gap ``error(alt) - error(theory)``
at the top rung: ``"theory better"`` when its interval lies above 0, ``"alternative
better"`` when below, ``"tied"`` when it contains 0.

>>> from empirical.agreement.contrast import seed_interval as iv
>>> trend([iv([0.5, 0.6, 0.55]), iv([0.3, 0.35, 0.32]), iv([0.1, 0.12, 0.11])])
'falls'
>>> trend([iv([0.5, 0.6, 0.55]), iv([0.2, 0.9, 0.5])])
'no trend'
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from empirical.agreement import bundle_io, rpe
from empirical.agreement.catalogue import CATALOGUE, Entry
from empirical.agreement.contrast import Contrast, Interval

TRENDS = ("falls", "rises", "no trend")


def trend(errors: Sequence[Interval]) -> str:
    """The declared trend rule (module docstring) on the theory's error intervals, smallest
    rung first."""
    if len(errors) < 2:
        return "no trend"
    means = [e.mean for e in errors]
    first, top = errors[0], errors[-1]
    if all(b <= a for a, b in zip(means, means[1:])) and top.hi < first.lo:
        return "falls"
    if all(b >= a for a, b in zip(means, means[1:])) and top.lo > first.hi:
        return "rises"
    return "no trend"


def gap_sign(gap: Interval) -> str:
    """``theory better`` / ``alternative better`` / ``tied`` by the paired interval's sign."""
    if gap.lo > 0:
        return "theory better"
    if gap.hi < 0:
        return "alternative better"
    return "tied"


def triple(iv: Interval) -> list:
    return [iv.lo, iv.mean, iv.hi]


def rung_record(name: str, b: dict) -> dict:
    """What a rung is: its training window in tokens and in characters, the text and the
    tokenizer, the model's size, its training tokens and its cost."""
    st, data = b["settings"], b.get("data") or {}
    return {
        "name": name,
        "seq_len": st["seq_len"],
        "chars_per_token": float(data.get("chars_per_token", 1.0)),
        "span_chars": round(bundle_io.text_span(b), 1),
        "tokenizer": st.get("tokenizer", "bytes"),
        "corpus": st.get("corpus", "stdlib"),
        "corpus_sha256": data.get("sha256"),
        "tokenizer_sha256": data.get("tokenizer_sha256"),
        "n_layer": st["n_layer"],
        "d_model": st["d_model"],
        "n_head": st["n_head"],
        "steps": st["steps"],
        "batch": st["batch"],
        "train_tokens": st["steps"] * st["batch"] * st["seq_len"],
        "max_extrapolation": max(st.get("rpe_factors", (64,))),
        "seeds": list(st["seeds"]),
        "runs_s": b.get("runs_s"),
        "wall_s": b.get("wall_s"),
        "machine": b.get("machine"),
        "load_average": b.get("load_average"),
        "command": b.get("command"),
    }


@dataclass(frozen=True)
class NotFormed:
    """A contrast that cannot be formed on a rung, and why (a measurement it needs is not
    in the rung's bundle, or too few seeds have it)."""

    reason: str


#: what a rung's bundle may lack for a contrast: an entry (KeyError, IndexError), or
#: values (ValueError: fewer than two finite per-seed values)
NOT_FORMED = (LookupError, ValueError, ZeroDivisionError)


def not_formed_reason(exc: Exception) -> str:
    """One line saying why a contrast could not be formed from a rung's measurements."""
    if isinstance(exc, KeyError):
        return f"the rung has no measurement {exc.args[0]!r} that the contrast needs"
    if isinstance(exc, IndexError):
        return f"a measurement the contrast needs is shorter than it expects ({exc})"
    return f"{type(exc).__name__}: {exc}"


def form(entry: Entry, b: dict) -> Contrast | NotFormed:
    """The contrast on bundle ``b``, or :class:`NotFormed` with the reason."""
    try:
        return entry.contrast(b)
    except NOT_FORMED as exc:
        return NotFormed(not_formed_reason(exc))


def contrast_by_rung(entry: Entry, bundles: dict) -> dict:
    """``{rung: Contrast or NotFormed}`` for one catalogue entry, with its declared
    thresholds."""
    return {name: form(entry, b) for name, b in bundles.items()}


def rung_cell(c: Contrast | NotFormed) -> dict:
    """One contrast at one rung: errors, gaps and verdicts, or ``formed: false`` and why."""
    if isinstance(c, NotFormed):
        return {
            "formed": False,
            "reason": c.reason,
            "theory": None,
            "alternatives": {},
            "gaps": {},
            "agrees": None,
            "beats": {},
        }
    return {
        "formed": True,
        "theory": triple(c.theory_error()),
        "alternatives": {a: triple(c.errors[a]) for a in c.alternatives},
        "gaps": {a: triple(c.gap(a)) for a in c.alternatives},
        "agrees": c.agrees(),
        "beats": {a: c.beats(a) for a in c.alternatives},
    }


def trend_basis(names: Sequence[str], per_rung: dict) -> str:
    """What the trend rests on: the rungs where the contrast was formed, and those where
    it was not."""
    formed = [n for n in names if not isinstance(per_rung[n], NotFormed)]
    missing = [n for n in names if isinstance(per_rung[n], NotFormed)]
    if not formed:
        return "no rung (not formed at " + ", ".join(missing) + ")"
    text = f"{len(formed)} rung{'s' if len(formed) != 1 else ''}: " + ", ".join(formed)
    if missing:
        text += "; not formed at " + ", ".join(missing)
    return text


def contrast_scales(entry: Entry, per_rung: dict) -> dict:
    """One contrast's record of the scale report (the ``--scales --json`` layout).  The
    trend and the top rung's gap signs rest on the rungs where the contrast was formed
    (``trend_rests_on``); ``top_rung`` is the largest of them (``None`` if none)."""
    names = list(per_rung)
    formed = [n for n in names if not isinstance(per_rung[n], NotFormed)]
    top = per_rung[formed[-1]] if formed else None
    return {
        "key": entry.key,
        "title": top.title if top else entry.key,
        "place": entry.place,
        "paper_check": entry.check,
        "tolerance": entry.tolerance.value,
        "margin": entry.margin.value,
        "theory_error_is": (
            f"error / error({top.relative_to})" if top and top.relative_to else "error"
        ),
        "rungs": {n: rung_cell(per_rung[n]) for n in names},
        "trend": trend([per_rung[n].theory_error() for n in formed]),
        "trend_rests_on": formed,
        "trend_basis": trend_basis(names, per_rung),
        "not_formed": {n: per_rung[n].reason for n in names if isinstance(per_rung[n], NotFormed)},
        "top_rung": formed[-1] if formed else None,
        "top_gap_sign": {a: gap_sign(top.gap(a)) for a in top.alternatives} if top else {},
    }


def rpe_experiments(b: dict) -> dict:
    """The RPE paper's sufficiency and necessity experiments on one rung: for each RPE of
    its set, the convergence of its learned series (decided now by ``theory.series``:
    True, False or None for undecided; sinusoidal has no series) and ppl(f m)/ppl(m) at
    16m and at 18m (the paper's 512 -> 9216) where stored, with seed intervals."""
    m, out = bundle_io.train_len(b), {}
    for name in ("sinusoidal", *rpe.BIAS_RPES):
        if name not in b["results"]:
            continue
        stored = b["results"][name][bundle_io.seeds(b, name)[0]]["ppl"]
        out[name] = {
            "converges": None if name == "sinusoidal" else rpe.convergence_label(b, name),
            "ppl_ratio": {
                f"{f}m": triple(rpe.ppl_ratio(b, name, f)) for f in (16, 18) if str(f * m) in stored
            },
        }
    return out


def scale_report(names: Sequence[str] | None = None) -> dict:
    """The whole scale report: every rung's record, every contrast on every rung, and the
    RPE paper's extrapolation experiments per rung."""
    names = list(names or bundle_io.rung_names())
    bundles = {n: bundle_io.load_rung(n) for n in names}
    return {
        "rungs": [rung_record(n, bundles[n]) for n in names],
        "trend_rule": __doc__.split("The trend rule")[1].split(">>>")[0].strip(),
        "contrasts": [contrast_scales(e, contrast_by_rung(e, bundles)) for e in CATALOGUE],
        "rpe_experiments": {n: rpe_experiments_or_reason(bundles[n]) for n in names},
    }


def rpe_experiments_or_reason(b: dict) -> dict:
    """:func:`rpe_experiments`, or ``{"not_formed": reason}`` where the rung lacks them."""
    try:
        return rpe_experiments(b)
    except NOT_FORMED as exc:
        return {"not_formed": not_formed_reason(exc)}


def scale_table(report: dict) -> str:
    """Plain text: one block per contrast, one line per rung and candidate."""
    names = [r["name"] for r in report["rungs"]]
    lines = [
        "rungs: "
        + "; ".join(
            f"{r['name']} (m = {r['seq_len']} tokens ({r['tokenizer']}) of {r['corpus']}, "
            f"~{r['span_chars']:.0f} chars, {r['n_layer']}x{r['d_model']}, {r['steps']} steps)"
            for r in report["rungs"]
        )
    ]
    for c in report["contrasts"]:
        lines += ["", f"{c['title']}  [{c['key']}; {c['place']}; check {c['paper_check']}]"]
        lines.append(
            f"  theory {c['theory_error_is']} <= {c['tolerance']:g}; trend: {c['trend']} "
            f"(on {c['trend_basis']})"
        )
        head = f"  {'candidate':<30}" + "".join(f"{n:>32}" for n in names)
        lines.append(head)

        def cell(at: dict, t: list | None, verdict: str = "") -> str:
            if not at["formed"]:
                return "not formed"
            if t is None:
                return "-"
            return f"{t[1]:.3g} [{t[0]:.3g}, {t[2]:.3g}]" + verdict

        lines.append(
            f"  {'theory':<30}"
            + "".join(
                f"{cell(at, at['theory'], ' ok' if at['agrees'] else ' X'):>32}"
                for at in (c["rungs"][n] for n in names)
            )
        )
        for a in c["top_gap_sign"]:
            lines.append(
                f"  {a[:30]:<30}"
                + "".join(
                    f"{cell(at, at['alternatives'].get(a)):>32}"
                    for at in (c["rungs"][n] for n in names)
                )
                + f"   top ({c['top_rung']}): {c['top_gap_sign'][a]}"
            )
        lines += [f"  not formed at {n}: {why}" for n, why in c["not_formed"].items()]
    lines += ["", "RPE paper: ppl(f m)/ppl(m) per RPE and rung (converges: theory.series)"]
    for n, per in report.get("rpe_experiments", {}).items():
        if "not_formed" in per:
            lines.append(f"  {n:<10} not formed: {per['not_formed']}")
            continue
        for r, v in per.items():
            ratios = "  ".join(
                f"{f}: {t[1]:.3g} [{t[0]:.3g}, {t[2]:.3g}]" for f, t in v["ppl_ratio"].items()
            )
            lines.append(f"  {n:<10} {r:<14} converges {str(v['converges']):<6} {ratios}")
    return "\n".join(lines)
