"""``@figure(name, paper, description)`` registers ``make(outdir, quick=False) -> dict``.

The returned dict has at least ``png`` and ``data`` (paths) and ``comparison`` (what was
compared with what, and the numbers).  Duplicate names are an error.
"""

from __future__ import annotations

import importlib
import pkgutil
from collections.abc import Callable
from dataclasses import dataclass

from theory.core.registry import Registry


@dataclass
class Figure:
    name: str
    paper: str
    description: str
    make: object
    empirical: bool = False


FIGURES: Registry[Figure] = Registry("figure")


def figure(
    name: str, paper: str, description: str, empirical: bool = False
) -> Callable[[Callable[..., dict]], Callable[..., dict]]:
    def register(make):
        FIGURES.add(name, Figure(name, paper, description, make, empirical))
        return make

    return register


def outcome_summary(rows: list[dict]) -> str:
    """One line saying which figures were made, which were skipped and why, which crashed
    and with what (rows: ``png`` when made, else ``skipped`` or ``error``).

    >>> outcome_summary([{"name": "a", "png": "a.png"},
    ...                  {"name": "b", "skipped": "needs --empirical"},
    ...                  {"name": "c", "skipped": "needs --empirical"},
    ...                  {"name": "d", "crashed": True, "error": "ValueError: x"}])
    '1 made; skipped (needs --empirical): b, c; crashed: d (ValueError: x)'
    """
    made = [r for r in rows if r.get("png") and not r.get("crashed")]
    parts = [f"{len(made)} made"]
    reasons: dict[str, list[str]] = {}
    for r in rows:
        if r.get("skipped"):
            reasons.setdefault(r["skipped"], []).append(r["name"])
    parts += [f"skipped ({why}): {', '.join(names)}" for why, names in reasons.items()]
    crashed = [f"{r['name']} ({r.get('error', 'crashed')})" for r in rows if r.get("crashed")]
    if crashed:
        parts.append(f"crashed: {', '.join(crashed)}")
    return "; ".join(parts)


def load_all() -> dict:
    """Import every figure module of this package (each registers its figures)."""
    import figures

    skip = {"registry", "cli", "__main__"}
    for info in sorted(pkgutil.iter_modules(figures.__path__), key=lambda m: m.name):
        if info.name not in skip:
            importlib.import_module(f"figures.{info.name}")
    return FIGURES
