"""Claims of the attention-alignment (T5 temperature) paper, one module per place in the
paper.

* ``sec3_bias_dispersion_claims`` -- Sec. 3 (T5's bucketed bias, Fig. 1; dispersed
  attention, Table 1);
* ``sec6_1_assumptions_claims`` -- Sec. 6.1 and App. A.1 (Assumptions 1-2, Table 7,
  Figs. 2 and 5);
* ``appA_gaussian_approximations_claims`` -- App. A.2-A.3 (Eq. 1 and the P_max and
  entropy approximations, where they break down);
* ``prop1_prop2_claims`` -- Sec. 6.2-6.3 (Props. 1 and 2, Eq. 3, the early version);
* ``algorithm1_claims`` -- Sec. 7 (Algorithm 1 and the log rule);
* ``tables_claims`` -- Tables 3-5 and 8-11 (numbers that follow from other printed ones);
* ``training_claims`` -- trained models.

``printed`` holds every number the paper prints that a check reads; ``tables`` the
arithmetic on its tables; ``operating_point`` what Tables 1 and 7 give (the inferred
sigma); ``early_version`` the early version's display; ``models_here`` what the claims
measured on models built here share.
"""

#: the claim modules in the paper's order (the report lists claims in this order)
CLAIM_MODULES = (
    "sec3_bias_dispersion_claims",
    "sec6_1_assumptions_claims",
    "appA_gaussian_approximations_claims",
    "prop1_prop2_claims",
    "algorithm1_claims",
    "tables_claims",
    "training_claims",
)
