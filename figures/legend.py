"""One legend for a whole figure, below its panels, at a readable size.

A figure whose panels share their curves (the same colour for the same family, the same
line style for the same method) gets one key: the colours, then the styles, drawn with
:func:`figure_key` under the panels instead of a small legend inside one of them.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from typing import Any

#: legend text size (points) of a key below the panels: readable at the figures' size and dpi
LEGEND_FONTSIZE = 9
#: the smallest legend text inside a panel (points)
PANEL_LEGEND_FONTSIZE = 8


def colour_entries(colours: dict[str, str]) -> list[tuple[str, dict]]:
    """Key entries for curve families told apart by colour: ``{label: colour}``."""
    return [(label, {"color": c, "lw": 2}) for label, c in colours.items()]


def figure_key(
    fig: Any, entries: Sequence[tuple[str, dict]], ncol: int | None = None, title: str = ""
) -> None:
    """Draw one legend of ``entries`` (label, ``Line2D`` keywords) centred below every
    panel of ``fig``, and lay the panels out above it (calls ``tight_layout``)."""
    from matplotlib.lines import Line2D

    handles = [Line2D([], [], label=label, **style) for label, style in entries]
    ncol = ncol or min(len(handles), 4)
    rows = math.ceil(len(handles) / ncol) + (1 if title else 0)
    height_in = rows * LEGEND_FONTSIZE * 1.9 / 72 + 0.15
    bottom = min(0.45, height_in / fig.get_figheight())
    fig.legend(handles=handles, loc="lower center", ncol=ncol, fontsize=LEGEND_FONTSIZE,
               frameon=False, title=title or None, title_fontsize=LEGEND_FONTSIZE)  # fmt: skip
    fig.tight_layout(rect=(0, bottom, 1, 1))
