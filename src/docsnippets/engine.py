"""The jobs the CLI and the Action share: scan a tree (whole or by changed files), check, update.

This is the one orchestrator: the only module that ties the file-system edges (tree.py,
fileio.py) to the pure stages (extract, pairs, compare, manifest).
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass, replace
from pathlib import Path, PurePosixPath
from typing import TYPE_CHECKING, Any

from docsnippets.config import Config
from docsnippets.fileio import write_atomic
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.report.compare import Report, compare, limit_desync
from docsnippets.snippets.extract import Memo, snippets_from_bytes
from docsnippets.snippets.pairs import Settled, pair_up
from docsnippets.snippets.records import Inventory, Notice, Snippet
from docsnippets.tree import TreeError, exists_markdown, markdown_files, read_listed

if TYPE_CHECKING:  # the reference check loads when a tree holds code for it to judge
    from docsnippets.references.check import BrokenReference, ModuleFiles


@dataclass(frozen=True)
class Scanned:
    """The touched files, extracted once and reused for every comparison of one run."""

    snippets: tuple[Snippet, ...]
    notices: tuple[Notice, ...]
    present: frozenset[str]


@dataclass(frozen=True)
class CheckResult:
    """A check's report, plus what the Action needs to say more: the tree as scanned, the touched files."""

    report: Report
    inventory: Inventory
    manifest_missing: bool
    touched: tuple[str, ...] | None
    scanned: Scanned | None = None


def _utf8_name(rel: str) -> bool:
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes arrive as lone surrogates
        return False
    return True


def scan_files(
    root: Path,
    files: Iterable[str],
    config: Config,
    *,
    prefilter: bool = True,
    regular: Collection[str] = frozenset(),
    memo: Memo | None = None,
) -> tuple[list[Snippet], list[Notice], set[str]]:
    """Extract the snippets of ``files``; also returns which of them exist as Markdown.

    ``regular`` names files a directory listing just saw as regular files (a hint only);
    ``memo`` holds earlier results by file content (see cache.py).
    """
    snippets: list[Snippet] = []
    notices: list[Notice] = []
    present: set[str] = set()
    for rel in files:
        if not _utf8_name(rel):
            shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            notices.append(Notice(shown, "file name is not valid UTF-8; skipped - rename the file"))
            continue
        data = read_listed(root, rel, rel in regular, config.max_file_bytes)
        if data is None:
            continue
        if isinstance(data, Notice):
            notices.append(data)
            continue
        present.add(rel)
        found, problems = snippets_from_bytes(rel, data, config, prefilter=prefilter, memo=memo)
        snippets.extend(found)
        notices.extend(problems)
    return snippets, notices, present


def scan_tree(root: Path, config: Config, *, prefilter: bool = True, memo: Memo | None = None) -> Inventory:
    """Every selected snippet of the tree at ``root``, paired."""
    files, regular = markdown_files(root, config)
    snippets, notices, present = scan_files(root, files, config, prefilter=prefilter, regular=regular, memo=memo)
    return pair_up(snippets, present, config, notices)


def normalize_changed(root: Path, paths: Iterable[str]) -> list[str]:
    """'/'-separated paths relative to the root; anything outside it is an error."""
    out: list[str] = []
    for raw in paths:
        p = Path(raw)
        if p.is_absolute():
            try:
                p = p.resolve().relative_to(root)
            except ValueError:
                raise TreeError(f"{raw}: --changed path is outside the root {root}; pass paths inside it") from None
        rel = PurePosixPath(p.as_posix())
        if ".." in rel.parts:
            raise TreeError(f"{raw}: --changed path leaves the root; pass paths relative to {root}")
        text = rel.as_posix()
        if text.startswith("./"):
            text = text[2:]
        if text and text != "." and text not in out:
            out.append(text)
    return out


def touched_files(root: Path, changed: Iterable[str], config: Config, known: Iterable[str] = ()) -> list[str]:
    """The changed Markdown files plus every counterpart file that exists or is known."""
    known_set = set(known)
    out: set[str] = set()
    for path in changed:
        if not config.selects(path):
            continue
        out.add(path)
        for _, other in config.counterparts(path):
            if other in known_set or exists_markdown(root, other, config):
                out.add(other)
    return sorted(out)


def scan_touched(root: Path, config: Config, touched: list[str], memo: Memo | None = None) -> Scanned:
    snippets, notices, present = scan_files(root, touched, config, memo=memo)
    return Scanned(tuple(snippets), tuple(notices), frozenset(present))


