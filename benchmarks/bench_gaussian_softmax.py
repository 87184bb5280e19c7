"""Exact softmax statistics of i.i.d. Gaussian logits: quadrature vs Monte Carlo.

Prints, for a few (L, sigma), the time of the quadrature (accurate to ~1e-10) and of a
Monte Carlo run, the Monte Carlo standard error, and the ratio of the time Monte Carlo
would need to reach a 1e-4 standard error (SE ~ 1/sqrt(draws)) to the quadrature time.
Baseline: Monte Carlo, in the same process.

    OMP_NUM_THREADS=1 python benchmarks/bench_gaussian_softmax.py
"""

import time

from theory.temperature.gaussian_softmax import laplace_integrals, expected_pmax, mc_softmax_stats

CASES = [(512, 1.0), (512, 2.7), (15000, 2.7), (10**5, 4.0)]


def main():
    print(
        f"{'L':>7s} {'sigma':>5s} {'quad H s':>9s} {'quad Pmax s':>11s} {'MC s':>7s} "
        f"{'draws':>6s} {'SE(H)':>8s} {'MC time to SE 1e-4 / quad':>26s}"
    )
    for L, s in CASES:
        t0 = time.perf_counter()
        laplace_integrals(L, s)
        t1 = time.perf_counter()
        expected_pmax(L, s)
        t2 = time.perf_counter()
        draws = max(20, 2_000_000 // L)
        mc = mc_softmax_stats(L, s, 1.0, draws, seed=0)
        t3 = time.perf_counter()
        se = mc["entropy"][1]
        mc_needed = (t3 - t2) * (se / 1e-4) ** 2
        print(
            f"{L:7d} {s:5.1f} {t1 - t0:9.3f} {t2 - t1:11.3f} {t3 - t2:7.3f} {draws:6d} "
            f"{se:8.2g} {mc_needed / (t1 - t0):26.3g}"
        )


if __name__ == "__main__":
    main()
