"""``docsnippets diff [BASE [HEAD]]``: the pull-request report for two git refs, read through git.

What is compared mirrors the PR comment: HEAD's manifest against HEAD's docs decides the
verdict (is the committed manifest fresh?), and BASE's manifest against HEAD's docs lists what
the change does. HEAD is the work tree unless a ref is named; the config is the work tree's.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from docsnippets import engine
from docsnippets.config import Config
from docsnippets.git import refs as gitrefs
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.references.check import DIRECTORY, FILE, ModuleFiles
from docsnippets.references.modules import DirectoryFiles
from docsnippets.snippets.extract import Memo
from docsnippets.snippets.pairs import pairing_hint
from docsnippets.tree import TreeError, exists_markdown


@dataclass(frozen=True)
class DiffFound:
    result: engine.DiffResult
    hint: str | None
    base: str  # the commits compared; head None for the work tree
    head: str | None
    manifest_rel: str


def _relative(path: Path, root: Path) -> str:
    try:
        return path.resolve().relative_to(root).as_posix()
    except ValueError:
        raise TreeError(f"{path}: the manifest is outside the root {root}; diff reads it from git there") from None


def _parse(raw: bytes, where: str) -> dict[str, Any]:
    try:
        return mf.parse(raw.decode("utf-8-sig"), where)
    except UnicodeDecodeError:
        raise mf.ManifestError(f"{where}: not UTF-8 text; fix the manifest on that branch") from None


def _manifest_at(root: Path, commit: str, rel: str, label: str) -> dict[str, Any] | None:
    blobs = gitrefs.list_blobs(root, commit)
    if rel not in blobs:
        return None
    return _parse(gitrefs.read_blobs(root, [blobs[rel]])[blobs[rel]], f"{rel} at {label}")


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
    base_manifest = _manifest_at(root, base_sha, rel, base or "the merge base")
    code: ModuleFiles
    if head_sha is None:
        inventory = engine.scan_tree(root, config, memo=memo)
        head_manifest = store.load(manifest, root=root)
        code = DirectoryFiles(root)

        def exists(path: str) -> bool:
            return exists_markdown(root, path, config)
    else:
        files = gitrefs.files_at(root, head_sha, lambda p: p == rel or config.selects(p))
        text = files.pop(rel, None)
        head_manifest = _parse(text, f"{rel} at {head}") if text is not None else None
        inventory = engine.inventory_of(files, config, memo)
        code = BlobFiles(root, gitrefs.list_blobs(root, head_sha))

        def exists(path: str) -> bool:
            return path in files

    result = engine.diff(
        config,
        inventory,
        head_manifest=head_manifest,
        base_manifest=base_manifest,
        changed=gitrefs.changed_paths(root, base_sha, head_sha),
        strict_lines=strict_lines,
    )
    if references and config.references:
        found = engine.broken_references(inventory, inventory.snippets, code, config)
        result = replace(result, freshness=replace(result.freshness, broken_references=found))
    hint = pairing_hint(inventory, config, exists)
    if base_manifest is None:  # the comparison with the base lists every snippet as new: say why
        hint = "; ".join(h for h in (f"no manifest at {base or 'the merge base'}: every snippet is new", hint) if h)
    return DiffFound(result, hint, base_sha, head_sha, rel)


class BlobFiles:
    """:class:`references.ModuleFiles` over a commit's blobs, each read from git only when asked."""

    def __init__(self, root: Path, blobs: dict[str, str]) -> None:
        self._root = root
        self._blobs = blobs
        self._dirs: set[str] = set()
        self._code_dirs: set[str] = set()
        for path in blobs:
            parts = path.split("/")
            for n in range(1, len(parts)):
                self._dirs.add("/".join(parts[:n]))
                if path.endswith(".py"):
                    self._code_dirs.add("/".join(parts[:n]))

    def kind(self, path: str) -> str | None:
        if path in self._blobs:
            return FILE
        return DIRECTORY if path in self._dirs else None

    def read(self, path: str) -> bytes | None:
        sha = self._blobs.get(path)
        return None if sha is None else gitrefs.read_blobs(self._root, [sha]).get(sha)

    def holds_code(self, path: str) -> bool:
        return path in self._code_dirs
