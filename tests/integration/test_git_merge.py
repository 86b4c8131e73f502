"""The manifest in real git repositories: no churn, stable ids, plain merges, the merge driver,
renamed files. Every test builds its repositories in a temporary directory with ``git``."""

from __future__ import annotations

import io
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.corpus import write

from docsnippets.cli import main
from docsnippets.manifest import build as mf

ENTRY = Path(__file__).resolve().parents[2] / "entrypoint.py"
M = mf.DEFAULT_MANIFEST
pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def git(repo: Path, *args: str, check: bool = True) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "HOME": str(repo.parent),
    }
    done = subprocess.run(["git", "-C", str(repo), *args], capture_output=True, text=True, env=env, check=False)
    if check and done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
    return done


def cli(*argv: str) -> tuple[int, str]:
    out = io.StringIO()
    code = main(list(argv), out=out)
    return code, out.getvalue()


def update(repo: Path) -> None:
    assert cli("update", "--root", str(repo))[0] == 0


def check(repo: Path, *extra: str) -> tuple[int, dict]:
    code, out = cli("check", "--root", str(repo), "--format", "json", *extra)
    return code, json.loads(out)


def commit_all(repo: Path, message: str) -> None:
    git(repo, "add", "-A")
    git(repo, "commit", "-q", "-m", message)


def init(repo: Path, files: dict[str, str]) -> Path:
    write(repo, files)
    git(repo, "init", "-q", "-b", "main")
    update(repo)
    commit_all(repo, "start")
    return repo


def fence(body: str) -> str:
    return f"```python\n{body}```\n"


def page(*bodies: str, title: str = "Guide") -> str:
    return f"# {title}\n\nSome prose.\n\n" + "\nText between.\n\n".join(fence(b) for b in bodies)


A = "async def a():\n    return await fa(1)\n"
B = "async def b():\n    return await fb(2)\n"
C = "async def c():\n    return await fc(3)\n"
NEW = "async def new():\n    return await fn(4)\n"
FILES = {
    "docs/en/one.md": page(A, B),
    "docs/zh/one.md": page(A, B, title="指南"),
    "docs/en/two.md": page(C),
    "docs/zh/two.md": page(C, title="指南"),
    "notes/alone.md": page(B, C),
}


def branch(repo: Path, name: str, edits: dict[str, str], base: str = "main") -> None:
    git(repo, "checkout", "-q", "-b", name, base)
    write(repo, edits)
    update(repo)
    commit_all(repo, name)
    git(repo, "checkout", "-q", base)


def with_driver(repo: Path) -> None:
    (repo / ".gitattributes").write_text(f"{M} merge=docsnippets\n", encoding="utf-8")
    commit_all(repo, "driver")
    git(repo, "config", "merge.docsnippets.driver", f"{sys.executable} {ENTRY} merge-driver %O %A %B")


# --- no churn, stable ids ---------------------------------------------------------------------


def test_prose_edit_leaves_the_manifest_byte_identical(tmp_path):
    repo = init(tmp_path / "r", FILES)
    before = (repo / M).read_bytes()
    with (repo / "docs/en/two.md").open("a", encoding="utf-8") as f:
        f.write("\nOne more sentence at the end.\n")
    code, out = cli("update", "--root", str(repo))
    assert code == 0 and out.startswith("unchanged")
    assert (repo / M).read_bytes() == before


def test_moved_lines_change_only_that_snippets_line_fields(tmp_path):
    repo = init(tmp_path / "r", FILES)
    write(repo, {"docs/en/two.md": "Intro line.\n\n" + FILES["docs/en/two.md"]})
    update(repo)
    diff = git(repo, "diff", "-U0", "--", M).stdout
    changed = [line for line in diff.splitlines() if line[:1] in "+-" and not line.startswith(("+++", "---"))]
    assert sorted(line[1:].strip().split(":")[0] for line in changed) == ['"code_lines"'] * 2 + ['"fence_lines"'] * 2


