"""Theory of Transformer length extrapolation: series of exp(RPE), receptive fields,
softmax temperature rules, InfoScale/CosScale, and the derivation checker they share.

This package imports nothing from ``empirical``, ``figures`` or ``paper_checks``.
"""
