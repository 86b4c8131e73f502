"""The only module that talks to GitHub (through PyGithub): PR files, base files, sticky comment.

It is imported lazily by the Action so the CLI never needs PyGithub. Every failure leaves as a
`GitHubError` with a one-line, token-free message and a `kind` the caller can branch on (a fork
PR's read-only token should degrade the run, not crash it). Requests are kept to a minimum:
lazy PyGithub objects mean no repository or pull-request GETs, only the lists, one contents GET
and the writes.
"""

from __future__ import annotations

import base64
import json
import logging
import math
import re
import threading
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from http import HTTPStatus
from types import TracebackType
from typing import Any, Final
from urllib.parse import urlsplit

import requests
import urllib3
from github import Auth, Github, GithubException, GithubRetry, RateLimitExceededException
from github.ContentFile import ContentFile
from github.Issue import Issue
from github.IssueComment import IssueComment
from github.Requester import Requester
from urllib3.exceptions import MaxRetryError, ResponseError

__all__ = [
    "COMMENT_MARKER",
    "MAX_COMMENT_CHARS",
    "ChangedFile",
    "CommentOutcome",
    "GitHubError",
    "PullRequestClient",
    "with_marker",
]

COMMENT_MARKER: Final = "<!-- docsnippets:sticky-comment -->"
#: GitHub rejects issue-comment bodies longer than this with a 422.
MAX_COMMENT_CHARS: Final = 65536

_REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
_MAX_MESSAGE = 300
_log = logging.getLogger(__name__)


@dataclass(frozen=True)
class ChangedFile:
    """A file touched by the PR; `previous_filename` is set for renames (and copies)."""

    filename: str
    status: str  # added | modified | removed | renamed | copied | changed | unchanged
    previous_filename: str | None


@dataclass(frozen=True)
class CommentOutcome:
    """What upsert_comment did, so the Action can report it."""

    action: str  # "created" | "updated" | "unchanged" | "skipped"
    comment_id: int | None
    url: str | None
    deleted_duplicates: int


class GitHubError(Exception):
    """One-line, token-free message; `kind` is 'forbidden' (403 not rate-limit: read-only token,
    fork PR), 'not_found', 'too_large', 'unavailable' (5xx / rate limit persisted after retries,
    timeouts, connection errors) or 'failed'."""

    KINDS: Final = frozenset({"forbidden", "not_found", "too_large", "unavailable", "failed"})

    def __init__(self, kind: str, message: str, *, status: int | None = None) -> None:
        assert kind in self.KINDS, kind
        super().__init__(message)
        self.kind = kind
        self.status = status
        self.message = message


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