def test_adding_a_snippet_changes_no_other_entry(tmp_path):
    repo = init(tmp_path / "r", FILES)
    old = {e["id"]: e for e in mf.entries(json.loads((repo / M).read_text(encoding="utf-8")))}
    write(repo, {"docs/en/one.md": page(NEW, A, B), "docs/zh/one.md": page(NEW, A, B, title="指南")})
    update(repo)
    new = {e["id"]: e for e in mf.entries(json.loads((repo / M).read_text(encoding="utf-8")))}
    assert set(old) < set(new) and len(new) == len(old) + 2
    lines = ("fence_lines", "code_lines")
    for sid, entry in old.items():
        kept = {k: v for k, v in entry.items() if k not in lines}
        assert {k: v for k, v in new[sid].items() if k not in lines} == kept


# --- merges ------------------------------------------------------------------------------------


def test_plain_merge_of_changes_to_different_files_is_clean_and_fresh(tmp_path):
    repo = init(tmp_path / "r", FILES)
    branch(repo, "left", {"docs/en/one.md": page(A, B, NEW), "docs/zh/one.md": page(A, B, NEW, title="指南")})
    branch(repo, "right", {"notes/alone.md": page(NEW, B, C.replace("3", "33"))})
    git(repo, "checkout", "-q", "-b", "merged", "left")
    done = git(repo, "merge", "-q", "--no-edit", "right", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    code, report = check(repo, "--strict-lines")
    assert code == 0 and report["fresh"], report
    assert report["summary"]["fences"] == 11 and report["summary"]["pairs"] == 4


def test_plain_merge_of_new_files_on_both_sides_is_clean(tmp_path):
    repo = init(tmp_path / "r", FILES)
    branch(repo, "left", {"aaa.md": page(NEW)})
    branch(repo, "right", {"zzz.md": page(NEW)})
    git(repo, "checkout", "-q", "-b", "merged", "left")
    assert git(repo, "merge", "-q", "--no-edit", "right", check=False).returncode == 0
    assert check(repo, "--strict-lines")[0] == 0


def _two_edits_of_one_file(repo) -> None:
    """left adds an example at the top (moving every other one), right edits the last one."""
    branch(repo, "left", {"guide.md": page(NEW, A, B, C)})
    branch(repo, "right", {"guide.md": page(A, B, C.replace("fc(3)", "fc(3, retries=2)\n    await log()"))})
    git(repo, "checkout", "-q", "-b", "merged", "left")


def test_driver_merges_changes_to_different_snippets_of_one_file(tmp_path):
    repo = init(tmp_path / "r", {"guide.md": page(A, B, C)})
    with_driver(repo)
    _two_edits_of_one_file(repo)
    done = git(repo, "merge", "-q", "--no-edit", "right", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    code, report = check(repo, "--strict-lines")
    assert code == 0 and report["fresh"], report


def test_plain_merge_of_one_file_conflicts_without_the_driver(tmp_path):
    # The reason the driver exists: the same changes as above, no driver configured.
    repo = init(tmp_path / "r", {"guide.md": page(A, B, C)})
    _two_edits_of_one_file(repo)
    done = git(repo, "merge", "-q", "--no-edit", "right", check=False)
    assert done.returncode != 0 and M in done.stdout + done.stderr


def test_driver_reports_a_real_conflict(tmp_path):
    repo = init(tmp_path / "r", {"guide.md": page(A, B)})
    with_driver(repo)
    branch(repo, "left", {"guide.md": page(A, B.replace("fb(2)", "fb(20)"))})
    branch(repo, "right", {"guide.md": page(A, B.replace("fb(2)", "fb(200)"))})
    git(repo, "checkout", "-q", "-b", "merged", "left")
    done = git(repo, "merge", "--no-edit", "right", check=False)
    assert done.returncode != 0
    message = done.stdout + done.stderr
    assert "merge conflict: guide.md" in message and "docsnippets update" in message
    text = (repo / M).read_text(encoding="utf-8")
    assert "<<<<<<< ours" in text and ">>>>>>> theirs" in text  # git's markers, for a person
    # The way out the driver names: fix the Markdown, then update rewrites the manifest.
    write(repo, {"guide.md": page(A, B.replace("fb(2)", "fb(20)"))})
    update(repo)
    assert check(repo)[0] == 0


def test_driver_merges_same_edit_on_both_sides_and_keeps_pairs(tmp_path):
    repo = init(tmp_path / "r", FILES)
    with_driver(repo)
    edit = {"docs/en/one.md": page(A, NEW), "docs/zh/one.md": page(A, NEW, title="指南")}
    branch(repo, "left", {**edit, "docs/en/two.md": page(C, B)})
    branch(repo, "right", {**edit, "notes/alone.md": page(B)})
    git(repo, "checkout", "-q", "-b", "merged", "left")
    done = git(repo, "merge", "-q", "--no-edit", "right", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    assert check(repo, "--strict-lines")[0] == 0


def test_pair_members_changed_on_different_branches_is_a_conflict(tmp_path):
    repo = init(tmp_path / "r", FILES)
    with_driver(repo)
    branch(repo, "left", {"docs/en/two.md": page(C.replace("3", "4"))})
    branch(repo, "right", {"docs/zh/two.md": page(C.replace("3", "5"), title="指南")})
    git(repo, "checkout", "-q", "-b", "merged", "left")
    done = git(repo, "merge", "--no-edit", "right", check=False)
    assert done.returncode != 0 and "docsnippets update" in done.stdout + done.stderr
    update(repo)
    assert check(repo)[0] == 0


# --- renamed files, the source ------------------------------------------------------------------


def test_renamed_file_is_stale_and_names_both_files(tmp_path):
    repo = init(tmp_path / "r", FILES)
    git(repo, "mv", "notes/alone.md", "notes/GUIDE.md")
    for extra in ((), ("--strict-lines",)):
        code, report = check(repo, *extra)
        assert code == 1 and report["reasons"] == ["2 snippets moved to another file: notes/alone.md → notes/GUIDE.md"]
        assert {(m["before"]["file"], m["after"]["file"]) for m in report["moved"]} == {
            ("notes/alone.md", "notes/GUIDE.md")
        }


def test_commit_is_recorded_only_when_given_and_kept_for_unchanged_entries(tmp_path):
    repo = init(tmp_path / "r", FILES)
    head = git(repo, "rev-parse", "HEAD").stdout.strip()
    assert cli("update", "--root", str(repo), "--repository", "o/r", "--commit", head)[0] == 0
    linked = json.loads((repo / M).read_text(encoding="utf-8"))
    assert all(e.get("permalink") for e in mf.entries(linked))
    commit_all(repo, "record the source")
    write(repo, {"notes/alone.md": page(B, NEW)})
    code, _ = cli("update", "--root", str(repo))
    data = json.loads((repo / M).read_text(encoding="utf-8"))
    assert code == 0 and data["source"]["commit"] == head and data["source"]["repository"] == "o/r"
    old = {e["id"]: e.get("permalink") for e in mf.entries(linked)}
    for e in mf.entries(data):
        assert e.get("permalink") == (old.get(e["id"]) if e["file"] != "notes/alone.md" or e["body"] == B else None)
    # Committing and updating again moves nothing: HEAD is never recorded by itself.
    commit_all(repo, "new example")
    assert cli("update", "--root", str(repo))[1].startswith("unchanged")


def test_a_schema_1_manifest_is_stale_with_the_fix(tmp_path):
    from tests.support.judging import scan_tree
    from tests.support.manifest_helpers import schema1

    from docsnippets.config import Config

    repo = init(tmp_path / "r", FILES)
    (repo / M).write_text(json.dumps(schema1(scan_tree(repo, Config()))), encoding="utf-8")
    code, report = check(repo)
    assert code == 1 and report["reasons"][0].startswith("it was written by an older docsnippets (schema 1)")
    assert "`docsnippets update` rewrites it" in report["reasons"][0]
    assert not (report["added"] or report["removed"] or report["changed"])  # same snippets, same ids
    update(repo)
    assert check(repo)[0] == 0


# --- the scenarios on the real Slime docs -------------------------------------------------


@pytest.fixture
def slime_repo(head_tree):
    repo = head_tree
    git(repo, "init", "-q", "-b", "main")
    update(repo)
    commit_all(repo, "slime")
    return repo


def test_slime_prose_edit_is_byte_identical(slime_repo):
    before = (slime_repo / M).read_bytes()
    with (slime_repo / "docs/en/developer_guide/trace.md").open("a", encoding="utf-8") as f:
        f.write("\nOne more sentence of prose.\n")
    update(slime_repo)
    assert (slime_repo / M).read_bytes() == before


def test_slime_new_example_at_the_top_changes_no_other_id(slime_repo):
    old = {e["id"] for e in mf.entries(json.loads((slime_repo / M).read_text(encoding="utf-8")))}
    example = "\n```python\nimport asyncio\n\nasync def main():\n    await asyncio.sleep(0)\n```\n\n"
    for lang in ("en", "zh"):
        path = slime_repo / f"docs/{lang}/advanced/sglang-config.md"
        lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
        path.write_text("".join([*lines[:3], example, *lines[3:]]), encoding="utf-8")
    update(slime_repo)
    data = json.loads((slime_repo / M).read_text(encoding="utf-8"))
    new = {e["id"] for e in mf.entries(data)}
    assert old < new and len(new - old) == 2
    pairs = {e["pair"]["id"] for e in mf.entries(data) if e["pair"]}
    assert len(pairs) == 13
    diff = git(slime_repo, "diff", "--numstat", "--", M).stdout.split()
    assert int(diff[1]) <= 2 * 5  # removed lines: the moved entries' line fields (and nothing else)


def test_slime_renamed_readme_is_stale(slime_repo):
    git(slime_repo, "mv", "examples/coding_agent_rl/README.md", "examples/coding_agent_rl/GUIDE.md")
    code, report = check(slime_repo)
    assert code == 1
    assert report["reasons"] == [
        "1 snippet moved to another file: examples/coding_agent_rl/README.md → examples/coding_agent_rl/GUIDE.md"
    ]


def _append_example(path: Path, name: str) -> None:
    text = path.read_text(encoding="utf-8")
    path.write_text(text + f"\n```python\nasync def {name}():\n    await run_{name}()\n```\n", encoding="utf-8")


def test_slime_prs_adding_examples_to_different_files_merge_plainly(slime_repo):
    git(slime_repo, "checkout", "-q", "-b", "left")
    for lang in ("en", "zh"):
        _append_example(slime_repo / f"docs/{lang}/developer_guide/trace.md", "traced")
    update(slime_repo)
    commit_all(slime_repo, "left")
    git(slime_repo, "checkout", "-q", "-b", "right", "main")
    _append_example(slime_repo / "examples/coding_agent_rl/README.md", "agent")
    update(slime_repo)
    commit_all(slime_repo, "right")
    done = git(slime_repo, "merge", "-q", "--no-edit", "left", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    code, report = check(slime_repo, "--strict-lines")
    assert code == 0 and report["summary"]["fences"] == 30 and report["summary"]["pairs"] == 13


def _insert_line(path: Path, line: int, text: str) -> None:
    lines = path.read_text(encoding="utf-8").splitlines(keepends=True)
    path.write_text("".join([*lines[: line - 1], text, *lines[line - 1 :]]), encoding="utf-8")


def test_slime_driver_merges_edits_to_different_snippets_of_one_page(slime_repo):
    with_driver(slime_repo)
    pages = [slime_repo / f"docs/{lang}/developer_guide/trace.md" for lang in ("en", "zh")]
    git(slime_repo, "checkout", "-q", "-b", "left")
    for path in pages:
        _insert_line(path, 60, "import asyncio\n")  # first line of the first snippet (60-74)
    update(slime_repo)
    commit_all(slime_repo, "left")
    git(slime_repo, "checkout", "-q", "-b", "right", "main")
    for path in pages:
        _insert_line(path, 108, "# traced below\n")  # inside the third snippet (107-111)
    update(slime_repo)
    commit_all(slime_repo, "right")
    done = git(slime_repo, "merge", "-q", "--no-edit", "left", check=False)
    assert done.returncode == 0, done.stdout + done.stderr
    code, report = check(slime_repo, "--strict-lines")
    assert code == 0 and report["fresh"] and report["summary"]["pairs"] == 12, report
