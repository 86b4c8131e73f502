"""`docsnippets diff [BASE [HEAD]]` in real git repositories: blobs read through git, no checkout."""

from __future__ import annotations

import json
import os
import re
import subprocess
from pathlib import Path

import pytest
from tests.support.manifest_helpers import schema1

from docsnippets.cli import main

EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)  # note\n```\n"
ZH = "# 指南\n\n```python\nasync def hook(args):\n    return await call(args)  # 说明\n```\n"
ZH_DIVERGED = ZH.replace("call(args)", "call(args, 2)")
EXTRA = "\n```python\nasync def more():\n    await other()\n```\n"


@pytest.fixture(autouse=True)
def _git_identity(monkeypatch, tmp_path):
    for key, value in {
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_GLOBAL": str(tmp_path / "no-gitconfig"),
        "GIT_CONFIG_NOSYSTEM": "1",
    }.items():
        monkeypatch.setenv(key, value)


def git(repo: Path, *args: str) -> str:
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, check=True)
    return done.stdout.strip()


def run(capsys, *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def update(repo: Path, root: Path | None = None) -> None:
    with open(os.devnull, "w") as sink:
        assert main(["update", "--root", str(root or repo)], out=sink) == 0


@pytest.fixture
def repo(make_tree) -> Path:
    """main: EN/ZH in sync with a fresh manifest; feature: the Chinese code diverges, updated."""
    root = make_tree({"docs/en/g.md": EN, "docs/zh/g.md": ZH}, "repo")
    git(root, "init", "-q", "-b", "main")
    update(root)
    commit_all(root, "docs")
    git(root, "checkout", "-q", "-b", "feature")
    (root / "docs/zh/g.md").write_text(ZH_DIVERGED, encoding="utf-8")
    update(root)
    commit_all(root, "diverge")
    return root


def test_work_tree_against_merge_base(repo, capsys):
    code, out, err = run(capsys, "diff", "--root", str(repo), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert data["base"] == git(repo, "merge-base", "main", "HEAD") and data["head"] is None
    assert data["fresh"] is True and data["verdict"]["passed"] is True
    assert [c["after"]["file"] for c in data["changes"]["changed"]] == ["docs/zh/g.md"]
    assert [d["relation"] for d in data["desynchronized"]] == ["diverged"]
    assert run(capsys, "diff", "--root", str(repo), "--fail-on", "desync")[0] == 1


def test_markdown_is_the_comment_body(repo, capsys):
    code, out, _ = run(capsys, "diff", "--root", str(repo), "--format", "markdown", "--fail-on", "desync")
    assert code == 1
    assert out.startswith("### ❌ docsnippets: 1 bilingual example out of sync")
    assert "Compared with the manifest on the base branch" in out and "#### Changed (1)" in out
    assert "edit `docs/en/g.md:4-5` to match `docs/zh/g.md:4-5`" in out
    assert "<!--" not in out  # no sticky-comment marker


def test_markdown_of_a_change_that_touches_no_snippet_says_so_instead_of_a_dangling_colon(repo, capsys):
    (repo / "docs/en/g.md").write_text(EN + "\nMore words.\n", encoding="utf-8")
    commit_all(repo, "prose")
    code, out, _ = run(capsys, "diff", "HEAD~1", "--root", str(repo), "--format", "markdown")
    assert code == 0
    assert "Compared with the manifest on the base branch: no snippet changes." in out, out
    assert not out.rstrip().endswith(":"), out


def test_uncommitted_edits_count_for_the_work_tree_only(repo, capsys):
    (repo / "docs/en/g.md").write_text(EN + EXTRA, encoding="utf-8")
    code, out, _ = run(capsys, "diff", "--root", str(repo))
    assert code == 1 and out.startswith("stale:") and "1 snippet added" in out
    assert "compared with the base manifest:" in out
    # Between two refs the work tree plays no part, and nothing is checked out.
    before = (git(repo, "rev-parse", "--abbrev-ref", "HEAD"), git(repo, "status", "--porcelain"))
    code, out, _ = run(capsys, "diff", "main", "feature", "--root", str(repo))
    assert code == 0 and out.startswith("fresh:")
    assert (git(repo, "rev-parse", "--abbrev-ref", "HEAD"), git(repo, "status", "--porcelain")) == before
    assert (repo / "docs/en/g.md").read_text(encoding="utf-8") == EN + EXTRA


def test_head_ref_with_stale_manifest(repo, capsys):
    git(repo, "checkout", "-q", "-b", "stale", "main")
    (repo / "docs/en/g.md").write_text(EN + EXTRA, encoding="utf-8")
    commit_all(repo, "example without update")
    git(repo, "checkout", "-q", "feature")
    code, out, _ = run(capsys, "diff", "main", "stale", "--root", str(repo), "--format", "json")
    data = json.loads(out)
    assert code == 1 and data["verdict"]["cause"] == "stale" and data["head"] == git(repo, "rev-parse", "stale")
    assert [a["file"] for a in data["changes"]["added"]] == ["docs/en/g.md"]


def test_schema_1_manifest_is_stale_for_diff_as_for_check(repo, capsys, inventory_of):
    """`diff` and `check` give one verdict on a manifest written by an older docsnippets."""
    docs = {p: (repo / p).read_text(encoding="utf-8") for p in ("docs/en/g.md", "docs/zh/g.md")}
    (repo / "documentation-snippets.json").write_text(json.dumps(schema1(inventory_of(docs))), encoding="utf-8")
    commit_all(repo, "an old manifest")
    for command in (("check",), ("diff", "main", "HEAD")):
        code, out, _ = run(capsys, *command, "--root", str(repo), "--format", "json")
        data = json.loads(out)
        assert code == 1 and data["verdict"]["cause"] == "stale", command
        assert any("schema 1" in r for r in data["reasons"]), command


def test_base_without_manifest_is_adoption(repo, capsys):
    git(repo, "checkout", "-q", "--orphan", "bare")
    git(repo, "rm", "-q", "-f", "documentation-snippets.json")
    commit_all(repo, "docs without manifest")
    git(repo, "checkout", "-q", "-f", "feature")
    code, out, _ = run(capsys, "diff", "bare", "--root", str(repo), "--format", "markdown")
    assert code == 0 and "this PR adopts docsnippets" in out and "#### Added (2)" in out


def test_root_in_a_subdirectory(make_tree, capsys):
    root = make_tree({"site/docs/en/g.md": EN, "site/docs/zh/g.md": ZH, "README.md": "x\n"}, "mono")
    git(root, "init", "-q", "-b", "main")
    update(root, root / "site")
    commit_all(root, "docs")
    git(root, "checkout", "-q", "-b", "feature")
    (root / "site/docs/zh/g.md").write_text(ZH_DIVERGED, encoding="utf-8")
    update(root, root / "site")
    commit_all(root, "diverge")
    code, out, err = run(capsys, "diff", "main", "HEAD", "--root", str(root / "site"), "--format", "json")
    assert code == 0, err
    data = json.loads(out)
    assert [c["after"]["file"] for c in data["changes"]["changed"]] == ["docs/zh/g.md"]
    assert data["desynchronized"][0]["sides"][0]["file"] == "docs/en/g.md"


def test_default_base_prefers_origin_head(repo, capsys):
    git(repo, "update-ref", "refs/remotes/origin/trunk", "HEAD~1")
    git(repo, "symbolic-ref", "refs/remotes/origin/HEAD", "refs/remotes/origin/trunk")
    git(repo, "branch", "-q", "-f", "main", "HEAD")  # main now equals feature: it must not be used
    data = json.loads(run(capsys, "diff", "--root", str(repo), "--format", "json")[1])
    assert data["base"] == git(repo, "rev-parse", "HEAD~1") and len(data["changes"]["changed"]) == 1


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--output=x"], "refs may not start with '-'"),
        (["-", "HEAD"], "refs may not start with '-'"),
        (["nosuchref"], "nosuchref: no such commit"),
        (["main", "nosuchref"], "nosuchref: no such commit"),
    ],
)
def test_bad_refs_are_one_line_errors(repo, capsys, args, needle):
    code, _, err = run(capsys, "diff", "--root", str(repo), "--", *args)
    assert code == 2 and needle in err and err.count("\n") == 1, err


