"""Stage 2 reads a pull request as data: its head commit, exactly as named, and what it touched.

The head commit's listing says what is there (path, mode, size, blob); within the archive
bounds its archive brings every byte in one download, and the whole head tree is judged as
``check`` judges a checkout, code check included. Past those bounds the files are read one
blob at a time: the pages the PR touched, those whose records its manifest changed, every
page when the base has no usable manifest to trust; the code check is left out and the
comment says why. The PR's file list only says what the PR touched (the comment's scope); it
is not tied to a commit, so nothing that decides freshness is taken from it.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from docsnippets.config import Config
from docsnippets.constants import GITHUB_FILES_CAP
from docsnippets.github.archive import ArchiveBounds, ArchiveError, read_archive
from docsnippets.github.commit import GitHubCommit
from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.github.listing import CommitListing
from docsnippets.github.settings import ActionError, Settings, bound_hit
from docsnippets.github.stage1 import Problems, PullRequest, base_of, both_names
from docsnippets.judge import Base, Case, Judgement, Scope, judge
from docsnippets.judge.inventory import with_counterparts
from docsnippets.manifest import build as mf
from docsnippets.snippets.extract import may_contain_snippet
from docsnippets.snippets.grammar import GrammarError
from docsnippets.snippets.records import Inventory
from docsnippets.work import OverBudget


class Undecided(Exception):
    """Stage 2 cannot judge this PR at all (too large for its budget or for GitHub's lists, its
    manifest unreadable, its archive not the commit it claims to be): an ``error`` status and
    a comment say why; exit 2."""


@dataclass(frozen=True)
class Fetched:
    """The PR as read through the API at its head commit, ready to be judged."""

    case: Case
    code_skipped: str | None  # why the code check did not run (the head was read file by file)


def read_and_judge(
    client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems, head_repo: str | None
) -> tuple[Judgement, str | None]:
    """The PR judged, and why the code check did not run (None when it did). Reading a file
    past the archive's bounds costs a request, so the judging is within the reading budget."""
    try:
        fetched = _fetch(client, settings, config, pr, problems, head_repo)
        return judge(fetched.case), fetched.code_skipped
    except mf.ManifestError as exc:
        raise Undecided(str(exc)) from None
    except OverBudget as exc:
        raise Undecided(f"PR too large for stage 2: {bound_hit(exc)}") from None
    except GrammarError as exc:  # the declared Python could not judge a body of the PR
        raise Undecided(str(exc)) from None
    except ArchiveError as exc:
        raise Undecided(f"the archive of the PR's head {pr.head_sha[:12]} cannot be used: {exc}") from None
    except GitHubError as exc:
        if exc.kind == ErrorKind.BUDGET:
            raise Undecided(
                f"PR too large for stage 2: reading it takes more than {client.budget.limit} API requests "
                "(DOCSNIPPETS_REQUEST_BUDGET)"
            ) from None
        raise ActionError(f"{exc}; stage 2 cannot judge the PR without it") from None


def _fetch(
    client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems, head_repo: str | None
) -> Fetched:
    files = client.changed_files(pr.number)
    listing = client.listing(pr.head_sha)
    if listing.truncated:
        raise Undecided(f"PR too large for stage 2: GitHub lists only part of the tree of {pr.head_sha[:12]}")
    # What the PR's list says exists at its head: a copy keeps its source; a rename's old
    # name and a removed file are gone.
    listed = {f.filename for f in files if f.status != "removed"}
    changed = tuple(both_names(files)) if len(files) < GITHUB_FILES_CAP else None
    bounds = ArchiveBounds(settings.archive_max_bytes, settings.archive_max_members)
    archived, why = _archive(client, listing, config, settings, bounds, head_repo)
    head = GitHubCommit(listing, client.blob, archived=archived, listed=listed, kept=pages_kept(config))
    manifest = mf.read_from(head, settings.manifest, f"{settings.manifest} at the PR's head {pr.head_sha[:12]}")
    base = base_of(client, settings, config, pr, problems)
    common = {"changed": changed, "base": base, "strict_lines": settings.strict_lines, "limits": settings.limits()}
    if archived is not None:
        return Fetched(Case(head, config, manifest, **common), None)
    if changed is None:
        raise Undecided(f"PR too large for stage 2: {len(files)} changed files (GitHub's cap), and {why}")
    base_listing = client.listing(pr.base_sha)
    if base_listing.truncated:
        raise Undecided(f"PR too large for stage 2: GitHub lists only part of the tree of {pr.base_sha[:12]}")
    trusted = base is not None and not base.missing
    reread = _differing(listing, base_listing, config)
    if trusted and manifest is not None and _entry_changed(listing, base_listing, settings.manifest):
        reread |= _suspects(mf.to_inventory(manifest), base)
    # Without a base manifest to trust, nothing the PR's manifest records is believed unread.
    scope = Scope.CHANGED if trusted else Scope.WHOLE
    case = Case(head, config, manifest, scope=scope, reread=frozenset(reread), references=False, **common)
    return Fetched(case, f"the snippets' imports were not checked against the code here: {why}")


