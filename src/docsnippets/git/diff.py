"""``docsnippets diff [BASE [HEAD]]``: the pull-request report for two git refs, read through git.

What is compared mirrors the PR comment: HEAD's manifest against HEAD's docs decides the
verdict (is the committed manifest fresh?), and BASE's manifest against HEAD's docs lists what
the change does. HEAD is the work tree unless a ref is named; the config is the work tree's.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from docsnippets.config import Config
from docsnippets.git import refs as gitrefs
from docsnippets.git.commit import GitCommit
from docsnippets.judge import Base, Case, Judgement, judge
from docsnippets.judge.inventory import EMPTY
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.snippets.extract import Memo
from docsnippets.snippets.pairs import pairing_hint
from docsnippets.sources import FileSource, SourceError
from docsnippets.sources.worktree import WorkTree


@dataclass(frozen=True)
class DiffFound:
    judgement: Judgement
    hint: str | None
    base: str  # the commits compared; head None for the work tree
    head: str | None
    manifest_rel: str


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise SourceError(f"{path}: the manifest is outside the root {root}; diff reads it from git there") from None


def run_diff(
    root: Path,
    config: Config,
    manifest: Path,
    *,
    base: str | None,
    head: str | None,
    strict_lines: bool = False,
    memo: Memo | None = None,
    references: bool = True,
) -> DiffFound:
    gitrefs.require_repository(root)
    rel = _relative(manifest, root)
    base_sha = gitrefs.resolve(root, base) if base else gitrefs.default_base(root)
    head_sha = gitrefs.resolve(root, head) if head else None
    base_label = base or "the merge base"
    base_manifest = mf.read_from(GitCommit(root, base_sha), rel, f"{rel} at {base_label}")
    source: FileSource
    if head_sha is None:
        source, head_manifest = WorkTree(root), store.load(manifest, root=root)
    else:
        source = GitCommit(root, head_sha)
        head_manifest = mf.read_from(source, rel, f"{rel} at {head}")
    recorded = mf.to_inventory(base_manifest) if base_manifest is not None else EMPTY
    case = Case(
        source,
        config,
        head_manifest,
        changed=tuple(gitrefs.changed_paths(root, base_sha, head_sha)),
        base=Base(recorded, missing=base_manifest is None, code=lambda: GitCommit(root, base_sha).code()),
        strict_lines=strict_lines,
        references=references,
        memo=memo,
    )
    found = judge(case)
    hint = pairing_hint(found.inventory, config, lambda p: config.selects(p) and source.kind(p) is not None)
    if base_manifest is None:  # the comparison with the base lists every snippet as new: say why
        hint = "; ".join(h for h in (f"no manifest at {base_label}: every snippet is new", hint) if h)
    return DiffFound(found, hint, base_sha, head_sha, rel)
