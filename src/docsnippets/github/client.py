"""The only module that talks to GitHub (through PyGithub): PR files, base files, sticky comment.

It is imported lazily by the Action so the CLI never needs PyGithub. Every failure leaves as a
`GitHubError` with a one-line, token-free message and a `kind` the caller can branch on (a fork
PR's read-only token should degrade the run, not crash it). Requests are kept to a minimum:
lazy PyGithub objects mean no repository or pull-request GETs, only the lists, one contents GET
and the writes.
"""

from __future__ import annotations

import base64
import logging
import math
import re
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from types import TracebackType
from typing import Any, Final
from urllib.parse import urlsplit

import urllib3
from github import Auth, Github, GithubException, GithubRetry
from github.ContentFile import ContentFile
from github.Issue import Issue
from github.IssueComment import IssueComment
from urllib3.exceptions import MaxRetryError, ResponseError

from docsnippets.constants import GITHUB_COMMENT_LIMIT
from docsnippets.github.errors import ErrorKind, GitHubError, Translator

__all__ = [
    "COMMENT_MARKER",
    "ChangedFile",
    "CommentAction",
    "CommentOutcome",
    "ErrorKind",
    "GitHubError",
    "OpenPull",
    "PullRequestClient",
    "with_marker",
]

COMMENT_MARKER: Final = "<!-- docsnippets:sticky-comment -->"

_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_log = logging.getLogger(__name__)


#: GitHub refuses a commit status description longer than this.
STATUS_DESCRIPTION_LIMIT: Final = 140


@dataclass(frozen=True)
class OpenPull:
    """An open pull request as the PR list shows it: enough to check it is the one wanted."""

    number: int
    head_sha: str
    base_sha: str


@dataclass(frozen=True)
class ChangedFile:
    """A file touched by the PR; `previous_filename` is set for renames (and copies)."""

    filename: str
    status: str  # added | modified | removed | renamed | copied | changed | unchanged
    previous_filename: str | None


class CommentAction(StrEnum):
    """What upsert_comment did to the sticky comment."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"  # there was none, and ``create`` was false


@dataclass(frozen=True)
class CommentOutcome:
    """What upsert_comment did, so the Action can report it."""

    action: CommentAction
    comment_id: int | None
    url: str | None
    deleted_duplicates: int


def with_marker(body: str) -> str:
    """Return `body` carrying COMMENT_MARKER on a line of its own (appended when missing)."""
    if _has_marker(body):
        return body
    text = body.rstrip()
    return f"{text}\n\n{COMMENT_MARKER}\n" if text else f"{COMMENT_MARKER}\n"


def _has_marker(body: str | None) -> bool:
    # Own-line match: a human quoting our comment ("> <!-- ... -->") is not mistaken for it.
    if not body:
        return False
    return any(line.strip() == COMMENT_MARKER for line in body.splitlines())


def _same_body(left: str | None, right: str) -> bool:
    # GitHub may normalise line endings / trailing whitespace; neither is worth a PATCH.
    def norm(text: str) -> str:
        return text.replace("\r\n", "\n").rstrip()

    return left is not None and norm(left) == norm(right)


class _Retry(GithubRetry):
    """PyGithub's retry policy with a cap on how long a Retry-After may make the run wait."""

    def increment(  # type: ignore[override]
        self,
        method: str | None = None,
        url: str | None = None,
        response: Any = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: TracebackType | None = None,
    ) -> urllib3.Retry:
        if response is not None and self.max_rate_limit_wait is not None:
            try:
                wait = self.get_retry_after(response)
            except urllib3.exceptions.InvalidHeader:
                wait = None  # unparsable Retry-After: fall back to the backoff
            if wait is not None and wait > self.max_rate_limit_wait:
                # Waiting longer than the Action is willing to is pointless: stop now and let
                # the response surface (raise_on_status=False) as a rate-limit error.
                raise MaxRetryError(_pool, url, ResponseError(f"Retry-After {wait:g}s too long"))
        return super().increment(method, url, response, error, _pool, _stacktrace)


@dataclass(frozen=True)
class _Comment:
    """The parts of an IssueComment we use, read once so no attribute triggers a GET."""

    id: int
    body: str
    html_url: str | None
    obj: IssueComment


