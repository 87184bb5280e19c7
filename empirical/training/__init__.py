"""Tiny language models with any RPE, trained here, and what is measured on them.

* :mod:`~empirical.training.tiny_lm`, :mod:`~empirical.training.rpe`,
  :mod:`~empirical.training.rpe_theory`: the model, the RPEs as attention biases, and the
  series b_n of a (trained) RPE;
* :mod:`~empirical.training.corpora`, :mod:`~empirical.training.data`: local corpora and
  their byte-level split;
* :mod:`~empirical.training.train`, :mod:`~empirical.training.extrapolate`,
  :mod:`~empirical.training.erf`, :mod:`~empirical.training.window_stats`: training,
  perplexity beyond the training length, the ERF, attention statistics in a window;
* :mod:`~empirical.training.bundle`, :mod:`~empirical.training.profile_bundle`,
  :mod:`~empirical.training.results`: the seeded bundles the agreement tests, figures and
  paper checks read.
"""
