"""A tree is read one page at a time: judging it never holds every page's bytes at once.

Most pages of a large tree hold no example: the prefilter lets them go as soon as they are
read. A judge that gathered every page first would need the whole tree's bytes; one that reads
as it goes needs about one page.
"""

from __future__ import annotations

import subprocess
import tracemalloc
from pathlib import Path

import pytest

from docsnippets.config import Config
from docsnippets.git.commit import GitCommit
from docsnippets.judge.judgement import Case, judge
from docsnippets.sources.worktree import WorkTree

PAGES = 40
PAGE_BYTES = 256 * 1024
SNIPPET = "```python\nimport asyncio\n\nasync def main():\n    await asyncio.sleep(0)\n```\n"


def _page(i: int) -> str:
    prose = (f"Prose of page {i}, " * 50 + "\n") * (PAGE_BYTES // 1000)
    return f"# Page {i}\n\n{SNIPPET if i == 0 else ''}\n{prose}"


@pytest.fixture
def big_tree(tmp_path: Path) -> Path:
    root = tmp_path / "tree"
    for i in range(PAGES):
        page = root / "docs" / "en" / f"p{i:03}.md"
        page.parent.mkdir(parents=True, exist_ok=True)
        page.write_text(_page(i), encoding="utf-8")
    return root


def _peak_of_judging(source) -> int:
    # Once untraced first: what loading the parser and the checks costs is no page's, and the
    # measure must not depend on whether another test loaded them already.
    judge(Case(source=source, config=Config(), manifest=None, references=False))
    tracemalloc.start()
    try:
        judgement = judge(Case(source=source, config=Config(), manifest=None, references=False))
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert len(judgement.inventory.snippets) == 1
    return peak


def test_a_work_tree_is_judged_a_page_at_a_time(big_tree):
    tree_bytes = PAGES * PAGE_BYTES
    assert _peak_of_judging(WorkTree(big_tree)) < tree_bytes / 4


def test_a_git_commit_is_read_in_bounded_batches(big_tree, monkeypatch):
    for args in (["init", "-q"], ["add", "-A"], ["-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "x"]):
        subprocess.run(["git", *args], cwd=big_tree, check=True)
    monkeypatch.setattr("docsnippets.git.commit.BATCH_BYTES", 3 * PAGE_BYTES)
    tree_bytes = PAGES * PAGE_BYTES
    assert _peak_of_judging(GitCommit(big_tree, "HEAD")) < tree_bytes / 4
