"""Any number of languages: the translations setting, translation groups, schema 3."""

from __future__ import annotations

import json
import re

import pytest

from docsnippets.config import Config, ConfigError, PairRule, from_mapping
from docsnippets.constants import Relation
from docsnippets.git.merge_driver import merge
from docsnippets.judge.compare import compare
from docsnippets.manifest import build as mf
from docsnippets.manifest.io import ManifestError
from docsnippets.report.context import CommentContext
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import page_pairs, pair_up

A = "async def alpha(x):\n    # first\n    return await fetch(x, 1)\n"
A2 = "async def alpha(x: int | None):\n    # first\n    return await fetch(x, 2)\n"
B = "async def beta(y):\n    return await store(y, 'k', 2)\n"
LANGS = ("en", "de", "ja", "zh-hant")


def fence(code: str) -> str:
    return f"```python\n{code}```\n\ntext\n\n"


def groups_config(languages=LANGS, **extra) -> Config:
    pages = {code: f"docs/{code}/docs/{{path}}" for code in languages}
    return from_mapping({"translations": {"pages": pages, **extra}}, ".docsnippets.yml")


def inventory(config: Config, files: dict[str, str]):
    snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, config)]
    return pair_up(snippets, set(files), config)


def page(code: str, name: str = "p.md") -> str:
    return f"docs/{code}/docs/{name}"


def test_the_setting_names_languages_source_and_names():
    cfg = from_mapping(
        {
            "translations": {
                "source": "zh-Hans",
                "pages": [{"zh-Hans": "docs/source/{path}", "en": "docs/source_en/{path}", "pt-BR": "pt_BR/{path}"}],
                "names": {"zh-Hans": "简体中文"},
            }
        },
        "cfg",
    )
    assert cfg.translations is not None
    assert cfg.translations.languages == ("zh-Hans", "en", "pt-BR")
    assert cfg.source_language == "zh-Hans"
    names = CommentContext(marker="", translations=cfg.translations).language_name
    assert names("zh-Hans") == "简体中文" and names("pt-BR") == "Brazilian Portuguese" and names("xx") == "xx"
    assert cfg.counterparts("docs/source_en/a.md") == [("en", "zh-Hans", "docs/source/a.md")]
    assert [c[1] for c in cfg.counterparts("docs/source/a.md")] == ["en", "pt-BR"]
    assert "pair_rules" not in cfg.selection() and cfg.selection()["translations"]["source"] == "zh-Hans"


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        ({"pages": {"de": "docs/de/{path}", "fr": "docs/fr/{path}"}}, "must hold the source language 'en'"),
        ({"pages": {"en": "docs/en/{path}"}}, "at least one translation"),
        ({"pages": {"en": "docs/en/{path}", "de": "docs/de/{name}"}}, "same slots"),
        # {path} spans directories: beside {dir} or {name} a page name could be split in
        # cubically many ways (seconds for one long hostile name), and no layout needs it.
        ({"pages": {"en": "en/{path}-{name}-{dir}.md", "de": "de/{path}-{name}-{dir}.md"}}, "{path} alone"),
        ({"pages": {"en": "en/{dir}{path}.md", "de": "de/{dir}{path}.md"}}, "{path} alone"),
        ({"pages": {"en": "docs/en/{path}", "d e": "docs/de/{path}"}}, "language code"),
        ({"pages": {"en": "docs/en/{path}", "de": "docs/de/{path}"}, "colour": 1}, "must be a mapping"),
        ({"pages": {"en": "docs/en/{path}", "de": "docs/de/{path}"}, "names": {"de": ""}}, "display names"),
    ],
)
def test_bad_translations_are_one_line_errors(value, needle):
    with pytest.raises(ConfigError, match=needle):
        from_mapping({"translations": value}, "cfg")


@pytest.mark.parametrize(
    "template", ["docs/de/{x}", "docs/{path}/{path}", "docs/{dir}{path}", "docs/../{path}", "docs/de/{name}"]
)
def test_a_bad_template_names_the_setting_it_is_in(template):
    """Each setting's own words: a translations template is not a pair rule."""
    for config, setting in (
        ({"translations": {"pages": {"en": "docs/en/{path}", "de": template}}}, "'translations.pages'"),
        ({"pair_rules": [{"en": "docs/en/{path}", "zh": template}]}, "'pair_rules'"),
    ):
        with pytest.raises(ConfigError) as raised:
            from_mapping(config, "cfg")
        assert str(raised.value).startswith(f"cfg: {setting} template"), raised.value