def test_no_default_branch(make_tree, capsys):
    root = make_tree({"docs/en/g.md": EN}, "r")
    git(root, "init", "-q", "-b", "trunk")
    commit_all(root, "docs")
    code, _, err = run(capsys, "diff", "--root", str(root))
    assert code == 2 and "no default branch (origin/HEAD, main or master)" in err and err.count("\n") == 1


def test_not_a_repository(make_tree, capsys):
    root = make_tree({"docs/en/g.md": EN}, "plain")
    code, _, err = run(capsys, "diff", "--root", str(root))
    assert code == 2 and "not inside a git work tree" in err and err.count("\n") == 1


def _unlinked(markdown: str) -> str:
    """The comment without its hidden marker and with links reduced to their text (the CLI has none)."""
    body = re.sub(r"\[(`[^`\n]+`)\]\([^)\s]+\)", r"\1", markdown)
    return "\n".join(line for line in body.splitlines() if not line.startswith("<!--")).strip()


@pytest.mark.parametrize("fail_on", ["stale", "desync"])
def test_markdown_equals_the_pr_comment(repo, capsys, fail_on):
    from tests.support.fake_github import FakeGitHub, changed
    from tests.support.scenario import BASE_SHA, MANIFEST, REPO, TOKEN, Scenario

    local = run(capsys, "diff", "--root", str(repo), "--format", "markdown", "--fail-on", fail_on)
    base_manifest = git(repo, "show", f"main:{MANIFEST}") + "\n"
    with FakeGitHub(token=TOKEN) as fake:
        fake.add_repo(REPO).add_pull(42, [changed("docs/zh/g.md"), changed(MANIFEST)])
        fake.repos[REPO].add_file(BASE_SHA, MANIFEST, base_manifest)
        runner = repo.parent / f"runner-{fail_on}"
        runner.mkdir()
        scenario = Scenario(repo, runner, fake)
        scenario.inputs.update({"INPUT_FAIL-ON": fail_on, "INPUT_COMMENT": "always"})
        result = scenario.run()
        assert result.code == local[0]
        assert _unlinked(scenario.comments()[0]) == _unlinked(local[1])


