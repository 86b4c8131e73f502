"""Stage 2's pure parts: stage 1's report as typed facts, and a manifest's inventory with some
files read again from the tree."""

from __future__ import annotations

import json

from tests.support.memory import MemoryTree

from docsnippets.github.crosscheck import Facts, Unread, cross_check, facts_of, stage1_facts
from docsnippets.judge.inventory import partial, whole


def _report(**changes) -> dict:
    counts = {"added": [], "removed": [], "changed": [], "moved": [], **changes}
    return {"fresh": True, "desynchronized": [], "verdict": {"passed": True, "cause": None}, "changes": counts}


def test_facts_take_only_typed_values():
    assert facts_of(_report(changed=[1, 2])) == Facts(True, None, True, 0, 0, 2, 0, 0)
    assert facts_of({**_report(), "fresh": "yes"}) is None
    assert facts_of({**_report(), "verdict": {"passed": True, "cause": "<b>x</b>"}}) is None
    assert facts_of([]) is None and facts_of({"fresh": True}) is None


def test_stage1_report_directory_needs_exactly_one_json(tmp_path):
    (tmp_path / "art").mkdir()
    assert stage1_facts(tmp_path, "") is None
    assert stage1_facts(tmp_path, "art") == Unread("0 JSON files in art; expected stage 1's one report", absent=True)
    (tmp_path / "art" / "r.json").write_text(json.dumps(_report()), encoding="utf-8")
    assert stage1_facts(tmp_path, "art") == facts_of(_report())
    (tmp_path / "art" / "r.json").write_text("{not json", encoding="utf-8")
    found = stage1_facts(tmp_path, "art")
    assert isinstance(found, Unread) and not found.absent
    finding = cross_check(Facts(True, None, True, 0, 0, 0, 0, 0), found)
    assert finding is not None and finding.comment is not None and "r.json" not in finding.comment
    missing = cross_check(Facts(True, None, True, 0, 0, 0, 0, 0), stage1_facts(tmp_path, "gone"))
    assert missing is not None and missing.comment is None  # no artifact: a log line only


def test_a_partial_reading_equals_a_whole_reading_of_the_tree(config):
    """A manifest's inventory with a few files read again is the inventory of the tree with
    those files: what a partial reading (``check --changed``, stage 2 past its archive bounds)
    relies on."""
    block = "```python\nimport asyncio\nasync def main():\n    await asyncio.sleep({n})\n```\n"
    before = {
        "docs/en/a.md": block.format(n=1).encode(),
        "docs/zh/a.md": block.format(n=1).encode(),
        "docs/en/b.md": block.format(n=2).encode(),
        "docs/zh/b.md": block.format(n=2).encode(),
    }
    after = {**before, "docs/en/a.md": block.format(n=3).encode()}
    del after["docs/zh/b.md"]
    expected, _ = whole(MemoryTree(after), config)
    assert len(expected.snippets) == 3 and len(expected.pairs) == 1  # a.md paired, b.md alone
    head = MemoryTree(after)
    found, _ = partial(
        head, whole(MemoryTree(before), config)[0], ["docs/en/a.md", "docs/zh/a.md", "docs/zh/b.md"], config
    )
    assert found == expected
    assert sorted(head.reads) == ["docs/en/a.md", "docs/zh/a.md", "docs/zh/b.md"]  # nothing else was read