def test_a_pair_rule_with_path_beside_another_slot_is_refused():
    with pytest.raises(ConfigError, match=r"\{path\} alone"):
        from_mapping({"pair_rules": [{"en": "{path}-{name}.md", "zh": "zh/{path}-{name}.md"}]}, "cfg")


def test_a_code_yaml_reads_as_a_boolean_is_an_error_that_says_to_quote_it(tmp_path):
    """YAML 1.1 reads Norwegian's bare ``no`` (and ``yes``, ``on``, ``off``) as a boolean."""
    from docsnippets.configfile import load

    pages = '  pages:\n    en: "docs/en/{path}"\n    no: "docs/no/{path}"\n'
    (tmp_path / ".docsnippets.yml").write_text(f"translations:\n{pages}", encoding="utf-8")
    with pytest.raises(ConfigError, match=r"language code no .*quote it: \"no\"") as caught:
        load(None, tmp_path)
    assert "False" not in str(caught.value)
    quoted = pages.replace(" no:", ' "no":')
    (tmp_path / ".docsnippets.yml").write_text(f"translations:\n{quoted}", encoding="utf-8")
    assert load(None, tmp_path).translations.languages == ("en", "no")


def test_translations_and_pair_rules_are_not_set_together():
    with pytest.raises(ConfigError, match="not both"):
        from_mapping({"translations": {"pages": {"en": "a/{path}", "de": "b/{path}"}}, "pair_rules": []}, "cfg")


def test_a_source_page_pairs_with_each_translation_and_each_translation_with_its_source():
    cfg = groups_config()
    files = {page(c) for c in LANGS} | {page("en", "only.md"), page("de", "orphan.md")}
    assert sorted(page_pairs(files, cfg)) == sorted((page("en"), page(c), c) for c in ("de", "ja", "zh-hant"))


def test_every_twin_has_its_relation_and_a_missing_one_is_named_per_language():
    cfg = groups_config()
    inv = inventory(
        cfg,
        {
            page("en"): fence(A) + fence(B),
            page("de"): fence(A.replace("# first", "# erstens")) + fence(B),
            page("ja"): fence(A2) + fence(B),
            page("zh-hant"): fence(A),
        },
    )
    rel = {(inv.snippets[p.translation].file, inv.snippets[p.source].body): p.relation for p in inv.pairs}
    assert rel[(page("de"), A)] == Relation.COMMENTS
    assert rel[(page("ja"), A)] == Relation.DIVERGED
    assert rel[(page("zh-hant"), A)] == Relation.IDENTICAL
    missing = [(inv.snippets[i].body, other) for i, other in inv.missing_twins()]
    assert missing == [(B, page("zh-hant"))]
    assert inv.language_of(page("zh-hant")) == "zh-hant" and inv.language_of(page("en")) == "en"


def test_untranslated_is_per_language_and_a_translation_without_source_is_no_untranslated_source():
    cfg = groups_config()
    inv = inventory(cfg, {page("en"): fence(A), page("de"): fence(A), page("ja", "orphan.md"): fence(B)})
    assert [(u.language, u.count, u.pages) for u in inv.untranslated] == [
        ("ja", 1, (page("en"),)),
        ("zh-hant", 1, (page("en"),)),
    ]
    assert inv.counterparts_of(page("ja", "orphan.md")) == ()
    assert inv.language_of(page("ja", "orphan.md")) == "ja"


def test_a_source_edit_leaves_each_translation_behind_and_each_counts():
    cfg = groups_config()
    files = {page(c): fence(A) for c in LANGS}
    before = inventory(cfg, files)
    after = inventory(cfg, {**files, page("en"): fence(A2)})
    report = compare(before, after)
    assert sorted(d.language for d in report.desynchronized) == ["de", "ja", "zh-hant"]
    assert all(d.new and d.sides[0].file == page("en") for d in report.desynchronized)


