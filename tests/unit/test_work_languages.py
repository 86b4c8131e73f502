"""Twelve languages do the work of twelve file pairs, never more, and stay inside the run's bounds:
each translation's page pair is aligned once a judging, and the CPU and parsed-bytes bounds stop
a judging of every language as they stop one of two."""

from __future__ import annotations

import itertools

import pytest
from tests.support.aligned import count_alignments
from tests.support.memory import MemoryTree

from docsnippets.config import from_mapping
from docsnippets.judge import Base, Case, judge
from docsnippets.snippets import grammar
from docsnippets.snippets.records import Inventory
from docsnippets.work import Bound, Limits, OverBudget

LANGS = ("en", "de", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-hant")
CONFIG = from_mapping(
    {"python": grammar.RUNNING, "translations": {"source": "en", "pages": {c: f"docs/{c}/{{path}}" for c in LANGS}}},
    ".docsnippets.yml",
)


def _page(tag: str, n: int) -> str:
    return "".join(f"```python\nawait {tag}{i}(1)\n```\n\n" for i in range(n))


def _tree(n: int) -> dict[str, str]:
    return {f"docs/{c}/p.md": _page(c.replace("-", "_"), n) for c in LANGS}


def test_each_translation_is_aligned_once_for_the_verdict_and_the_base_comparison(monkeypatch):
    seen = count_alignments(monkeypatch)
    files = _tree(30)
    case = Case(MemoryTree(files), CONFIG, None, changed=tuple(files), base=Base(Inventory((), (), ()), missing=False))
    found = judge(case)
    assert len(found.inventory.pairs) == 30 * 11 and found.changes is not None
    assert seen == {frozenset({"docs/en/p.md", f"docs/{c}/p.md"}): 1 for c in LANGS[1:]}


def test_twelve_long_pages_are_stopped_at_the_cpu_bound():
    """A clock that ticks once per check runs out within the eleven file pairs of 2,000 snippets
    a side: the languages' pages are checked as they are read and aligned, not only between them."""
    ticks = itertools.count()
    clock = lambda: float(next(ticks))  # noqa: E731
    with pytest.raises(OverBudget) as caught:
        judge(Case(MemoryTree(_tree(2000)), CONFIG, None, limits=Limits(cpu_seconds=2000, clock=clock)))
    assert caught.value.bound == Bound.CPU_SECONDS


def test_every_languages_page_counts_against_the_parsed_bytes_bound():
    files = _tree(50)
    size = sum(len(text.encode()) for text in files.values())
    assert len(judge(Case(MemoryTree(files), CONFIG, None, limits=Limits(parsed_bytes=size))).inventory.pairs) == 550
    with pytest.raises(OverBudget) as caught:
        judge(Case(MemoryTree(files), CONFIG, None, limits=Limits(parsed_bytes=size - 1)))
    assert caught.value.bound == Bound.PARSED_BYTES and "docs/zh/p.md" in str(caught.value)
