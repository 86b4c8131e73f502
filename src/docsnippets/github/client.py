"""The only module that builds the GitHub client: PR lists, commits' trees and blobs, the
base manifest, the commit status and the sticky comment.

It is imported lazily by the Action so the CLI never needs PyGithub. Every request goes
through one ``Transport`` (counted against the run's request budget, paged by ``Link``);
every failure leaves as a ``GitHubError`` with a one-line, token-free message and a ``kind``
the caller can branch on (a fork PR's read-only token should degrade the run, not crash it).
"""

from __future__ import annotations

import base64
import binascii
import math
import re
from collections.abc import Iterator
from dataclasses import dataclass
from types import TracebackType
from typing import Any, Final
from urllib.parse import quote, urlsplit

import urllib3
from github import Auth, Github, GithubRetry
from urllib3.exceptions import MaxRetryError, ResponseError

from docsnippets.github.comments import (
    ACTIONS_BOT,
    COMMENT_MARKER,
    CommentAction,
    CommentOutcome,
    StickyComment,
    with_marker,
)
from docsnippets.github.errors import ErrorKind, GitHubError, Translator
from docsnippets.github.listing import CommitListing, parse_listing
from docsnippets.github.transport import DEFAULT_REQUEST_BUDGET, RequestBudget, Transport
from docsnippets.visible import clipped, quoted, visible

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

_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_SHA = re.compile(r"[0-9a-f]{40}")

#: GitHub refuses a commit status description longer than this.
STATUS_DESCRIPTION_LIMIT: Final = 140


@dataclass(frozen=True)
class OpenPull:
    """An open pull request as the PR list shows it: enough to check it is the one wanted."""

    number: int
    head_sha: str
    base_sha: str
    state: str = "open"


@dataclass(frozen=True)
class ChangedFile:
    """A file touched by the PR; `previous_filename` is set for renames (and copies)."""

    filename: str
    status: str  # added | modified | removed | renamed | copied | changed | unchanged
    previous_filename: str | None


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


