"""Machinery shared by every theory area: the derivation checker (``derivation``), CPU and
memory budgets for forked work (``budget``), the command-line machinery every command uses
(``cli``; its argument types in ``arguments``; the table of commands and ``lengthx`` in
``commands``; Ctrl-C while a command starts in ``startup``), what an input file holds
(``file_kinds``), progress of long runs (``progress``) and the generic registry
(``registry``)."""
