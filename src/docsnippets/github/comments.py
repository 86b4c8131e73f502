"""The one sticky comment a run keeps on its pull request: found again by a hidden marker, and
only among the comments the token's own identity wrote.

Anyone can paste the marker into a comment of their own; adopting such a comment would put
the report where its author can later edit it into a fake verdict, and deleting the bot's own
comment as its "duplicate". So a comment counts only when its author is the login the run
writes as, and no other comment is ever edited or deleted.

Anyone can also comment thousands of times. GitHub lists an issue's comments oldest first and
filters them by nothing but a time, so the run reads a bounded number of pages
(``SEARCH_PAGES``): the first, where a comment posted when the pull request opened stays, then
the newest, from the last page back, until one holds a comment of ours. A comment buried
deeper than that under other people's is not found, and a new one is posted at the end, where
the next run finds it; a flood of comments costs a run a few requests, never its verdict. A new
one is posted even when the run has nothing noteworthy to say (``on-change``): the buried one
may tell an old verdict, and the newest comment of ours must tell the current one.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any, Final
from urllib.parse import parse_qs, urlsplit

from docsnippets.constants import GITHUB_COMMENT_LIMIT
from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.github.transport import Transport
from docsnippets.visible import visible, visible_block

COMMENT_MARKER: Final = "<!-- docsnippets:sticky-comment -->"
#: The login ``GITHUB_TOKEN`` (an installation token, ``ghs_…``) comments as.
ACTIONS_BOT: Final = "github-actions[bot]"

_log = logging.getLogger(__name__)
#: Pages of the comment list one search reads: the first, then the newest ones.
SEARCH_PAGES: Final = 5


class CommentAction(StrEnum):
    """What upsert did to the sticky comment."""

    CREATED = "created"
    UPDATED = "updated"
    UNCHANGED = "unchanged"
    SKIPPED = "skipped"  # there was none, and ``create`` was false


@dataclass(frozen=True)
class CommentOutcome:
    """What upsert did, so the Action can report it."""

    action: CommentAction
    comment_id: int | None
    url: str | None
    deleted_duplicates: int


@dataclass(frozen=True)
class Comment:
    """The parts of an issue comment the sticky comment needs."""

    id: int
    body: str
    html_url: str | None
    author: str


def with_marker(body: str) -> str:
    """Return `body` carrying COMMENT_MARKER on a line of its own (appended when missing)."""
    if has_marker(body):
        return body
    text = body.rstrip()
    return f"{text}\n\n{COMMENT_MARKER}\n" if text else f"{COMMENT_MARKER}\n"


def has_marker(body: str | None) -> bool:
    # Own-line match: a human quoting our comment ("> <!-- ... -->") is not mistaken for it.
    if not body:
        return False
    return any(line.strip() == COMMENT_MARKER for line in body.splitlines())


def _same_body(left: str | None, right: str) -> bool:
    # GitHub may normalise line endings / trailing whitespace; neither is worth a PATCH.
    def norm(text: str) -> str:
        return text.replace("\r\n", "\n").rstrip()

    return left is not None and norm(left) == norm(right)


def _page_number(url: str) -> int:
    """The ``page`` a list URL asks for (GitHub's links name it; 1 when absent)."""
    try:
        return int(parse_qs(urlsplit(url).query).get("page", ["1"])[0])
    except ValueError:
        return 1


def comment_of(data: Any) -> Comment:
    try:
        user = data.get("user") or {}
        return Comment(int(data["id"]), str(data.get("body") or ""), data.get("html_url"), str(user.get("login") or ""))
    except (TypeError, KeyError, ValueError, AttributeError):
        raise GitHubError(ErrorKind.FAILED, "listing the PR comments failed: a comment without an id") from None


class StickyComment:
    """Keeps exactly one marker comment by ``author`` on an issue or pull request."""

    def __init__(self, transport: Transport, repo_url: str, number: int, author: str, per_page: int = 100) -> None:
        self._transport = transport
        self._per_page = per_page
        self._repo_url = repo_url
        self._number = int(number)
        self._author = author

    def upsert(self, body: str, *, create: bool) -> CommentOutcome:
        """Make the PR carry exactly one own marker comment with `body` (creating it only if
        `create`, or when the search left pages unread where an old one may lie), cleaning up
        own duplicates left by races or earlier bugs."""
        body = visible_block(with_marker(body))  # the one visible form, whoever built the body
        if len(body) > GITHUB_COMMENT_LIMIT:
            raise GitHubError(
                ErrorKind.TOO_LARGE,
                f"the PR comment is {len(body)} characters; GitHub allows {GITHUB_COMMENT_LIMIT}",
            )
        return self._upsert(body, create=create, attempts=2)

    def _upsert(self, body: str, *, create: bool, attempts: int) -> CommentOutcome:
        existing, searched_all = self._own()
        if not existing:
            if not create and searched_all:
                return CommentOutcome(CommentAction.SKIPPED, None, None, 0)
            return self._create(body)
        newest = existing[-1]
        if _same_body(newest.body, body):
            keep, action = newest, CommentAction.UNCHANGED
        else:
            keep, action = existing[0], CommentAction.UPDATED
            if not self._edit(keep, body):
                # Deleted under our feet (a concurrent run's cleanup): start over once.
                if attempts > 1:
                    return self._upsert(body, create=create, attempts=attempts - 1)
                raise GitHubError(ErrorKind.NOT_FOUND, "updating the PR comment failed: 404 Not Found")
        deleted = self._delete(c for c in existing if c.id != keep.id)
        return CommentOutcome(action, keep.id, keep.html_url, deleted)

    def _create(self, body: str) -> CommentOutcome:
        url = f"{self._repo_url}/issues/{self._number}/comments"
        _, data = self._transport.request("posting the PR comment", "POST", url, body={"body": body})
        mine = comment_of(data)
        # Two runs may have posted at once: list again, keep the oldest, delete the rest.
        # Every racer sees its own comment and agrees on the lowest id, so one survives.
        seen = {c.id: c for c in self._own()[0]}
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

    def _own(self) -> tuple[list[Comment], bool]:
        """Our marker comments, oldest first: written by our login, the marker on its own line,
        on the first page or on the newest ones (see ``SEARCH_PAGES``); and whether every page
        was read, so that finding none means there is none."""
        operation = "listing the PR comments"
        url = f"{self._repo_url}/issues/{self._number}/comments"
        items, links = self._transport.page(operation, url, {"per_page": self._per_page})
        found = {c.id: c for c in map(comment_of, items) if self._is_own(c)}
        if "next" not in links:  # one page holds them all
            return sorted(found.values(), key=lambda c: c.id), True
        newer = links.get("last")
        for _ in range(SEARCH_PAGES - 1):
            if newer is None or _page_number(newer) <= 1:
                break
            items, links = self._transport.page(operation, newer)
            mine = [c for c in map(comment_of, items) if self._is_own(c)]
            found.update((c.id, c) for c in mine)
            if mine:
                break
            newer = links.get("prev")
        # Every page was read when the walk back from the last one reached the first; without
        # a last page to start from (GitHub may leave it out) the pages between are unknown.
        searched_all = newer is not None and _page_number(newer) <= 1
        return sorted(found.values(), key=lambda c: c.id), searched_all

    def _is_own(self, comment: Comment) -> bool:
        return comment.author == self._author and has_marker(comment.body)

    def _edit(self, comment: Comment, body: str) -> bool:
        """PATCH the comment; False when it no longer exists."""
        url = f"{self._repo_url}/issues/comments/{comment.id}"
        try:
            self._transport.request("updating the PR comment", "PATCH", url, body={"body": body})
        except GitHubError as exc:
            if exc.kind == ErrorKind.NOT_FOUND:
                return False
            raise
        return True

    def _delete(self, comments: Iterable[Comment]) -> int:
        """Delete own duplicates; failures are logged, not raised: the sticky comment is done."""
        deleted = 0
        for comment in comments:
            url = f"{self._repo_url}/issues/comments/{comment.id}"
            try:
                self._transport.request("deleting a duplicate PR comment", "DELETE", url)
                deleted += 1
            except GitHubError as exc:
                if exc.kind != ErrorKind.NOT_FOUND:  # someone else deleted it: fine
                    # Python's logging writes to the log past LogStream: GitHub's words shown visible
                    _log.warning("%s (comment %d)", visible(str(exc)), comment.id)
        return deleted
