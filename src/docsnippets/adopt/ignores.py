"""Files ``init`` writes that git would ignore, and the ``.gitignore`` line that brings each back.

An adoption commit without its manifest is worse than none: every later pull request would
report "no manifest at the base". So each file ``init`` is responsible for is asked of git
(``git check-ignore``), and an ignored one gets a negation line of its own (``!path``) at the
end of the top ``.gitignore``, which outranks the rules of ``.git/info/exclude`` and of the
user's global excludes file. That cannot help a file inside an ignored directory: git does not
look inside one, and no later line changes that. Such a file is left to ``git add -f`` (once
committed, git tracks it whatever the rules say), and the rule that ignores it is named; a
negation that would not work is never written.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

from docsnippets.git import status
from docsnippets.git.status import IgnoreRule

GITIGNORE = ".gitignore"


@dataclass(frozen=True)
class IgnorePlan:
    """The negation lines to append, and the files no line can bring back (with their rule)."""

    negate: tuple[str, ...]
    forced: dict[str, IgnoreRule]

    @property
    def lines(self) -> tuple[str, ...]:
        return tuple(f"!{path}" for path in self.negate)


def plan(root: Path, paths: Sequence[str]) -> IgnorePlan:
    rules = status.ignored(root, paths)
    negate: list[str] = []
    forced: dict[str, IgnoreRule] = {}
    for path in paths:
        if path not in rules:
            continue
        directory = status.ignored_directory(root, path)
        if directory is not None:
            forced[path] = directory
        else:
            negate.append(path)
    return IgnorePlan(tuple(negate), forced)


def appended(old: bytes | None, lines: Sequence[str]) -> bytes:
    """``.gitignore`` with ``lines`` at its end, each on a line of its own."""
    text = (old or b"").decode("utf-8", "surrogateescape")
    text += ("\n" if text and not text.endswith("\n") else "") + "".join(f"{line}\n" for line in lines)
    return text.encode("utf-8", "surrogateescape")
