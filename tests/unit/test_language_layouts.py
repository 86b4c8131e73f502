"""Layouts of any number of languages, recognised from file names alone (init's evidence)."""

from __future__ import annotations

import pytest
import yaml

from docsnippets.config import from_mapping
from docsnippets.snippets.languages import is_code, language_of_text, recognise_groups, translations_yaml

PAGES = ("index.md", "guide/start.md", "guide/deep/more.md")


def layout_of(files, guess=None):
    found = recognise_groups(files, guess)
    assert found, files
    return found[0]


@pytest.mark.parametrize(
    ("files", "templates"),
    [
        (
            [f"docs/{c}/docs/{p}" for c in ("en", "de", "zh-hant") for p in PAGES],
            {"en": "docs/en/{path}", "de": "docs/de/{path}", "zh-hant": "docs/zh-hant/{path}"},
        ),
        (
            [f"content/{c}/{p}" for c in ("en", "pt-BR", "zh_CN") for p in PAGES],
            {"en": "content/en/{path}", "pt-BR": "content/pt-BR/{path}", "zh_CN": "content/zh_CN/{path}"},
        ),
        (
            [*PAGES, *(p.replace(".md", f".{c}.md") for c in ("fr", "zh-Hans") for p in PAGES)],
            {"en": "{dir}{name}.md", "fr": "{dir}{name}.fr.md", "zh-Hans": "{dir}{name}.zh-Hans.md"},
        ),
        (
            ["README.md", "README_ZH.md", "README_JA.md", "docs/x.md", "docs/x_JA.md"],
            {"en": "{dir}{name}.md", "JA": "{dir}{name}_JA.md", "ZH": "{dir}{name}_ZH.md"},
        ),
        (
            ["README.md", "README.ko.md", "README.ru.md", "CONTRIBUTING.md", "CONTRIBUTING.ko.md"],
            {"en": "{dir}{name}.md", "ko": "{dir}{name}.ko.md", "ru": "{dir}{name}.ru.md"},
        ),
        (
            [f"docs/{p}" for p in PAGES]
            + [f"i18n/{c}/docusaurus-plugin-content-docs/current/{p}" for c in ("fr", "ja") for p in PAGES],
            {
                "en": "docs/{path}",
                "fr": "i18n/fr/docusaurus-plugin-content-docs/current/{path}",
                "ja": "i18n/ja/docusaurus-plugin-content-docs/current/{path}",
            },
        ),
    ],
    ids=["docs-lang-nested", "hugo-content", "mkdocs-static-i18n", "README_LANG", "README.lang", "docusaurus"],
)
def test_each_layout_is_recognised_with_the_source_first(files, templates):
    layout = layout_of(files)
    assert dict(layout.templates) == templates
    assert layout.languages[0] == "en"
    config = from_mapping(yaml.safe_load(translations_yaml(layout)), "cfg")  # what init writes reads back
    assert config.translations is not None and dict(config.translations.rules[0].templates) == templates


def test_a_source_directory_without_a_code_takes_the_language_its_text_shows():
    files = [f"docs/source/{p}" for p in PAGES] + [f"docs/source_en/{p}" for p in PAGES]
    layout = layout_of(files, guess=lambda pages: "zh" if all("source/" in p for p in pages) else None)
    assert layout.templates == (("zh", "docs/source/{path}"), ("en", "docs/source_en/{path}"))
    assert layout_of(files).languages[0] == "und"  # English is a translation here: no guess, no pretending


def test_where_two_layouts_fit_the_one_that_pairs_the_most_comes_first():
    dirs = [f"docs/{c}/{p}" for c in ("en", "de", "fr") for p in PAGES]
    suffixes = ["a.md", "a.de.md", "b.md", "b.de.md"]
    found = recognise_groups(dirs + suffixes)
    assert found[0].pairs == 6 and found[0].templates[0] == ("en", "docs/en/{path}")
    assert any(layout.templates[1] == ("de", "{dir}{name}.de.md") for layout in found[1:])
    assert "6 translated pages pair with their source page" in found[0].describe()


def test_one_odd_name_is_no_layout_and_words_are_no_codes():
    assert recognise_groups(["docs/en/a.md", "docs/de/a.md"]) == []  # one pair is not enough evidence
    assert not is_code("api") and not is_code("docs") and not is_code("xx")
    assert is_code("zh-hant") and is_code("pt-BR") and is_code("zh_CN") and is_code("zh-Hans")


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("这是一个中文页面，说明如何使用异步接口。" * 3, "zh"),
        ("これは日本語のページです。" * 3, "ja"),
        ("Просто текст на русском языке" * 2, "ru"),
        ("plain English words", None),
    ],
)
def test_the_language_of_a_text_from_its_letters(text, code):
    assert language_of_text(text) == code


@pytest.mark.parametrize("prefix", ["docs/{a}", "docs/{path}", "x}"])
def test_a_path_whose_names_hold_braces_offers_no_layout_that_the_config_would_refuse(prefix):
    files = [f"{prefix}/{c}/{p}" for c in ("en", "de", "fr") for p in ("a.md", "b.md")]
    for found in recognise_groups(files):
        from_mapping(yaml.safe_load(translations_yaml(found)), "init")  # never raises
    assert not any(prefix in t for found in recognise_groups(files) for _, t in found.templates)


def test_the_evidence_of_two_languages_ends_its_list_of_templates_without_an_ellipsis():
    two = layout_of([f"docs/{c}/{p}" for c in ("en", "de") for p in PAGES]).describe()
    assert "docs/en/{path}, docs/de/{path}; 3 translated pages" in two, two
    three = layout_of([f"docs/{c}/{p}" for c in ("en", "de", "fr") for p in PAGES]).describe()
    assert "docs/en/{path}, docs/de/{path}, …; 6 translated pages" in three, three
