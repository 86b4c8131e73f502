"""What is still to do after ``init``, worked out from the repository as it is, not from what
this run happened to write: a second run owes the user the same list as the first.

- A workflow that still names the placeholder Action is to be pinned to a release commit.
- An adoption file git has not committed yet (untracked, or changed since the last commit) is
  to be committed; one git ignores all the same needs ``git add -f``. The ``.gitignore`` whose
  negation lets an adoption file in belongs to the adoption too: a commit without it would
  leave the file ignored in every other clone.
- Branch protection cannot be seen from a clone, so requiring the status is always said.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field
from pathlib import Path

from docsnippets.adopt.ignores import home_of
from docsnippets.adopt.workflows import PLACEHOLDER_ACTION, WORKFLOWS
from docsnippets.fileio import NotRegularFile, read_regular
from docsnippets.git import status
from docsnippets.git.status import IgnoreRule


@dataclass(frozen=True)
class Pending:
    unpinned: tuple[str, ...]  # workflows that still name the placeholder Action
    to_add: tuple[str, ...]  # files to commit: the adoption's in the order init writes them, then ignore files
    forced: dict[str, IgnoreRule] = field(default_factory=dict)  # of those, the ones git ignores, with the rule
    in_ignored_directory: frozenset[str] = frozenset()  # of those, the ones no .gitignore line can bring back


def _names_placeholder(root: Path, rel: str) -> bool:
    try:
        data = read_regular(root / rel, root=root)
    except (NotRegularFile, IsADirectoryError):
        return False
    return data is not None and PLACEHOLDER_ACTION.encode() in data


def pending(root: Path, adoption: Iterable[str]) -> Pending:
    """``adoption``: the files init is responsible for (those that exist count)."""
    files = [rel for rel in dict.fromkeys(adoption) if (root / rel).exists()]
    rules = status.deciding_rules(root, files)
    letting_in = (home_of(rule, rel) for rel, rule in rules.items() if rule.negates)
    files += [home for home in dict.fromkeys(letting_in) if home is not None and home not in files]
    changed = status.changed(root)
    ignored = status.ignored(root, files)
    to_add = tuple(rel for rel in files if rel in changed or rel in ignored)
    forced = {rel: ignored[rel] for rel in to_add if rel in ignored}
    inside = frozenset(rel for rel in forced if status.ignored_directory(root, rel) is not None)
    unpinned = tuple(rel for rel in WORKFLOWS if _names_placeholder(root, rel))
    return Pending(unpinned, to_add, forced, inside)
