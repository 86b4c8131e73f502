"""Reports of many languages stay short: one entry per source example, one diff per distinct
translated variant, narrow count tables, and a comment within GitHub's limit at 30 languages."""

from __future__ import annotations

import re

from docsnippets.config import Config, from_mapping
from docsnippets.constants import GITHUB_COMMENT_LIMIT
from docsnippets.judge.compare import compare
from docsnippets.judge.verdict import decide
from docsnippets.report import render
from docsnippets.report.data import report_json
from docsnippets.report.text import report_text
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up

CODES = ("en", "de", "es", "fr", "it", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-hant", "pl", "nl")
CODES += ("sv", "da", "fi", "nb", "cs", "sk", "hu", "ro", "bg", "el", "he", "ar", "fa", "hi", "vi")


def config_of(codes) -> Config:
    pages = {code: f"docs/{code}/{{path}}" for code in codes}
    return from_mapping({"translations": {"pages": pages}}, "cfg")


def example(n: int, variant: str) -> str:
    name = variant.replace("-", "_")
    return f"async def handler_{n}(q):\n    value = await fetch_{n}_{name}(q)\n    return value\n"


def tree(codes, examples: int, source_variant: str, distinct: bool) -> dict[str, str]:
    out = {}
    for code in codes:
        variant = source_variant if code == "en" else (f"old-{code}" if distinct else "old")
        body = "".join(f"## {n}\n\n```python\n{example(n, variant)}```\n\n" for n in range(examples))
        out[f"docs/{code}/guide.md"] = body
    return out


def inventory(config: Config, files: dict[str, str]):
    snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, config)]
    return pair_up(snippets, set(files), config)


def the_change(codes, examples: int, distinct: bool):
    config = config_of(codes)
    before = inventory(config, tree(codes, examples, "old" if not distinct else "old-en", distinct))
    before_fresh = tree(codes, examples, "old" if not distinct else "old-en", distinct)
    after = inventory(
        config, {**before_fresh, "docs/en/guide.md": tree(("en",), examples, "new", distinct)["docs/en/guide.md"]}
    )
    return config, compare(before, after), after


def comment_of(config, report, after) -> str:
    """The comment of a branch whose manifest is fresh; ``report`` is what it changed since the base."""
    freshness = compare(after, after)
    verdict = decide(freshness, "desync", changes=report)
    ctx = render.CommentContext(
        marker="<!-- m -->", verdict=verdict, changes=report, inventory=after, translations=config.translations
    )
    return render.comment(freshness, ctx)


def test_thirty_languages_every_one_left_behind_fits_one_comment():
    config, report, after = the_change(CODES, examples=12, distinct=True)
    assert len(report.desynchronized) == 12 * 29
    text = comment_of(config, report, after)
    assert len(text) <= GITHUB_COMMENT_LIMIT
    assert "### ❌ docsnippets: 348 translations out of sync (fail-on desync)" in text
    first = next(line for line in text.splitlines() if line.startswith("- the English example at"))
    assert first.endswith("29 translations still show the old code: " + ", ".join(f"`{c}`" for c in sorted(CODES[1:])))


def test_translations_that_share_their_code_share_one_diff_and_one_patch():
    config, report, after = the_change(("en", "de", "fr", "ja"), examples=1, distinct=False)
    text = comment_of(config, report, after)
    assert text.count("the code without comments or docstrings") == 1
    assert "English vs de, fr, ja (3 translations with this code)" in text
    assert text.count("Patch that brings de, fr, ja in line (git apply)") == 1
    assert text.count("+++ b/docs/") == 3  # the one patch holds every page it brings in line


def test_each_translation_has_its_own_diff_when_each_has_its_own_code():
    config, report, after = the_change(("en", "de", "fr"), examples=1, distinct=True)
    text = comment_of(config, report, after)
    assert "English vs de: the code" in text and "English vs fr: the code" in text


def _columns(text: str) -> list[int]:
    return [line.count("|") - 1 for line in text.splitlines() if re.fullmatch(r"\|( ---: \|)+", line)]


def test_the_count_tables_stay_narrow_for_two_and_for_twelve_languages():
    for codes in (CODES[:2], CODES[:12]):
        config, report, after = the_change(codes, examples=3, distinct=True)
        widths = _columns(comment_of(config, report, after))
        assert widths and max(widths) <= 5, widths


def test_the_terminal_and_json_reports_carry_each_language():
    _, report, after = the_change(("en", "de", "fr"), examples=1, distinct=True)
    text = report_text(report, changes=report, inventory=after)
    assert "[de, left behind by this change]" in text and "[fr, left behind by this change]" in text
    data = report_json(report)
    assert sorted(data["languages"]) == ["de", "fr"]
    assert data["languages"]["de"]["desynchronized"][0]["language"] == "de"
    assert data["languages"]["de"]["desynchronized"][0]["source_language"] == "en"


