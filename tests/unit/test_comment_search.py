"""The sticky comment's bounded search, against a stub of the API's list pages.

What a search cannot see must not read as "no comment of ours": only a list whose every page
was read lets ``on-change`` stay silent.
"""

from __future__ import annotations

from typing import Any

from docsnippets.github.comments import ACTIONS_BOT, CommentAction, StickyComment, with_marker

LIST = "/repos/o/r/issues/1/comments"


class Pages:
    """Comment list pages (``links``: the Link header's relations of each page); records posts."""

    def __init__(self, pages: list[list[dict[str, Any]]], links: list[dict[str, str]]) -> None:
        self.pages, self.links, self.posted, self.read = pages, links, [], []

    def page(self, operation: str, url: str, params: dict[str, Any] | None = None) -> tuple[list[Any], dict[str, str]]:
        number = int(url.rsplit("page=", 1)[1]) if "page=" in url else 1
        self.read.append(number)
        return self.pages[number - 1], self.links[number - 1]

    def request(self, operation: str, method: str, url: str, **kwargs: Any) -> tuple[dict[str, str], Any]:
        assert method == "POST" and url.endswith(LIST), (method, url)
        self.posted.append(kwargs["body"]["body"])
        return {}, {"id": 99, "body": kwargs["body"]["body"], "user": {"login": ACTIONS_BOT}}


def others(n: int) -> list[dict[str, Any]]:
    return [{"id": i, "body": f"+1 {i}", "user": {"login": "mallory"}} for i in range(n)]


def sticky(pages: Pages) -> StickyComment:
    return StickyComment(pages, "/repos/o/r", 1, ACTIONS_BOT)  # type: ignore[arg-type]


def test_one_page_without_ours_is_searched_whole():
    pages = Pages([others(3)], [{}])
    assert sticky(pages).upsert("report", create=False).action == CommentAction.SKIPPED
    assert pages.posted == []


def test_a_list_without_a_last_link_is_not_searched_whole():
    """GitHub leaves ``rel="last"`` out where counting is costly: the newest pages are unknown."""
    pages = Pages([others(3), others(3)], [{"next": f"{LIST}?page=2"}, {"prev": f"{LIST}?page=1"}])
    assert sticky(pages).upsert("report", create=False).action == CommentAction.CREATED
    assert pages.posted == [with_marker("report")]
