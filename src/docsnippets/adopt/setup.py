"""``docsnippets init``: everything a repository needs to adopt docsnippets, in one run.

Each piece is a step with an outcome, decided before anything is written, so that
``--dry-run`` shows exactly what a real run would do. A file that exists is never replaced
without ``--force``: the user's own workflow or config is worth more than ours. Running it
twice changes nothing the second time, because every step first compares with what is there.
"""

from __future__ import annotations

from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import TYPE_CHECKING

from docsnippets.adopt import evidence, ignores
from docsnippets.adopt.pending import Pending, pending
from docsnippets.adopt.permalinks import Permalinks, permalinks
from docsnippets.adopt.workflows import workflow_files
from docsnippets.config import Config, from_mapping
from docsnippets.configfile import load as load_config
from docsnippets.constants import CONFIG_FILENAMES, DEFAULT_MANIFEST
from docsnippets.fileio import NotRegularFile, read_regular, write_atomic
from docsnippets.judge.inventory import whole
from docsnippets.manifest import build as mf
from docsnippets.snippets.languages import GroupLayout, language_of_text, recognise_groups, translations_yaml
from docsnippets.snippets.layouts import MIN_PAIRS, Layout, describe, missing_rules, recognise, rules_yaml
from docsnippets.snippets.records import Inventory
from docsnippets.sources import SourceError
from docsnippets.sources.worktree import WorkTree, is_git_root, origin_repository
from docsnippets.update import update
from docsnippets.words import counted, plural

if TYPE_CHECKING:
    import subprocess

GITATTRIBUTES = ".gitattributes"
MERGE_LINE = f"{DEFAULT_MANIFEST} merge=docsnippets"
DRIVER_KEY = "merge.docsnippets.driver"
DRIVER = "docsnippets merge-driver %O %A %B"


class Outcome(StrEnum):
    WROTE = "wrote"
    APPENDED = "added a line to"
    SET = "set"
    KEPT = "left alone"
    UNCHANGED = "unchanged"


# What a dry run says instead, for the outcomes that change something.
PLANNED = {Outcome.WROTE: "would write", Outcome.APPENDED: "would add a line to", Outcome.SET: "would set"}


@dataclass(frozen=True)
class Step:
    """One piece of the set-up: a path relative to the root (or a git setting) and what became of it."""

    target: str
    outcome: Outcome
    detail: str = ""

    @property
    def changes(self) -> bool:
        return self.outcome in PLANNED

    @property
    def ours(self) -> bool:
        """A file of the adoption: written by init, or one it would write that is already there
        (not the user's own version of it, nor a git setting)."""
        return not self.target.startswith("git ") and not self.detail.startswith(("differs", "names another"))


@dataclass(frozen=True)
class InitResult:
    steps: tuple[Step, ...]
    layout: str  # what the file names showed, for people
    summary: str  # the manifest's counts, or why there are none
    found: tuple[str, ...] = ()  # said first: nothing to check, or examples none of which pairs
    pending: Pending | None = None  # what is left to do (None on a dry run: nothing was done)


def _read(path: Path, root: Path) -> bytes | None:
    """The file's bytes, None when absent; a directory or special file is an error to report."""
    try:
        return read_regular(path, root=root)
    except (NotRegularFile, IsADirectoryError):
        raise SourceError(f"{path}: not a regular file; move it away and run `docsnippets init` again") from None


def _git(root: Path, *args: str) -> subprocess.CompletedProcess[str]:
    import subprocess  # here, as in sources/worktree.py: most commands never run git

    try:
        return subprocess.run(["git", "-C", str(root), *args], capture_output=True, text=True, timeout=60, check=False)
    except (OSError, subprocess.SubprocessError) as exc:
        raise SourceError(f"{root}: cannot run git ({exc.__class__.__name__}); install git") from None


def _config_text(layouts: tuple[Layout, ...]) -> str:
    # Counts only in the comment: a file name could otherwise end the comment line.
    counts = " and ".join(counted(layout.pairs, "file pair") for layout in layouts)
    order = ", in that order" if len(layouts) > 1 else ""
    files = sum(lay.files for lay in layouts)
    paired = f"{counted(files, 'file')} {plural(files, 'pairs', 'pair')} up"
    return (
        f"# Written by `docsnippets init` from the file names: {paired}\n"
        f"# under these rules ({counts}{order}), a layout the default rules do not describe.\n"
        "# The other settings: docs/cli.md (Configuration) in the docsnippets repository.\n"
        + rules_yaml(lay.rule for lay in layouts)
    )