def test_an_old_desync_with_one_translation_leaves_the_others_new():
    cfg = groups_config()
    files = {page(c): fence(A) for c in LANGS}
    before = inventory(cfg, {**files, page("ja"): fence(A2)})
    after = inventory(cfg, {**files, page("en"): fence(A2.replace("2)", "3)"))})
    new = {d.language: d.new for d in compare(before, after).desynchronized}
    assert new == {"de": True, "ja": False, "zh-hant": True}


def test_the_manifest_of_groups_is_schema_3_and_reads_back():
    cfg = groups_config()
    inv = inventory(cfg, {page("en"): fence(A) + fence(B), page("de"): fence(A), page("ja"): fence(A2) + fence(B)})
    data = mf.build(inv, cfg)
    assert data["schema"] == 3
    text = mf.dumps(data)
    parsed = mf.parse(text, "m.json")
    group = parsed["files"][page("en")]
    assert group["language"] == "en" and group["counterparts"] == {"de": page("de"), "ja": page("ja")}
    assert set(group["snippets"][0]["twins"]) == {"de", "ja"} and set(group["snippets"][1]["twins"]) == {"ja"}
    assert parsed["files"][page("de")]["snippets"][0]["twins"]["en"]["snippet"] == group["snippets"][0]["id"]
    again = mf.to_inventory(parsed)
    assert again.pairs == inv.pairs and again.languages == inv.languages
    assert mf.dumps(mf.build(again, cfg)) == text


def _groups_manifest():
    cfg = groups_config()
    inv = inventory(cfg, {page("en"): fence(A), page("de"): fence(A), page("ja"): fence(A2)})
    return json.loads(mf.dumps(mf.build(inv, cfg)))


@pytest.mark.parametrize(
    ("mutate", "needle"),
    [
        (lambda d: d["files"][page("de")]["snippets"][0]["twins"]["en"].update(snippet="snip-404"), "absent"),
        (lambda d: d["files"][page("de")]["snippets"][0]["twins"]["en"].update(relation="twins"), "relation"),
        (lambda d: d["files"][page("en")]["snippets"][0]["twins"].pop("de"), "does not name the same pair"),
        (lambda d: d["files"][page("en")]["counterparts"].update(de=page("ja")), "recorded in language .ja."),
        (lambda d: d["selection"].pop("translations"), "selection.translations.source"),
        (lambda d: d["files"][page("en")]["snippets"][0].update(twins=[]), "twins"),
    ],
)
def test_a_broken_group_is_refused_with_its_place(mutate, needle):
    data = _groups_manifest()
    mutate(data)
    with pytest.raises(ManifestError, match=needle):
        mf.validate(data, "m.json")


def test_two_branches_that_touch_different_translations_of_one_page_merge():
    cfg = groups_config()
    files = {page(c): fence(A) for c in LANGS}
    base = mf.build(inventory(cfg, files), cfg)
    ours = mf.build(inventory(cfg, {**files, page("de"): fence(A) + fence(B)}), cfg)
    theirs = mf.build(inventory(cfg, {**files, page("ja"): fence(B) + fence(A)}), cfg)
    merged = merge(json.loads(mf.dumps(base)), json.loads(mf.dumps(ours)), json.loads(mf.dumps(theirs)))
    assert merged.conflicts == ()
    both = {**files, page("de"): fence(A) + fence(B), page("ja"): fence(B) + fence(A)}
    assert mf.dumps(merged.data) == mf.dumps(mf.build(inventory(cfg, both), cfg))


def test_a_change_to_one_translation_is_not_held_to_another_translations_old_debt(tmp_path):
    from tests.support.corpus import write
    from tests.support.judging import check, update

    cfg = groups_config()
    files = {page("en"): fence(A), page("de"): fence(A), page("ja"): fence(A2), page("zh-hant"): fence(A)}
    root = write(tmp_path / "t", files)
    update(root, cfg, root / "m.json")
    (root / page("de")).write_text(fence(A2.replace("2)", "5)")), encoding="utf-8")
    update(root, cfg, root / "m.json")
    found = check(root, cfg, root / "m.json", changed=[page("de")])
    assert [d.language for d in found.freshness.desynchronized] == ["de"]  # ja's old debt is not this change's
    found = check(root, cfg, root / "m.json", changed=[page("en")])
    assert sorted(d.language for d in found.freshness.desynchronized) == ["de", "ja"]


