"""Does re-training a stored model and seed reproduce its stored measurements?

:func:`compare_measurements` walks two ``measure.json`` records (one (model, seed) of a
bundle) leaf by leaf and reports the largest absolute and relative difference over every
number, ignoring what is not a measurement of the model (timings, the run's folder, the
thread count and device).  Training is seeded and single-threaded, so on the same torch
version and CPU family the re-run is expected to be bit-identical; across CPU families
kernels differ in rounding, and the relative differences say by how much.

>>> compare_measurements({"ppl": {"32": 2.5}, "train_s": 1.0}, {"ppl": {"32": 2.5}, "train_s": 9.0})
{'values': 1, 'max_abs': 0.0, 'max_rel': 0.0, 'identical': True, 'worst': None, 'mismatched': []}
"""

from __future__ import annotations

import math

#: keys that are not measurements of the model (wall-clock times, paths, settings of the run)
NOT_MEASURED = frozenset(
    {"train_s", "measure_s", "steps_per_s", "run", "steps_this_call", "threads", "device"}
)


def _leaves(x: object, path: str = ""):
    if isinstance(x, dict):
        for k, v in x.items():
            if k not in NOT_MEASURED:
                yield from _leaves(v, f"{path}.{k}" if path else str(k))
    elif isinstance(x, (list, tuple)):
        for i, v in enumerate(x):
            yield from _leaves(v, f"{path}[{i}]")
    else:
        yield path, x


def compare_measurements(new: dict, stored: dict) -> dict:
    """Largest absolute and relative difference between two measurement records, the path
    of the worst number, and the paths present in one record only or of another type."""
    a, b = dict(_leaves(new)), dict(_leaves(stored))
    mismatched = sorted(set(a) ^ set(b))
    worst, max_abs, max_rel, n = None, 0.0, 0.0, 0
    for path in sorted(set(a) & set(b)):
        x, y = a[path], b[path]
        numeric = all(isinstance(v, (int, float)) and not isinstance(v, bool) for v in (x, y))
        if not numeric:
            if x != y:
                mismatched.append(path)
            continue
        n += 1
        if math.isnan(x) and math.isnan(y):
            continue
        d = abs(x - y)
        rel = d / max(abs(y), 1e-300) if d else 0.0
        if not math.isfinite(d):
            rel = d = math.inf
        if rel > max_rel or (worst is None and d > 0):
            worst = path
        max_abs, max_rel = max(max_abs, d), max(max_rel, rel)
    return {
        "values": n,
        "max_abs": max_abs,
        "max_rel": max_rel,
        "identical": max_abs == 0.0 and not mismatched,
        "worst": worst,
        "mismatched": mismatched[:20],
    }
