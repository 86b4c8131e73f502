"""A configuration's language codes and display names are words the comment shows: in the
collapsed blocks' summaries too, nothing of them links, mentions or hides.

A code may be spelt ``GH-77`` (letters, a hyphen, digits); a display name may too, or hold a
dot (``www.example.org``) or a letter GitHub draws as nothing (U+3164 HANGUL FILLER): the pull
request's configuration reaches stage 1's comment, the base's reaches stage 2's."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tests.support.corpus import write
from tests.support.gfm import assert_structure, gfm
from tests.support.scenario import HEAD_SHA, REPO
from tests.support.stage2_pr import fork_pr, report

from docsnippets.cli import main

NAMES = {"en": "www.example.org", "de": "GH-77", "GH-77": "Hidden\u3164name"}


def config(langs: tuple[str, ...]) -> str:
    pages = "".join(f"    {c}: docs/{c}/{{path}}\n" for c in langs)
    names = "".join(f"    {c}: {NAMES[c]}\n" for c in langs)
    return "translations:\n  source: en\n  pages:\n" + pages + "  names:\n" + names


OLD = "async def read_item(q):\n    return await find(q)\n"
NEW = "async def read_item(q):\n    return await find(q, 1)\n"


def page(body: str) -> str:
    return f"# Page\n\n```python\n{body}```\n"


def _update(root: Path) -> None:
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115


@pytest.mark.parametrize("langs", [("en", "GH-77", "de"), ("en", "GH-77")], ids=["grouped", "one-translation"])
@pytest.mark.parametrize("stage", [0, 1])
def test_codes_and_names_of_a_hostile_config_neither_link_nor_hide(tmp_path, fake, stage, langs):
    files = {".docsnippets.yml": config(langs), **{f"docs/{c}/index.md": page(OLD) for c in langs}}
    base = write(tmp_path / "base", files)
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    (head / "docs/en/index.md").write_text(page(NEW), encoding="utf-8")
    _update(head)
    scenario = fork_pr(tmp_path, fake, base, head, "desync")[stage]
    result = scenario.run()
    assert result.code in (0, 1), result.stderr
    [comment] = [c.body for c in fake.comments(REPO, 42)]
    assert "<summary>" in comment
    for text in (comment, result.summary):
        assert_structure(text, allowed=frozenset({"blockquote"}))
        shown = "".join(n.text() for n in gfm(text).walk() if n.tag not in ("code", "pre"))
        assert "\u3164" not in shown


def test_stage_2_judges_with_the_base_translations_not_the_prs(tmp_path, fake):
    """A PR that drops its translations from the config (and commits the manifest that config
    writes) leaves them behind all the same: stage 2 reads the default branch's config."""
    langs = ("en", "de", "GH-77")
    base = write(
        tmp_path / "base", {".docsnippets.yml": config(langs), **{f"docs/{c}/index.md": page(OLD) for c in langs}}
    )
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    (head / "docs/en/index.md").write_text(page(NEW), encoding="utf-8")
    (head / ".docsnippets.yml").write_text(
        "translations:\n  source: en\n  pages:\n    en: docs/en/{path}\n    xx: nowhere/{path}\n", encoding="utf-8"
    )
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "desync")
    assert stage1.run().code == 0  # the PR's own config hides its translations from stage 1
    result = stage2.run()
    assert result.code == 0, result.stderr
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] == "failure"
    data = report(stage2, result)
    assert sorted(data["languages"]) == ["GH-77", "de"]


def test_five_hundred_languages_left_behind_fit_one_comment(tmp_path, fake):
    """The most templates a config may hold, each language's page left behind by one edit of
    the source: the comment stays within GitHub's size, the report counts every translation."""
    langs = ("en", *(f"xx-{i}" for i in range(499)))
    pages = "".join(f"    {c}: docs/{c}/{{path}}\n" for c in langs)
    files = {".docsnippets.yml": "translations:\n  pages:\n" + pages}
    files |= {f"docs/{c}/index.md": page(OLD) for c in langs}
    base = write(tmp_path / "base", files)
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    (head / "docs/en/index.md").write_text(page(NEW), encoding="utf-8")
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "desync")
    first = stage1.run()
    assert first.code == 1, first.stderr
    assert report(stage1, first)["verdict"]["desynchronized"] == 499
    second = stage2.run()
    assert second.code == 0, second.stderr
    assert [s["state"] for s in fake.repos[REPO].statuses[HEAD_SHA]] == ["failure"]
    assert report(stage2, second)["verdict"]["desynchronized"] == 499
    assert len(fake.requests()) <= 15, [r.path for r in fake.requests()]
    for body in [c.body for c in fake.comments(REPO, 42)] + [first.summary, second.summary]:
        assert_structure(body, allowed=frozenset({"blockquote"}))


@pytest.mark.parametrize(
    "forge",
    [
        lambda t: t.replace('"language": "de"', '"language": "de", "language": "en"', 1),
        lambda t: t.replace('"language": "de"', '"language": "::error::x\\u202e"', 1),
        lambda t: t.replace('"en": "docs/en/index.md"', '"en": "../../../etc/passwd"', 1),
        lambda t: t.replace('"relation": "comments"', '"relation": "identical"'),
    ],
    ids=["key-twice", "workflow-command-code", "outside-path", "false-relations"],
)
def test_a_forged_schema_3_manifest_is_never_fresh_in_stage_2(tmp_path, fake, forge):
    langs = ("en", "de")
    files = {".docsnippets.yml": config(langs), **{f"docs/{c}/index.md": page(OLD) for c in langs}}
    base = write(tmp_path / "base", files)
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    (head / "docs/en/index.md").write_text(page(OLD + "# a comment\n"), encoding="utf-8")
    _update(head)
    manifest = head / "documentation-snippets.json"
    forged = forge(manifest.read_text(encoding="utf-8"))
    assert forged != manifest.read_text(encoding="utf-8")
    manifest.write_text(forged, encoding="utf-8")
    stage2 = fork_pr(tmp_path, fake, base, head, "stale")[1]
    result = stage2.run()
    assert "Traceback" not in result.stderr + result.stdout
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] in ("failure", "error"), status
    assert not any(line.startswith("::error::x") for line in result.stdout.splitlines())
    [comment] = [c.body for c in fake.comments(REPO, 42)]
    assert_structure(comment, allowed=frozenset({"blockquote"}))
    assert "documentation-snippets.json" in comment