def test_an_example_added_in_every_language_is_one_entry():
    codes = ("en", "de", "fr", "ja")
    config = config_of(codes)
    before = inventory(config, tree(codes, 1, "old", False))
    after = inventory(config, tree(codes, 2, "old", False))
    report = compare(before, after)
    assert report.reasons == ("1 example added with its translations",)
    text = comment_of(config, report, after)
    assert "#### Added (4)" in text
    assert "`docs/{en,de,fr,ja}/guide.md` lines 12-14, 12-14, 12-14 and 12-14" in text
    assert "added in 4 languages, same code" in text
    assert "(and 3 translations, same code)" in report_text(report, changes=report, inventory=after)


def test_a_translation_edited_alone_is_the_side_that_moved_and_the_others_get_the_patch():
    codes = ("en", "de", "fr")
    config = config_of(codes)
    files = tree(codes, 1, "old", False)
    before = inventory(config, files)
    edited = tree(("en",), 1, "neu", False)["docs/en/guide.md"]
    after = inventory(config, {**files, "docs/de/guide.md": edited})
    text = comment_of(config, compare(before, after), after)
    assert "this PR edited the German side, not the English one" in text
    # The source and the translation this PR did not touch take the same edit, in one patch.
    assert "Patch that brings the English side and fr in line (git apply)" in text
    assert "+++ b/docs/en/guide.md" in text and "+++ b/docs/fr/guide.md" in text
    assert "- `de`: undo the edit of `docs/de/guide.md:4-6`, or make the same change in `docs/en/guide.md:4-6`"
    assert "in every other translation: `docs/fr/guide.md:4-6`" in text


def test_an_example_removed_from_every_language_is_one_entry():
    codes = ("en", "de", "fr", "ja")
    config = config_of(codes)
    before = inventory(config, tree(codes, 2, "old", False))
    after = inventory(config, tree(codes, 1, "old", False))
    text = comment_of(config, compare(before, after), after)
    assert "#### Removed (4)" in text
    assert "- `docs/{de,en,fr,ja}/guide.md` lines 12-14, 12-14, 12-14 and 12-14 · removed from all 4" in text


def test_untranslated_pages_are_listed_per_language_in_every_report_and_never_fail():
    config = config_of(("en", "de", "fr"))
    files = {
        **tree(("en", "de"), 1, "old", False),
        "docs/fr/other.md": tree(("en",), 1, "old", False)["docs/en/guide.md"],
    }
    after = inventory(config, files)
    report = compare(after, after)
    assert report.summary["untranslated_by_language"] == {"fr": {"count": 1, "pages": ["docs/en/guide.md"]}}
    assert report.summary["without_source"] == ["docs/fr/other.md"]
    text = report_text(report, inventory=after)
    assert "  fr (1): docs/en/guide.md" in text and "1 translation page with no source page: docs/fr/other.md" in text
    assert text.rstrip().splitlines()[-1].startswith("check passed")
    assert report_json(report)["languages"]["fr"]["untranslated"] == {"count": 1, "pages": ["docs/en/guide.md"]}
    comment = comment_of(config, report, after)
    assert "#### Untranslated pages (1)" in comment and "<details><summary>1 language</summary>" in comment
    assert "#### Translation pages with no source page (1)" in comment
    assert "- `fr` (French): 1 page: `docs/en/guide.md`" in comment


def test_untranslated_pages_are_held_as_a_count_and_the_first_pages_per_language(monkeypatch):
    """A hostile configuration of hundreds of languages over thousands of pages must not hold a
    record per page and language: each language keeps its count and its first pages by path."""
    from docsnippets.snippets import pages

    monkeypatch.setattr(pages, "MAX_LISTED", 10)
    codes = ("en", *(f"q{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(60)))
    config = config_of(codes)
    files = {f"docs/en/p{n:02d}.md": f"```python\n{example(n, 'old')}```\n" for n in range(30)}
    after = inventory(config, files)
    assert len(after.untranslated) == 60
    assert all(u.count == 30 and len(u.pages) == 10 for u in after.untranslated)
    report = compare(after, after)
    first = [f"docs/en/p{n:02d}.md" for n in range(10)]
    assert report.summary["untranslated_by_language"]["qaa"] == {"count": 30, "pages": first}
    assert report_json(report)["languages"]["qaa"]["untranslated"] == {"count": 30, "pages": first}
    assert "  qaa (30): " + ", ".join(first) + " and 20 more" in report_text(report, inventory=after)
    comment = comment_of(config, report, after)
    assert "#### Untranslated pages (1800)" in comment and "| untranslated pages |" in comment
    assert "- `qaa` (qaa): 30 pages: `docs/en/p00.md`" in comment and "`docs/en/p09.md` and 20 more" in comment


def test_counts_past_five_columns_split_into_two_tables_and_zero_counts_are_left_out():
    from dataclasses import replace

    codes = ("en", "de", "fr")
    config, report, after = the_change(codes, examples=3, distinct=True)
    some = report.changed[:1]
    wide = replace(report, added=report.added or ((after.ids[0], after.snippets[0]),), removed=(), moved=some)
    text = comment_of(config, wide, after)
    tables = [line for line in text.splitlines() if line.startswith("| ") and "---" not in line and line[2].isalpha()]
    assert len(tables) == 2 and all(line.count("|") - 1 <= 5 for line in tables), tables
    assert "| removed |" not in text and "| 0 |" not in text and " 0 |" not in text