def test_the_shipped_json_schema_describes_schema_3():
    from jsonschema import Draft202012Validator

    from docsnippets.manifest.validate import SCHEMA_FILE

    schema = Draft202012Validator(json.loads(SCHEMA_FILE.read_text(encoding="utf-8")))
    data = _groups_manifest()
    assert list(schema.iter_errors(data)) == []
    data["files"][page("de")]["snippets"][0]["twins"]["en"]["colour"] = "red"
    assert [e.validator for e in schema.iter_errors(data)] == ["additionalProperties"]


def test_a_config_with_too_many_templates_is_refused():
    codes = [f"q{chr(97 + n // 26)}{chr(97 + n % 26)}" for n in range(600)]
    pages = {"en": "docs/en/{path}", **{code: f"docs/{code}/{{path}}" for code in codes}}
    with pytest.raises(ConfigError, match="at most 500"):
        from_mapping({"translations": {"pages": pages}}, "cfg")


@pytest.mark.parametrize("name", ["<img src=x>", "@everyone", "see #12", "[x](http://e)", "a" * 41, "", "_x"])
def test_a_display_name_that_could_link_mention_or_inject_is_refused(name):
    pages = {"en": "docs/en/{path}", "de": "docs/de/{path}"}
    with pytest.raises(ConfigError, match="display names of letters"):
        from_mapping({"translations": {"pages": pages, "names": {"de": name}}}, "cfg")
    assert from_mapping({"translations": {"pages": pages, "names": {"de": "Deutsch (Schweiz)"}}}, "c").translations


def test_a_two_language_manifest_under_a_translations_config_is_stale_and_says_why(tmp_path):
    from tests.support.corpus import write
    from tests.support.judging import check, update

    cfg = groups_config(("en", "zh"))
    root = write(tmp_path / "t", {"docs/en/docs/p.md": fence(A), "docs/zh/docs/p.md": fence(A)})
    update(root, Config(pair_rules=(PairRule("docs/en/{path}", "docs/zh/{path}"),)), root / "m.json")
    found = check(root, cfg, root / "m.json")
    assert not found.freshness.fresh
    assert (
        "it has schema 2 and this configuration's manifest schema 3 (translation groups)" in found.freshness.reasons[0]
    )
    update(root, cfg, root / "m.json")
    assert check(root, cfg, root / "m.json").freshness.fresh


@pytest.mark.parametrize(
    ("edit", "words"),
    [
        (lambda d: d["files"][page("de")].__setitem__("pair", None), "recorded pair is no field docsnippets writes"),
        (lambda d: d["files"][page("en")]["snippets"][0].__setitem__("pair", None), "recorded pair is no field"),
        (
            lambda d: d["files"][page("zh-hant")]["counterparts"].clear(),
            "zh-hant/docs/p.md:2 now has no example to pair with in docs/en",
        ),
    ],
)
def test_a_false_or_foreign_field_of_schema_3_is_stale_and_named(tmp_path, edit, words):
    from tests.support.corpus import write
    from tests.support.judging import check, update

    cfg = groups_config()
    files = {
        page("en"): fence(A),
        page("de"): fence(A),
        page("ja"): fence(A2),
        page("zh-hant"): fence("import threading\nthreading.Thread(target=work).start()\n"),
    }
    root = write(tmp_path / "t", files)
    update(root, cfg, root / "m.json")
    data = json.loads((root / "m.json").read_text(encoding="utf-8"))
    edit(data)
    (root / "m.json").write_text(json.dumps(data), encoding="utf-8")
    found = check(root, cfg, root / "m.json")
    assert not found.freshness.fresh and any(words in r for r in found.freshness.reasons), found.freshness.reasons


def test_the_fields_schema_3_writes_are_its_json_schemas():
    from docsnippets.manifest.validate import GROUPS_FIELDS, SCHEMA_FILE

    defs = json.loads(SCHEMA_FILE.read_text(encoding="utf-8"))["$defs"]
    assert GROUPS_FIELDS["file"] == set(defs["groupFile"]["properties"])
    assert GROUPS_FIELDS["snippet"] == set(defs["snippet"]["properties"]) - {"pair"} | set(
        defs["groupSnippet"]["properties"]
    )


