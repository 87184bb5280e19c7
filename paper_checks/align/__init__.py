"""Claims of the attention-alignment (T5 temperature) paper: ``theory_claims``, ``empirical_claims`` and the paper's tables (``tables``)."""
