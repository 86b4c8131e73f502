"""The comment as GitHub shows it: rendered with cmark-gfm (GitHub's own Markdown engine),
then parsed back into an element tree so tests can assert its structure."""

from __future__ import annotations

import re
from html.parser import HTMLParser
from types import ModuleType
from typing import ClassVar

import cmarkgfm

from docsnippets.constants import COMMENT_BUDGET
from tests.support.scripts import load_script

ALLOWED = {"h3", "h4", "p", "ul", "li", "a", "code", "pre", "details", "summary", "strong", "em"}
ALLOWED |= {"table", "thead", "tbody", "tr", "th", "td"}


class Node:
    def __init__(self, tag: str, attrs: dict[str, str | None], parent: Node | None) -> None:
        self.tag, self.attrs, self.parent = tag, attrs, parent
        self.children: list[Node | str] = []

    def elements(self) -> list[Node]:
        return [c for c in self.children if isinstance(c, Node)]

    def walk(self):
        for c in self.elements():
            yield c
            yield from c.walk()

    def inside(self, tag: str) -> bool:
        p = self.parent
        while p is not None:
            if p.tag == tag:
                return True
            p = p.parent
        return False

    def text(self) -> str:
        return "".join(c if isinstance(c, str) else c.text() for c in self.children)


class Tree(HTMLParser):
    VOID: ClassVar[frozenset[str]] = frozenset({"br", "hr", "img", "input"})

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.root = Node("root", {}, None)
        self.at = self.root
        self.feed(html)
        self.close()

    def handle_starttag(self, tag, attrs):
        node = Node(tag, dict(attrs), self.at)
        self.at.children.append(node)
        if tag not in self.VOID:
            self.at = node

    def handle_endtag(self, tag):
        p = self.at
        while p is not None and p.tag != tag:
            p = p.parent
        assert p is not None, f"</{tag}> closes nothing"
        self.at = p.parent

    def handle_data(self, data):
        self.at.children.append(data)


def gfm(text: str) -> Node:
    html = cmarkgfm.github_flavored_markdown_to_html(text, options=cmarkgfm.Options.CMARK_OPT_UNSAFE)
    return Tree(html).root


def assert_structure(text: str, *, budget: int = COMMENT_BUDGET, allowed: frozenset[str] = frozenset()) -> Node:
    """What must hold for every comment, whatever it reports (``allowed``: more tags the
    caller's own additions use)."""
    assert len(text) <= budget
    root = gfm(text)
    nodes = list(root.walk())
    tags = ALLOWED | allowed
    assert {n.tag for n in nodes} <= tags, {n.tag for n in nodes} - tags  # no injected HTML
    for d in (n for n in nodes if n.tag == "details"):
        first = d.elements()[0] if d.elements() else None
        assert first is not None and first.tag == "summary", "a <details> without its <summary>"
        # Our words, a word that could link set in <code> (markup.summary_words) and nothing else.
        assert all(c.tag == "code" and not c.elements() for c in first.elements()), "a <summary> holds only our words"
    # A collapsed block at column 0 between entries would split one list into many.
    tops = root.elements()
    for a, b, c in zip(tops, tops[1:], tops[2:], strict=False):
        assert not (a.tag == "ul" and b.tag == "details" and c.tag == "ul"), "a <details> cut a list in two"
    for li in (n for n in nodes if n.tag == "li"):
        assert not li.text().lstrip().startswith("<"), "an entry rendered as raw HTML"
    for n in nodes:  # no text node outside code may carry a mention or an issue link
        if n.tag not in ("code", "pre") and not n.inside("code") and not n.inside("pre"):
            own = "".join(c for c in n.children if isinstance(c, str))
            # GitHub's own rules: a mention is @name after a non-word character, an issue
            # link #123 (or GH-123) likewise, and bare www./http URLs become links.
            assert not re.search(r"(?<![\w`])@[A-Za-z0-9]", own), own
            assert not re.search(r"(?<![\w&])#[0-9]", own), own
            assert not re.search(r"(?i)(?<!\w)gh-[0-9]", own), own
            assert not re.search(r"(?i)\bwww\.|https?:", own), own
    return root


def visible_items(root: Node) -> list[Node]:
    return [n for n in root.walk() if n.tag == "li" and not n.inside("details")]


def sample_comment() -> ModuleType:
    """bench/sample_comment.py, the script that writes README's sample comment."""
    return load_script("bench/sample_comment.py", "sample_comment")
