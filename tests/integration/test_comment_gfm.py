"""The comment as GitHub shows it: rendered with cmark-gfm (GitHub's own engine), then its
HTML structure checked — lists stay lists, collapsed blocks are well formed, links and code
spans survive, nothing untrusted becomes HTML or a mention, and big PRs stay short."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest
from tests.support.corpus import BASE, HEAD, need, write
from tests.support.gfm import assert_structure, sample_comment, visible_items

from docsnippets.cli import main
from docsnippets.judge.compare import compare
from docsnippets.report import render

SHA = "e" * 40
REPO_URL = "https://github.com/o/r"


@pytest.fixture
def comment_of(inventory_of):
    """`comment_of(before, after)`: the PR comment of a change between two sets of documents."""

    def build(before: dict[str, str], after: dict[str, str]) -> str:
        report = compare(inventory_of(before), inventory_of(after))
        ctx = render.CommentContext(
            marker="<!-- m -->",
            links=render.Links("https://github.com", "o/r", SHA),
            changes=report,
            inventory=inventory_of(after),
        )
        return render.comment(report, ctx)

    return build


def fence(body: str) -> str:
    return f"Text.\n\n```python\n{body}```\n"


def test_tree_rename_stays_short(comment_of):
    body = "async def f{n}(x):\n    return await g(x, {n})\n"
    before: dict[str, str] = {}
    for n in range(30):
        before[f"docs/en-us/guide/p{n}.md"] = fence(body.format(n=n))
        before[f"docs/zh-cn/guide/p{n}.md"] = fence(body.format(n=n))
    after = {k.replace("docs/en-us/", "docs/en/").replace("docs/zh-cn/", "docs/zh/"): v for k, v in before.items()}
    after["docs/en/guide/p1.md"] = fence(body.format(n=1).replace("g(x", "h(x"))
    after["docs/zh/guide/p1.md"] = fence(body.format(n=1).replace("g(x", "h(x"))
    text = comment_of(before, after)
    root = assert_structure(text)
    assert "#### Moved (58)" in text
    assert "- `docs/en-us/` → `docs/en/`: 29 snippets in 29 files" in text
    assert len(visible_items(root)) <= 15, len(visible_items(root))
    # The edited page moved too, so its twins read as added and removed: each once, code shown once.
    assert "`docs/{en,zh}/guide/p1.md`" in text and "added in both languages, same code" in text
    assert "`docs/{en-us,zh-cn}/guide/p1.md` lines 4-5 and 4-5 · removed from both" in text
    assert text.count("return await h(x, 1)") == 1
    assert "#### Why the manifest is stale (3)" in text and "moved to another file" not in text
    assert "- 58 snippets moved to other files (2 renames, listed under *Moved*)" in text


def test_many_changes_get_a_table_and_a_collapsed_list(comment_of):
    before = {f"docs/a{n}.md": fence(f"await f({n})\n") for n in range(12)}
    after = {f"docs/a{n}.md": fence(f"await f({n}, 1)\n") for n in range(12)}
    root = assert_structure(comment_of(before, after))
    assert any(n.tag == "table" and "docs/a3.md" in n.text() for n in root.walk())
    assert len(visible_items(root)) == 0
    assert len([n for n in root.walk() if n.tag == "li" and n.inside("details")]) == 12


def test_twins_that_changed_differently_show_both_diffs(comment_of):
    old = "async def f():\n    await g(1)\n"
    before = {"docs/en/a.md": fence(old), "docs/zh/a.md": fence(old)}
    after = {"docs/en/a.md": fence(old.replace("1", "2")), "docs/zh/a.md": fence(old.replace("1", "3"))}
    text = comment_of(before, after)
    root = assert_structure(text)
    assert "`docs/{en,zh}/a.md`" in text and "changed differently" in text
    assert "+    await g(2)" in text and "+    await g(3)" in text
    items = visible_items(root)
    assert [li for li in items if "changed differently" in li.text()]


def test_added_snippet_shows_its_code_and_its_counterpart_state(comment_of):
    before = {"docs/en/a.md": fence("await a()\n"), "docs/zh/a.md": fence("await a()\n")}
    after = {
        "docs/en/a.md": fence("await a()\n") + fence("await only_english()\n"),
        "docs/zh/a.md": fence("await a()\n"),
        "docs/en/b.md": fence("await both()  # hi\n"),
        "docs/zh/b.md": fence("await both()  # 你好\n"),
    }
    text = comment_of(before, after)
    assert_structure(text)
    assert "no Chinese counterpart yet" in text
    assert "`docs/{en,zh}/b.md`" in text and "added in both languages, same code" in text
    assert "await only_english()" in text and text.count("await both()") == 1


def test_links_and_code_spans_survive_hostile_names(comment_of):
    names = ["docs/en/<img src=x> @octocat #1.md", "docs/en/a`b.md", "docs/en/](javascript:x).md"]
    before = {n: fence("await old()\n") for n in names}
    after = {n: fence("await new()  # <b>@team</b>\n") for n in names}
    root = assert_structure(comment_of(before, after))
    hrefs = [n.attrs.get("href") or "" for n in root.walk() if n.tag == "a"]
    assert len(hrefs) == 3 and all(h.startswith(f"{REPO_URL}/blob/{SHA}/docs/en/") for h in hrefs)
    codes = [n.text() for n in root.walk() if n.tag == "code"]
    for name in names:
        assert any(name in c for c in codes), name


def test_hostile_names_in_the_stale_reasons_neither_mention_nor_link(comment_of, inventory_of):
    """A renamed file's old and new names reach the headline and the reasons, as prose."""
    old, new = "docs/en/@octocat #12 www.evil.example.md", "docs/en/x@team/#7.md"
    body = fence("await act()\n")
    report = compare(inventory_of({old: body}), inventory_of({new: body}))
    assert not report.fresh and any(new in r for r in report.reasons)
    text = render.comment(report, render.CommentContext(marker="<!-- m -->", inventory=inventory_of({new: body})))
    root = assert_structure(text)  # no mention, issue link or bare URL outside code
    assert not [n for n in root.walk() if n.tag == "a"]