def partial_inventory(
    root: Path, config: Config, base: Inventory, touched: list[str], scanned: Scanned | None = None
) -> Inventory:
    """``base`` with the touched files re-extracted: cost follows the change, not the tree."""
    touched_set = set(touched)
    kept = [s for s in base.snippets if s.file not in touched_set]
    if scanned is None:
        scanned = scan_touched(root, config, touched)
    fresh, notices, present = scanned.snippets, scanned.notices, scanned.present
    files: set[str] = {s.file for s in kept}
    files.update(cp for f, cp in base.counterparts if cp and cp not in touched_set)
    files.update(present)
    # Counterparts of untouched files may themselves be untouched files without snippets.
    for f in list(files):
        for _, other in config.counterparts(f):
            if other not in touched_set and other not in files and exists_markdown(root, other, config):
                files.add(other)
    return pair_up([*kept, *fresh], files, config, notices, settled=_settled_pairs(base, touched_set))


def _settled_pairs(base: Inventory, touched: set[str]) -> Settled:
    """``base``'s pairs between files that were not touched: their snippets are base's too."""
    out: dict[frozenset[str], list[tuple[tuple[str, int], tuple[str, int], str]]] = {}
    for file, other in base.counterparts:
        if other is not None and file not in touched and other not in touched:
            out[frozenset((file, other))] = []
    for pair in base.pairs:
        en, zh = base.snippets[pair.en], base.snippets[pair.zh]
        group = out.get(frozenset((en.file, zh.file)))
        if group is not None:
            group.append((en.key, zh.key, pair.relation))
    return out


def check(
    root: Path,
    config: Config,
    manifest_path: Path,
    *,
    changed: list[str] | None = None,
    strict_lines: bool = False,
    memo: Memo | None = None,
    references: bool = True,
) -> CheckResult:
    """The manifest against the tree; with ``references`` (and the config's), the snippets'
    imports against the tree's code: all snippets, or with ``changed`` those of the touched
    files and those importing or calling into a changed ``.py`` file."""
    data = store.load(manifest_path, root=root)
    recorded = mf.to_inventory(data) if data is not None else Inventory((), (), ())
    if changed is not None and data is not None:
        touched = touched_files(root, changed, config, [s.file for s in recorded.snippets])
        scanned = scan_touched(root, config, touched, memo)
        current = partial_inventory(root, config, recorded, touched, scanned)
    else:
        touched = None
        scanned = None
        current = scan_tree(root, config, memo=memo)
    settings_changed = data is not None and data.get("selection") != config.selection()
    report = compare(recorded, current, strict_lines=strict_lines, settings_changed=settings_changed)
    if references and config.references:
        report = replace(report, broken_references=_checked_references(root, current, config, changed, touched))
    report = with_manifest_reasons(report, data)
    return CheckResult(report, current, data is None, tuple(touched) if touched is not None else None, scanned)


def _checked_references(
    root: Path, inventory: Inventory, config: Config, changed: list[str] | None, touched: list[str] | None
) -> tuple[tuple[str, BrokenReference], ...]:
    """The reference check of a check: every snippet, or with ``changed`` those a change can break.
    A tree without code an import could resolve to (a docs-only checkout) has nothing to judge."""
    from docsnippets.references.modules import DirectoryFiles, reaches_code

    code = DirectoryFiles(root)
    if not reaches_code(code, config.packages):
        return ()
    from docsnippets.references.check import snippets_to_check

    every = inventory.snippets
    chosen = every if changed is None else snippets_to_check(every, touched or [], changed, code, config.packages)
    return broken_references(inventory, chosen, code, config)


def broken_references(
    inventory: Inventory, snippets: Iterable[Snippet], files: ModuleFiles, config: Config
) -> tuple[tuple[str, BrokenReference], ...]:
    """The reference check of ``snippets`` (members of ``inventory``), each finding with its snippet's id."""
    from docsnippets.references.check import check_references

    ids = {s.key: sid for sid, s in zip(inventory.ids, inventory.snippets, strict=True)}
    found = check_references(snippets, files, config.packages, config.ignore_calls, inventory.snippets)
    return tuple((ids[b.snippet.key], b) for b in found)


def with_manifest_reasons(report: Report, data: dict[str, Any] | None) -> Report:
    """Stale, whatever the snippets say, when the manifest is missing or of an older schema:
    every command and both Action stages give the same reason for it."""
    if data is None:
        reason = "the manifest does not exist yet"
    elif data["schema"] != mf.SCHEMA:
        reason = f"it was written by an older docsnippets (schema {data['schema']}); `docsnippets update` rewrites it"
    else:
        return report
    return replace(report, fresh=False, reasons=(reason, *report.reasons))