def pages_kept(config: Config) -> Callable[[bytes], bool]:
    """Which pages a head commit keeps once read: those that may hold a snippet (read again
    by the code check); the others are let go."""
    return lambda data: may_contain_snippet(data, config)


def _archive(
    client: Any,
    listing: CommitListing,
    config: Config,
    settings: Settings,
    bounds: ArchiveBounds,
    head_repo: str | None,
) -> tuple[dict[str, bytes] | None, str]:
    """The wanted files of the head as its archive holds them; None and why when it is not read."""
    if not bounds.fits(listing):
        return None, (
            f"the head commit ({len(listing.entries)} paths) is larger than the archive bounds "
            "(DOCSNIPPETS_ARCHIVE_MAX_BYTES, DOCSNIPPETS_ARCHIVE_MAX_MEMBERS), so it was read file by file"
        )

    def wanted(path: str) -> bool:
        return path == settings.manifest or path.endswith(".py") or config.selects(path)

    where = [None] if head_repo is None or head_repo == settings.repository else [None, head_repo]
    failure: GitHubError | None = None
    for repository in where:
        try:
            return read_archive(client.archive(listing.sha, repository), listing, wanted, bounds), ""
        except GitHubError as exc:
            if exc.kind == ErrorKind.BUDGET:
                raise
            failure = exc  # a fork's head may be served by the fork only: ask it next
            if exc.kind != ErrorKind.NOT_FOUND:
                break
    return None, f"the head commit's archive could not be downloaded ({failure}), so it was read file by file"


def _differing(head: CommitListing, base: CommitListing, config: Config) -> set[str]:
    """The pages the base and head commits hold differently, and their counterparts.

    The PR's file list is not tied to a commit: a force-push away and back while it is read
    would hand over another head's list, and a file left off it would never be judged. The two
    listings are read by SHA, so what they disagree on is read at the head whatever the list says.
    """
    out: set[str] = set()
    for path in set(head.entries) | set(base.entries):
        h, b = head.entries.get(path), base.entries.get(path)
        if h is not None and h.type == "tree":
            continue
        if config.selects(path) and (h is None or b is None or (h.mode, h.sha) != (b.mode, b.sha)):
            out.add(path)
    return with_counterparts(out, config)


def _entry_changed(head: CommitListing, base: CommitListing, path: str) -> bool:
    """Whether the two commits hold ``path`` differently: the trees say, not the PR's list."""
    h, b = head.entries.get(path), base.entries.get(path)
    return (h.mode, h.sha) != (b.mode, b.sha) if h is not None and b is not None else h is not b


def _records(inventory: Inventory) -> dict[str, tuple[Any, ...]]:
    """Per file: its recorded snippets, counterpart and pair relations, to compare two manifests."""
    out: dict[str, list[Any]] = {}
    for snippet in inventory.snippets:
        out.setdefault(snippet.file, []).append(snippet)
    for file, other in inventory.counterparts:
        out.setdefault(file, []).append(("counterpart", other))
    for pair in inventory.pairs:
        en, zh = inventory.snippets[pair.source], inventory.snippets[pair.translation]
        for file in {en.file, zh.file}:
            out.setdefault(file, []).append(("pair", en.key, zh.key, pair.relation))
    return {file: tuple(items) for file, items in out.items()}


def _suspects(recorded: Inventory, base: Base) -> set[str]:
    """Files whose records in the PR's own manifest are not the base's.

    The PR's manifest is PR content: when the PR edits it, an entry for a file the PR did not
    change could claim anything. Those files are read too (those the head does not hold cost
    nothing), so every record the verdict relies on is either the base branch's or checked
    against the file itself.
    """
    mine, theirs = _records(recorded), _records(base.inventory)
    return {file for file in set(mine) | set(theirs) if mine.get(file) != theirs.get(file)}