def test_shortened_comment_keeps_its_structure(comment_of, inventory_of):
    before = {f"docs/en/p{n}.md": fence(f"await f({n})\n" * 30) for n in range(200)}
    after = {f"docs/en/p{n}.md": fence(f"await f({n}, 2)\n" * 30) for n in range(200)}
    text = comment_of(before, after)
    assert_structure(text)
    small = render.comment(
        compare(inventory_of(before), inventory_of(after)), render.CommentContext(marker=""), budget=3000
    )
    assert_structure(small, budget=3000)


def _git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout


def _apply_offered_patch(text: str, side: str, repo: Path, files: dict[str, str]) -> str:
    """The comment's patch for ``side`` (English or Chinese), applied with git to ``files`` laid
    out in ``repo``; returns the patch's text."""
    found = re.search(rf"brings the {side} side in line \(git apply\)</summary>\n\n  ```diff\n(.*?)  ```", text, re.S)
    assert found, text
    patch_text = "".join(line[2:] + "\n" for line in found.group(1).splitlines())
    write(repo, files)
    _git(repo, "init", "-q")
    (repo / "fix.patch").write_text(patch_text, encoding="utf-8")
    _git(repo, "apply", "--check", "fix.patch")
    _git(repo, "apply", "fix.patch")
    return patch_text