class _Counter:
    """Thread-safe count of HTTP attempts, shared by every copy of the retry policy."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._value = 0

    def add(self) -> None:
        with self._lock:
            self._value += 1

    @property
    def value(self) -> int:
        return self._value


class _CountingRetry(GithubRetry):
    """PyGithub's retry policy, plus an attempt counter and a cap on Retry-After waits.

    urllib3 consults `is_retry` once for every response it receives and calls `increment`
    with an error for every attempt that got none, so counting there counts each HTTP
    attempt, retries included. urllib3 copies the policy via `new()` on every retry, hence
    the shared counter object.
    """

    def __init__(self, *, counter: _Counter | None = None, **kwargs: Any) -> None:
        self.counter = counter if counter is not None else _Counter()
        super().__init__(**kwargs)

    def new(self, **kw: Any) -> _CountingRetry:
        kw.setdefault("counter", self.counter)
        return super().new(**kw)

    def is_retry(self, method: str, status_code: int, has_retry_after: bool = False) -> bool:
        self.counter.add()
        return super().is_retry(method, status_code, has_retry_after)

    def increment(  # type: ignore[override]
        self,
        method: str | None = None,
        url: str | None = None,
        response: Any = None,
        error: Exception | None = None,
        _pool: Any = None,
        _stacktrace: TracebackType | None = None,
    ) -> urllib3.Retry:
        if response is None and error is not None:
            self.counter.add()
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
            raise GitHubError("failed", "no GitHub token was given")
        if not _REPOSITORY.fullmatch(repository or ""):
            raise GitHubError("failed", f"repository must be 'owner/name', got {repository!r}")
        parts = urlsplit(api_url or "")
        if parts.scheme not in ("http", "https") or not parts.hostname:
            raise GitHubError("failed", f"api_url must be an http(s) URL, got {api_url!r}")
        self._token = token
        self._host = parts.hostname
        self._timeout = max(1, math.ceil(timeout))  # PyGithub insists on an int
        self._counter = _Counter()
        retry = _CountingRetry(
            counter=self._counter,
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

    @property
    def request_count(self) -> int:
        """HTTP requests made so far, retries included (counted at the urllib3 level)."""
        return self._counter.value

    def close(self) -> None:
        self._github.close()

    def __enter__(self) -> PullRequestClient:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()

    # -- reads ------------------------------------------------------------------------------

    def changed_files(self, number: int) -> list[ChangedFile]:
        """All files of PR `number`, every page (GitHub itself stops listing at 3000)."""
        with self._guard("listing the PR's changed files"):
            return [
                ChangedFile(f.filename, f.status, f.previous_filename or None)
                for f in self._repo.get_pull(int(number)).get_files()
            ]

    def file_at(self, path: str, ref: str) -> str | None:
        """Text of `path` at commit `ref`, or None when GitHub answers 404 there.

        A 404 also covers a ref or repository the token cannot see; GitHub does not tell
        them apart.
        """
        clean = path.strip().lstrip("/")
        if not clean or any(part in ("", ".", "..") for part in clean.split("/")):
            raise GitHubError("failed", f"not a repository file path: {path!r}")
        if not ref:
            raise GitHubError("failed", f"no commit given to read {clean} at")
        operation = f"reading {clean} at {ref[:12]}"
        with self._guard(operation):
            try:
                found = self._repo.get_contents(clean, ref=ref)
            except GithubException as exc:
                if exc.status == 404:
                    return None
                raise
            if isinstance(found, list) or found.type != "file":
                raise GitHubError("failed", f"{operation} failed: it is not a regular file")
            data = self._file_bytes(found)
        try:
            return data.decode("utf-8")
        except UnicodeDecodeError:
            raise GitHubError("failed", f"{operation} failed: it is not UTF-8 text") from None

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
        if len(body) > MAX_COMMENT_CHARS:
            raise GitHubError(
                "too_large",
                f"the PR comment is {len(body)} characters; GitHub allows {MAX_COMMENT_CHARS}",
            )
        issue = self._repo.get_issue(int(number))  # lazy: no request
        return self._upsert(issue, body, create=create, attempts=2)

    def _upsert(self, issue: Issue, body: str, *, create: bool, attempts: int) -> CommentOutcome:
        existing = self._marker_comments(issue)
        if not existing:
            if not create:
                return CommentOutcome("skipped", None, None, 0)
            return self._create(issue, body)
        newest = existing[-1]
        if _same_body(newest.body, body):
            keep, action = newest, "unchanged"
        else:
            keep, action = existing[0], "updated"
            if not self._edit(keep, body):
                # Deleted under our feet (a concurrent run's cleanup): start over once.
                if attempts > 1:
                    return self._upsert(issue, body, create=create, attempts=attempts - 1)
                raise GitHubError("not_found", "updating the PR comment failed: 404 Not Found")
        deleted = self._delete(c for c in existing if c.id != keep.id)
        return CommentOutcome(action, keep.id, keep.html_url, deleted)

    def _create(self, issue: Issue, body: str) -> CommentOutcome:
        with self._guard("posting the PR comment"):
            mine = self._record(issue.create_comment(body))
        # Two runs may have posted at once: list again, keep the oldest, delete the rest.
        # Every racer sees its own comment and agrees on the lowest id, so one survives.
        seen = {c.id: c for c in self._marker_comments(issue)}
        seen.setdefault(mine.id, mine)
        if len(seen) == 1:
            return CommentOutcome("created", mine.id, mine.html_url, 0)
        survivor, *others = sorted(seen.values(), key=lambda c: c.id)
        deleted = self._delete(others)
        if survivor.id == mine.id:
            return CommentOutcome("created", mine.id, mine.html_url, deleted)
        if _same_body(survivor.body, body):
            return CommentOutcome("unchanged", survivor.id, survivor.html_url, deleted)
        if not self._edit(survivor, body):
            raise GitHubError("not_found", "updating the PR comment failed: 404 Not Found")
        return CommentOutcome("updated", survivor.id, survivor.html_url, deleted)

    def _marker_comments(self, issue: Issue) -> list[_Comment]:
        with self._guard("listing the PR comments"):
            found = [self._record(c) for c in issue.get_comments()]
        return sorted((c for c in found if _has_marker(c.body)), key=lambda c: c.id)

    @staticmethod
    def _record(comment: IssueComment) -> _Comment:
        return _Comment(comment.id, comment.body, comment.html_url, comment)

    def _edit(self, comment: _Comment, body: str) -> bool:
        """PATCH the comment; False when it no longer exists."""
        with self._guard("updating the PR comment"):
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
                with self._guard("deleting a duplicate PR comment"):
                    comment.obj.delete()
                deleted += 1
            except GitHubError as exc:
                if exc.kind != "not_found":  # someone else deleted it: fine
                    _log.warning("%s (comment %d)", exc, comment.id)
        return deleted

    # -- error translation ------------------------------------------------------------------

    @contextmanager
    def _guard(self, operation: str) -> Iterator[None]:
        """Turn PyGithub/requests/urllib3 failures into one-line, token-free GitHubErrors."""
        try:
            yield
        except GitHubError:
            raise
        except GithubException as exc:
            raise self._from_github(operation, exc) from exc
        except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError) as exc:
            cause = _network_cause(exc)
            refused = isinstance(cause, urllib3.exceptions.NewConnectionError)
            if not refused and (
                isinstance(exc, requests.exceptions.Timeout) or isinstance(cause, urllib3.exceptions.TimeoutError)
            ):
                what = f"{self._host} did not answer within {self._timeout}s"
            else:
                what = f"cannot reach {self._host} ({type(cause).__name__})"
            raise GitHubError("unavailable", f"{operation} failed: {what}") from exc
        except json.JSONDecodeError as exc:
            raise GitHubError("failed", f"{operation} failed: the answer was not JSON") from exc

    def _from_github(self, operation: str, exc: GithubException) -> GitHubError:
        status = exc.status
        data = exc.data if isinstance(exc.data, dict) else {}
        headers = {str(k).lower(): str(v) for k, v in (exc.headers or {}).items()}
        message = str(data.get("message") or exc.message or _reason(status))
        details = _error_details(data.get("errors"))
        text = f"{message} ({'; '.join(details)})" if details else message
        rate_limited = isinstance(exc, RateLimitExceededException) or (
            status in (403, 429)
            and (
                headers.get("x-ratelimit-remaining") == "0"
                or "retry-after" in headers
                or Requester.isRateLimitError(message)
            )
        )
        if rate_limited or status == 429:
            kind = "unavailable"
            if "rate limit" not in text.lower():
                text = f"rate limited ({text})"
        elif status == 403:
            kind = "forbidden"
        elif status == 404:
            kind = "not_found"
        elif status == 422 and re.search(r"too (long|large)", text, re.IGNORECASE):
            kind = "too_large"
        elif isinstance(status, int) and status >= 500:
            kind = "unavailable"
        else:
            kind = "failed"
        line = self._one_line(f"{operation} failed: {status} {text}")
        return GitHubError(kind, line, status=status)

    def _one_line(self, text: str) -> str:
        text = " ".join(text.replace(self._token, "***").split())
        return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 1] + "…"


def _error_details(errors: object) -> list[str]:
    """GitHub's 422 `errors` list as short strings (its shape varies by endpoint)."""
    if not isinstance(errors, list):
        return []
    out = []
    for error in errors:
        if isinstance(error, str):
            out.append(error)
        elif isinstance(error, dict):
            if error.get("message"):
                out.append(str(error["message"]))
            elif error.get("code"):
                out.append(" ".join(str(error[k]) for k in ("field", "code") if error.get(k)))
    return out


def _network_cause(exc: BaseException) -> BaseException:
    """The innermost urllib3 reason behind a requests error (timeouts hide in MaxRetryError)."""
    for arg in exc.args:
        if isinstance(arg, MaxRetryError) and arg.reason is not None:
            return arg.reason
    if isinstance(exc, MaxRetryError) and exc.reason is not None:
        return exc.reason
    return exc


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "error"
