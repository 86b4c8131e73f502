"""Every request to GitHub goes through one ``Transport``: counted against the run's budget,
paged by the ``Link`` header, and failing as a one-line ``GitHubError``.

A pull request decides how much a run reads (how many files it lists, what its manifest
records), and ``GITHUB_TOKEN``'s requests per hour are shared with every workflow of the
repository; so one run may send at most a set number of requests, and says so when it cannot
do its work within them rather than spend the repository's budget.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from typing import Any, Final

from github import Github

from docsnippets.github.errors import ErrorKind, GitHubError, Translator

#: Requests one run may send to read a pull request (``DOCSNIPPETS_REQUEST_BUDGET``).
DEFAULT_REQUEST_BUDGET: Final = 300
#: Granted on top of the budget to deliver a verdict: the comments listing, the comment
#: write and the commit status, so a run that used its budget up can still say so.
DELIVERY_REQUESTS: Final = 30

_LINK = re.compile(r'<([^>]+)>\s*;\s*rel="([a-z]+)"')


class RequestBudget:
    """How many requests this run has sent, and how many it may send."""

    def __init__(self, limit: int) -> None:
        self.limit = max(1, limit)
        self.used = 0

    def spend(self, operation: str) -> None:
        """Count one request, or refuse it once the budget is used up."""
        if self.used >= self.limit:
            raise GitHubError(
                ErrorKind.BUDGET,
                f"{operation} would exceed this run's budget of {self.limit} API requests",
            )
        self.used += 1

    def grant(self, requests: int) -> None:
        """From now on, allow exactly ``requests`` more: a new phase with its own allowance."""
        self.limit = self.used + max(0, requests)


class Transport:
    """JSON requests through PyGithub's requester (its retries, pacing and auth), counted."""

    def __init__(self, github: Github, errors: Translator, budget: RequestBudget) -> None:
        self._requester = github.requester
        self._errors = errors
        self.budget = budget

    def request(
        self, operation: str, verb: str, url: str, *, params: dict[str, Any] | None = None, body: Any = None
    ) -> tuple[dict[str, Any], Any]:
        """One request: (response headers, decoded JSON); an HTTP error raises GitHubError."""
        self.budget.spend(operation)
        with self._errors.guard(operation):
            return self._requester.requestJsonAndCheck(verb, url, parameters=params, input=body)

    def stream(self, operation: str, url: str, chunk_size: int) -> Iterator[bytes]:
        """One download, followed through GitHub's redirect to its archive host (which gets no
        token): the body as chunks, each failure on the way a GitHubError."""
        self.budget.spend(operation)
        with self._errors.guard(operation):
            _, _, chunks = self._requester.getStream(url, chunk_size=chunk_size)
        while True:
            with self._errors.guard(operation):
                chunk = next(chunks, None)
            if chunk is None:
                return
            yield chunk

    def page(self, operation: str, url: str, params: dict[str, Any] | None = None) -> tuple[list[Any], dict[str, str]]:
        """One page of a paged list: its items, and the ``Link`` header's pages by relation
        (``next``, ``prev``, ``first``, ``last``; each URL carries the query)."""
        headers, data = self.request(operation, "GET", url, params=params)
        if not isinstance(data, list):
            raise GitHubError(ErrorKind.FAILED, f"{operation} failed: the answer was not a list")
        link = next((v for k, v in headers.items() if k.lower() == "link"), "")
        return data, {rel: target for target, rel in _LINK.findall(link or "")}

    def pages(self, operation: str, url: str, params: dict[str, Any] | None = None) -> Iterator[Any]:
        """Every item of a paged list, page after page as the ``Link`` header leads."""
        next_url: str | None = url
        query = params
        while next_url is not None:
            items, links = self.page(operation, next_url, query)
            yield from items
            query = None  # the next link carries the query
            next_url = links.get("next")
