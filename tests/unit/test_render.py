import pytest
from markdown_it import MarkdownIt

from docsnippets.constants import GITHUB_COMMENT_LIMIT
from docsnippets.judge.compare import compare
from docsnippets.report import render
from docsnippets.report.text import report_text


def big_report(inventory_of, n: int):
    body = "async def f{i}(x):\n" + "    y = await g(x)  # padding padding padding padding padding\n" * 40
    files = {f"docs/en/p{i}.md": f"```python\n{body.format(i=i)}```\n" for i in range(n)}
    files.update({f"docs/zh/p{i}.md": f"```python\n{body.format(i=i).replace('g(x)', 'h(x)')}```\n" for i in range(n)})
    return compare(inventory_of({}), inventory_of(files))


@pytest.mark.slow
def test_comment_fits_github_limit_and_says_what_was_left_out(inventory_of):
    report = big_report(inventory_of, 300)
    ctx = render.CommentContext(marker="<!-- m -->", links=render.Links("https://github.com", "o/r", "a" * 40))
    text = render.comment(report, ctx)
    assert len(text) <= GITHUB_COMMENT_LIMIT
    assert "more (see the job summary" in text
    assert text.startswith("<!-- m -->\n### ❌")
    small = render.comment(report, ctx, budget=3000)
    assert len(small) <= 3000 and "docsnippets" in small


def test_comment_diff_for_diverged_pair(inventory_of):
    report = big_report(inventory_of, 2)
    text = render.comment(report, render.CommentContext(marker=""))
    # One collapsed diff per diverged pair, one collapsed code block per added snippet.
    assert text.count("<details><summary>English vs Chinese code") == 2 and "+    y = await h(x)" in text
    assert text.count("<details><summary>The code</summary>") == 4


def test_fence_longer_than_any_backtick_run():
    code = "x = '````'\nawait y\n"
    block = render.fenced(code)
    tokens = MarkdownIt("commonmark").parse(block)
    assert [t.type for t in tokens] == ["fence"] and tokens[0].content == code


CODE_SPAN_CASES = {
    "plain": "a",
    "backtick inside": "a`b",
    "backtick runs": "a ` b `` c ``` d",
    "only backticks": "``",
    "leading backtick": "`a",
    "trailing backtick": "a`",
    "backticks both ends": "`a`",
    "spaces both ends": " a ",
    "leading space": " a",
    "trailing space": "a ",
    "space and backtick": " `a` ",
    "pipes": "a|b||c",
    "escaped pipe": "a\\|b",
    "backslash before backtick": "a\\`",
    "lone backslash": "\\",
    "newline": "x\ny",
    "bidi override": "evil\u202etxt.md",
    "html": "<b>x</b> &amp; @octocat",
    "empty": "",
    "one space": " ",
    "only spaces": "   ",
}


def shown(text: str) -> str:
    """What the reader must see: visible(text); all-space text keeps its padding (CommonMark
    strips one space each side only when the content is not all spaces, and a span cannot be empty)."""
    text = render.visible(text)
    return f" {text} " if text.strip(" ") == "" else text


def _code_and_rest(tokens) -> tuple[list[str], str]:
    children = [c for t in tokens if t.type == "inline" for c in t.children]
    code = [c.content for c in children if c.type == "code_inline"]
    rest = "".join(c.content for c in children if c.type != "code_inline")
    return code, rest


@pytest.mark.parametrize("text", list(CODE_SPAN_CASES.values()), ids=list(CODE_SPAN_CASES))
def test_code_span_parses_back_to_its_text(text):
    tokens = MarkdownIt("commonmark").parse(f"x {render.code_span(text)} y\n")
    assert _code_and_rest(tokens) == ([shown(text)], "x  y")


