"""Tiny language models with any RPE, trained here, and what is measured on them.

* :mod:`~empirical.training.tiny_lm`, :mod:`~empirical.training.rpe`,
  :mod:`~empirical.training.rpe_theory`: the model, the RPEs as attention biases, and the
  series b_n of a (trained) RPE;
* :mod:`~empirical.training.corpora`, :mod:`~empirical.training.data`: local corpora and
  their byte-level split;
* :mod:`~empirical.training.train`, :mod:`~empirical.training.extrapolate`,
  :mod:`~empirical.training.erf`, :mod:`~empirical.training.window_stats`: training,
  perplexity beyond the training length, the ERF, attention statistics in a window;
* :mod:`~empirical.training.profile_bundle`: the seeded bundle the agreement tests
  (:mod:`empirical.agreement`), figures and paper checks read.
"""