def _groups_text(layout: GroupLayout) -> str:
    return (
        f"# Written by `docsnippets init` from the file names: {len(layout.languages)} languages, "
        f"{layout.pairs} translated pages\n"
        "# pair with their source page under these templates (`names` may give each language its display\n"
        "# name). The other settings: docs/cli.md (Configuration) in the docsnippets repository.\n"
        + translations_yaml(layout)
    )


def _groups_found(groups: list[GroupLayout], layouts: tuple[Layout, ...]) -> str:
    """What the names show, and the runner-up when another layout fits fewer pages."""
    found = groups[0].describe()
    if layouts and _pairs(layouts) < groups[0].pairs:
        found += f"; chosen over {describe(layouts)}, which pairs fewer"
    elif len(groups) > 1:
        found += f"; chosen over {groups[1].describe()}, which pairs fewer"
    return found


def _groups_win(groups: list[GroupLayout], layouts: tuple[Layout, ...]) -> bool:
    """Whether the layout of several languages is the one to write: it names more than two, or
    it pairs more pages than the two-language rules together (``docs/source`` beside
    ``docs/source_en`` for a whole manual, against two ``README_CN.md`` twins)."""
    return bool(groups) and (len(groups[0].languages) > 2 or groups[0].pairs > _pairs(layouts))


def _pairs(layouts: tuple[Layout, ...]) -> int:
    """The page pairs the two-language layouts found make together."""
    return sum(layout.pairs for layout in layouts)


def _language_of_pages(root: Path, pages: list[str]) -> str | None:
    """The language a source without a code in its paths is written in, from a few of its pages."""
    text = []
    for page in pages[:20]:
        try:
            data = read_regular(root / page, root=root)
        except (OSError, NotRegularFile):
            continue
        text.append((data or b"")[:20_000].decode("utf-8", "replace"))
    return language_of_text("\n".join(text))


def _none_recognised(pages: list[str], config: Config, *, configured: bool) -> str:
    """The layout line when the names settle on none: how many files the rules in force still
    pair (README.md beside README_zh.md), so that it agrees with the manifest's pair count."""
    paired = evidence.paired_files(pages, config)
    found = f"none recognised from the file names (one needs {MIN_PAIRS} file pairs under one rule)"
    if paired:
        found += f"; the {'configured' if configured else 'default'} pair rules pair {counted(paired, 'file')}"
    return found


def _config_step(root: Path, files: list[str], *, force: bool, dry_run: bool) -> tuple[Config, Step | None, str]:
    existing = next((name for name in CONFIG_FILENAMES if (root / name).exists()), None)
    current = load_config(None, root)
    pages = [p for p in files if current.selects(p)]
    layouts = recognise(pages)
    found = describe(layouts) if layouts else _none_recognised(pages, current, configured=existing is not None)
    groups = recognise_groups(pages, lambda sample: _language_of_pages(root, sample))
    why = "the default pair rules do not fit"
    if _groups_win(groups, layouts):
        found = _groups_found(groups, layouts)
        text = _groups_text(groups[0])
        if len(groups[0].languages) > 2:
            why = f"{len(groups[0].languages)} languages: the default pair rules name two"
    elif not missing_rules(layouts, Config().pair_rules):
        if layouts:
            found += "; the default pair rules describe it"
        return current, Step(existing, Outcome.KEPT, "exists") if existing else None, found
    else:
        text = _config_text(layouts)
    if existing is not None and not force:
        return current, Step(existing, Outcome.KEPT, "exists; --force replaces it"), found
    import yaml  # here: only a repository that needs a config pays for it

    name = existing or CONFIG_FILENAMES[0]
    config = from_mapping(yaml.safe_load(text), name)
    if _read(root / name, root) == text.encode("utf-8"):
        return config, Step(name, Outcome.UNCHANGED), found
    if not dry_run:
        write_atomic(root / name, text, root=root)
    return config, Step(name, Outcome.WROTE, why), found


def _manifest_step(root: Path, config: Config, *, force: bool, dry_run: bool) -> tuple[Step, Inventory]:
    path = root / DEFAULT_MANIFEST
    if path.exists() and not force:
        inventory, _ = whole(WorkTree(root), config)
        return Step(DEFAULT_MANIFEST, Outcome.KEPT, "exists; `docsnippets update` refreshes it"), inventory
    links: Permalinks = permalinks(root, config)
    if dry_run:
        inventory, _ = whole(WorkTree(root), config)
        written = True
    else:
        result = update(
            WorkTree(root),
            config,
            path,
            repository=links.repository,
            commit=links.commit,
            force=force,
            detect=lambda: origin_repository(root, config.server_url),
        )
        inventory, written = result.inventory, result.written
    s = mf.summarize(inventory)
    summary = (
        f"{counted(s['fences'], 'snippet')} in {counted(s['files'], 'file')}, {counted(s['pairs'], 'pair')}; "
        f"{links.describe()}"
    )
    return Step(DEFAULT_MANIFEST, Outcome.WROTE if written else Outcome.UNCHANGED, summary), inventory


