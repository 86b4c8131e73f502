"""What the reference check reports, and the code view of the tree it reports on (from sources)."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from enum import StrEnum

from docsnippets.constants import CALLS_FIX, REFERENCES_FIX
from docsnippets.snippets.records import Snippet

PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


class ReferenceKind(StrEnum):
    """What a finding is about: a missing module, a missing name, a call that does not bind,
    an ``await`` on a plain function, or a context manager / async iterator of the wrong kind."""

    MODULE = "module"
    NAME = "name"
    CALL = "call"
    AWAIT = "await"
    CONTEXT = "context"


# The kinds the import check reports; the others come from the check of calls.
IMPORT_KINDS = frozenset({ReferenceKind.MODULE, ReferenceKind.NAME})


@dataclass(frozen=True)
class BrokenReference:
    """A reference of a snippet to the code that the checked tree does not satisfy.

    For imports, ``module`` is the imported module and ``name`` the missing name (None when the
    module itself is missing); for the call kinds, ``module`` is where the callee is defined and
    ``name`` its qualified name there, so that ``module.name`` is what ``ignore_calls`` matches.
    """

    file: str
    line: int
    module: str
    name: str | None
    reason: str
    snippet: Snippet = field(repr=False)
    kind: ReferenceKind = ReferenceKind.MODULE

    @property
    def place(self) -> tuple[str, int]:
        return (self.file, self.line)


def fixes_for(found: Iterable[BrokenReference]) -> list[str]:
    """What to do about the findings: the imports' fix, the calls' fix, or both."""
    kinds = {b.kind in IMPORT_KINDS for b in found}
    return [fix for fix, wanted in ((REFERENCES_FIX, True), (CALLS_FIX, False)) if wanted in kinds]
