"""What the report's line diffs cost on bodies built to make difflib rescan, counted in Python
lines executed, never timed.

difflib finds its matching blocks by looking each line of one side up among the other's:
on bodies of one line repeated thousands of times every lookup lists them all, quadratic in
the body. The report's diffs find the same blocks within a bounded number of lookups per
line and, past it, match the bodies' common head and tail only.
"""

from __future__ import annotations

import sys

import pytest

from docsnippets.report.codediff import change_diff, changed_lines
from docsnippets.report.resync import applied

N = 600


def _executed(fn) -> int:
    count = 0

    def trace(frame, event, arg):
        nonlocal count
        if event == "line":
            count += 1
        return trace

    sys.settrace(trace)
    try:
        fn()
    finally:
        sys.settrace(None)
    return count


def _bodies(n: int = N):
    before = "await x()\n" * n
    after = "await x()\n" * (n // 2) + "await y()\n" + "await x()\n" * (n // 2)
    return before, after


@pytest.mark.parametrize("diff", [changed_lines, change_diff, lambda a, b: applied(a, b, a)])
def test_a_diff_of_a_line_repeated_throughout_costs_linear_work(diff):
    """Twice the body, about twice the work (the square would be four times)."""
    once = _executed(lambda: diff(*_bodies(N)))
    twice = _executed(lambda: diff(*_bodies(2 * N)))
    assert twice <= 2.5 * once, (once, twice)


def test_the_bounded_diff_still_says_what_changed():
    before, after = _bodies()
    removed, added = changed_lines(before, after)
    assert (removed, added) == ((), ("await y()",))
    assert "+await y()\n" in change_diff(before, after)
    assert applied(before, after, before) == after