def _file_step(root: Path, rel: str, text: str, *, force: bool, dry_run: bool) -> Step:
    old = _read(root / rel, root)
    if old == text.encode("utf-8"):
        return Step(rel, Outcome.UNCHANGED)
    if old is not None and not force:
        return Step(rel, Outcome.KEPT, "differs from the recommended file; --force replaces it")
    if not dry_run:
        write_atomic(root / rel, text, root=root)
    return Step(rel, Outcome.WROTE)


def _attributes_step(root: Path, *, force: bool, dry_run: bool) -> Step:
    old = (_read(root / GITATTRIBUTES, root) or b"").decode("utf-8", "surrogateescape")
    ours = [line.split() for line in old.splitlines() if line.split()[:1] == [DEFAULT_MANIFEST]]
    if MERGE_LINE.split() in ours:
        return Step(GITATTRIBUTES, Outcome.UNCHANGED)
    if any(word.startswith("merge") for fields in ours for word in fields) and not force:
        return Step(GITATTRIBUTES, Outcome.KEPT, f"names another merge for {DEFAULT_MANIFEST}; --force adds ours")
    if not dry_run:
        text = old + ("\n" if old and not old.endswith("\n") else "") + MERGE_LINE + "\n"
        write_atomic(root / GITATTRIBUTES, text.encode("utf-8", "surrogateescape"), root=root)
    return Step(GITATTRIBUTES, Outcome.APPENDED if old else Outcome.WROTE, MERGE_LINE)


def _driver_step(root: Path, *, force: bool, dry_run: bool) -> Step:
    target = f"git config {DRIVER_KEY}"
    current = _git(root, "config", "--local", "--get", DRIVER_KEY)
    value = current.stdout.strip() if current.returncode == 0 else None
    if value == DRIVER:
        return Step(target, Outcome.UNCHANGED)
    if value is not None and not force:
        return Step(target, Outcome.KEPT, "set to another driver; --force replaces it")
    if not dry_run:
        done = _git(root, "config", "--local", DRIVER_KEY, DRIVER)
        if done.returncode != 0:
            raise SourceError(f"{root}: git config failed ({done.stderr.strip()}); set {DRIVER_KEY} by hand")
    return Step(target, Outcome.SET, f"{DRIVER}, in this clone only")


def _ignore_steps(root: Path, paths: list[str], *, dry_run: bool) -> list[Step]:
    """The ignore-file lines that let git add what init wrote, one step per file they go in."""
    steps = []
    for home, lines in ignores.plan(root, paths).negate.items():
        old = _read(root / home, root)
        if not dry_run:
            write_atomic(root / home, ignores.appended(old, lines), root=root)
        steps.append(Step(home, Outcome.APPENDED if old else Outcome.WROTE, ", ".join(lines)))
    return steps


def init(root: Path, *, uses: str, force: bool = False, dry_run: bool = False) -> InitResult:
    """Set up docsnippets at ``root``, the top of a git work tree."""
    if not is_git_root(root):
        import shutil  # here: only a failed check needs to tell why

        if shutil.which("git") is None:  # is_git_root cannot tell "no git" from "no repository"
            raise SourceError(f"{root}: git is not installed; install git and run `docsnippets init` again")
        raise SourceError(
            f"{root}: not the top of a git work tree; run `docsnippets init` inside a git repository "
            "(or pass its top to --root)"
        )
    files = WorkTree(root).entries()
    config, config_step, layout = _config_step(root, files, force=force, dry_run=dry_run)
    manifest_step, inventory = _manifest_step(root, config, force=force, dry_run=dry_run)
    markdown = [p for p in files if config.selects(p)]
    zero = evidence.nothing_to_check(inventory, len(markdown))
    found = (zero,) if zero else evidence.unpaired(inventory, markdown, config)
    steps = [s for s in (config_step, manifest_step) if s is not None]
    steps += [_file_step(root, rel, text, force=force, dry_run=dry_run) for rel, text in workflow_files(uses).items()]
    steps += [_attributes_step(root, force=force, dry_run=dry_run)]
    adoption = [s.target for s in steps if s.ours]
    steps += _ignore_steps(root, adoption, dry_run=dry_run)
    steps += [_driver_step(root, force=force, dry_run=dry_run)]
    if dry_run:
        return InitResult(tuple(steps), layout, manifest_step.detail, found)
    return InitResult(tuple(steps), layout, manifest_step.detail, found, pending(root, adoption))