@pytest.mark.parametrize("text", list(CODE_SPAN_CASES.values()), ids=list(CODE_SPAN_CASES))
def test_code_span_in_a_table_cell_parses_back_to_its_text(text):
    table = f"| a | b |\n| - | - |\n| {render.code_span(text, in_table=True)} | z |\n"
    tokens = MarkdownIt("commonmark").enable("table").parse(table)
    assert [t.type for t in tokens].count("td_open") == 2  # no pipe in the text split the row
    cells = [tokens[i + 1] for i, t in enumerate(tokens) if t.type == "td_open"]
    assert _code_and_rest(cells[:1]) == ([shown(text)], "") and cells[1].content == "z"


def test_catalogue_has_the_seed_parts_in_both_languages(config, inventory_of):
    files = {
        "docs/en/a.md": "```python\nasync def f():\n    return 1\n```\n",
        "docs/zh/a.md": "```python\nasync def f():\n    return 1\n```\n",
    }
    from docsnippets.manifest import build as mf

    data = mf.build(inventory_of(files), config, "o/r", "b" * 40)
    zh = render.catalogue(data, "zh")
    en = render.catalogue(data, "en")
    for text, words in (
        (zh, ("出处索引", "中英文对应关系", "原文片段", "正文逐字相同")),
        (en, ("Index", "Bilingual pairs", "Snippets")),
    ):
        for w in words:
            assert w in text
        assert "### DOC-001" in text and "### DOC-002" in text
        assert "https://github.com/o/r/blob/" + "b" * 40 + "/docs/en/a.md#L2-L3" in text
        fences = [t for t in MarkdownIt("commonmark").parse(text) if t.type == "fence"]
        assert [f.content for f in fences] == [s["body"] for s in mf.entries(data)]
        assert "| PAIR-01 | [DOC-001](#doc-001)" in text
    assert "[DOC-001](#doc-001), [DOC-002](#doc-002)" in en and "、" not in en
    assert "[DOC-001](#doc-001)、[DOC-002](#doc-002)" in zh


def test_catalogue_source_line_without_repository(config, inventory_of):
    from docsnippets.manifest import build as mf

    files = {"a.md": "```python\nawait f()\n```\n"}
    en = render.catalogue(mf.build(inventory_of(files), config, None, "c" * 40), "en")
    assert "Source: `cccccccccccc` (repository not recorded)" in en and "not recorded)" in en
    assert "Source: not recorded" not in en
    assert "Source: not recorded" in render.catalogue(mf.build(inventory_of(files), config), "en")


def test_text_report_names_the_fix(inventory_of):
    before = inventory_of({"x.md": "```py\nawait a\n```\n"})
    after = inventory_of({"x.md": "```py\nawait b\n```\n"})
    text = report_text(compare(before, after))
    assert text.startswith("stale:") and "  x.md\n    changed  2\n" in text and "docsnippets update" in text


def test_text_report_tells_twins_together_and_sums_up_a_rename(inventory_of):
    body = "async def f{n}():\n    await g({n})\n"
    before = {f"docs/{lang}/p{n}.md": f"```python\n{body.format(n=n)}```\n" for lang in ("en", "zh") for n in range(8)}
    after = {k.replace("/p", "/guide/p"): v for k, v in before.items() if not k.endswith("p0.md")}
    after["docs/en/p0.md"] = after["docs/zh/p0.md"] = "```python\n" + body.format(n=0).replace("g(0)", "g(1)") + "```\n"
    text = report_text(compare(inventory_of(before), inventory_of(after)), inventory=inventory_of(after))
    assert "  docs/en/p0.md\n    changed  2-3  (and docs/zh/p0.md:2-3, the same change)\n" in text
    assert "  docs/zh/p0.md" not in text
    assert "  moved: 14 snippets, code unchanged\n" in text
    assert "    docs/en/ -> docs/en/guide/: 7 snippets in 7 files\n" in text
    assert text.count("moved") == 1 + text.count(" moved to ")  # the summary line, then one reason per rename
    assert "7 snippets moved to 7 other files: docs/en/ → docs/en/guide/" in text
