"""Acceptance against the real Slime docs in ../shared (skipped when it is absent)."""

from __future__ import annotations

import json
import re

from tests.support.judging import scan_tree
from tests.support.manifest_helpers import pairs

from docsnippets.cli import main
from docsnippets.config import Config
from docsnippets.manifest import build as mf
from docsnippets.snippets.fences import extract_fences


def update(root, capsys):
    assert main(["update", "--root", str(root)]) == 0
    capsys.readouterr()
    return json.loads((root / "documentation-snippets.json").read_text(encoding="utf-8"))


def report(root, capsys):
    code = main(["check", "--root", str(root), "--format", "json"])
    out = json.loads(capsys.readouterr().out)
    assert code == 0, out
    return out


def test_head_counts(head_tree, capsys):
    data = update(head_tree, capsys)
    s = report(head_tree, capsys)["summary"]
    assert (s["fences"], s["files"], s["pairs"], s["examples"], s["distinct_bodies"]) == (
        27,
        14,
        12,
        15,
        20,
    )
    assert s["status"] == {
        "parses": 16,
        "needs-async-wrapper": 5,
        "incomplete-signature": 6,
        "syntax-error": 0,
    }
    assert s["relation"] == {
        "identical": 7,
        "indentation": 1,
        "comments": 4,
        "strings": 0,  # no Slime pair differs in its strings only: none of its 12 pairs is diverged
        "diverged": 0,
        "missing": 0,
    }
    by_id = {x["id"]: x for x in mf.entries(data)}
    indentation = [p for p in pairs(data) if p["relation"] == "indentation"]
    assert len(indentation) == 1
    en, zh = by_id[indentation[0]["en"]], by_id[indentation[0]["zh"]]
    assert en["file"] == "docs/en/get_started/usage.md" and zh["file"] == "docs/zh/get_started/usage.md"
    assert en["body"].startswith("    async def") and zh["body"].startswith("  async def")


def test_seed_line_ranges_for_untouched_files(head_tree, capsys):
    data = update(head_tree, capsys)
    ranges = {}
    for x in mf.entries(data):
        ranges.setdefault(x["file"], []).append(tuple(x["code_lines"]))
    for lang in ("en", "zh"):
        assert ranges[f"docs/{lang}/developer_guide/trace.md"] == [(60, 74), (90, 96), (107, 111)]
    assert ranges[".claude/skills/add-reward-function/SKILL.md"] == [(36, 37), (41, 42)]
    assert ranges["examples/coding_agent_rl/README.md"] == [(194, 197)]
    first = mf.entries(data)[0]
    assert first["fence_lines"] == [35, 38] and first["code_lines"] == [36, 37]


def _seed_entries(seed_text: str):
    sections = re.split(r"^### (DOC-\d+)\n", seed_text, flags=re.M)
    for i in range(1, len(sections), 2):
        text = sections[i + 1]
        m = re.search(r"\[([^\]:]+):(\d+)–(\d+)\]", text)
        yield m.group(1), (int(m.group(2)), int(m.group(3))), extract_fences(text)[0].body


def test_seed_bodies_match_where_lines_match(head_tree, seed):
    inv = scan_tree(head_tree, Config())
    ours = {(s.file, s.code_lines): s.body for s in inv.snippets}
    entries = list(_seed_entries(seed.read_text(encoding="utf-8")))
    assert len(entries) == 29
    matched = [(f, lines) for f, lines, body in entries if (f, lines) in ours and ours[(f, lines)] == body]
    # Every snippet in files the later commits did not touch, verbatim (SHA-256 follows).
    assert len(matched) >= 15, matched


def test_prefilter_is_safe_on_corpus(head_tree, base_tree):
    for root in (head_tree, base_tree):
        fast = scan_tree(root, Config())
        slow = scan_tree(root, Config(), prefilter=False)
        assert fast == slow


def test_base_to_head_change(head_tree, base_tree, capsys):
    update(base_tree, capsys)
    manifest = base_tree / "documentation-snippets.json"
    code = main(["check", "--root", str(head_tree), "--manifest", str(manifest), "--format", "json"])
    report = json.loads(capsys.readouterr().out)
    assert code == 1 and not report["fresh"]
    assert len(report["changed"]) == 4 and not report["added"] and not report["removed"]
    assert len(report["moved"]) == 5
    changed_files = sorted({c["after"]["file"] for c in report["changed"]})
    assert changed_files == ["docs/en/developer_guide/trace.md", "docs/zh/developer_guide/trace.md"]
    # The same answer from the changed files alone.
    changed = [c["after"]["file"] for c in report["changed"]] + [m["after"]["file"] for m in report["moved"]]
    code2 = main(
        [
            "check",
            "--root",
            str(head_tree),
            "--manifest",
            str(manifest),
            "--format",
            "json",
            "--changed",
            *changed,
        ]
    )
    partial = json.loads(capsys.readouterr().out)
    assert code2 == 1
    assert partial["changed"] == report["changed"] and partial["moved"] == report["moved"]
    assert partial["summary"] == report["summary"]


def test_update_then_check_is_fresh_and_render(head_tree, capsys):
    update(head_tree, capsys)
    assert main(["check", "--root", str(head_tree)]) == 0
    assert main(["render", "--root", str(head_tree), "--lang", "zh"]) == 0
    text = capsys.readouterr().out
    assert "### DOC-027" in text and "共 27 段，来自 14 个文件" in text