class PullRequestClient:
    """Read a PR's changed files and base files, and keep one sticky comment up to date.

    Not thread-safe; use one client per thread.
    """

    def __init__(
        self,
        *,
        token: str,
        api_url: str,
        repository: str,
        timeout: float = 20.0,
        retries: int = 4,
        backoff: float = 1.0,
        per_page: int = 100,
        max_rate_limit_wait: float = 60.0,
        seconds_between_requests: float | None = 0.25,
        seconds_between_writes: float | None = 1.0,
    ) -> None:
        if not token:
            raise GitHubError(ErrorKind.FAILED, "no GitHub token was given")
        if not _REPOSITORY.fullmatch(repository or ""):
            raise GitHubError(ErrorKind.FAILED, f"repository must be 'owner/name', got {repository!r}")
        parts = urlsplit(api_url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GitHubError(ErrorKind.FAILED, f"api_url must be an http(s) URL, got {api_url!r}")
        self._timeout = max(1, math.ceil(timeout))  # PyGithub insists on an int
        self._errors = Translator(token=token, host=parts.hostname, timeout=self._timeout)
        retry = _Retry(
            total=max(0, retries),
            backoff_factor=max(0.0, backoff),
            # 403 is added by GithubRetry (retried only when it is a rate limit); 429 is
            # GitHub's other rate-limit answer.
            status_forcelist=[429, *range(500, 600)],
            raise_on_status=False,  # the last error response reaches PyGithub with its body
            respect_retry_after_header=True,
            secondary_rate_wait=min(60.0, max_rate_limit_wait),
            max_rate_limit_wait=max_rate_limit_wait,
        )
        self._github = Github(
            auth=Auth.Token(token),
            base_url=api_url.rstrip("/"),
            timeout=self._timeout,
            user_agent="docsnippets (PyGithub)",
            per_page=max(1, min(100, per_page)),
            retry=retry,
            lazy=True,  # no GET for the repository, the PR or the issue: we know their URLs
            seconds_between_requests=seconds_between_requests,
            seconds_between_writes=seconds_between_writes,
        )
        self._repo = self._github.get_repo(repository)

    # -- lifecycle --------------------------------------------------------------------------

    def close(self) -> None:
        self._github.close()

    def __enter__(self) -> PullRequestClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- reads ------------------------------------------------------------------------------

    def changed_files(self, number: int) -> list[ChangedFile]:
        """All files of PR `number`, every page (GitHub itself stops listing at 3000)."""
        with self._errors.guard("listing the PR's changed files"):
            return [
                ChangedFile(f.filename, f.status, f.previous_filename or None)
                for f in self._repo.get_pull(int(number)).get_files()
            ]

    def file_at(self, path: str, ref: str) -> str | None:
        """Text of `path` at commit `ref`, or None when GitHub answers 404 there."""
        data = self.bytes_at(path, ref)
        if data is None:
            return None
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise GitHubError(ErrorKind.FAILED, f"reading {path} at {ref[:12]} failed: it is not UTF-8 text") from None

    def bytes_at(self, path: str, ref: str) -> bytes | None:
        """Content of `path` at commit `ref`, or None when GitHub answers 404 there.

        A 404 also covers a ref or repository the token cannot see; GitHub does not tell
        them apart. A fork PR's head commit is readable here, in the base repository.
        """
        clean = path.strip().lstrip("/")
        if not clean or any(part in ("", ".", "..") for part in clean.split("/")):
            raise GitHubError(ErrorKind.FAILED, f"not a repository file path: {path!r}")
        if not ref:
            raise GitHubError(ErrorKind.FAILED, f"no commit given to read {clean} at")
        operation = f"reading {clean} at {ref[:12]}"
        with self._errors.guard(operation):
            try:
                found = self._repo.get_contents(clean, ref=ref)
            except GithubException as exc:
                if exc.status == 404:
                    return None
                raise
            if isinstance(found, list) or found.type != "file":
                raise GitHubError(ErrorKind.FAILED, f"{operation} failed: it is not a regular file")
            return self._file_bytes(found)

    def open_pulls(self, owner: str, branch: str) -> list[OpenPull]:
        """The open PRs whose head is ``owner:branch`` (a fork's branch included), every page."""
        with self._errors.guard(f"listing the open PRs from {owner}:{branch}"):
            return [
                OpenPull(p.number, p.head.sha, p.base.sha)
                for p in self._repo.get_pulls(state="open", head=f"{owner}:{branch}")
            ]

    def set_status(self, sha: str, state: str, *, context: str, description: str, target_url: str | None) -> None:
        """Set the commit status ``context`` on ``sha`` (one POST; GitHub keeps the newest)."""
        payload = {"state": state, "context": context, "description": description[:STATUS_DESCRIPTION_LIMIT]}
        if target_url:
            payload["target_url"] = target_url
        with self._errors.guard(f"setting the commit status {context} on {sha[:12]}"):
            # The Commit object would GET the commit to learn the SHA we already have.
            self._github.requester.requestJsonAndCheck("POST", f"{self._repo.url}/statuses/{sha}", input=payload)

    def _file_bytes(self, found: ContentFile) -> bytes:
        if found.encoding == "base64":
            return found.decoded_content
        # Files over 1 MB come without content ("encoding": "none"); the blob API has them.
        blob = self._repo.get_git_blob(found.sha)
        if blob.encoding == "base64":
            return base64.b64decode(blob.content)
        return (blob.content or "").encode("utf-8")

    # -- the sticky comment -----------------------------------------------------------------

    def upsert_comment(self, number: int, body: str, *, create: bool) -> CommentOutcome:
        """Make the PR carry exactly one marker comment with `body` (creating it only if
        `create`), cleaning up duplicates left by races or earlier bugs."""
        body = with_marker(body)
        if len(body) > GITHUB_COMMENT_LIMIT:
            raise GitHubError(
                ErrorKind.TOO_LARGE,
                f"the PR comment is {len(body)} characters; GitHub allows {GITHUB_COMMENT_LIMIT}",
            )
        issue = self._repo.get_issue(int(number))  # lazy: no request
        return self._upsert(issue, body, create=create, attempts=2)

    def _upsert(self, issue: Issue, body: str, *, create: bool, attempts: int) -> CommentOutcome:
        existing = self._marker_comments(issue)
        if not existing:
            if not create:
                return CommentOutcome(CommentAction.SKIPPED, None, None, 0)
            return self._create(issue, body)
        newest = existing[-1]
        if _same_body(newest.body, body):
            keep, action = newest, CommentAction.UNCHANGED
        else:
            keep, action = existing[0], CommentAction.UPDATED
            if not self._edit(keep, body):
                # Deleted under our feet (a concurrent run's cleanup): start over once.
                if attempts > 1:
                    return self._upsert(issue, body, create=create, attempts=attempts - 1)
                raise GitHubError(ErrorKind.NOT_FOUND, "updating the PR comment failed: 404 Not Found")
        deleted = self._delete(c for c in existing if c.id != keep.id)
        return CommentOutcome(action, keep.id, keep.html_url, deleted)

    def _create(self, issue: Issue, body: str) -> CommentOutcome:
        with self._errors.guard("posting the PR comment"):
            mine = self._record(issue.create_comment(body))
        # Two runs may have posted at once: list again, keep the oldest, delete the rest.
        # Every racer sees its own comment and agrees on the lowest id, so one survives.
        seen = {c.id: c for c in self._marker_comments(issue)}
        seen.setdefault(mine.id, mine)
        if len(seen) == 1:
            return CommentOutcome(CommentAction.CREATED, mine.id, mine.html_url, 0)
        survivor, *others = sorted(seen.values(), key=lambda c: c.id)
        deleted = self._delete(others)
        if survivor.id == mine.id:
            return CommentOutcome(CommentAction.CREATED, mine.id, mine.html_url, deleted)
        if _same_body(survivor.body, body):
            return CommentOutcome(CommentAction.UNCHANGED, survivor.id, survivor.html_url, deleted)
        if not self._edit(survivor, body):
            raise GitHubError(ErrorKind.NOT_FOUND, "updating the PR comment failed: 404 Not Found")
        return CommentOutcome(CommentAction.UPDATED, survivor.id, survivor.html_url, deleted)

    def _marker_comments(self, issue: Issue) -> list[_Comment]:
        with self._errors.guard("listing the PR comments"):
            found = [self._record(c) for c in issue.get_comments()]
        return sorted((c for c in found if _has_marker(c.body)), key=lambda c: c.id)

    @staticmethod
    def _record(comment: IssueComment) -> _Comment:
        return _Comment(comment.id, comment.body, comment.html_url, comment)

    def _edit(self, comment: _Comment, body: str) -> bool:
        """PATCH the comment; False when it no longer exists."""
        with self._errors.guard("updating the PR comment"):
            try:
                comment.obj.edit(body)
            except GithubException as exc:
                if exc.status == 404:
                    return False
                raise
        return True

    def _delete(self, comments: Iterable[_Comment]) -> int:
        """Delete duplicates; failures are logged, not raised: the sticky comment is done."""
        deleted = 0
        for comment in comments:
            try:
                with self._errors.guard("deleting a duplicate PR comment"):
                    comment.obj.delete()
                deleted += 1
            except GitHubError as exc:
                if exc.kind != ErrorKind.NOT_FOUND:  # someone else deleted it: fine
                    _log.warning("%s (comment %d)", exc, comment.id)
        return deleted
