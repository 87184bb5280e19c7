"""Claims of the RPE paper (rpe-extrapolation-conditions): ``theory_claims`` (derivations, series, TRF, figures 5, 7-8) and ``empirical_claims`` (trained models, figures 3, 4, 6)."""
