"""Machinery shared by every theory area: the derivation checker (``derivation``), CPU and
memory budgets for forked work (``budget``), the command-line parser every command uses
(``cli``) and the generic registry (``registry``)."""
