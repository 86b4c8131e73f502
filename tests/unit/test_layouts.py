"""Bilingual layouts recognised from file names (snippets/layouts.py)."""

from __future__ import annotations

import pytest
import yaml

from docsnippets.config import Config, PairRule, from_mapping
from docsnippets.snippets.layouts import Layout, describe, hints, missing_rules, pairs_under, recognise, rules_yaml


def _tree(en: list[str], zh: list[str], other: tuple[str, ...] = ()) -> list[str]:
    return [*en, *zh, *other]


PAGES = ["index.md", "guide/start.md", "guide/api.md"]

CASES = [
    (
        "docs/en <-> docs/zh",
        [f"docs/en/{p}" for p in PAGES],
        [f"docs/zh/{p}" for p in PAGES],
        PairRule("docs/en/{path}", "docs/zh/{path}"),
    ),
    (
        "docs/en <-> docs/zh_cn",
        [f"docs/en/{p}" for p in PAGES],
        [f"docs/zh_cn/{p}" for p in PAGES],
        PairRule("docs/en/{path}", "docs/zh_cn/{path}"),
    ),
    (
        "docs/en <-> docs/zh-CN",
        [f"docs/en/{p}" for p in PAGES],
        [f"docs/zh-CN/{p}" for p in PAGES],
        PairRule("docs/en/{path}", "docs/zh-CN/{path}"),
    ),
    (
        "docs/en <-> docs/zh-Hans",
        [f"docs/en/{p}" for p in PAGES],
        [f"docs/zh-Hans/{p}" for p in PAGES],
        PairRule("docs/en/{path}", "docs/zh-Hans/{path}"),
    ),
    (
        "docs/en <-> docs/cn",
        [f"docs/en/{p}" for p in PAGES],
        [f"docs/cn/{p}" for p in PAGES],
        PairRule("docs/en/{path}", "docs/cn/{path}"),
    ),
    (
        "src/en <-> src/zh",
        [f"src/en/{p}" for p in PAGES],
        [f"src/zh/{p}" for p in PAGES],
        PairRule("src/en/{path}", "src/zh/{path}"),
    ),
    (
        "en <-> zh at the top",
        [f"en/{p}" for p in PAGES],
        [f"zh/{p}" for p in PAGES],
        PairRule("en/{path}", "zh/{path}"),
    ),
    (
        "name_zh.md",
        PAGES,
        ["index_zh.md", "guide/start_zh.md", "guide/api_zh.md"],
        PairRule("{dir}{name}.md", "{dir}{name}_zh.md"),
    ),
    ("name.zh.md", PAGES, ["index.zh.md", "guide/start.zh.md"], PairRule("{dir}{name}.md", "{dir}{name}.zh.md")),
    (
        "name.zh-CN.md",
        PAGES,
        ["index.zh-CN.md", "guide/start.zh-CN.md"],
        PairRule("{dir}{name}.md", "{dir}{name}.zh-CN.md"),
    ),
    ("name_CN.md", PAGES, ["index_CN.md", "guide/start_CN.md"], PairRule("{dir}{name}.md", "{dir}{name}_CN.md")),
    (
        "name_zh-CN.md",
        PAGES,
        ["index_zh-CN.md", "guide/start_zh-CN.md"],
        PairRule("{dir}{name}.md", "{dir}{name}_zh-CN.md"),
    ),
    (
        "docusaurus",
        [f"docs/{p}" for p in PAGES],
        [f"i18n/zh-Hans/docusaurus-plugin-content-docs/current/{p}" for p in PAGES],
        PairRule("docs/{path}", "i18n/zh-Hans/docusaurus-plugin-content-docs/current/{path}"),
    ),
]


