"""A recorded loss compared with the one measured now (``tests/agreement/conftest.py``).

On a stored rung the measurements are fixed in the repository, so a strict xfail of
``lost.py`` must fail with the recorded gap, not merely fail: a change that deepens a loss
(a wrong factor in a theory that already loses there) is then caught as surely as one
that flips an agreement.
"""

import math
import re

#: relative tolerance on the numbers of a recorded loss (printed to four significant
#: digits: a rounding moves one by at most 1.25e-4 of itself)
GAP_RTOL = 1e-3
NUMBER = re.compile(r"[-+]?(?:\d+\.?\d*(?:e[-+]?\d+)?|inf)")


def failure_line(text: str) -> str:
    """An assertion's message as ``lost.py`` records it: its first line, blanks collapsed."""
    text = re.sub(r"^AssertionError: ", "", text.split("\n")[0])
    return re.sub(r"\s+", " ", text)[:400]


def same_gap(recorded: str, measured: str) -> bool:
    """True when ``measured`` is the loss ``recorded`` (after its ``measured: ``): the same
    words, every number equal to :data:`GAP_RTOL`.

    >>> same_gap("measured: theory error 0.07984 [0.07531, 0.08436] above 0.03",
    ...          "theory error 0.079841 [0.0753, 0.084358] above 0.03")
    True
    >>> same_gap("measured: theory error 0.07984 [0.07531, 0.08436] above 0.03",
    ...          "theory error 0.0912 [0.0853, 0.09701] above 0.03")
    False
    """
    recorded = recorded.removeprefix("measured: ")
    if NUMBER.sub("#", recorded) != NUMBER.sub("#", measured):
        return False
    pairs = zip(NUMBER.findall(recorded), NUMBER.findall(measured))
    return all(
        a == b or math.isclose(float(a), float(b), rel_tol=GAP_RTOL, abs_tol=1e-12)
        for a, b in pairs
    )
