"""Capture against eager attention on every text architecture of the installed transformers
(:mod:`~empirical.capture.sweep.architectures`) and its command
``python -m empirical.capture.sweep`` (``lengthx sweep``, in :mod:`~empirical.capture.sweep.cli`)."""
