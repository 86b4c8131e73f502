"""Lost pairs from two inventories, and how the verdict and the annotations count them."""

from __future__ import annotations

from docsnippets.github.annotate import annotations
from docsnippets.judge.compare import compare
from docsnippets.judge.verdict import decide

A = "async def alpha(x):\n    return await fetch(x, 1)\n"
B = "async def beta(y):\n    return await store(y, 'k')\n"


def doc(*bodies: str) -> str:
    return "".join(f"```python\n{b}```\n\n" for b in bodies)


PAGES = {"docs/en/p.md": doc(A, B), "docs/zh/p.md": doc(A, B)}


def test_renamed_side_is_named_with_where_it_went(inventory_of):
    before = inventory_of(PAGES)
    after = inventory_of({"docs/en/q.md": doc(A, B), "docs/zh/p.md": doc(A, B)})
    r = compare(before, after)
    (lost,) = r.lost
    assert (lost.kept, lost.gone, lost.moved_to, lost.pairs) == ("docs/zh/p.md", "docs/en/p.md", "docs/en/q.md", 2)
    assert lost.fix() == "rename docs/zh/p.md to docs/zh/q.md, or undo the rename of docs/en/p.md"
    assert lost.sentence() in r.reasons


def test_deleted_side(inventory_of):
    r = compare(inventory_of(PAGES), inventory_of({"docs/en/p.md": doc(A, B)}))
    (lost,) = r.lost
    assert (lost.kept, lost.gone, lost.happened) == ("docs/en/p.md", "docs/zh/p.md", "deleted")
    assert lost.as_json()["fix"] == "delete docs/en/p.md as well, or restore docs/zh/p.md"


def test_not_lost_when_both_sides_go_or_the_page_stays_empty(inventory_of):
    before = inventory_of(PAGES)
    assert not compare(before, inventory_of({"docs/en/q.md": doc(A, B), "docs/zh/q.md": doc(A, B)})).lost
    assert not compare(before, inventory_of({})).lost
    emptied = compare(before, inventory_of({"docs/en/p.md": doc(A, B), "docs/zh/p.md": "# 空\n"}))
    assert not emptied.lost and len(emptied.desynchronized) == 2  # missing: reported as such already


def test_lost_pairs_fail_desync_only_and_annotate_the_page_left(inventory_of):
    before, after = inventory_of(PAGES), inventory_of({"docs/en/p.md": doc(A, B)})
    changes = compare(before, after)
    fresh = compare(after, after)  # the branch's manifest already updated
    assert fresh.fresh and not fresh.lost
    assert decide(fresh, "stale", changes=changes).passed
    gate = decide(fresh, "desync", changes=changes)
    assert not gate.passed and gate.cause == "desync" and gate.lost == 1
    assert "1 bilingual page lost its counterpart" in gate.sentence()
    (line,) = annotations(fresh, gate, "m.json", changes.lost)
    assert line.startswith("::error file=docs/en/p.md") and "restore docs/zh/p.md" in line
    (line,) = annotations(fresh, decide(fresh, "stale", changes=changes), "m.json", changes.lost)
    assert line.startswith("::warning ")
