"""The repository's own prose: every relative link lands on a file and a heading that exist, and
the README stays short enough to read in five minutes.

Docs move between files as they grow; a link to a heading that moved is found here rather than
by a reader who clicks it.
"""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest
from markdown_it import MarkdownIt

ROOT = Path(__file__).resolve().parents[2]
PROSE = [
    ROOT / "README.md",
    ROOT / "CONTRIBUTING.md",
    ROOT / "RELEASING.md",
    ROOT / "CHANGELOG.md",
    ROOT / "bench" / "README.md",
    *sorted((ROOT / "docs").glob("*.md")),
]
README_MOST_LINES = 200
_MD = MarkdownIt("commonmark").enable("table")


def _slug(text: str) -> str:
    """GitHub's anchor for a heading: lower case, punctuation dropped, spaces made hyphens."""
    return re.sub(r"[^\w\- ]", "", text.lower()).replace(" ", "-")


def _anchors(path: Path) -> set[str]:
    tokens = _MD.parse(path.read_text(encoding="utf-8"))
    seen: Counter[str] = Counter()
    anchors = set()
    for at, token in enumerate(tokens):
        if token.type != "heading_open":
            continue
        slug = _slug(tokens[at + 1].content.replace("`", ""))
        anchors.add(slug if not seen[slug] else f"{slug}-{seen[slug]}")
        seen[slug] += 1
    return anchors


def _links(path: Path) -> list[str]:
    found = []
    for token in _MD.parse(path.read_text(encoding="utf-8")):
        for child in token.children or ():
            if child.type == "link_open":
                found.append(str(child.attrs["href"]))
    return found


def test_the_slug_is_githubs():
    assert _slug("Stage 2's trust model") == "stage-2s-trust-model"
    assert _slug("docsnippets init".replace("`", "")) == "docsnippets-init"
    assert _slug("Old debts: what the base already held") == "old-debts-what-the-base-already-held"


@pytest.mark.parametrize("page", PROSE, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_relative_link_reaches_a_file_and_a_heading(page: Path):
    broken = []
    for href in _links(page):
        if re.match(r"[a-z][a-z0-9+.-]*:", href):
            continue
        target, _, anchor = href.partition("#")
        file = (page.parent / target).resolve() if target else page
        if not file.exists():
            broken.append(f"{href}: no such file")
        elif anchor and file.suffix == ".md" and anchor not in _anchors(file):
            broken.append(f"{href}: no such heading in {file.relative_to(ROOT)}")
    assert not broken, broken


def test_the_readme_is_read_in_five_minutes():
    lines = (ROOT / "README.md").read_text(encoding="utf-8").splitlines()
    assert len(lines) <= README_MOST_LINES