@dataclass(frozen=True)
class UpdateResult:
    """The manifest data, whether the file had to be rewritten, and what to tell the user."""

    data: dict[str, Any]
    written: bool
    inventory: Inventory
    notes: tuple[str, ...] = ()


def update(
    root: Path,
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

    old_text, old = store.previous(manifest_path, root=root)  # refuses what it must not overwrite
    inventory = scan_tree(root, config, memo=memo)
    source = resolve_source(old, config, repository=repository, commit=commit, detect=detect, force=force)
    data = mf.build(inventory, config, source.repository, source.commit, source.linked)
    text = mf.dumps(data)
    if text == old_text:
        return UpdateResult(data, False, inventory, source.notes)
    write_atomic(manifest_path, text, root=root)
    return UpdateResult(data, True, inventory, (*source.notes, *source_change(old, data)))


def inventory_of(files: Mapping[str, bytes], config: Config, memo: Memo | None = None) -> Inventory:
    """The inventory of a tree given as path -> bytes (files read from a git ref)."""
    snippets: list[Snippet] = []
    notices: list[Notice] = []
    present: set[str] = set()
    for rel in sorted(files):
        if not config.selects(rel):
            continue
        present.add(rel)
        found, problems = snippets_from_bytes(rel, files[rel], config, memo=memo)
        snippets.extend(found)
        notices.extend(problems)
    return pair_up(snippets, present, config, notices)


@dataclass(frozen=True)
class DiffResult:
    """What a pull request from BASE to HEAD would show: its verdict and what it changes."""

    freshness: Report  # HEAD's manifest against HEAD's docs: decides the verdict
    changes: Report | None  # BASE's manifest against HEAD's docs: what the change does
    inventory: Inventory
    base_missing: bool
    head_manifest_missing: bool


def diff(
    config: Config,
    head: Inventory,
    *,
    head_manifest: dict[str, Any] | None,
    base_manifest: dict[str, Any] | None,
    changed: Iterable[str],
    strict_lines: bool = False,
) -> DiffResult:
    """The pull-request comparison between two trees, with the manifests already read.

    ``base_manifest`` is None when BASE has none (the change adopts docsnippets); desync is
    limited to the changed files and their counterparts, as on a pull request.
    """
    recorded = mf.to_inventory(head_manifest) if head_manifest is not None else Inventory((), (), ())
    settings_changed = head_manifest is not None and head_manifest.get("selection") != config.selection()
    freshness = compare(recorded, head, strict_lines=strict_lines, settings_changed=settings_changed)
    freshness = with_manifest_reasons(freshness, head_manifest)
    touched = sorted(with_counterparts(changed, config))
    base = mf.to_inventory(base_manifest) if base_manifest is not None else Inventory((), (), ())
    changes = compare(base, head, strict_lines=strict_lines, touched=touched)
    return DiffResult(limit_desync(freshness, touched), changes, head, base_manifest is None, head_manifest is None)


def with_counterparts(changed: Iterable[str], config: Config) -> set[str]:
    """The selected Markdown among ``changed`` and every counterpart it may have."""
    out: set[str] = set()
    for path in changed:
        if config.selects(path):
            out.add(path)
            out.update(other for _, other in config.counterparts(path))
    return out


def inventory_with(recorded: Inventory, config: Config, read: Mapping[str, bytes | Notice | None]) -> Inventory:
    """``recorded`` with the files in ``read`` taken as read (None: the file does not exist; a
    Notice: it exists but was skipped unread, as a file over ``max_file_bytes`` is).

    For a tree known only through a manifest plus the files fetched as data (stage 2 reads a
    pull request through the API): the other files keep their recorded snippets and pairs, so
    only the files read are extracted and aligned again.
    """
    selected = {rel: data for rel, data in read.items() if config.selects(rel)}
    fetched = {rel: data for rel, data in selected.items() if isinstance(data, bytes)}
    skipped = [data for data in selected.values() if isinstance(data, Notice)]
    fresh = inventory_of(fetched, config)
    gone = set(read)
    kept = [s for s in recorded.snippets if s.file not in gone]
    files = {s.file for s in kept} | set(fetched) | {notice.file for notice in skipped}
    files.update(other for file, other in recorded.counterparts if other and other not in gone and file not in gone)
    notices = [*fresh.notices, *skipped]
    return pair_up([*kept, *fresh.snippets], files, config, notices, settled=_settled_pairs(recorded, gone))
