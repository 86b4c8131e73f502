"""Stage 1 on a pull request: the changed paths, the check, the base comparison, the comment.

Each step is a function; the API failures a step can survive become warnings and an error
in the verdict (a run that could not see everything never turns green), never a crash.
PyGithub is imported only here and in stage 2 (through ``github_pr``), so the CLI and push
checks stay light.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsnippets.config import Config
from docsnippets.constants import GITHUB_FILES_CAP, CommentMode, ExitCode
from docsnippets.github.outcome import Outcome, finish, fix_command, has_changes, links
from docsnippets.github.settings import ActionError, Settings, bound_hit
from docsnippets.github.workflow import LogStream
from docsnippets.judge import Base, Case, judge
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.report import render
from docsnippets.report.markup import plain
from docsnippets.snippets.records import Inventory
from docsnippets.sources.worktree import WorkTree
from docsnippets.work import OverBudget

ClientFactory = Callable[[Settings], Any]
SMALL_COMMENT = 8_000  # what a comment GitHub refused as too large is cut down to


@dataclass(frozen=True)
class Checkout:
    """The checked-out tree the run reads: its root, its config, the manifest in it."""

    root: Path
    config: Config
    manifest_path: Path
    source: WorkTree


@dataclass(frozen=True)
class PullRequest:
    number: int
    base_sha: str
    head_sha: str


class Problems:
    """The API failures of one run: each is printed as a warning when it happens and joined
    into the verdict's error at the end."""

    def __init__(self, out: LogStream) -> None:
        self.out = out
        self.errors: list[str] = []

    def warn(self, message: str) -> None:
        self.out.annotate("warning", message)

    def failed(self, error: Exception, consequence: str) -> None:
        self.errors.append(str(error))
        self.warn(f"{error}; {consequence}")

    @property
    def error(self) -> str | None:
        return "; ".join(self.errors) or None


def default_client(settings: Settings) -> Any:
    from docsnippets.github.client import PullRequestClient

    return PullRequestClient(
        token=settings.token,
        api_url=settings.api_url,
        repository=settings.repository,
        timeout=settings.http_timeout,
        retries=settings.http_retries,
        backoff=settings.http_backoff,
        per_page=settings.per_page,
        seconds_between_requests=settings.http_pace or None,
        seconds_between_writes=settings.http_pace * 4 or None,
        request_budget=settings.request_budget,
        comment_author=settings.comment_author,
    )


