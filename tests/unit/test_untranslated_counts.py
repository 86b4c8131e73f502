"""Under three languages or more, "untranslated pages" means one thing in every report: a source
page counted once per language that has no page for it. A translation page with no source page
is a kind of its own, named and counted apart."""

from __future__ import annotations

import io

from tests.unit.test_languages_report import comment_of, config_of, inventory, tree

from docsnippets.cli.output import update_summary
from docsnippets.judge.compare import compare
from docsnippets.report.data import report_json
from docsnippets.report.text import report_text

CODES = ("en", "de", "fr")


def _cells(row: str) -> list[str]:
    return [cell.strip() for cell in row.strip().strip("|").split("|")]


def _tree() -> dict[str, str]:
    guide = tree(("en",), 1, "old", False)["docs/en/guide.md"]
    return {
        **tree(CODES, 1, "old", False),
        "docs/en/other.md": guide,  # in no translation: untranslated in de and in fr
        "docs/en/third.md": guide,
        "docs/fr/orphan.md": guide,  # a translation page without its source page
    }


def test_untranslated_pages_are_counted_per_language_everywhere_and_orphans_apart(tmp_path):
    after = inventory(config_of(CODES), _tree())
    report = compare(after, after)
    assert report.summary["untranslated"] == 4  # 2 source pages x 2 languages; the orphan is not one
    assert report_json(report)["summary"]["untranslated"] == 4
    text = report_text(report, inventory=after)
    assert "4 untranslated pages (a source page counted once per language with no page for it)" in text
    assert "1 translation page with no source page: docs/fr/orphan.md" in text
    assert "no counterpart file" not in text
    out = io.StringIO()
    update_summary(out, tmp_path / "m.json", True, after, None)
    assert out.getvalue().splitlines()[0].endswith(", 4 untranslated pages, 1 translation page with no source page")
    comment = comment_of(config_of(CODES), report, after)
    assert "#### Untranslated pages (4)" in comment
    assert "#### Translation pages with no source page (1)" in comment and "- `docs/fr/orphan.md`" in comment
    head = next(line for line in comment.splitlines() if line.startswith("| snippets"))
    values = next(line for line in comment.splitlines()[comment.splitlines().index(head) + 2 :])
    cells = dict(zip(_cells(head), _cells(values), strict=True))
    assert cells["untranslated pages"] == "4" and cells["pages with no source"] == "1", (head, values)
    assert "All 2 entries" not in comment and "<summary>2 languages</summary>" in comment


def test_with_two_languages_untranslated_pages_are_counted_in_the_table_and_not_listed():
    """The two-language summary counts pages with no counterpart file but holds no pages per
    language: the table shows the count, and no empty per-language section is drawn."""
    from docsnippets.config import from_mapping

    config = from_mapping({}, "cfg")
    files = {
        **tree(("en", "zh"), 1, "old", False),
        "docs/en/alone.md": tree(("en",), 1, "old", False)["docs/en/guide.md"],
    }
    after = inventory(config, files)
    report = compare(after, after)
    assert report.summary["untranslated"] == 1
    comment = comment_of(config, report, after)
    head = next(line for line in comment.splitlines() if line.startswith("| snippets"))
    values = comment.splitlines()[comment.splitlines().index(head) + 2]
    assert dict(zip(_cells(head), _cells(values), strict=True))["untranslated pages"] == "1", (head, values)
    assert "Untranslated pages" not in comment and "0 languages" not in comment
