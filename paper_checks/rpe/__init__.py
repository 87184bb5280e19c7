"""Claims of the RPE paper (rpe-extrapolation-conditions), one module per place in the paper.

* ``lemma32_claims`` -- Sections 2-3 up to Lemma 3.2 (Eqs. 5, 11-15);
* ``theorems33_34_claims`` -- Theorems 3.3 and 3.4, Eqs. 8, 9, 17, the TRF/ERF link (Sec. 3.3);
* ``trf_thm35_claims`` -- the TRF and Theorem 3.5 (Sec. 3.4, Eqs. 26, 29);
* ``appendix_b_claims`` -- Appendix B (ALiBi, Kerple, Sandwich, Eqs. 35-45);
* ``appendix_c_e_claims`` -- Appendices C and E (ALiBi's TRF, the TRF pseudocode);
* ``figures_claims`` -- Figures 5, 7, 8 and Hypothesis 3.1;
* ``empirical_claims`` and ``training_claims`` -- trained models (Figures 3, 4, 6).

``engine_routes`` and ``attention`` hold what several of them compute; ``printed`` the
numbers of the paper the checks read.
"""

#: the claim modules in the paper's order (the report lists claims in this order)
CLAIM_MODULES = (
    "lemma32_claims",
    "theorems33_34_claims",
    "trf_thm35_claims",
    "appendix_b_claims",
    "appendix_c_e_claims",
    "figures_claims",
    "empirical_claims",
    "training_claims",
)