def test_desync_says_which_side_changed_and_its_patch_applies(tmp_path: Path, comment_of, inventory_of):
    en_old = "```python\nfrom a.b import f\n\nasync def main():\n    await f(1)  # call it\n    return 1\n```\n"
    zh_old = en_old.replace("# call it", "# 调用它")
    en_new = en_old.replace("from a.b import f", "from a.c import f")
    files_before = {"docs/en/x.md": "# X\n\nSome words.\n\n" + en_old, "docs/zh/x.md": "# X\n\n一些文字。\n\n" + zh_old}
    files_after = {**files_before, "docs/en/x.md": files_before["docs/en/x.md"].replace(en_old, en_new)}
    text = comment_of(files_before, files_after)
    assert_structure(text)
    assert "this PR edited the English side, not the Chinese one" in text
    assert "-from a.b import f\n" in text and "+from a.c import f\n" in text
    repo = tmp_path / "repo"
    _apply_offered_patch(text, "Chinese", repo, files_after)
    fixed = {k: (repo / k).read_text(encoding="utf-8") for k in files_after}
    assert fixed["docs/zh/x.md"] == files_after["docs/zh/x.md"].replace("from a.b import f", "from a.c import f")
    # The pair is in sync again: no desynchronized entry, the Chinese comment kept.
    assert not compare(inventory_of(fixed), inventory_of(fixed)).desynchronized and not inventory_of(fixed).missing()
    assert "调用它" in fixed["docs/zh/x.md"]
    assert {p.relation for p in inventory_of(fixed).pairs} == {"comments"}


def test_no_patch_when_the_untouched_side_differs_otherwise(comment_of):
    en_old = "```python\nasync def main():\n    await f(1)\n    return 1\n```\n"
    zh_old = en_old.replace("return 1", "return 2")
    before = {"docs/en/x.md": en_old, "docs/zh/x.md": zh_old}
    after = {**before, "docs/en/x.md": en_old.replace("f(1)", "f(5)")}
    text = comment_of(before, after)
    assert "this PR edited the English side" in text and "git apply" not in text
    assert "No patch for the Chinese side: the change does not carry over line for line" in text, text


def test_markdown_format_from_the_cli(tmp_path: Path, capsys):
    old = "async def f():\n    await g(1)\n"
    root = write(tmp_path / "t", {"docs/en/a.md": fence(old), "docs/zh/a.md": fence(old)})
    assert main(["update", "--root", str(root)]) == 0
    write(root, {"docs/en/a.md": fence(old.replace("1", "2")), "docs/zh/a.md": fence(old.replace("1", "2"))})
    capsys.readouterr()
    assert main(["check", "--root", str(root), "--format", "markdown"]) == 1
    text = capsys.readouterr().out
    assert_structure(text)
    assert "`docs/{en,zh}/a.md`" in text and text.count("+    await g(2)") == 1


@pytest.fixture
def slime():
    need(HEAD, BASE)
    return BASE, HEAD


def test_slime_change_shows_the_shared_diff_once(slime):
    text = sample_comment().slime_comment(*slime)
    root = assert_structure(text)
    assert text.count("+from slime.observability.trace_utils import trace_function\n") == 1
    assert text.count("+from slime.observability.trace_utils import build_sglang_meta_trace_attrs") == 1
    assert "`docs/{en,zh}/developer_guide/trace.md`" in text
    assert len([li for li in visible_items(root) if "trace.md" in li.text()]) == 2


def test_readme_sample_is_the_generated_one(slime):
    script = sample_comment()
    readme = (script.ROOT / "README.md").read_text(encoding="utf-8")
    assert script.into_readme(readme, script.slime_comment(*slime)) == readme, (
        "run: python bench/sample_comment.py --readme"
    )


_EN = 'async def main():\n    """Run it."""\n    await f(1)  # call it\n    return 1\n'
_ZH = _EN.replace("Run it.", "运行它。").replace("# call it", "# 调用它")
_CJK = re.compile(r"[\u3000-\u9fff\uff00-\uffef]")


@pytest.mark.parametrize(
    ("zh_new", "en_expected"),
    [
        # a changed code line that also gains a Chinese comment: the code goes over, the comment stays home
        (_ZH.replace("await f(1)  # 调用它", "await f(2)  # 调用它，第二个参数"), _EN.replace("f(1)", "f(2)")),
        # a Chinese comment line added above the changed line
        (_ZH.replace("    await f(1)", "    # 先准备\n    await f(2)"), _EN.replace("f(1)", "f(2)")),
        # a new code line carrying a Chinese comment
        (
            _ZH.replace("    return 1", "    await g()  # 再调用\n    return 1"),
            _EN.replace("    return 1", "    await g()\n    return 1"),
        ),
    ],
    ids=["changed-line-gains-comment", "comment-line-added", "new-line-with-comment"],
)
def test_the_patch_carries_code_only(tmp_path: Path, comment_of, zh_new: str, en_expected: str):
    before = {"docs/en/x.md": fence(_EN), "docs/zh/x.md": fence(_ZH)}
    after = {**before, "docs/zh/x.md": fence(zh_new)}
    text = comment_of(before, after)
    assert_structure(text)
    repo = tmp_path / "repo"
    patch_text = _apply_offered_patch(text, "English", repo, after)
    assert not _CJK.search(patch_text), patch_text
    assert (repo / "docs/en/x.md").read_text(encoding="utf-8") == fence(en_expected)


