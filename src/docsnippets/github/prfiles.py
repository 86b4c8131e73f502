"""Stage 2 reads a pull request as data: every fact from its head commit, exactly as named.

The PR's file list says what changed; the head commit's tree says what is there (path, mode,
size, blob), and blobs are read by SHA, each once. A file the tree does not hold does not
exist at the head, so a manifest entry for it is decided without a request. A file that
cannot be judged (a symlink, a submodule, listed but missing) is refused by name; a file over
``max_file_bytes`` is skipped unread with the same warning as a local run.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docsnippets import engine
from docsnippets.config import Config
from docsnippets.constants import GITHUB_FILES_CAP
from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.github.pinned import Refusal, Tree, read_paths
from docsnippets.github.settings import ActionError, Settings
from docsnippets.github.stage1 import Problems, PullRequest, base_inventory, base_text, both_names
from docsnippets.manifest import build as mf
from docsnippets.snippets.records import Inventory, Notice


class Undecided(Exception):
    """Stage 2 cannot judge this PR at all (too large for its budget or for GitHub's lists, or
    its manifest unreadable): an ``error`` status and a comment say why; exit 2."""


@dataclass(frozen=True)
class Fetched:
    """The PR's content as read through the API at its head commit."""

    changed: tuple[str, ...]
    head_manifest: dict[str, Any] | None
    base: Inventory | None  # None when the base manifest could not be used
    base_missing: bool
    touched: tuple[str, ...]
    read: Mapping[str, bytes | Notice | None]
    refused: tuple[Refusal, ...]


def fetch(client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems) -> Fetched:
    try:
        return _fetch(client, settings, config, pr, problems)
    except mf.ManifestError as exc:
        raise Undecided(str(exc)) from None
    except GitHubError as exc:
        if exc.kind == ErrorKind.BUDGET:
            raise Undecided(
                f"PR too large for stage 2: reading it takes more than {client.budget.limit} API requests "
                "(DOCSNIPPETS_REQUEST_BUDGET)"
            ) from None
        raise ActionError(f"{exc}; stage 2 cannot judge the PR without it") from None


def _fetch(client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems) -> Fetched:
    files = client.changed_files(pr.number)
    if len(files) >= GITHUB_FILES_CAP:
        raise Undecided(
            f"PR too large for stage 2: {len(files)} changed files (GitHub's cap), not every change is seen"
        )
    tree, base_tree = client.tree(pr.head_sha), client.tree(pr.base_sha)
    for sha, t in ((pr.head_sha, tree), (pr.base_sha, base_tree)):
        if t.truncated:
            raise Undecided(f"PR too large for stage 2: GitHub lists only part of the tree of {sha[:12]}")
    # What the PR's list says exists at its head: a copy keeps its source; a rename's old
    # name and a removed file are gone.
    listed = {f.filename for f in files if f.status != "removed"}
    manifest = read_paths(tree, [settings.manifest], max_bytes=config.max_file_bytes, listed=listed, blob=client.blob)
    head_manifest = _manifest(manifest.files.get(settings.manifest), settings.manifest, pr.head_sha)
    changed = tuple(both_names(files))
    text, base_ok = base_text(client, settings, pr, problems)
    base = base_inventory(text, settings, problems) if base_ok else None
    recorded = mf.to_inventory(head_manifest) if head_manifest is not None else None
    wanted = engine.with_counterparts([*changed, *_differing(tree, base_tree, config)], config)
    wanted |= _suspects(recorded, base, settings.manifest in changed)
    contents = read_paths(tree, wanted, max_bytes=config.max_file_bytes, listed=listed, blob=client.blob)
    read = dict(contents.files)
    touched = _touched(changed, config, read, recorded)
    refused = (*manifest.refused, *contents.refused)
    return Fetched(changed, head_manifest, base, base_ok and text is None, touched, read, refused)


def _manifest(raw: bytes | Notice | None, name: str, sha: str) -> dict[str, Any] | None:
    where = f"{name} at the PR's head {sha[:12]}"
    if isinstance(raw, Notice):
        raise mf.ManifestError(f"{where}: larger than max_file_bytes; it cannot be a manifest docsnippets wrote")
    if raw is None:
        return None
    try:
        return mf.parse(raw.decode("utf-8-sig"), where)
    except UnicodeDecodeError:
        raise mf.ManifestError(f"{where}: not UTF-8 text; run `docsnippets update` on the branch") from None


def _differing(head: Tree, base: Tree, config: Config) -> set[str]:
    """The Markdown the base and head commits hold differently.

    The PR's file list is not tied to a commit: a force-push away and back while it is read
    would hand over another head's list, and a file left off it would never be judged. The two
    trees are read by SHA, so what they disagree on is read at the head whatever the list says.
    """
    out: set[str] = set()
    for path in set(head.entries) | set(base.entries):
        h, b = head.entries.get(path), base.entries.get(path)
        if h is not None and h.type == "tree":
            continue
        if config.selects(path) and (h is None or b is None or (h.mode, h.sha) != (b.mode, b.sha)):
            out.add(path)
    return out


def _records(inventory: Inventory | None) -> dict[str, tuple[Any, ...]]:
    """Per file: its recorded snippets, counterpart and pair relations, to compare two manifests."""
    if inventory is None:
        return {}
    out: dict[str, list[Any]] = {}
    for snippet in inventory.snippets:
        out.setdefault(snippet.file, []).append(snippet)
    for file, other in inventory.counterparts:
        out.setdefault(file, []).append(("counterpart", other))
    for pair in inventory.pairs:
        en, zh = inventory.snippets[pair.en], inventory.snippets[pair.zh]
        for file in {en.file, zh.file}:
            out.setdefault(file, []).append(("pair", en.key, zh.key, pair.relation))
    return {file: tuple(items) for file, items in out.items()}


def _suspects(recorded: Inventory | None, base: Inventory | None, manifest_changed: bool) -> set[str]:
    """Files the PR did not change whose records in its own manifest are not the base's.

    The PR's manifest is PR content: when the PR edits it, an entry for a file the PR did not
    change could claim anything. Those files are read too (those the head does not hold cost
    nothing), so every record the verdict relies on is either the base branch's or checked
    against the file itself.
    """
    if recorded is None or not manifest_changed:
        return set()
    mine, theirs = _records(recorded), _records(base)
    return {file for file in set(mine) | set(theirs) if mine.get(file) != theirs.get(file)}


def _touched(
    changed: Sequence[str], config: Config, read: Mapping[str, bytes | Notice | None], recorded: Inventory | None
) -> tuple[str, ...]:
    """As on stage 1: the changed Markdown and those of its counterparts that exist."""
    known = {s.file for s in recorded.snippets} if recorded is not None else set()
    out: set[str] = set()
    for path in changed:
        if config.selects(path):
            out.add(path)
            out.update(o for _, o in config.counterparts(path) if read.get(o) is not None or o in known)
    return tuple(sorted(out))