def read_event(settings: Settings) -> dict[str, Any]:
    if settings.event_path is None:
        raise ActionError("GITHUB_EVENT_PATH is not set; run docsnippets as a GitHub Action step")
    try:
        data = json.loads(settings.event_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ActionError(f"{settings.event_path}: event file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ActionError(f"{settings.event_path}: unreadable event file ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise ActionError(f"{settings.event_path}: the event is not a JSON object")
    return data


def pull_request(event: dict[str, Any], settings: Settings) -> PullRequest:
    pr = event.get("pull_request")
    try:
        return PullRequest(int(pr["number"]), str(pr["base"]["sha"]), str(pr["head"]["sha"]))
    except (TypeError, KeyError, ValueError):
        raise ActionError(
            f"{settings.event_path}: no pull_request number/base/head in the event; "
            "run this action on pull_request events"
        ) from None


def require_token(settings: Settings) -> None:
    if not settings.token:
        raise ActionError("no GitHub token: set the github-token input (default: ${{ github.token }})")


def run_pr(settings: Settings, checkout: Checkout, out: LogStream, client_factory: ClientFactory) -> int:
    pr = pull_request(read_event(settings), settings)
    require_token(settings)
    client = client_factory(settings)
    problems = Problems(out)
    changed = changed_paths(client, pr, problems)
    case = Case(
        checkout.source,
        checkout.config,
        store.load(checkout.manifest_path, root=checkout.root),
        changed=tuple(changed) if changed is not None else None,
        base=base_of(client, settings, checkout.config, pr, problems),
        strict_lines=settings.strict_lines,
        limits=settings.limits(),
    )
    try:
        outcome = Outcome(judge(case), problems.error)
        ctx = comment_context(settings, checkout, pr.head_sha, outcome)
        outcome = post_comment(client, settings, pr.number, outcome, ctx, out, forbidden=_fork_note)
    except OverBudget as exc:
        reason = f"PR too large to judge: {bound_hit(exc)}"
        out.annotate("error", reason)
        comment_undecided(client, settings, pr.number, reason, out)
        out.line(f"docsnippets: could not decide: {reason}; exit 2")
        return int(ExitCode.ERROR)
    return finish(settings, outcome, ctx, out)


def comment_undecided(client: Any, settings: Settings, number: int, reason: str, out: LogStream) -> None:
    """The sticky comment of a run that cannot judge the PR at all: it says why."""
    from docsnippets.github.client import GitHubError

    if settings.comment == CommentMode.NEVER:
        return
    try:
        done = client.upsert_comment(number, f"### ❌ docsnippets: could not decide — {plain(reason)}\n", create=True)
        out.line(f"docsnippets: PR comment {done.action}")
    except GitHubError as exc:
        out.annotate("warning", str(exc))


def changed_paths(client: Any, pr: PullRequest, problems: Problems) -> list[str] | None:
    """The PR's paths (both names of a rename), or None when the list is unknown or may be cut."""
    from docsnippets.github.client import GitHubError

    try:
        files = client.changed_files(pr.number)
    except GitHubError as exc:
        problems.failed(exc, "checking the whole tree instead")
        return None
    if len(files) >= GITHUB_FILES_CAP:
        # GitHub lists at most 3,000 files of a PR: a longer list may hide changed Markdown.
        problems.out.annotate("notice", f"{len(files)} changed files (GitHub's cap); checking the whole tree")
        return None
    return both_names(files)


def both_names(files: Sequence[Any]) -> list[str]:
    """Every path a PR's file list names: a rename changes its old path as well as its new one."""
    return sorted({n for f in files for n in (f.filename, f.previous_filename) if n})


def base_of(client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems) -> Base | None:
    """The base manifest as records, to say what this PR adds, removes, changes, moves, and
    which of its findings the base already had (its code read only if that is asked, see
    basecode.py); None when the manifest cannot be read or used (a warning says so)."""
    text, readable = base_text(client, settings, pr, problems)
    if not readable:
        return None
    inventory = base_inventory(text, settings, problems)
    if inventory is None:
        return None
    from docsnippets.github.archive import ArchiveBounds
    from docsnippets.github.basecode import base_code

    bounds = ArchiveBounds(settings.archive_max_bytes, settings.archive_max_members)

    def wanted(path: str) -> bool:
        return path.endswith(".py") or config.selects(path)

    code = base_code(client, pr.base_sha, bounds, wanted, problems.warn)
    return Base(inventory, missing=text is None, code=code)


def base_text(client: Any, settings: Settings, pr: PullRequest, problems: Problems) -> tuple[str | None, bool]:
    """The base manifest's text (None: the base has none) and whether it could be read."""
    from docsnippets.github.client import GitHubError

    try:
        return client.file_at(settings.manifest, pr.base_sha), True
    except GitHubError as exc:
        problems.failed(exc, "the comment will not show what this PR changes")
        return None, False


def base_inventory(text: str | None, settings: Settings, problems: Problems) -> Inventory | None:
    """The base manifest's inventory (empty when the base has none), None when it is unusable."""
    if text is None:
        return Inventory((), (), ())
    try:
        return mf.to_inventory(mf.parse(text, f"{settings.manifest} at the base commit"))
    except mf.ManifestError as exc:
        problems.warn(f"{exc}; the comment will not show what this PR changes")
        return None


def comment_context(settings: Settings, checkout: Checkout, head_sha: str, outcome: Outcome) -> render.CommentContext:
    from docsnippets.github.client import COMMENT_MARKER

    return render.CommentContext(
        marker=COMMENT_MARKER,
        manifest_name=checkout.manifest_path.name,
        manifest_path=settings.manifest,
        links=links(settings, head_sha),
        base_missing=outcome.judgement.base_missing,
        head_manifest_missing=outcome.judgement.manifest_missing,
        changes=outcome.changes,
        fix_command=fix_command(settings),
        verdict=outcome.verdict(settings.fail_on),
        template=template_path(settings),
        root=checkout.root,
        inventory=outcome.judgement.inventory,
        translations=outcome.judgement.translations,
    )


def template_path(settings: Settings) -> Path | None:
    """The repository's own comment template (input ``comment-template``), else the packaged one."""
    return settings.workspace / settings.comment_template if settings.comment_template else None


def _fork_note(error: Exception) -> str:
    return (
        f"{error}. This token cannot comment (a fork PR's token is read-only): the comment comes "
        "from the second workflow (docsnippets-comment.yml, see docs/action.md in the docsnippets repository)"
    )


def post_comment(
    client: Any,
    settings: Settings,
    number: int,
    outcome: Outcome,
    ctx: render.CommentContext,
    out: LogStream,
    *,
    forbidden: Callable[[Exception], str] | None = None,
    extra: str = "",
) -> Outcome:
    """Create or update the sticky comment as ``settings.comment`` asks.

    A refused write (403) is the one line ``forbidden`` makes of it when given (stage 1 on a
    fork); otherwise a failed write is an error of the run, since then nothing on the PR shows
    the verdict.
    """
    from docsnippets.github.client import ErrorKind, GitHubError

    if settings.comment == CommentMode.NEVER:
        return outcome
    freshness = outcome.freshness
    noteworthy = (
        not freshness.fresh
        or bool(freshness.desynchronized)
        or bool(freshness.broken_references)
        or has_changes(outcome.changes)
        or outcome.verdict(settings.fail_on).error is not None  # the author is owed the reason it could not decide
    )
    create = settings.comment == CommentMode.ALWAYS or noteworthy
    try:
        done = _upsert(client, number, lambda budget: render.comment(freshness, ctx, **budget) + extra, create)
    except GitHubError as exc:
        if exc.kind == ErrorKind.FORBIDDEN and forbidden is not None:
            out.annotate("warning", forbidden(exc))
            return outcome
        return outcome.failed(str(exc))
    out.line(f"docsnippets: PR comment {done.action}" + (f": {done.url}" if done.url else ""))
    return outcome


def _upsert(client: Any, number: int, body: Callable[[dict[str, int]], str], create: bool) -> Any:
    from docsnippets.github.client import ErrorKind, GitHubError

    try:
        return client.upsert_comment(number, body({}), create=create)
    except GitHubError as exc:
        if exc.kind != ErrorKind.TOO_LARGE:
            raise
        return client.upsert_comment(number, body({"budget": SMALL_COMMENT}), create=create)
