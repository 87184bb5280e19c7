"""Every number of the RPE paper (rpe-extrapolation-conditions.txt) that a check reads
from its tables and text, typed once as printed; every check reads its numbers from
here (the source-perturbation test moves each cell).
"""

#: Sec. 4: "we lengthen inference sequences from 512 to 9216 tokens"
EXTRAPOLATION_LENGTHS = (512, 9216)

#: Tables 4-5 of the RPE paper (App. F): PPL at m = 512 and at 9216, per dataset and method
METHODS = ("Sinusoidal", "Alibi", "Kerple-Log", "Kerple-Power", "Sandwich", "Type1", "Type2")
PAPER_T45 = {  # dataset: (row at 512, row at 9216)
    "Wikitext-103": (
        (24.73, 24.22, 24.12, 24.18, 24.76, 24.25, 24.29),
        (423.92, 22.12, 21.80, 21.90, 23.26, 21.90, 22.06),
    ),
    "Books": (
        (7.49, 7.28, 7.34, 7.31, 7.64, 7.30, 7.35),
        (34.70, 6.98, 7.01, 6.98, 7.35, 6.99, 7.02),
    ),
    "Github": (
        (2.29, 2.25, 2.24, 2.25, 2.29, 2.25, 2.25),
        (143.17, 2.05, 2.01, 2.03, 2.05, 2.02, 2.03),
    ),
    "Wikibook": (
        (17.98, 17.64, 17.65, 17.62, 18.21, 17.68, 17.70),
        (412.06, 16.33, 16.23, 16.24, 16.70, 16.28, 16.33),
    ),
}
#: Table 6 of the RPE paper (App. F): (1/n, 1/(n ln n)) at 512 and at 9216
PAPER_T6 = {
    "Wikitext-103": ((24.67, 24.64), (58.46, 27.63)),
    "Books": ((7.40, 7.35), (26.34, 10.65)),
    "Github": ((2.28, 2.27), (76.78, 16.35)),
    "Wikibook": ((17.91, 17.90), (204.10, 133.36)),
}
