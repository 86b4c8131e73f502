"""The fix advice of a three-language project, followed as written, leaves no language behind.

A toy repository under the README's three-language configuration (en the source, ja and
zh-hant its translations): a translation edited alone, a translation page removed. Each test
does what the comment says and checks that the next run passes.
"""

from __future__ import annotations

import io
import re
from pathlib import Path

from tests.integration.test_readme_languages import _configuration
from tests.support.corpus import write
from tests.support.gitinit import commit_all, init_repo, run_git

from docsnippets.cli import main

CODES = ("en", "ja", "zh-hant")
GUIDE = (
    "# Guide\n\nText.\n\n"
    "```python\nimport asyncio\n\nasync def main():\n    await asyncio.sleep(1)\n    return 1\n```\n"
)
OTHER = "# Other\n\n```python\nasync def other():\n    return 2\n```\n"
PATCH = re.compile(r"<summary>Patch that brings [^<]*</summary>\n\n( *)```diff\n(.*?)\n\1```", re.DOTALL)


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def three_languages(tmp_path: Path) -> tuple[Path, str]:
    pages = {f"docs/{c}/guide.md": GUIDE for c in CODES} | {f"docs/{c}/other.md": OTHER for c in CODES}
    repo = write(tmp_path / "repo", {".docsnippets.yml": _configuration(), **pages})
    init_repo(repo)
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, "base")
    return repo, run_git(repo, "rev-parse", "HEAD").strip()


def committed(repo: Path, message: str) -> None:
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, message)


def comment_of(repo: Path, base: str) -> tuple[int, str]:
    return run("diff", base, "--root", str(repo), "--fail-on", "desync", "--format", "markdown")


def unindented(block: str, width: int) -> str:
    """A patch as the comment shows it inside a list item, without the item's indentation."""
    return "".join(line[width:] + "\n" for line in block.split("\n"))


def fix_lines(comment: str) -> list[str]:
    return [line for line in comment.split("**To fix:**", 1)[1].splitlines() if line.startswith("- ")]


def test_a_translation_edited_alone_is_undone_or_made_in_every_language(tmp_path):
    repo, base = three_languages(tmp_path)
    ja = repo / "docs/ja/guide.md"
    ja.write_text(GUIDE.replace("sleep(1)", "sleep(2)"), encoding="utf-8")
    committed(repo, "only the Japanese example edited")
    code, comment = comment_of(repo, base)
    assert code == 1, comment
    [step] = fix_lines(comment)
    assert step.startswith("- `ja`: "), step
    assert "undo" in step and "`docs/ja/guide.md:6-10`" in step, step
    assert "`docs/en/guide.md:6-10`" in step and "`docs/zh-hant/guide.md:6-10`" in step, step
    assert "edit `docs/en/guide.md:6-10` to match" not in step
    patches = [unindented(m.group(2), len(m.group(1))) for m in PATCH.finditer(comment)]
    assert patches, comment
    for n, text in enumerate(patches):
        (tmp_path / f"p{n}.diff").write_text(text, encoding="utf-8")
        run_git(repo, "apply", str(tmp_path / f"p{n}.diff"))
    committed(repo, "the same change in every language, as the patches say")
    code, comment = comment_of(repo, base)
    assert code == 0, comment
    assert all("sleep(2)" in (repo / f"docs/{c}/guide.md").read_text(encoding="utf-8") for c in CODES)


def test_a_translation_edited_alone_can_also_be_undone(tmp_path):
    repo, base = three_languages(tmp_path)
    (repo / "docs/ja/guide.md").write_text(GUIDE.replace("sleep(1)", "sleep(2)"), encoding="utf-8")
    committed(repo, "only the Japanese example edited")
    assert comment_of(repo, base)[0] == 1
    run_git(repo, "checkout", base, "--", "docs/ja/guide.md")
    committed(repo, "undone")
    assert comment_of(repo, base)[0] == 0


def test_a_translation_page_removed_is_restored_or_deleted_in_every_language(tmp_path):
    repo, base = three_languages(tmp_path)
    run_git(repo, "rm", "-q", "docs/zh-hant/other.md")
    committed(repo, "the Traditional Chinese page removed")
    code, comment = comment_of(repo, base)
    assert code == 1, comment
    assert "bilingual" not in comment
    assert fix_lines(comment) == [
        "- restore `docs/zh-hant/other.md`, or delete the page in every language "
        "\\(`docs/en/other.md`, `docs/ja/other.md`\\)"  # parentheses escaped, as all our prose
    ]
    code, text = run("diff", base, "--root", str(repo), "--fail-on", "desync")
    assert code == 1 and "bilingual" not in text, text
    assert "fix: restore docs/zh-hant/other.md, or delete the page in every language" in text, text
    run_git(repo, "rm", "-q", "docs/en/other.md", "docs/ja/other.md")
    committed(repo, "the page deleted in every language, as the fix says")
    code, comment = comment_of(repo, base)
    assert code == 0, comment


def test_a_source_page_removed_is_restored_or_deleted_in_every_language(tmp_path):
    repo, base = three_languages(tmp_path)
    run_git(repo, "rm", "-q", "docs/en/other.md")
    committed(repo, "the English page removed")
    code, comment = comment_of(repo, base)
    assert code == 1 and "bilingual" not in comment, comment
    assert (
        "- restore `docs/en/other.md`, or delete the page in every language "
        "\\(`docs/ja/other.md`, `docs/zh-hant/other.md`\\)" in comment
    )
    assert "delete `docs/ja/other.md` as well" not in comment
    assert len(fix_lines(comment)) == 1  # both translations lost the same page: one fix


def test_many_pages_lost_in_many_languages_keep_the_advice_in_the_comment(tmp_path):
    # Each fix names the page in every language: with many languages and many lost pages the
    # fixes alone outgrow the comment. They are shortened like the other lists, never the
    # whole comment dropped to its last resort.
    codes = ("en", *(f"xx-{i:02d}" for i in range(1, 60)))
    names = [f"section-{p:02d}-{'a-rather-long-page-name-' * 3}.md" for p in range(20)]
    config = "translations:\n  source: en\n  pages:\n" + "".join(f'    {c}: "docs/{c}/{{path}}"\n' for c in codes)
    pages = {f"docs/{c}/{n}": GUIDE for c in codes for n in names}
    repo = write(tmp_path / "repo", {".docsnippets.yml": config, **pages})
    init_repo(repo)
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, "base")
    base = run_git(repo, "rev-parse", "HEAD").strip()
    run_git(repo, "rm", "-q", "-r", "docs/xx-01")
    committed(repo, "one translation removed")
    code, comment = comment_of(repo, base)
    assert code == 1 and len(comment) <= 65_536
    assert "The full report is in the job summary" not in comment, comment[:2000]
    steps = fix_lines(comment)
    assert steps[0].startswith("- restore `docs/xx-01/section-"), steps[0][:200]
    assert steps[-1].startswith("- … and ") and len(steps) < len(names), steps[-1]
