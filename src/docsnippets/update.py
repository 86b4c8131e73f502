"""``update``: the manifest written from the tree, unless its bytes would stay the same.

Make the source (the work tree), read every page, build the manifest, deliver it atomically;
shared by ``docsnippets update``, the pre-commit hook and ``docsnippets init``.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsnippets.config import Config
from docsnippets.fileio import write_atomic
from docsnippets.judge.inventory import unreadable, whole
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.snippets.extract import Memo
from docsnippets.snippets.records import Inventory
from docsnippets.sources import SourceError
from docsnippets.sources.worktree import WorkTree
from docsnippets.words import counted


@dataclass(frozen=True)
class UpdateResult:
    """The manifest data, whether the file had to be rewritten, and what to tell the user."""

    data: dict[str, Any]
    written: bool
    inventory: Inventory
    notes: tuple[str, ...] = ()


def update(
    tree: WorkTree,
    config: Config,
    manifest_path: Path,
    *,
    repository: str | None,
    commit: str | None,
    force: bool = False,
    memo: Memo | None = None,
    detect: Callable[[], str | None] = lambda: None,
) -> UpdateResult:
    """Rewrite the manifest unless its bytes would stay the same (keeps hooks quiet)."""
    from docsnippets.manifest.source import resolve_source, source_change  # update alone records one

    old_text, old = store.previous(manifest_path, root=tree.root)  # refuses what it must not overwrite
    inventory, found = whole(tree, config, memo)
    lost = unreadable(found.notices, {s.file for s in mf.to_inventory(old).snippets}) if old is not None else ()
    if lost:
        more = f" ({counted(len(lost) - 1, 'more such page')})" if len(lost) > 1 else ""
        raise SourceError(f"{lost[0]}{more}; the manifest was left unchanged, so as not to drop them")
    source_info = resolve_source(old, config, repository=repository, commit=commit, detect=detect, force=force)
    data = mf.build(inventory, config, source_info.repository, source_info.commit, source_info.linked)
    text = mf.dumps(data)
    if text == old_text:
        return UpdateResult(data, False, inventory, source_info.notes)
    write_atomic(manifest_path, text, root=tree.root)
    return UpdateResult(data, True, inventory, (*source_info.notes, *source_change(old, data)))
