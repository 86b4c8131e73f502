"""One judging does each piece of work once: a page's bytes are parsed once however many paths
hold them, and a file pair's snippets are aligned once however many inventories need them."""

from __future__ import annotations

from tests.support.aligned import count_alignments
from tests.support.memory import MemoryTree

from docsnippets.config import Config
from docsnippets.judge import Base, Case, judge
from docsnippets.snippets import extract
from docsnippets.snippets.records import Inventory
from docsnippets.sources import Refusal


def _page(tag: str, n: int) -> str:
    return "".join(f"```python\nawait {tag}{i}(1)\n```\n\n" for i in range(n))


class _Refusing(MemoryTree):
    """A tree one of whose pages exists but cannot be judged (as a symlink in a commit)."""

    def __init__(self, files, refused: str) -> None:
        super().__init__(files)
        self.refused = refused

    def read(self, path, limit):
        return Refusal(path, "a symbolic link") if path == self.refused else super().read(path, limit)


def test_a_changed_file_pair_is_aligned_once_for_the_verdict_and_the_base_comparison(monkeypatch):
    files = {"docs/en/p.md": _page("e", 40), "docs/zh/p.md": _page("z", 40), "docs/en/q.md": _page("q", 2)}
    tree = _Refusing({**files, "docs/en/link.md": "x"}, refused="docs/en/link.md")
    seen = count_alignments(monkeypatch)
    case = Case(
        tree,
        Config(),
        None,
        changed=("docs/en/p.md", "docs/zh/p.md", "docs/en/link.md"),
        base=Base(Inventory((), (), ()), missing=False),
    )
    found = judge(case)
    assert len(found.inventory.pairs) == 40 and found.changes is not None and found.refused
    assert seen == {frozenset({"docs/en/p.md", "docs/zh/p.md"}): 1}


def test_identical_pages_are_parsed_once(monkeypatch):
    parsed: list[int] = []
    real = extract.extract_fences

    def counting(text):
        parsed.append(len(text))
        return real(text)

    monkeypatch.setattr(extract, "extract_fences", counting)
    page = _page("same", 3)
    files = {f"docs/en/copy{k}.md": page for k in range(50)}
    found = judge(Case(MemoryTree(files), Config(), None))
    assert len(found.inventory.snippets) == 150
    assert sorted({s.file for s in found.inventory.snippets}) == sorted(files)
    assert len(parsed) == 1
