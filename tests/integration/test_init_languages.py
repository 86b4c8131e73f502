"""``docsnippets init`` on trees of more than two languages: the layout written, with its evidence."""

from __future__ import annotations

import io
import json

from tests.support.gitinit import init_repo

from docsnippets.cli import main
from docsnippets.configfile import load as load_config

ACTION = "OWNER/docsnippets@" + "1" * 40
ZH = "# 指南\n\n这是中文的说明文字，介绍如何调用异步接口。\n\n```python\nasync def main():\n    await run()\n```\n"
EN = "# Guide\n\nHow to call the async interface.\n\n```python\nasync def main():\n    await run()\n```\n"


def init(repo) -> str:
    out = io.StringIO()
    assert main(["init", "--root", str(repo), "--action", ACTION], out=out) == 0, out.getvalue()
    return out.getvalue()


def test_a_chinese_source_directory_without_a_code_beside_an_english_one(tmp_path):
    pages = ("index.md", "guide/start.md", "guide/more.md")
    files = {f"docs/source/{p}": ZH for p in pages} | {f"docs/source_en/{p}": EN for p in pages}
    repo = init_repo(tmp_path / "r", files)
    said = init(repo)
    assert "2 languages (zh the source; en): docs/source/{path}, docs/source_en/{path}" in said
    config = load_config(None, repo)
    assert config.translations is not None and config.translations.source == "zh"
    out = io.StringIO()
    assert main(["check", "--root", str(repo), "--format", "json"], out=out) == 0
    summary = json.loads(out.getvalue())["summary"]
    assert (summary["pairs"], summary["relation"]["identical"], summary["untranslated"]) == (3, 3, 0)


def test_where_two_layouts_fit_init_writes_the_one_that_pairs_the_most_and_says_so(tmp_path):
    langs = ("en", "de", "fr")
    files = {f"docs/{c}/{p}": EN for c in langs for p in ("a.md", "b.md", "c.md")}
    files |= {"x.md": EN, "x.de.md": EN, "y.md": EN, "y.de.md": EN}
    said = init(init_repo(tmp_path / "r", files))
    assert "3 languages (en the source; de, fr): docs/en/{path}, docs/de/{path}, …; 6 translated pages" in said
    assert "chosen over 2 languages (en the source; de): {dir}{name}.md, {dir}{name}.de.md; 2 translated pages" in said
    assert ".docsnippets.yml (3 languages: the default pair rules name two)" in said


def test_a_two_language_layout_that_pairs_more_wins_over_a_suffix_layout_that_pairs_fewer(tmp_path):
    # ms-swift's shape: 66 pages under docs/source and docs/source_en, two README_CN.md twins at
    # the top; the few twins must not decide the layout of the many pages.
    pages = ("index.md", "guide/start.md", "guide/more.md")
    files = {f"docs/source/{p}": ZH for p in pages} | {f"docs/source_en/{p}": EN for p in pages}
    files |= {"README.md": EN, "README_CN.md": ZH, "CONTRIBUTING.md": EN, "CONTRIBUTING_CN.md": ZH}
    repo = init_repo(tmp_path / "r", files)
    said = init(repo)
    assert "2 languages (zh the source; en): docs/source/{path}, docs/source_en/{path}; 3 translated" in said
    assert "chosen over 4 files pair up: {dir}{name}.md <-> {dir}{name}_CN.md (2 pairs), which pairs fewer" in said
    config = load_config(None, repo)
    assert config.translations is not None and config.translations.source == "zh"
    out = io.StringIO()
    assert main(["check", "--root", str(repo), "--format", "json"], out=out) == 0
    assert json.loads(out.getvalue())["summary"]["pairs"] == 3
