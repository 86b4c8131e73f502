"""Where the manifest's permalinks point: the repository and commit ``update`` records.

Pure: the recorded manifest, the options and the config go in, a decision comes out; the
``origin`` remote is asked through a callable only when it can change the answer.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from docsnippets.config import Config
from docsnippets.manifest import build as mf


@dataclass(frozen=True)
class Source:
    """Where the manifest's permalinks point, and which entries may carry one."""

    repository: str | None
    commit: str | None
    linked: mf.Linked | None  # None: every entry (the commit was given for this tree)
    notes: tuple[str, ...] = ()


def resolve_source(
    old: dict[str, Any] | None,
    config: Config,
    *,
    repository: str | None,
    commit: str | None,
    detect: Callable[[], str | None],
    force: bool = False,
) -> Source:
    """Keep the recorded source unless told otherwise, so that ``update`` never rewrites
    every entry just because the checkout moved on.

    A commit is recorded only when ``--commit`` is given: a commit taken from ``HEAD`` on
    every run would change every permalink on every branch, and two branches would then
    conflict on every entry. Without ``--commit`` the recorded one stays, and only entries
    whose file, lines and body are unchanged since it was recorded keep their permalink
    (they are still true at that commit); new, edited or moved ones get none. The
    repository is ``--repository``, else the config's, else the recorded one; the ``origin``
    remote supplies it only for a new manifest (or with ``--force``, which also drops a
    recorded commit that ``--commit`` does not replace), and otherwise is only compared with
    the recorded one, a difference being named with the option that records it. A fork's
    clone (its ``origin`` the fork) thus does not rewrite the source behind anyone's back.
    """
    recorded = (old or {}).get("source") or {}
    keep = old is not None and not force
    notes: list[str] = []
    repo = repository or config.repository or (recorded.get("repository") if keep else None)
    if repo is None and not keep:
        repo = detect()
    elif repository is None and config.repository is None:
        remote = detect()
        if remote is not None and remote != repo:
            notes.append(
                f"the manifest records repository {repo or 'none'}, the origin remote is {remote}; "
                f"pass --repository {remote} to record it"
            )
    if commit is not None:
        return Source(repo, commit, None, tuple(notes))
    if keep and recorded.get("commit"):
        return Source(repo, recorded["commit"], mf.linked_entries(old or {}), tuple(notes))
    return Source(repo, None, (), tuple(notes))


def source_change(old: dict[str, Any] | None, new: dict[str, Any]) -> tuple[str, ...]:
    """Say so when the recorded source changed, since it decides every permalink."""
    before, after = (old or {}).get("source") or {}, new["source"]
    if old is None or all(before.get(k) == after.get(k) for k in ("repository", "commit")):
        return ()
    show = lambda s: f"{s.get('repository') or 'no repository'} at {s.get('commit') or 'no commit'}"  # noqa: E731
    return (f"the recorded source is now {show(after)} (was {show(before)})",)
