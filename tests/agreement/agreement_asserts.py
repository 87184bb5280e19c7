"""Printing, caching and asserting contrasts (shared by the agreement tests).

A contrast is computed once per test run (:func:`contrast`), printed by the first test
that uses it, and asserted in two kinds of tests: the theory agrees with the measurement
within the catalogue's tolerance, and the theory beats one named alternative by the
catalogue's margin -- one alternative per test, so that a strict xfail where the theory
loses covers exactly that one comparison and nothing else.
"""

from empirical.agreement.catalogue import compute

_CACHE = {}


def contrast(b, name):
    """Contrast ``name`` of the catalogue (``empirical.agreement.catalogue``, its declared
    tolerance and margin), computed once per bundle, its table printed."""
    key = (id(b), name)
    if key not in _CACHE:
        _CACHE[key] = compute(b, name)
        print("\n" + _CACHE[key].table())
    return _CACHE[key]


def assert_agrees(c):
    assert c.agrees(), (
        f"{c.title}: theory error {c.theory_error()} above the declared {c.tolerance:g}"
    )


def assert_beats(c, alt):
    assert c.beats(alt), (
        f"{c.title}: error({alt}) - error({c.theory}) = {c.gap(alt)}, "
        f"not above the declared margin {c.margin:g}"
    )
