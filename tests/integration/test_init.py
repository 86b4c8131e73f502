"""``docsnippets init`` on real git repositories: Slime's, and layouts the defaults do not fit."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
from pathlib import Path

import pytest
from tests.support.child_check import check_imports
from tests.support.gitinit import init_repo, run_git, slime_repo

from docsnippets.adopt.workflows import workflow_files
from docsnippets.cli import main
from docsnippets.config import DEFAULT_PYTHON
from docsnippets.manifest import build as mf
from docsnippets.snippets.grammar import RUNNING

EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)\n```\n"
ZH = EN.replace("Guide", "指南").replace("call(args)", "call(args)  # 调用")
WORKFLOWS = (".github/workflows/docsnippets.yml", ".github/workflows/docsnippets-comment.yml")
DRIVER = "docsnippets merge-driver %O %A %B"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def snapshot(repo: Path) -> dict[str, bytes]:
    """Every file of the work tree, and the clone's git config."""
    files = {p.relative_to(repo).as_posix(): p.read_bytes() for p in repo.rglob("*") if p.is_file()}
    return {k: v for k, v in files.items() if not k.startswith(".git/") or k == ".git/config"}


def summary(manifest: Path) -> dict[str, int]:
    return mf.summarize(mf.to_inventory(json.loads(manifest.read_text(encoding="utf-8"))))


def zizmor_findings(repo: Path) -> list[dict]:
    if shutil.which("zizmor") is None:
        pytest.skip("zizmor is not installed (pip install zizmor)")
    done = subprocess.run(
        ["zizmor", "--offline", "--no-config", "--no-progress", "--format", "json", *WORKFLOWS],
        cwd=repo,
        capture_output=True,
        text=True,
        check=False,
    )
    return json.loads(done.stdout or "[]")


