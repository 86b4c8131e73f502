from markdown_it import MarkdownIt

from docsnippets import render
from docsnippets.compare import compare
from docsnippets.config import Config
from docsnippets.extract import snippets_from_text
from docsnippets.pairs import pair_up
from docsnippets.textreport import report_text

CFG = Config()


def inv(files: dict[str, str]):
    snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, CFG)]
    return pair_up(snippets, set(files), CFG)


def big_report(n: int):
    body = "async def f{i}(x):\n" + "    y = await g(x)  # padding padding padding padding padding\n" * 40
    files = {f"docs/en/p{i}.md": f"```python\n{body.format(i=i)}```\n" for i in range(n)}
    files.update({f"docs/zh/p{i}.md": f"```python\n{body.format(i=i).replace('g(x)', 'h(x)')}```\n" for i in range(n)})
    return compare(inv({}), inv(files))


def test_comment_fits_github_limit_and_says_what_was_left_out():
    report = big_report(300)
    ctx = render.CommentContext(marker="<!-- m -->", links=render.Links("https://github.com", "o/r", "a" * 40))
    text = render.comment(report, ctx)
    assert len(text) <= render.COMMENT_LIMIT
    assert "more (see the job summary" in text
    assert text.startswith("<!-- m -->\n### ❌")
    small = render.comment(report, ctx, budget=3000)
    assert len(small) <= 3000 and "docsnippets" in small


def test_comment_diff_for_diverged_pair():
    report = big_report(2)
    text = render.comment(report, render.CommentContext(marker=""))
    assert text.count("<details>") == 2 and "+    y = await h(x)" in text


def test_fence_longer_than_any_backtick_run():
    code = "x = '````'\nawait y\n"
    block = render.fenced(code)
    tokens = MarkdownIt("commonmark").parse(block)
    assert [t.type for t in tokens] == ["fence"] and tokens[0].content == code


def test_code_span_survives_backticks_and_pipes():
    span = render.code_span("a`b|c", in_table=True)
    assert span.startswith("``") and "\\|" in span


def test_catalogue_has_the_seed_parts_in_both_languages():
    files = {
        "docs/en/a.md": "```python\nasync def f():\n    return 1\n```\n",
        "docs/zh/a.md": "```python\nasync def f():\n    return 1\n```\n",
    }
    from docsnippets import manifest as mf

    data = mf.build(inv(files), CFG, "o/r", "b" * 40)
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


def test_catalogue_source_line_without_repository():
    from docsnippets import manifest as mf

    files = {"a.md": "```python\nawait f()\n```\n"}
    en = render.catalogue(mf.build(inv(files), CFG, None, "c" * 40), "en")
    assert "Source: `cccccccccccc` (repository not recorded)" in en and "not recorded)" in en
    assert "Source: not recorded" not in en
    assert "Source: not recorded" in render.catalogue(mf.build(inv(files), CFG), "en")


def test_text_report_names_the_fix():
    before = inv({"x.md": "```py\nawait a\n```\n"})
    after = inv({"x.md": "```py\nawait b\n```\n"})
    text = report_text(compare(before, after))
    assert text.startswith("stale:") and "  x.md\n    changed  2-2\n" in text and "docsnippets update" in text
