"""A hostile or careless translations setting, and a schema 3 manifest edited by hand: each is
a one-line error or a stale verdict that names what is false, never a silent pairing."""

from __future__ import annotations

import json

import pytest
from tests.support.corpus import write
from tests.support.judging import check, update
from tests.unit.test_translations import A2, A, B, fence, groups_config, page

from docsnippets.config import ConfigError, from_mapping
from docsnippets.configfile import load as load_config
from docsnippets.manifest import build as mf
from docsnippets.manifest.io import ManifestError


@pytest.mark.parametrize(
    "template",
    [
        "../outside/{path}",
        "docs/de/../../../outside/{path}",
        "/etc/{path}",
        "docs/./de/{path}",
        "docs//de/{path}",
        "docs/de/{path}/",
    ],
)
def test_a_template_that_leaves_the_tree_or_names_a_page_two_ways_is_refused(template):
    with pytest.raises(ConfigError, match="relative path inside the repository"):
        from_mapping({"translations": {"pages": {"en": "docs/en/{path}", "de": template}}}, "cfg")
    with pytest.raises(ConfigError, match="relative path inside the repository"):
        from_mapping({"pair_rules": [{"en": "docs/en/{path}", "zh": template}]}, "cfg")


def test_two_languages_with_one_template_are_refused():
    pages = {"en": "docs/en/{path}", "de": "docs/de/{path}", "ja": "docs/de/{path}"}
    with pytest.raises(ConfigError, match="'de' and 'ja' have the same template"):
        from_mapping({"translations": {"pages": pages}}, "cfg")


def test_a_display_name_for_a_language_not_configured_is_refused():
    pages = {"en": "docs/en/{path}", "de": "docs/de/{path}"}
    with pytest.raises(ConfigError, match=r"'fr' is not a language of 'translations\.pages'"):
        from_mapping({"translations": {"pages": pages, "names": {"fr": "French"}}}, "cfg")


def test_a_language_written_twice_in_the_yaml_is_refused_not_dropped(tmp_path):
    (tmp_path / ".docsnippets.yml").write_text(
        "translations:\n  pages:\n    en: docs/en/{path}\n    de: docs/de/{path}\n    de: docs/ja/{path}\n",
        encoding="utf-8",
    )
    with pytest.raises(ConfigError, match=r"line 5.*'de' is set twice"):
        load_config(None, tmp_path)


def _adopted(tmp_path, files):
    cfg = groups_config(("en", "de", "ja"))
    root = write(tmp_path / "t", files)
    update(root, cfg, root / "m.json")
    return cfg, root


def _stale_with(cfg, root, edit) -> list[str]:
    data = json.loads((root / "m.json").read_text(encoding="utf-8"))
    edit(data)
    (root / "m.json").write_text(json.dumps(data), encoding="utf-8")
    found = check(root, cfg, root / "m.json")
    assert not found.freshness.fresh, "a false claim read as fresh"
    return list(found.freshness.reasons)


FILES = {
    page("en"): fence(A) + fence(B),
    page("de"): fence(A) + fence(B),
    page("ja"): fence(A2) + fence(B),
    page("en", "c.md"): fence(B),
    page("de", "c.md"): "# nothing to pair with\n",
    "README.md": fence(A),
}


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda d: d["files"]["README.md"].update(language="en"), "README.md: recorded language en"),
        (lambda d: d["files"][page("en", "c.md")].update(language="de"), "c.md: recorded language de"),
        (
            lambda d: d["files"][page("en", "c.md")].update(counterparts={"ja": page("de", "c.md")}),
            "recorded counterpart differs from the tree (ja: docs/de/docs/c.md, now de: docs/de/docs/c.md)",
        ),
        (
            lambda d: d["files"][page("de")].update(counterparts={"en": page("en"), "ja": page("ja")}),
            "docs/de/docs/p.md:2 was recorded with no example to pair with in docs/ja/docs/p.md",
        ),
    ],
)
def test_a_pages_language_and_its_counterparts_by_language_are_claims(tmp_path, edit, words):
    cfg, root = _adopted(tmp_path, FILES)
    reasons = _stale_with(cfg, root, edit)
    assert any(words in r for r in reasons), reasons
    assert not any(r.rstrip().endswith(":") for r in reasons), reasons


def test_a_counterpart_recorded_in_another_language_than_its_page_is_refused(tmp_path):
    _, root = _adopted(tmp_path, FILES)
    data = json.loads((root / "m.json").read_text(encoding="utf-8"))
    data["files"][page("ja")]["language"] = "de"  # its twins still say ja, its source page names it ja
    for entry in data["files"][page("ja")]["snippets"]:
        entry["twins"] = {}
    for entry in data["files"][page("en")]["snippets"]:
        entry["twins"].pop("ja", None)
    with pytest.raises(ManifestError, match=r"counterparts\['ja'\] .* is recorded in language 'de'"):
        mf.validate(data, "m.json")


@pytest.mark.parametrize("languages", [("en", "zh"), ("en", "de", "ja")])
def test_pages_renamed_together_are_a_move_and_no_empty_reason(tmp_path, languages):
    from docsnippets.config import Config, PairRule

    files = {page(c): fence(A) for c in languages}
    cfg = (
        groups_config(languages)
        if len(languages) > 2
        else Config(pair_rules=(PairRule("docs/en/docs/{path}", "docs/zh/docs/{path}"),))
    )
    root = write(tmp_path / "t", files)
    update(root, cfg, root / "m.json")
    for c in languages:
        (root / page(c)).rename(root / page(c, "q.md"))
    found = check(root, cfg, root / "m.json")
    assert not found.freshness.fresh
    assert not any(r.rstrip().endswith(":") for r in found.freshness.reasons), found.freshness.reasons


@pytest.mark.parametrize(
    "edit",
    [
        lambda d: d["files"][page("en", "c.md")]["snippets"][0].update({"x\n::error::forged": 1}),
        lambda d: d["files"]["README.md"].update(counterparts={"ja": "x\n::error::forged"}),
    ],
)
def test_a_reason_quoting_the_manifest_is_one_line_whatever_it_records(tmp_path, edit):
    cfg, root = _adopted(tmp_path, FILES)
    reasons = _stale_with(cfg, root, edit)
    assert all("\n" not in r for r in reasons) and any("x\\u{000A}::error::forged" in r for r in reasons), reasons


@pytest.mark.parametrize(
    ("edit", "needle"),
    [
        (lambda d: d["files"]["README.md"].update(language="x\n::error::forged"), "language"),
        (lambda d: d["files"][page("en")]["counterparts"].update({"<b>": "docs/x.md"}), "counterparts"),
        (lambda d: d["files"][page("en")]["counterparts"].update(de="../../etc/passwd"), "relative path"),
        (lambda d: d["files"][page("en")]["snippets"][0]["twins"].update({"x y": {}}), "twins"),
    ],
)
def test_a_language_code_or_counterpart_path_no_config_could_give_is_refused(tmp_path, edit, needle):
    _, root = _adopted(tmp_path, FILES)
    data = json.loads((root / "m.json").read_text(encoding="utf-8"))
    edit(data)
    with pytest.raises(ManifestError, match=needle):
        mf.validate(data, "m.json")