@pytest.mark.parametrize(
    ("en_old", "zh_new", "why"),
    [
        (_EN, _ZH.replace("运行它。", "运行它两次。").replace("f(1)", "f(2)"), "the change edits a docstring"),
    ],
    ids=["docstring-edited"],
)
def test_no_patch_says_why(comment_of, en_old: str, zh_new: str, why: str):
    before = {"docs/en/x.md": fence(en_old), "docs/zh/x.md": fence(_ZH)}
    text = comment_of(before, {**before, "docs/zh/x.md": fence(zh_new)})
    assert_structure(text)
    assert "git apply" not in text and f"No patch for the English side: {why}" in text, text


def test_slime_zh_only_edit_with_a_chinese_comment_gives_an_english_patch_of_code_only(
    tmp_path: Path, slime, comment_of
):
    _, head = slime
    names = ("docs/en/get_started/agent.md", "docs/zh/get_started/agent.md")
    before = {n: (head / n).read_text(encoding="utf-8") for n in names}
    old = "adapter.open_session(session_id, sampling_defaults=sampling_params)\n"
    new = "adapter.open_session(session_id, sampling_defaults=sampling_params, timeout=30)  # 三十秒超时\n"
    assert old in before[names[1]]
    after = {**before, names[1]: before[names[1]].replace(old, new)}
    text = comment_of(before, after)
    assert_structure(text)
    repo = tmp_path / "repo"
    patch_text = _apply_offered_patch(text, "English", repo, after)
    assert not _CJK.search(patch_text), patch_text
    fixed = (repo / names[0]).read_text(encoding="utf-8")
    assert fixed == before[names[0]].replace(old, new.split("  #")[0] + "\n")


# The agentscope README's twins: the same code, its comment and its strings translated.
_AS_EN = (
    "async def main():\n"
    '    client = Client(name="gaode_mcp", url="https://mcp.example.com/mcp")\n'
    '    func = await client.get_callable_function(func_name="maps_geo")\n'
    "    # Option 1: call it directly\n"
    '    await func(address="Tiananmen Square", city="Beijing")\n'
    '    print("Done, thank you")\n'
    "    return func\n"
)
_AS_ZH = (
    _AS_EN.replace("Option 1: call it directly", "选项 1：直接调用")
    .replace("Tiananmen Square", "天安门广场")
    .replace('"Beijing"', '"北京"')
    .replace("Done, thank you", "完成，谢谢")
)
_CALL_ZH = 'await func(address="天安门广场", city="北京")'
_CALL_EN = 'await func(address="Tiananmen Square", city="Beijing")'


def test_translated_strings_are_twins_not_a_desync(comment_of, inventory_of):
    """A PR that edits the Chinese side's strings and comment only: no desync, no fix asked."""
    before = {"README.md": fence(_AS_EN), "README_zh.md": fence(_AS_ZH)}
    assert [p.relation for p in inventory_of(before).pairs] == ["strings"]
    after = {
        **before,
        "README_zh.md": fence(_AS_ZH.replace("完成，谢谢", "完成了，谢谢你").replace("直接调用", "直接调")),
    }
    text = comment_of(before, after)
    assert_structure(text)
    assert [p.relation for p in inventory_of(after).pairs] == ["strings"]
    assert "Desynchronized" not in text and "to match" not in text and "git apply" not in text, text