def test_an_old_missing_twin_in_one_translation_is_a_debt_and_a_new_one_in_another_is_the_changes(tmp_path):
    from tests.support.corpus import write
    from tests.support.judging import update

    from docsnippets.judge import Base, Case, judge
    from docsnippets.manifest import store
    from docsnippets.sources.worktree import WorkTree

    cfg = groups_config(("en", "de", "fr"))
    root = write(
        tmp_path / "t", {page("en"): fence(A) + fence(B), page("de"): fence(A) + fence(B), page("fr"): fence(A)}
    )
    update(root, cfg, root / "m.json")
    base = mf.to_inventory(store.load(root / "m.json", root=root))
    (root / page("de")).write_text(fence(A), encoding="utf-8")  # the PR drops B from the German page
    (root / page("en")).write_text("# Intro\n\n" + fence(A) + fence(B), encoding="utf-8")  # and edits the English
    update(root, cfg, root / "m.json")
    changed = (page("en"), page("de"))
    case = Case(WorkTree(root), cfg, store.load(root / "m.json", root=root), changed=changed, base=Base(base))
    found = judge(case)
    assert [(d.relation, d.language) for d in found.freshness.desynchronized] == [("missing", "de")]
    assert [(d.relation, d.language) for d in found.freshness.desync_debts] == [("missing", "fr")]
    assert found.verdict("desync").desync == 1


def test_two_branches_that_change_one_source_examples_twins_in_different_languages_merge():
    cfg = groups_config()
    files = {page(c): fence(A) for c in LANGS}
    commented = fence(A.replace("# first", "# erstens"))
    base = mf.build(inventory(cfg, files), cfg)
    ours = mf.build(inventory(cfg, {**files, page("de"): commented}), cfg)  # en's de twin: comments
    theirs = mf.build(inventory(cfg, {**files, page("ja"): fence(A2)}), cfg)  # en's ja twin: diverged
    merged = merge(json.loads(mf.dumps(base)), json.loads(mf.dumps(ours)), json.loads(mf.dumps(theirs)))
    assert merged.conflicts == ()
    both = {**files, page("de"): commented, page("ja"): fence(A2)}
    assert mf.dumps(merged.data) == mf.dumps(mf.build(inventory(cfg, both), cfg))


def test_a_source_page_has_one_page_per_language_whatever_the_layouts_say():
    cfg = from_mapping(
        {
            "translations": {
                "pages": [
                    {"en": "docs/en/{path}", "de": "docs/de/{path}"},
                    {"en": "docs/en/{path}", "de": "docs/ja/{path}"},
                ]
            }
        },
        "cfg",
    )
    files = {"docs/en/a.md", "docs/de/a.md", "docs/ja/a.md"}
    assert page_pairs(files, cfg) == [("docs/en/a.md", "docs/de/a.md", "de")]


def test_branches_that_write_different_schemas_conflict_with_one_line_saying_so():
    cfg3 = groups_config(("en", "zh"))
    cfg2 = Config(pair_rules=(PairRule("docs/en/docs/{path}", "docs/zh/docs/{path}"),))
    files = {page(c): fence(A) for c in ("en", "zh")}

    def built(config, tree):
        return json.loads(mf.dumps(mf.build(inventory(config, tree), config)))

    base, ours, theirs = built(cfg2, files), built(cfg3, files), built(cfg2, {**files, page("zh"): fence(A2)})
    for a, b in ((ours, theirs), (theirs, ours)):
        merged = merge(base, a, b)
        assert merged.data is None and len(merged.conflicts) == 1
        assert (
            "write schema 2 and schema 3" in merged.conflicts[0] or "write schema 3 and schema 2" in merged.conflicts[0]
        )


def test_a_pair_rule_with_one_template_for_both_languages_is_refused():
    """It would pair nothing (a page is never its own translation): refused as translations are."""
    with pytest.raises(ConfigError, match=re.escape("have the same template 'docs/{path}'; give each language")):
        from_mapping({"pair_rules": [{"en": "docs/{path}", "zh": "docs/{path}"}]}, "cfg")
