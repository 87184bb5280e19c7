"""Theory against the seeded bundle of tiny models trained here: the contrasts of the three papers.

* :mod:`~empirical.agreement.bundle_io`: reading ``bundle.json`` (seeds, lengths, grids);
* :mod:`~empirical.agreement.contrast`: :class:`Contrast` (theory against a sceptic's
  alternatives, per seed) and the Student-t :class:`Interval` over seeds;
* :mod:`~empirical.agreement.rpe`, :mod:`~empirical.agreement.align`,
  :mod:`~empirical.agreement.infoscale`: the contrasts of each paper, every theory number
  computed when they run;
* :mod:`~empirical.agreement.catalogue`: the one table of contrasts, with each declared
  tolerance and margin, its reason and the paper check it decides;
* :mod:`~empirical.agreement.markdown`: the measurements and contrasts as text.

The command is ``python -m empirical.results`` (:mod:`empirical.results.cli`).
"""
