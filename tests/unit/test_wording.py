"""Words a newcomer tripped on: one line is "line 79", and a local check speaks of no PR."""

from __future__ import annotations

from docsnippets.judge.compare import compare
from docsnippets.report import render
from docsnippets.report.markup import lines_word, location
from docsnippets.report.text import report_text

A = "async def alpha(x):\n    return await fetch(x, 1)\n"


def test_one_line_is_said_as_one(inventory_of):
    (s,) = inventory_of({"x.md": "```py\nawait a\n```\n"}).snippets
    assert location(s, None) == "`x.md:2`" and lines_word(s.code_lines) == "line 2"
    assert lines_word((3, 5)) == "lines 3-5"
    after = inventory_of({"x.md": "```py\nawait b\n```\n"})
    assert "    changed  2\n" in report_text(compare(inventory_of({"x.md": "```py\nawait a\n```\n"}), after))


def test_a_local_check_names_no_pr_and_no_edited_side(inventory_of):
    manifest = inventory_of({"docs/en/p.md": f"```python\n{A}```\n", "docs/zh/p.md": f"```python\n{A}```\n"})
    tree = inventory_of(
        {"docs/en/p.md": f"```python\n{A}```\n", "docs/zh/p.md": f"```python\n{A.replace('1)', '2)')}```\n"}
    )
    report = compare(manifest, tree)
    assert report.desynchronized
    text = render.comment(report, render.CommentContext(marker="", inventory=tree))
    assert "Desynchronized bilingual examples" in text
    assert "this PR" not in text and "neither side" not in text and "in this change" not in text
    assert "edit the one that is wrong" in text


def test_an_example_added_in_both_languages_is_one_example(inventory_of):
    empty = inventory_of({"docs/en/p.md": "# P\n", "docs/zh/p.md": "# P\n"})
    both = inventory_of({"docs/en/p.md": f"```python\n{A}```\n", "docs/zh/p.md": f"```python\n{A}```\n"})
    assert compare(empty, both).reasons == ("1 example added (en + zh)",)
    one = inventory_of({"docs/en/p.md": f"```python\n{A}```\n", "docs/zh/p.md": "# P\n"})
    assert compare(empty, one).reasons == ("1 snippet added",)


def test_untranslated_pages_are_counted_never_failed(inventory_of):
    page = f"```python\n{A}```\n"
    tree = inventory_of({"docs/en/p.md": page, "docs/zh/p.md": page, "docs/en/only.md": page, "notes.md": page})
    report = compare(tree, tree)
    assert report.summary["untranslated"] == 2 and report.fresh  # only.md and notes.md; p.md is paired
    text = report_text(report)
    assert "2 untranslated pages (snippets, no counterpart file): informational" in text
    assert "| untranslated pages |" in render.comment(report, render.CommentContext(marker="", inventory=tree))
    paired = inventory_of({"docs/en/p.md": page, "docs/zh/p.md": page})
    assert compare(paired, paired).summary["untranslated"] == 0
    assert "untranslated" not in report_text(compare(paired, paired))