IMPORTING = "# Guide\n\n```python\nfrom pkg.mod import run\n\nasync def hook(args):\n    return await run(args)\n```\n"


def test_diff_checks_references_at_a_ref_and_in_the_work_tree(make_tree, capsys):
    """At HEAD (read from git blobs) and in the work tree, the head's code decides."""
    root = make_tree(
        {"docs/en/g.md": IMPORTING, "docs/zh/g.md": IMPORTING, "pkg/__init__.py": "", "pkg/mod.py": "def run(a):\n"},
        "refs",
    )
    (root / "pkg/mod.py").write_text("def run(a):\n    return a\n", encoding="utf-8")
    git(root, "init", "-q", "-b", "main")
    update(root)
    commit_all(root, "docs and code")
    git(root, "checkout", "-q", "-b", "feature")
    git(root, "mv", "pkg/mod.py", "pkg/moved.py")
    commit_all(root, "move the module")
    for head in (["HEAD"], []):
        code, out, _ = run(
            capsys, "diff", "main", *head, "--root", str(root), "--format", "json", "--fail-on", "references"
        )
        data = json.loads(out)
        assert code == 1 and data["verdict"]["cause"] == "references", (head, out)
        assert [(b["file"], b["line"], b["module"], b["name"]) for b in data["broken_references"]] == [
            ("docs/en/g.md", 4, "pkg.mod", None),
            ("docs/zh/g.md", 4, "pkg.mod", None),
        ]
        code, out, _ = run(
            capsys, "diff", "main", *head, "--root", str(root), "--fail-on", "references", "--no-references"
        )
        assert code == 0 and "broken" not in out