class PullRequestClient:
    """Read a PR, its commits' files and the base manifest; keep one sticky comment; set the
    commit status. Not thread-safe; use one client per thread."""

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
        request_budget: int = DEFAULT_REQUEST_BUDGET,
        comment_author: str = "",
    ) -> None:
        if not token:
            raise GitHubError(ErrorKind.FAILED, "no GitHub token was given")
        if not _REPOSITORY.fullmatch(repository or ""):
            raise GitHubError(ErrorKind.FAILED, f"repository must be 'owner/name', got {quoted(repository)}")
        parts = urlsplit(api_url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GitHubError(ErrorKind.FAILED, f"api_url must be an http(s) URL, got {quoted(api_url)}")
        self._timeout = max(1, math.ceil(timeout))  # PyGithub insists on an int
        errors = Translator(token=token, host=parts.hostname, timeout=self._timeout)
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
            retry=retry,
            seconds_between_requests=seconds_between_requests,
            seconds_between_writes=seconds_between_writes,
        )
        self._transport = Transport(self._github, errors, RequestBudget(request_budget))
        self._per_page = max(1, min(100, per_page))
        self._repo = f"/repos/{repository}"
        # An installation token (GITHUB_TOKEN is one) cannot ask who it is: it writes as the
        # Actions bot unless told which App it belongs to.
        self._author = comment_author or (ACTIONS_BOT if token.startswith("ghs_") else None)

    @property
    def budget(self) -> RequestBudget:
        return self._transport.budget

    # -- lifecycle --------------------------------------------------------------------------

    def close(self) -> None:
        self._github.close()

    def __enter__(self) -> PullRequestClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    # -- the pull request -------------------------------------------------------------------

    def changed_files(self, number: int) -> list[ChangedFile]:
        """All files of PR `number`, every page (GitHub itself stops listing at 3000)."""
        operation = "listing the PR's changed files"
        url = f"{self._repo}/pulls/{int(number)}/files"
        try:
            return [
                ChangedFile(str(f["filename"]), str(f["status"]), f.get("previous_filename") or None)
                for f in self._transport.pages(operation, url, {"per_page": self._per_page})
            ]
        except (TypeError, KeyError, AttributeError):
            raise GitHubError(ErrorKind.FAILED, f"{operation} failed: an entry without filename or status") from None

    def open_pulls(self, owner: str, branch: str) -> list[OpenPull]:
        """The open PRs whose head is ``owner:branch`` (a fork's branch included), every page."""
        operation = f"listing the open PRs from {owner}:{branch}"
        params = {"state": "open", "head": f"{owner}:{branch}", "per_page": self._per_page}
        return [_pull(p, operation) for p in self._transport.pages(operation, f"{self._repo}/pulls", params)]

    def pull(self, number: int) -> OpenPull:
        """PR `number` as it is now (its head may have moved on since it was listed)."""
        operation = f"reading pull request #{int(number)}"
        _, data = self._transport.request(operation, "GET", f"{self._repo}/pulls/{int(number)}")
        return _pull(data, operation)

    # -- files ------------------------------------------------------------------------------

    def listing(self, sha: str) -> CommitListing:
        """Every path of commit `sha`, as git stores it (one request)."""
        if not _SHA.fullmatch(sha):
            raise GitHubError(ErrorKind.FAILED, f"not a commit SHA: {quoted(sha)}")
        url = f"{self._repo}/git/trees/{sha}"
        _, data = self._transport.request(f"listing the tree of {sha[:12]}", "GET", url, params={"recursive": "1"})
        return parse_listing(data, sha)

    def archive(self, sha: str, repository: str | None = None) -> Iterator[bytes]:
        """The gzipped tar of commit `sha` as chunks (one API request; the download itself, from
        GitHub's archive host, counts against no API limit). ``repository``: where to ask, when
        not this one (a fork's head commit that the base repository does not serve)."""
        if not _SHA.fullmatch(sha):
            raise GitHubError(ErrorKind.FAILED, f"not a commit SHA: {quoted(sha)}")
        repo = self._repo if repository is None else f"/repos/{_checked_repository(repository)}"
        return self._transport.stream(f"downloading the archive of {sha[:12]}", f"{repo}/tarball/{sha}", 1 << 16)

    def blob(self, sha: str) -> bytes:
        """The content of blob `sha`."""
        if not _SHA.fullmatch(sha):
            raise GitHubError(ErrorKind.FAILED, f"not a blob SHA: {quoted(sha)}")
        operation = f"reading blob {sha[:12]}"
        _, data = self._transport.request(operation, "GET", f"{self._repo}/git/blobs/{sha}")
        return _decoded(data, operation)

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
        """Content of `path`, exactly as named, at commit `ref`; None when GitHub answers 404.

        For paths this repository names (the manifest); a PR's files are read through
        ``tree`` and ``blob``, which name nothing but what the commit holds.
        """
        if not path or path != path.strip() or any(part in ("", ".", "..") for part in path.split("/")):
            raise GitHubError(ErrorKind.FAILED, f"not a repository file path: {quoted(path)}")
        if not ref:
            raise GitHubError(ErrorKind.FAILED, f"no commit given to read {path} at")
        operation = f"reading {path} at {ref[:12]}"
        url = f"{self._repo}/contents/{quote(path, safe='/')}"
        try:
            _, found = self._transport.request(operation, "GET", url, params={"ref": ref})
        except GitHubError as exc:
            if exc.kind == ErrorKind.NOT_FOUND:
                return None
            raise
        if not isinstance(found, dict) or found.get("type") != "file":
            raise GitHubError(ErrorKind.FAILED, f"{operation} failed: it is not a regular file")
        if found.get("encoding") == "base64":
            return _decoded(found, operation)
        # Files over 1 MB come without content ("encoding": "none"); the blob API has them.
        return self.blob(str(found.get("sha")))

    # -- writes -----------------------------------------------------------------------------

    def set_status(self, sha: str, state: str, *, context: str, description: str, target_url: str | None) -> None:
        """Set the commit status ``context`` on ``sha`` (one POST; GitHub keeps the newest)."""
        shown = clipped(" ".join(visible(description).split()), STATUS_DESCRIPTION_LIMIT)
        payload = {"state": state, "context": context, "description": shown}
        if target_url:
            payload["target_url"] = target_url
        operation = f"setting the commit status {context} on {sha[:12]}"
        self._transport.request(operation, "POST", f"{self._repo}/statuses/{sha}", body=payload)

    def author(self) -> str:
        """The login this token comments as (asked once, for a token that is no installation's)."""
        if self._author is None:
            _, data = self._transport.request("asking GitHub who the token is", "GET", "/user")
            login = data.get("login") if isinstance(data, dict) else None
            if not isinstance(login, str) or not login:
                raise GitHubError(ErrorKind.FAILED, "asking GitHub who the token is failed: no login in the answer")
            self._author = login
        return self._author

    def upsert_comment(self, number: int, body: str, *, create: bool) -> CommentOutcome:
        """Make the PR carry exactly one marker comment of ours with `body` (creating it only
        if `create`), cleaning up our own duplicates left by races or earlier bugs."""
        sticky = StickyComment(self._transport, self._repo, number, self.author(), self._per_page)
        return sticky.upsert(body, create=create)


def _checked_repository(name: str) -> str:
    if not _REPOSITORY.fullmatch(name) or ".." in name:
        raise GitHubError(ErrorKind.FAILED, f"repository must be 'owner/name', got {quoted(name)}")
    return name


def _pull(data: Any, operation: str) -> OpenPull:
    try:
        return OpenPull(int(data["number"]), str(data["head"]["sha"]), str(data["base"]["sha"]), str(data["state"]))
    except (TypeError, KeyError, ValueError):
        raise GitHubError(
            ErrorKind.FAILED, f"{operation} failed: a pull request without number, head or base"
        ) from None


def _decoded(data: Any, operation: str) -> bytes:
    content = data.get("content") if isinstance(data, dict) else None
    if not isinstance(content, str):
        raise GitHubError(ErrorKind.FAILED, f"{operation} failed: the answer has no content")
    if data.get("encoding") != "base64":
        return content.encode("utf-8")
    try:
        return base64.b64decode(content)
    except (binascii.Error, ValueError):
        raise GitHubError(ErrorKind.FAILED, f"{operation} failed: the content is not base64") from None
