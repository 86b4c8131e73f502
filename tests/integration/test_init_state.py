"""``docsnippets init`` says what is true of the repository it runs in, on real git repositories:
nothing to check yet, the steps still pending on every run, files a ``.gitignore`` would keep out
of the adoption commit, and the repository (and commit) its ``origin`` remote names."""

from __future__ import annotations

import json
import subprocess
from pathlib import Path

import pytest
from tests.support.gitinit import git_env, init_repo, run_git

from docsnippets.adopt.workflows import WORKFLOWS
from docsnippets.cli import main

EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)\n```\n"
ZH = EN.replace("Guide", "指南").replace("call(args)", "call(args)  # 调用")
PAGES = {"docs/en/a.md": EN, "docs/zh/a.md": ZH, "docs/en/b.md": EN, "docs/zh/b.md": ZH}
MANIFEST = "documentation-snippets.json"
PLAIN = {
    "README.md": "# A project\n\n```bash\npip install it\n```\n",
    "docs/usage.md": "Use it.\n",
    "CHANGES.md": "-\n",
}


@pytest.fixture(autouse=True)
def _git_of_this_test(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """init runs git itself: with no user or system config, nor a global excludes file."""
    for key, value in git_env(tmp_path).items():
        monkeypatch.setenv(key, value)


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def next_steps(out: str) -> list[str]:
    assert "next steps:" in out, out
    return [line.strip() for line in out.split("next steps:\n", 1)[1].splitlines()]


def commit_command(out: str) -> str:
    [step] = [s for s in next_steps(out) if s.split(". ", 1)[1].startswith("commit: ")]
    return step.split("commit: ", 1)[1]


def sh(repo: Path, command: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(["bash", "-c", command], cwd=repo, capture_output=True, text=True, check=False)


def committed(repo: Path) -> set[str]:
    return set(run_git(repo, "ls-files").splitlines())


# --- nothing to check ---------------------------------------------------------------------------


def test_a_repository_without_async_examples_is_told_so_first(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PLAIN)
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0
    first = out.splitlines()[0]
    assert first == "found 0 async examples in 3 Markdown files; nothing will be checked until one appears"
    assert f"wrote {MANIFEST} (0 snippets in 0 files, 0 pairs; " in out
    assert all(f"wrote {path}" in out for path in WORKFLOWS)  # it still sets things up
    assert "pin the Action" in out and "require the `docsnippets` status" in out

    code, out, _ = run(capsys, "init", "--dry-run")
    assert code == 0 and out.splitlines()[0].startswith("found 0 async examples in 3 Markdown files")


def test_pages_with_examples_but_no_pairs_get_the_evidence_and_the_config_that_would_pair_them(
    tmp_path, monkeypatch, capsys
):
    """One English page and its twin under a directory name the layouts do not settle on from a
    single pair: init says nothing paired, why, and which config would pair them."""
    repo = init_repo(tmp_path / "r", {"guide/en/start.md": EN, "guide/zh_cn/start.md": ZH, "notes.md": EN})
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0
    assert "3 async examples in 3 Markdown files, none paired" in out, out
    assert "guide/en/start.md and guide/zh_cn/start.md" in out
    assert 'pair_rules:\n  - {en: "guide/en/{path}", zh: "guide/zh_cn/{path}"}' in out
    assert not (repo / ".docsnippets.yml").exists()  # one pair is evidence to show, not to act on


def test_when_the_pairs_hold_no_example_init_says_the_pages_with_examples_are_untranslated(
    tmp_path, monkeypatch, capsys
):
    """xtuner's shape: docs/en and docs/zh pair up, but the only examples are on pages written in
    one language. The layout is right; asking for pair_rules would send the user to change it."""
    prose = "# Page\n\nWords.\n"
    files = {"docs/en/a.md": prose, "docs/zh/a.md": prose, "docs/en/b.md": prose, "docs/zh/b.md": prose}
    repo = init_repo(tmp_path / "r", files | {"docs/zh/only.md": ZH, "design/notes.md": EN})
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init", "--dry-run")
    assert code == 0
    assert "2 async examples in 2 Markdown files, none paired: none of these files has a counterpart" in out, out
    assert "the pair rules pair 4 other files, none with an async example: the pages with examples are" in out
    assert "no file names suggest a layout" not in out and "write pair_rules" not in out


def test_without_git_init_says_git_is_missing_not_that_this_is_no_repository(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    monkeypatch.chdir(repo)
    monkeypatch.setenv("PATH", str(tmp_path / "no-programs-here"))
    code, out, err = run(capsys, "init", "--root", str(repo))
    assert code == 2 and out == ""
    assert err == f"docsnippets: error: {repo}: git is not installed; install git and run `docsnippets init` again\n"


# --- the steps still pending, every run ---------------------------------------------------------


def test_every_run_ends_with_the_steps_still_pending(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    monkeypatch.chdir(repo / "docs" / "zh")
    code, first, _ = run(capsys, "init")
    assert code == 0
    code, second, _ = run(capsys, "init")
    assert code == 0 and "wrote" not in second
    paths = [MANIFEST, *WORKFLOWS, ".gitattributes"]
    for out in (first, second):
        steps = next_steps(out)
        assert steps[0].startswith("1. pin the Action: in ../../.github/workflows/docsnippets.yml and ")
        assert "OWNER/docsnippets@0000" in steps[0]
        assert commit_command(out) == (
            f"git add {' '.join('../../' + p for p in paths)} && git commit -m 'Adopt docsnippets'"
        )
        assert "require the `docsnippets` status" in steps[-1]

    # The commit the step names is the one that works; once it is made, it is no longer pending.
    done = sh(repo / "docs" / "zh", commit_command(second))
    assert done.returncode == 0, done.stderr
    assert set(paths) <= committed(repo)
    code, third, _ = run(capsys, "init")
    assert code == 0 and "git add" not in third and "pin the Action" in third

    # Pinned: no pin step; the rewritten workflows (only they changed) are to be committed again.
    code, pinned, _ = run(capsys, "init", "--force", "--action", "acme/docsnippets@" + "c" * 40)
    assert code == 0 and "pin the Action" not in pinned
    assert commit_command(pinned) == (
        f"git add {' '.join('../../' + p for p in WORKFLOWS)} && git commit -m 'Adopt docsnippets'"
    )


def test_a_placeholder_left_in_one_workflow_is_named(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    monkeypatch.chdir(repo)
    assert run(capsys, "init", "--action", "acme/docsnippets@" + "d" * 40)[0] == 0
    stage2 = repo / ".github/workflows/docsnippets-comment.yml"
    stage2.write_text(stage2.read_text().replace("acme/docsnippets@" + "d" * 40, "OWNER/docsnippets@" + "0" * 40))
    _, out, _ = run(capsys, "init")
    [pin] = [s for s in next_steps(out) if "pin the Action" in s]
    assert "in .github/workflows/docsnippets-comment.yml replace" in pin and "docsnippets.yml and" not in pin


# --- files git would ignore ---------------------------------------------------------------------


def test_a_manifest_ignored_by_star_json_gets_a_negation_and_the_commit_holds_it(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", {**PAGES, ".gitignore": "build/\n*.json\n"})
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0
    assert "added a line to .gitignore (!/documentation-snippets.json)" in out
    assert (repo / ".gitignore").read_text() == "build/\n*.json\n!/documentation-snippets.json\n"
    command = commit_command(out)
    assert command.startswith(f"git add {MANIFEST} ") and " .gitignore &&" in command and "-f" not in command
    done = sh(repo, command)
    assert done.returncode == 0, done.stderr
    assert {MANIFEST, ".gitignore", *WORKFLOWS} <= committed(repo)
    assert run_git(repo, "check-ignore", "-q", "other.json", "--no-index") == ""  # *.json still holds elsewhere
    # Anchored: a file of the same name deeper down is still ignored.
    assert run_git(repo, "check-ignore", "-q", f"docs/{MANIFEST}", "--no-index") == ""

    code, again, _ = run(capsys, "init")
    assert code == 0 and "unchanged .gitignore" not in again and ".gitignore" not in again.split("next steps:")[0]


def test_the_dry_run_says_it_would_add_the_negation(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", {**PAGES, ".gitignore": "*.json\n"})
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init", "--dry-run")
    assert code == 0 and "would add a line to .gitignore (!/documentation-snippets.json)" in out
    assert (repo / ".gitignore").read_text() == "*.json\n"


def test_an_ignored_directory_is_said_honestly_and_the_commit_still_works(tmp_path, monkeypatch, capsys):
    """A negation cannot re-include a file inside an ignored directory (git does not look inside
    one), so init adds no line that would not work: it names the rule and adds with -f."""
    repo = init_repo(tmp_path / "r", {**PAGES, ".gitignore": ".github/\n"})
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0
    assert (repo / ".gitignore").read_text() == ".github/\n"
    for path in WORKFLOWS:
        assert f"{path} is ignored by .gitignore:1 (.github/)" in out, out
    command = commit_command(out)
    assert f"git add -f {' '.join(WORKFLOWS)}" in command
    done = sh(repo, command)
    assert done.returncode == 0, done.stderr
    assert {MANIFEST, *WORKFLOWS, ".gitattributes"} <= committed(repo)


def test_an_ignore_rule_outside_the_repository_files_is_countered_too(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    (repo / ".git" / "info").mkdir(exist_ok=True)
    (repo / ".git" / "info" / "exclude").write_text("documentation-snippets.json\n")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0 and "wrote .gitignore (!/documentation-snippets.json)" in out
    assert sh(repo, commit_command(out)).returncode == 0 and MANIFEST in committed(repo)


def test_a_gitignore_that_is_ignored_itself_is_brought_back_too(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    (repo / ".git" / "info" / "exclude").write_text(".gitignore\n*.json\n")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0 and (repo / ".gitignore").read_text() == "!/documentation-snippets.json\n!/.gitignore\n"
    assert "-f" not in commit_command(out) and sh(repo, commit_command(out)).returncode == 0
    assert {MANIFEST, ".gitignore"} <= committed(repo)


def test_a_rule_in_a_deeper_gitignore_is_countered_in_that_file(tmp_path, monkeypatch, capsys):
    """A deeper .gitignore outranks the top one, so the negation goes where the rule is, relative
    to that file's directory; every run finds nothing more to add, and the commit works."""
    repo = init_repo(tmp_path / "r", {**PAGES, ".github/.gitignore": "*.yml\n"})
    monkeypatch.chdir(repo)
    outs = [run(capsys, "init")[1] for _ in range(3)]
    negations = "".join(f"!/{p.removeprefix('.github/')}\n" for p in WORKFLOWS)
    assert (repo / ".github/.gitignore").read_text() == "*.yml\n" + negations
    assert not (repo / ".gitignore").exists()
    assert "added a line to .github/.gitignore (" in outs[0] and ".gitignore (" not in outs[1] + outs[2]
    for out in outs:
        assert "-f" not in commit_command(out) and "ignored by" not in out
        adds = f"git add {MANIFEST} {' '.join(WORKFLOWS)} .gitattributes .github/.gitignore "
        assert commit_command(out).startswith(adds)
    done = sh(repo, commit_command(outs[2]))
    assert done.returncode == 0, done.stderr
    assert {*WORKFLOWS, ".github/.gitignore"} <= committed(repo)


def test_the_gitignore_line_stays_pending_until_it_is_committed(tmp_path, monkeypatch, capsys):
    """A second run still names the .gitignore init changed: a commit without it would leave
    the manifest ignored in every other clone."""
    repo = init_repo(tmp_path / "r", {**PAGES, ".gitignore": "*.json\r\nbuild"})
    monkeypatch.chdir(repo)
    first, second, third = (run(capsys, "init")[1] for _ in range(3))
    assert (repo / ".gitignore").read_bytes() == b"*.json\r\nbuild\r\n!/documentation-snippets.json\r\n"
    for out in (first, second, third):
        assert commit_command(out).endswith(" .gitattributes .gitignore && git commit -m 'Adopt docsnippets'"), out
    assert sh(repo, commit_command(third)).returncode == 0
    assert "git add" not in run(capsys, "init")[1]


def test_the_commit_step_works_from_outside_the_repository(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "it's $(x) `y`", {**PAGES, ".gitignore": "*.json\n"})
    monkeypatch.chdir(tmp_path)
    code, out, _ = run(capsys, "init", "--root", str(repo))
    assert code == 0
    done = sh(tmp_path, commit_command(out))
    assert done.returncode == 0, done.stderr
    assert {MANIFEST, *WORKFLOWS, ".gitattributes", ".gitignore"} <= committed(repo)
    assert not (tmp_path / "x").exists() and not (tmp_path / "y").exists()


# --- the repository from the origin remote ------------------------------------------------------


def clone(tmp_path: Path, url: str) -> Path:
    """A real clone (so HEAD is on origin's main), whose origin then names ``url``, as a clone
    made from GitHub does; nothing here reaches the network."""
    upstream = init_repo(tmp_path / "upstream", PAGES)
    run_git(tmp_path, "clone", "-q", str(upstream), str(tmp_path / "clone"))
    run_git(tmp_path / "clone", "remote", "set-url", "origin", url)
    return tmp_path / "clone"


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/acme/widgets.git",
        "https://x-access-token:ghp_SECRET123@github.com/acme/widgets.git",
        "git@github.com:acme/widgets.git",
        "ssh://git@github.com/acme/widgets",
        "ssh://git@github.com:22/acme/widgets.git/",
    ],
)
def test_a_github_origin_gives_the_repository_and_the_commit_permalinks(tmp_path, monkeypatch, capsys, url: str):
    repo = clone(tmp_path, url)
    head = run_git(repo, "rev-parse", "HEAD").strip()
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "init")
    assert code == 0, err
    manifest = json.loads((repo / MANIFEST).read_text(encoding="utf-8"))
    assert manifest["source"] == {"repository": "acme/widgets", "commit": head, "server_url": "https://github.com"}
    links = [s["permalink"] for f in manifest["files"].values() for s in f["snippets"]]
    assert len(links) == 4 and all(link.startswith(f"https://github.com/acme/widgets/blob/{head}/") for link in links)
    assert f"permalinks at acme/widgets@{head[:12]}" in out
    code, catalogue, _ = run(capsys, "render", "--lang", "en")
    assert f"Source: [`{head[:12]}`](https://github.com/acme/widgets/tree/{head})" in catalogue
    text = out + err + catalogue + (repo / MANIFEST).read_text(encoding="utf-8")
    assert "SECRET" not in text and "x-access-token" not in text


def test_permalinks_wait_for_a_commit_that_is_on_origin_and_for_committed_markdown(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", PAGES)
    run_git(repo, "remote", "add", "origin", "https://github.com/acme/widgets")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")  # HEAD exists only here: a link to it would be a 404
    source = json.loads((repo / MANIFEST).read_text())["source"]
    assert code == 0 and source["repository"] == "acme/widgets" and source["commit"] is None
    assert "no permalinks yet" in out and "is not on origin" in out

    other = clone(tmp_path / "other", "git@github.com:acme/widgets.git")
    (other / "docs/zh/b.md").write_text(ZH + "\nedited\n", encoding="utf-8")  # not as committed
    monkeypatch.chdir(other)
    code, out, _ = run(capsys, "init")
    assert code == 0 and json.loads((other / MANIFEST).read_text())["source"]["commit"] is None
    assert "docs/zh/b.md differs from HEAD" in out


# tests/unit/test_remote.py holds many more; these go through git's own config and init.
NOT_GITHUB = ["https://gitlab.com/acme/widgets.git", "https://evil.example/github.com/acme/widgets", "/srv/w.git"]


@pytest.mark.parametrize("url", [*NOT_GITHUB, "git@github.com:acme/widgets.git\n[evil]"])
def test_an_origin_that_does_not_name_a_github_repository_is_not_used(tmp_path, monkeypatch, capsys, url: str):
    repo = init_repo(tmp_path / "r", PAGES)
    run_git(repo, "config", "remote.origin.url", url)
    monkeypatch.chdir(repo)
    code, _, err = run(capsys, "init")
    assert code == 0, err
    assert json.loads((repo / MANIFEST).read_text())["source"]["repository"] is None
