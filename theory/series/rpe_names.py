"""The one table of named relative positional encodings (RPEs) of the toolkit.

Every command spells a named RPE the same way: the canonical name uses hyphens
(``kerple-log``, ``inv-n``), and the underscore spelling (``kerple_log``, ``inv_n``) and the
aliases below are accepted everywhere.  ``theory.series.rpe_library`` builds the series
:math:`b_n` of each name; ``empirical.training.rpe`` builds the attention-bias modules and derives its
names, labels and fixed formulas from this table.

>>> canonical_rpe_name("Kerple_Log"), canonical_rpe_name("inv_n"), canonical_rpe_name("1/n**2")
('kerple-log', 'inv-n', None)
>>> suggest_rpe_name("kerple")
'kerple-log'
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass


@dataclass(frozen=True)
class RPEName:
    """One named RPE: the paper's label, a fixed formula for b_n (None when the RPE has
    parameters), its start index, whether it is a series (False: no relative bias), and
    extra aliases (``formula_aliases`` are formula texts that name it in ``empirical``)."""

    label: str
    formula: str | None = None
    start: int = 0
    series: bool = True
    aliases: tuple = ()
    formula_aliases: tuple = ()


#: canonical (hyphenated) name -> entry; the order is the order of every listing
RPE_NAMES: dict[str, RPEName] = {
    "type1": RPEName("Type1", "1/n**2", 1),
    "type2": RPEName("Type2", "exp(-ln(n)**2)", 1),
    "inv-n": RPEName("1/n", "1/n", 1, formula_aliases=("1/n",)),
    "inv-nlogn": RPEName(
        "1/(n ln n)", "1/(n*ln(n))", 2, formula_aliases=("1/(n ln n)", "1/(n*ln(n))")
    ),
    "alibi": RPEName("Alibi"),
    "kerple-log": RPEName("Kerple-Log"),
    "kerple-power": RPEName("Kerple-Power"),
    "sandwich": RPEName("Sandwich"),
    "t5": RPEName("T5"),
    "sinusoidal": RPEName("Sinusoidal", series=False, aliases=("sin",)),
    "none": RPEName("NoPE", series=False, aliases=("nope",)),
}


def _key(text: str) -> str:
    return text.strip().lower().replace("_", "-")


_LOOKUP = {
    **{_key(a): name for name, e in RPE_NAMES.items() for a in e.aliases},
    **{name: name for name in RPE_NAMES},
}


def canonical_rpe_name(text: str, series_only: bool = False) -> str | None:
    """The canonical name for ``text`` (any case, ``-`` or ``_``, aliases), else None.

    Formula texts (``1/n``) are not names here; see :data:`RPE_NAMES` ``formula_aliases``.
    """
    if not isinstance(text, str):
        return None
    name = _LOOKUP.get(_key(text))
    if name is not None and series_only and not RPE_NAMES[name].series:
        return None
    return name


def underscore_name(name: str) -> str:
    """``kerple-log`` -> ``kerple_log`` (the spelling of Python identifiers and files)."""
    return name.replace("-", "_")


def suggest_rpe_name(word: str, series_only: bool = True) -> str | None:
    """The named RPE closest to ``word`` (a typo or a prefix), or None if none is close."""
    names = [n for n, e in RPE_NAMES.items() if e.series or not series_only]
    key = _key(word)
    prefixed = [n for n in names if n.startswith(key) and len(key) >= 3]
    if prefixed:
        return prefixed[0]
    close = difflib.get_close_matches(key, names, n=1, cutoff=0.7)
    return close[0] if close else None