def test_init_on_slime_then_check_then_init_again(tmp_path, monkeypatch, capsys):
    repo = slime_repo(tmp_path / "slime")
    monkeypatch.chdir(repo / "docs" / "zh")
    code, out, err = run(capsys, "init")
    assert code == 0, err
    assert "wrote ../../documentation-snippets.json (27 snippets in 14 files, 12 pairs; " in out
    counts = summary(repo / "documentation-snippets.json")
    assert (counts["fences"], counts["pairs"]) == (27, 12)
    # The defaults fit Slime: no config is written.
    assert "the default pair rules describe it" in out and not (repo / ".docsnippets.yml").exists()
    assert {rel: (repo / rel).read_text(encoding="utf-8") for rel in WORKFLOWS} == workflow_files()
    assert zizmor_findings(repo) == []  # not even a low-severity finding
    assert (repo / ".gitattributes").read_text(encoding="utf-8") == "documentation-snippets.json merge=docsnippets\n"
    assert run_git(repo, "config", "--local", "--get", "merge.docsnippets.driver").strip() == DRIVER
    assert "next steps:" in out and "require the `docsnippets` status" in out
    assert "git add ../../documentation-snippets.json ../../.github/workflows/docsnippets.yml" in out

    code, out, _ = run(capsys, "check")
    assert code == 0 and "../../documentation-snippets.json matches the docs (27 snippets)" in out

    before = snapshot(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0 and snapshot(repo) == before
    assert "wrote" not in out and "left alone ../../documentation-snippets.json" in out
    assert out.count("unchanged ") == 4  # two workflows, .gitattributes, the merge driver


LAYOUTS = {"docs_zh_cn": ("docs/en", "docs/zh_cn"), "src_en_zh": ("src/en", "src/zh")}


def layout_files(en_dir: str, zh_dir: str) -> dict[str, str | bytes]:
    pages = ["index.md", "guide/start.md", "guide/api.md", "faq.md"]
    files: dict[str, str | bytes] = {f"{en_dir}/{p}": EN for p in pages}
    files.update({f"{zh_dir}/{p}": ZH for p in pages[:3]})  # faq.md is not translated
    files.update({"README.md": EN, "notes_zh.md": ZH})
    return files


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_init_pairs_exactly_what_a_hand_written_rule_pairs(tmp_path, monkeypatch, capsys, name: str):
    en_dir, zh_dir = LAYOUTS[name]
    rule = f'pair_rules:\n  - {{en: "{en_dir}/{{path}}", zh: "{zh_dir}/{{path}}"}}\n'
    by_hand = init_repo(tmp_path / "by-hand", {**layout_files(en_dir, zh_dir), ".docsnippets.yml": rule})
    assert run(capsys, "update", "--root", str(by_hand))[0] == 0
    repo = init_repo(tmp_path / name, layout_files(en_dir, zh_dir))
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0 and "wrote .docsnippets.yml (the default pair rules do not fit)" in out
    config = (repo / ".docsnippets.yml").read_text(encoding="utf-8")
    assert config.endswith(rule) and "# Written by `docsnippets init` from the file names: 6 files pair up" in config
    ours, theirs = (json.loads((r / "documentation-snippets.json").read_text()) for r in (repo, by_hand))
    assert ours["selection"] == theirs["selection"] and ours["files"] == theirs["files"]
    assert summary(repo / "documentation-snippets.json")["pairs"] == 3
    assert run(capsys, "check")[0] == 0


def test_dry_run_writes_nothing(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", layout_files("docs/en", "docs/zh_cn"))
    monkeypatch.chdir(repo)
    before = snapshot(repo)
    code, out, _ = run(capsys, "init", "--dry-run")
    assert code == 0 and snapshot(repo) == before
    assert "would write .docsnippets.yml" in out and "would write documentation-snippets.json (9 snippets" in out
    assert "would set git config merge.docsnippets.driver" in out and out.endswith("nothing written (--dry-run)\n")


def test_existing_files_are_left_alone_and_named_unless_force(tmp_path, monkeypatch, capsys):
    mine = "name: mine\non: push\njobs: {}\n"
    repo = init_repo(
        tmp_path / "r",
        {**layout_files("docs/en", "docs/zh"), WORKFLOWS[0]: mine, ".gitattributes": "*.png binary"},
    )
    run_git(repo, "config", "merge.docsnippets.driver", "my-driver %O %A %B")
    monkeypatch.chdir(repo)
    code, out, _ = run(capsys, "init")
    assert code == 0 and (repo / WORKFLOWS[0]).read_text() == mine
    assert f"left alone {WORKFLOWS[0]} (differs from the recommended file; --force replaces it)" in out
    assert "left alone git config merge.docsnippets.driver (set to another driver; --force replaces it)" in out
    assert f"wrote {WORKFLOWS[1]}" in out
    # An existing .gitattributes gets the line added, on a line of its own.
    assert (repo / ".gitattributes").read_text() == "*.png binary\ndocumentation-snippets.json merge=docsnippets\n"
    assert "added a line to .gitattributes" in out

    code, out, _ = run(capsys, "init", "--force", "--action", "acme/docsnippets@" + "b" * 40)
    assert code == 0 and f"wrote {WORKFLOWS[0]}" in out
    assert (repo / WORKFLOWS[0]).read_text() == workflow_files("acme/docsnippets@" + "b" * 40)[WORKFLOWS[0]]
    assert run_git(repo, "config", "--local", "--get", "merge.docsnippets.driver").strip() == DRIVER
    assert "pin the Action" not in out


@pytest.mark.parametrize(
    "action", ["acme/docsnippets@v1", "acme/docsnippets@" + "a" * 39, "acme/x@" + "a" * 40 + "\nrun: evil"]
)
def test_action_must_be_pinned_by_full_sha(tmp_path, monkeypatch, capsys, action: str):
    repo = init_repo(tmp_path / "r", {"a.md": EN})
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "init", "--action", action)
    assert code == 2 and out == "" and "is not OWNER/NAME@SHA" in err
    assert not (repo / ".github").exists()


def test_init_outside_git_is_an_error(tmp_path, monkeypatch, capsys):
    (tmp_path / "plain").mkdir()
    monkeypatch.chdir(tmp_path / "plain")
    code, out, err = run(capsys, "init")
    assert code == 2 and out == "" and "not the top of a git work tree" in err
    assert list((tmp_path / "plain").iterdir()) == []


def test_other_commands_do_not_load_init_or_git(tmp_path):
    """init runs git; loading it eagerly would put subprocess on every command's start."""
    (tmp_path / "a.md").write_text(EN, encoding="utf-8")
    assert main(["update", "--root", str(tmp_path), "--no-cache"]) == 0
    env = {**os.environ, "DOCSNIPPETS_NO_CACHE": "1"}
    # (Under another Python than the declared one, the check starts that one: subprocess then.)
    assert check_imports(tmp_path, env, "subprocess", "--changed", "a.md") == (RUNNING != DEFAULT_PYTHON, "0")
    assert check_imports(tmp_path, env, "docsnippets.adopt.setup", "--changed", "a.md") == (False, "0")


def test_a_tree_the_default_rules_pair_too_few_files_to_recognise_is_not_said_to_pair_none(tmp_path, capsys):
    """agentscope's shape: README.md and README_zh.md pair under the defaults, one pair, too few
    to recognise a layout from; the manifest then holds that pair, and the layout line agrees."""
    repo = init_repo(tmp_path / "r", {"README.md": EN, "README_zh.md": ZH, "examples/mem/README.md": EN})
    code, out, _ = run(capsys, "init", "--root", str(repo), "--dry-run")
    assert code == 0
    assert "no two files pair up" not in out, out
    assert "layout: none recognised from the file names (one needs 2 file pairs under one rule); " in out
    assert "the default pair rules pair 2 files" in out and "1 pair;" in out
