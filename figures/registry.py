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


def load_all() -> dict:
    """Import every figure module of this package (each registers its figures)."""
    import figures

    skip = {"registry", "cli", "__main__"}
    for info in sorted(pkgutil.iter_modules(figures.__path__), key=lambda m: m.name):
        if info.name not in skip:
            importlib.import_module(f"figures.{info.name}")
    return FIGURES
