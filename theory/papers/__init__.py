"""The numbers each of the three papers prints, typed once as printed, one module a paper
(:mod:`~theory.papers.rpe`, :mod:`~theory.papers.align`, :mod:`~theory.papers.infoscale`):
data only, read by the paper checks and by the figures that draw a paper's numbers beside
ours."""
