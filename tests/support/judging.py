"""The judge driven on a directory, as the CLI drives it: for tests that need no command line."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from docsnippets.config import Config
from docsnippets.judge import Case, Judgement, Scope, judge
from docsnippets.judge.inventory import whole
from docsnippets.manifest import store
from docsnippets.snippets.extract import Memo, snippets_from_bytes
from docsnippets.snippets.pairs import pair_up
from docsnippets.snippets.records import Inventory, Notice
from docsnippets.sources.worktree import WorkTree
from docsnippets.update import UpdateResult
from docsnippets.update import update as update_manifest


def scan_tree(root: Path, config: Config, memo: Memo | None = None, *, prefilter: bool = True) -> Inventory:
    """Every selected snippet of the tree at ``root``, paired; without ``prefilter`` every page
    is parsed (what the prefilter's answers are checked against)."""
    if prefilter:
        return whole(WorkTree(root), config, memo)[0]
    source = WorkTree(root)
    pages = sorted(p for p in source.entries() if config.selects(p))
    snippets, notices, present = [], [], set()
    for rel, data in source.read_many(pages, config.max_file_bytes):
        if isinstance(data, bytes):
            present.add(rel)
            found, problems = snippets_from_bytes(rel, data, config, prefilter=False, memo=memo)
            snippets += found
            notices += problems
        elif isinstance(data, Notice):
            notices.append(data)
    return pair_up(snippets, present, config, notices)


def check(
    root: Path,
    config: Config,
    manifest: Path,
    *,
    changed: Sequence[str] | None = None,
    memo: Memo | None = None,
    references: bool = True,
) -> Judgement:
    """``docsnippets check`` (``--changed`` when ``changed`` is given) without its output."""
    case = Case(
        WorkTree(root),
        config,
        store.load(manifest, root=root),
        changed=tuple(changed) if changed is not None else None,
        scope=Scope.CHANGED,
        references=references,
        memo=memo,
    )
    return judge(case)


def update(root: Path, config: Config, manifest: Path, **kwargs: object) -> UpdateResult:
    """``docsnippets update`` without its output."""
    options = {"repository": None, "commit": None, **kwargs}
    return update_manifest(WorkTree(root), config, manifest, **options)  # type: ignore[arg-type]
