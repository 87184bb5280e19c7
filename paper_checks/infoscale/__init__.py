"""Claims of the InfoScale / CosScale paper, one module per place in the paper.

* ``sec2_attention_entropy_claims`` -- Sec. 2 (Eqs. 5-7);
* ``sec3_1_infoscale_claims`` -- Sec. 3.1 and App. A.1-A.4 (InfoScale, Eqs. 9-15, Table 6);
* ``sec3_2_cosscale_claims`` -- Sec. 3.2 and App. A.5-A.6 (CosScale, Theorems 3.4-3.5, Fig. 4);
* ``sec4_experiments_claims`` -- Sec. 4 (Tables 1-10 and the text about them);
* ``training_claims`` -- trained models.

``setting`` holds what they share; ``printed`` every number of the paper a check reads, as printed.
"""

#: the claim modules in the paper's order (the report lists claims in this order)
CLAIM_MODULES = (
    "sec2_attention_entropy_claims",
    "sec3_1_infoscale_claims",
    "sec3_2_cosscale_claims",
    "sec4_experiments_claims",
    "training_claims",
)
