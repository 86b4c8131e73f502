"""The words and numbers every layer shares, defined once.

This module imports nothing of the package, so any module may use it. The enums are
``StrEnum``/``IntEnum`` so that their members are the very strings and numbers that appear
in the manifest, the JSON report, the Action's inputs and the exit status.
"""

from __future__ import annotations

from enum import IntEnum, StrEnum


class ExitCode(IntEnum):
    """What every command and the Action exit with; branch protection reads only this."""

    PASSED = 0  # fresh, or the gate does not count what it found
    FAILED = 1  # the gate failed: stale manifest, or what --fail-on adds
    ERROR = 2  # the run could not decide: bad input, unreadable files, API failure


class Status(StrEnum):
    """A snippet's syntax status, found by ``compile()`` only."""

    PARSES = "parses"
    NEEDS_ASYNC_WRAPPER = "needs-async-wrapper"
    INCOMPLETE_SIGNATURE = "incomplete-signature"
    SYNTAX_ERROR = "syntax-error"


class Relation(StrEnum):
    """How the two members of a bilingual pair compare; ``MISSING`` has no second member."""

    IDENTICAL = "identical"
    INDENTATION = "indentation"
    COMMENTS = "comments"
    STRINGS = "strings"  # the same code once translated string literals are set aside
    DIVERGED = "diverged"
    MISSING = "missing"


# The relations a recorded pair can have (a missing counterpart is not a pair).
PAIR_RELATIONS = (Relation.IDENTICAL, Relation.INDENTATION, Relation.COMMENTS, Relation.STRINGS, Relation.DIVERGED)
DESYNC_RELATIONS = frozenset({Relation.DIVERGED, Relation.MISSING})


class FailOn(StrEnum):
    """What makes the gate fail (input ``fail-on``, option ``--fail-on``)."""

    STALE = "stale"
    DESYNC = "desync"
    REFERENCES = "references"
    NEVER = "never"


def parse_fail_on(text: str) -> str:
    """``fail-on`` normalized: a comma-separated list of stale, desync, references, or never alone.

    Raises ValueError saying what is wrong with it, for the caller to put after the value.
    """
    words = [w.strip().lower() for w in str(text).split(",")]
    choices = ", ".join(FailOn)
    if not all(w in tuple(FailOn) for w in words):
        raise ValueError(f"is not one of {choices}, nor a list of them")
    if FailOn.NEVER in words and len(set(words)) > 1:
        raise ValueError("combines never with other values; never turns the gate off, pass it alone")
    return ",".join(w for w in FailOn if w in words)


class Cause(StrEnum):
    """Why a gate failed, as the ``failed-on`` output and the JSON verdict say it."""

    STALE = "stale"
    DESYNC = "desync"
    REFERENCES = "references"
    ERROR = "error"


class CommentMode(StrEnum):
    """When the Action writes its sticky comment (input ``comment``)."""

    ON_CHANGE = "on-change"
    ALWAYS = "always"
    NEVER = "never"


DEFAULT_MANIFEST = "documentation-snippets.json"
CONFIG_FILENAMES = (".docsnippets.yml", ".docsnippets.yaml")
FIX_COMMAND = "docsnippets update"
# The reference check's view of the tree: what a path is, and where top-level packages live.
FILE = "file"
DIRECTORY = "directory"
SOURCE_ROOTS = ("", "src/")
REFERENCES_FIX = "make each broken import name the module and the names the code has now, in both languages"
CALLS_FIX = (
    "make each flagged call fit the code as it is now (its arguments, await, with or async with), "
    "in both languages; silence a false alarm with a comment docsnippets: ignore[KIND] on its line"
)

# GitHub's limits, which the Action must stay within.
GITHUB_COMMENT_LIMIT = 65_536  # characters of one issue comment
COMMENT_BUDGET = 60_000  # what the comment may use, leaving room for the marker
GITHUB_FILES_CAP = 3_000  # the pull-request files API lists no more than this
MAX_ANNOTATIONS = 10  # the runner shows at most this many of each level per step
