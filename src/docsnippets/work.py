"""A run's allowance of work: how much of the tree it parses, and how much CPU it uses judging.

The request budget bounds what a run asks of GitHub; this bounds what it does with what it
got, whatever a pull request holds. Three bounds, each optional (the CLI sets none):

* the bytes of pages that pass the prefilter (those worth parsing), counted for every path
  that holds them: identical pages are parsed once, but each copy's snippets are judged;
* the bytes of the repository's Python modules the code check parses: a module's syntax
  tree is kept for the run and takes a hundred times its source or more;
* the CPU time of the process and of its children (the declared Python's, which reads the
  bodies): judging stops at a check once they have used this much.

The judge opens an allowance for the length of one judging (:func:`bounded`); the pieces
of work check it between their parts — a file, a batch of a page's blocks, a file pair, a
row of an alignment, a module or a snippet of the code check — so no part is ever cut in
two, and outside a judging the checks cost nothing. Past a bound, :class:`OverBudget` says
which; the Action turns it into an error verdict (never a green one) that names the bound.
"""

from __future__ import annotations

import time
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from dataclasses import dataclass, field
from enum import StrEnum

# Small pieces of work (a page's blocks, a body's tokens) done between two checks of the CPU bound.
CHECK_EVERY = 4096


class Bound(StrEnum):
    PARSED_BYTES = "parsed-bytes"
    CODE_BYTES = "code-bytes"
    CPU_SECONDS = "cpu-seconds"


class OverBudget(Exception):
    """A judging went past one of its bounds; the message says which and where."""

    def __init__(self, bound: Bound, message: str) -> None:
        super().__init__(message)
        self.bound = bound


@dataclass(frozen=True)
class Limits:
    """The bounds of one judging; None is no bound."""

    parsed_bytes: int | None = None
    code_bytes: int | None = None
    cpu_seconds: float | None = None
    # The CPU seconds used so far, as the bound counts them (the Action's counts its children).
    clock: Callable[[], float] = field(default=time.process_time, compare=False)


class Allowance:
    """What one judging has spent of its :class:`Limits`."""

    def __init__(self, limits: Limits) -> None:
        self.limits = limits
        self.parsed = 0
        self.code = 0

    def parse(self, size: int, path: str) -> None:
        """Count a page of ``size`` bytes that passed the prefilter, before it is judged."""
        self.parsed += size
        _within(
            Bound.PARSED_BYTES, self.parsed, self.limits.parsed_bytes, "its pages that may hold snippets come", path
        )

    def read_code(self, size: int, path: str) -> None:
        """Count a module of ``size`` bytes the code check is about to parse."""
        self.code += size
        _within(Bound.CODE_BYTES, self.code, self.limits.code_bytes, "the code its snippets import comes", path)

    def check(self) -> None:
        left = self.left()
        if left is not None and left < 0:
            raise self.spent()

    def left(self) -> float | None:
        """The CPU seconds left under the bound (None: no bound)."""
        limit = self.limits.cpu_seconds
        return None if limit is None else limit - self.limits.clock()

    def spent(self) -> OverBudget:
        return OverBudget(Bound.CPU_SECONDS, f"judging it took more than {self.limits.cpu_seconds:g} s of CPU")


def _within(bound: Bound, spent: int, limit: int | None, what: str, path: str) -> None:
    if limit is not None and spent > limit:
        raise OverBudget(bound, f"{what} to more than {limit} bytes (at {path})")


_CURRENT: ContextVar[Allowance | None] = ContextVar("docsnippets_allowance", default=None)


@contextmanager
def bounded(limits: Limits) -> Iterator[Allowance]:
    """The allowance of the judging run inside this block."""
    allowance = Allowance(limits)
    token = _CURRENT.set(allowance)
    try:
        yield allowance
    finally:
        _CURRENT.reset(token)


def check() -> None:
    """Raise :class:`OverBudget` when the judging under way is past its CPU bound."""
    allowance = _CURRENT.get()
    if allowance is not None:
        allowance.check()


def cpu_left() -> float | None:
    """The CPU seconds the judging under way has left (None: no bound, or no judging)."""
    allowance = _CURRENT.get()
    return None if allowance is None else allowance.left()


def cpu_spent() -> OverBudget:
    """The judging under way's CPU bound as reached: for work that waited until it was."""
    allowance = _CURRENT.get()
    assert allowance is not None
    return allowance.spent()


def parse(size: int, path: str) -> None:
    """Count a page worth parsing against the judging under way (raises past the bound)."""
    allowance = _CURRENT.get()
    if allowance is not None:
        allowance.parse(size, path)


def read_code(size: int, path: str) -> None:
    """Count a module the code check parses against the judging under way (raises past the bound)."""
    allowance = _CURRENT.get()
    if allowance is not None:
        allowance.read_code(size, path)