@pytest.mark.parametrize(("en", "zh", "rule"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_each_layout_is_recognised_with_its_pairs(en: list[str], zh: list[str], rule: PairRule) -> None:
    found = recognise(_tree(en, zh, ("CHANGELOG.md", "docs/unrelated.markdown")))
    assert found == (Layout(rule, len(zh)),)
    # The rule pairs exactly the files it was recognised from.
    assert pairs_under([rule], _tree(en, zh)) == set(zip(en[: len(zh)], zh, strict=True))


@pytest.mark.parametrize(
    "files",
    [
        ["docs/en/a.md", "docs/zh_cn/a.md", "docs/en/b.md"],  # one file pair is not evidence
        ["README.md", "README_zh.md", "CONTRIBUTING.md"],
        ["docs/en/a.md", "docs/en/b.md", "docs/zh_cn/c.md", "docs/zh_cn/d.md"],  # no common path
        [],
    ],
)
def test_a_single_name_is_never_a_layout(files: list[str]) -> None:
    assert recognise(files) == ()


def test_two_layouts_together_directory_rule_first() -> None:
    files = ["docs/en/a.md", "docs/en/b.md", "docs/zh/a.md", "docs/zh/b.md", "docs/en/c.md", "docs/zh/c.md"]
    files += ["README.md", "README.zh.md", "CONTRIBUTING.md", "CONTRIBUTING.zh.md"]
    found = recognise(files)
    assert [layout.rule for layout in found] == [
        PairRule("docs/en/{path}", "docs/zh/{path}"),
        PairRule("{dir}{name}.md", "{dir}{name}.zh.md"),
    ]
    assert [layout.pairs for layout in found] == [3, 2]
    assert describe(found) == (
        "10 files pair up: docs/en/{path} <-> docs/zh/{path} (3 pairs); {dir}{name}.md <-> {dir}{name}.zh.md (2 pairs)"
    )


def test_default_rules_are_not_reported_missing() -> None:
    slime_like = ["docs/en/a.md", "docs/zh/a.md", "docs/en/b.md", "docs/zh/b.md"]
    from docsnippets.config import Config

    assert missing_rules(recognise(slime_like), Config().pair_rules) == ()
    other = ["src/en/a.md", "src/zh/a.md", "src/en/b.md", "src/zh/b.md"]
    assert [m.rule.en for m in missing_rules(recognise(other), Config().pair_rules)] == ["src/en/{path}"]


@pytest.mark.parametrize("prefix", ['we"ird: [dir]', "dir # not a comment", "λ/ü", "a\\b", "{name}"])
def test_the_yaml_round_trips_through_the_config_whatever_the_names(prefix: str) -> None:
    files = [f"{prefix}/en/a.md", f"{prefix}/zh/a.md", f"{prefix}/en/b.md", f"{prefix}/zh/b.md"]
    found = recognise(files)
    if "{" in prefix:  # it would read as a template slot: never offered
        assert found == ()
        return
    text = rules_yaml(layout.rule for layout in found)
    config = from_mapping(yaml.safe_load(text), "test")
    assert config.pair_rules == (PairRule(f"{prefix}/en/{{path}}", f"{prefix}/zh/{{path}}"),)
    assert "\n" not in text.rstrip("\n").split("\n", 1)[1]


def test_hints_are_the_layouts_one_pair_suggests_and_never_the_settled_ones():
    files = ["guide/en/start.md", "guide/zh_cn/start.md", "docs/en/a.md", "docs/zh_cn/a.md", "docs/en/b.md"]
    files += ["docs/zh_cn/b.md", "notes.md"]
    [(layout, evidence)] = hints(files, Config().pair_rules)
    assert (layout.rule.en, layout.rule.zh, layout.pairs) == ("guide/en/{path}", "guide/zh_cn/{path}", 1)
    assert evidence == ("guide/en/start.md", "guide/zh_cn/start.md")
    assert [lay.rule.zh for lay in recognise(files)] == ["docs/zh_cn/{path}"]  # two pairs: settled, not a hint
    assert hints(["a.md", "b.md"], Config().pair_rules) == ()
    assert hints(["x.md", "x_zh.md"], Config().pair_rules) == ()  # what the rules already pair