@pytest.mark.parametrize(
    ("zh_new", "en_expected"),
    [
        # a code change on the line that holds the translated strings: the English strings stay
        (
            _AS_ZH.replace(_CALL_ZH, _CALL_ZH[:-1] + ", timeout=5)"),
            _AS_EN.replace(_CALL_EN, _CALL_EN[:-1] + ", timeout=5)"),
        ),
        # a code change elsewhere, next to a string the Chinese side also reworded
        (
            _AS_ZH.replace('"maps_geo"', '"maps_geocode"').replace('"北京"', '"北京市"'),
            _AS_EN.replace('"maps_geo"', '"maps_geocode"'),
        ),
        # a new line that repeats a translated string: it goes over in English
        (
            _AS_ZH.replace("    return func\n", '    print("完成，谢谢")\n    return func\n'),
            _AS_EN.replace("    return func\n", '    print("Done, thank you")\n    return func\n'),
        ),
    ],
    ids=["changed-line-with-strings", "code-and-a-reworded-string", "new-line-repeating-a-string"],
)
def test_the_patch_keeps_this_sides_own_strings(
    tmp_path: Path, comment_of, inventory_of, zh_new: str, en_expected: str
):
    before = {"README.md": fence(_AS_EN), "README_zh.md": fence(_AS_ZH)}
    after = {**before, "README_zh.md": fence(zh_new)}
    text = comment_of(before, after)
    assert_structure(text)
    assert "this PR edited the Chinese side, not the English one" in text, text
    repo = tmp_path / "repo"
    patch_text = _apply_offered_patch(text, "English", repo, after)
    assert not _CJK.search(patch_text), patch_text
    fixed = (repo / "README.md").read_text(encoding="utf-8")
    assert fixed == fence(en_expected)
    assert [p.relation for p in inventory_of({**after, "README.md": fixed}).pairs] == ["strings"]


_TWICE_EN = _AS_EN.replace('    print("Done, thank you")\n', '    print("Done, thank you")\n    print("Thanks!")\n')
_TWICE_ZH = _AS_ZH.replace('    print("完成，谢谢")\n', '    print("完成，谢谢")\n    print("完成，谢谢")\n')
_ADDS = "the change adds or rewords text in a string, which each language writes in its own words"


@pytest.mark.parametrize(
    ("en_old", "zh_old", "zh_new", "why"),
    [
        (_AS_EN, _AS_ZH, _AS_ZH.replace("    return func\n", '    print("再见")\n    return func\n'), _ADDS),
        (_AS_EN, _AS_ZH, _AS_ZH.replace(_CALL_ZH, 'await func(address="故宫", city="北京", timeout=5)'), _ADDS),
        (
            _AS_EN,
            _AS_ZH,
            _AS_ZH.replace('print("完成，谢谢")', 'print("""完成，\n    谢谢""", end="")'),
            "the change edits a string of several lines, which each language writes in its own words",
        ),
        (
            _TWICE_EN,
            _TWICE_ZH,
            _TWICE_ZH.replace("    return func\n", '    print("完成，谢谢")\n    return func\n'),
            "a string it brings over is worded two ways on the untouched side",
        ),
    ],
    ids=["new-chinese-string", "code-change-with-a-reworded-string", "string-of-several-lines", "worded-two-ways"],
)
def test_no_patch_carries_one_languages_strings_into_the_other(
    comment_of, en_old: str, zh_old: str, zh_new: str, why: str
):
    before = {"README.md": fence(en_old), "README_zh.md": fence(zh_old)}
    text = comment_of(before, {**before, "README_zh.md": fence(zh_new)})
    assert_structure(text)
    assert "git apply" not in text and f"No patch for the English side: {why}" in text, text


def test_twins_with_translated_strings_are_added_and_removed_as_one(comment_of):
    pages = {"README.md": fence(_AS_EN), "README_zh.md": fence(_AS_ZH)}
    added = comment_of({}, pages)
    assert "added in both languages, same code, strings translated" in added, added
    removed = comment_of(pages, {"README.md": "No code.\n", "README_zh.md": "没有代码。\n"})
    assert "removed from both" in removed, removed
