"""One generic registry: named entries, registered once, looked up by name.

Used for the paper claims (:mod:`paper_checks.registry`) and the figures
(:mod:`figures.registry`).  A duplicate name is an error, never a silent overwrite.

>>> r = Registry("figure")
>>> r.add("a", 1)
>>> r["a"], list(r), len(r)
(1, ['a'], 1)
>>> r.add("a", 2)
Traceback (most recent call last):
...
ValueError: duplicate figure name 'a'
"""

from __future__ import annotations

from collections.abc import ItemsView, Iterator, KeysView, ValuesView
from typing import Generic, TypeVar

T = TypeVar("T")


class Registry(Generic[T]):
    """A name -> entry mapping that refuses duplicate names."""

    def __init__(self, what: str) -> None:
        self.what = what
        self._entries: dict[str, T] = {}

    def add(self, name: str, entry: T) -> None:
        """Register ``entry`` under ``name``; ``ValueError`` if the name is taken."""
        if name in self._entries:
            raise ValueError(f"duplicate {self.what} name {name!r}")
        self._entries[name] = entry

    def __getitem__(self, name: str) -> T:
        try:
            return self._entries[name]
        except KeyError:
            raise KeyError(
                f"unknown {self.what} {name!r}; known: {', '.join(sorted(self._entries))}"
            ) from None

    def __contains__(self, name: object) -> bool:
        return name in self._entries

    def __iter__(self) -> Iterator[str]:
        return iter(self._entries)

    def __len__(self) -> int:
        return len(self._entries)

    def items(self) -> ItemsView[str, T]:
        return self._entries.items()

    def values(self) -> ValuesView[T]:
        return self._entries.values()

    def keys(self) -> KeysView[str]:
        return self._entries.keys()

    def get(self, name: str, default: T | None = None) -> T | None:
        return self._entries.get(name, default)
