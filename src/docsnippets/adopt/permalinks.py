"""Where the first manifest's permalinks point: the repository the ``origin`` remote names, at
the commit ``HEAD`` names, when a link there is true and can be opened.

``update`` never takes ``HEAD`` by itself (a commit that moved on every run would rewrite every
permalink on every branch). Adoption is the one moment a commit is taken unasked, and only
when each link it makes will hold: the Markdown is exactly as committed at ``HEAD``, and
``HEAD`` is on a branch the clone knows ``origin`` to have, so the server has it. Otherwise
the repository is still recorded and the user is told what would give the links.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docsnippets.config import Config
from docsnippets.git import status
from docsnippets.sources.worktree import origin_repository


@dataclass(frozen=True)
class Permalinks:
    repository: str | None
    commit: str | None
    why_not: str = ""  # when there is no commit: why, and what records one

    def describe(self) -> str:
        if self.commit is not None:
            return f"permalinks at {self.repository}@{self.commit[:12]}"
        where = f"repository {self.repository}, " if self.repository else ""
        return f"{where}no permalinks yet: {self.why_not}"


def permalinks(root: Path, config: Config) -> Permalinks:
    repository = config.repository or origin_repository(root, config.server_url)
    if repository is None:
        return Permalinks(
            None,
            None,
            f"the origin remote names no repository on {config.server_url}; "
            "`docsnippets update --repository OWNER/NAME --commit SHA` records one",
        )
    head = status.head(root)
    if head is None:
        return Permalinks(repository, None, "there is no commit yet; `docsnippets update --commit SHA` records one")
    later = f"`docsnippets update --commit {head[:12]}` records them"
    if not status.on_remote(root, head):
        return Permalinks(repository, None, f"HEAD {head[:12]} is not on origin; push it, then {later}")
    differ = sorted(p for p in status.changed(root) if config.selects(p))
    if differ:
        more = f" (and {len(differ) - 1} more Markdown files)" if len(differ) > 1 else ""
        return Permalinks(repository, None, f"{differ[0]} differs from HEAD{more}; commit, then {later}")
    return Permalinks(repository, head)
