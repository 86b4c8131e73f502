"""Every command finds its root as git does; ``--manifest`` never creates a directory."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.gitinit import init_repo, run_git, slime_repo

from docsnippets.cli import main

EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)\n```\n"


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_slime_from_docs_zh_uses_the_root_manifest_and_writes_nothing_else(tmp_path, monkeypatch, capsys):
    repo = slime_repo(tmp_path / "slime")
    monkeypatch.chdir(repo / "docs" / "zh")
    code, out, _ = run(capsys, "update")
    assert code == 0
    assert out.startswith("wrote ../../documentation-snippets.json: 27 snippets in 14 files, 12 pairs")
    assert run_git(repo, "status", "--porcelain", "--untracked-files=all") == "?? documentation-snippets.json\n"
    code, out, _ = run(capsys, "check")
    assert code == 0 and "../../documentation-snippets.json matches the docs (27 snippets)" in out
    assert out.startswith("root: ../.. (file paths below are relative to it)\n")
    assert json.loads(run(capsys, "check", "--format", "json")[1])["manifest"] == "../../documentation-snippets.json"
    code, out, _ = run(capsys, "update")
    assert code == 0 and out.startswith("unchanged ../../documentation-snippets.json")
    assert run_git(repo, "status", "--porcelain", "--untracked-files=all") == "?? documentation-snippets.json\n"


def test_the_nearest_manifest_or_config_wins_over_the_git_top(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "mono", {"site/docs/en/g.md": EN, "site/docs/zh/g.md": EN, "site/.docsnippets.yml": ""})
    monkeypatch.chdir(repo / "site" / "docs" / "en")
    code, out, _ = run(capsys, "update")
    assert code == 0 and out.startswith("wrote ../../documentation-snippets.json: 2 snippets in 2 files, 1 pair,")
    assert (repo / "site" / "documentation-snippets.json").is_file()
    assert not (repo / "documentation-snippets.json").exists()


def test_changed_names_are_relative_to_where_the_user_stands(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", {"docs/en/g.md": EN, "docs/zh/g.md": EN})
    assert main(["update", "--root", str(repo)]) == 0
    (repo / "docs/zh/g.md").write_text(EN.replace("call(args)", "call(args, 1)"), encoding="utf-8")
    monkeypatch.chdir(repo / "docs" / "zh")
    capsys.readouterr()
    code, out, _ = run(capsys, "check", "--changed", "g.md", "--format", "json")
    assert code == 1
    assert [c["after"]["file"] for c in json.loads(out)["changed"]] == ["docs/zh/g.md"]


def test_root_option_still_wins(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", {"docs/en/g.md": EN, "docs/zh/g.md": EN})
    monkeypatch.chdir(repo / "docs")
    code, out, err = run(capsys, "update", "--root", ".")
    assert code == 0 and out.startswith("wrote documentation-snippets.json: 2 snippets in 2 files, 0 pairs")
    assert "--root" in err  # the existing hint: the rules say docs/en/, the root is one level too deep


@pytest.mark.parametrize(
    "command",
    [["update"], ["check"], ["render"], ["diff", "HEAD", "HEAD"]],
    ids=["update", "check", "render", "diff"],
)
def test_a_manifest_in_a_missing_directory_is_an_error(tmp_path, monkeypatch, capsys, command: list[str]):
    repo = init_repo(tmp_path / "r", {"docs/en/g.md": EN, "docs/zh/g.md": EN})
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, *command, "--manifest", "nowhere/deeper/m.json")
    assert code == 2 and out == ""
    assert err.startswith("docsnippets: error: nowhere/deeper/m.json: the manifest's directory nowhere/deeper does not")
    assert not (repo / "nowhere").exists()


LAYOUTS = {
    "docs_zh_cn": ({"docs/en": "docs/zh_cn"}, '  - {en: "docs/en/{path}", zh: "docs/zh_cn/{path}"}\n'),
    "src_en_zh": ({"src/en": "src/zh"}, '  - {en: "src/en/{path}", zh: "src/zh/{path}"}\n'),
}


def layout_files(en_dir: str, zh_dir: str) -> dict[str, str | bytes]:
    pages = ["index.md", "guide/start.md", "guide/api.md"]
    files: dict[str, str | bytes] = {f"{en_dir}/{p}": EN for p in pages}
    files.update({f"{zh_dir}/{p}": EN.replace("Guide", "指南") for p in pages})
    files["README.md"] = "# readme\n"
    return files


@pytest.mark.parametrize("name", sorted(LAYOUTS))
def test_plain_update_names_the_rule_to_add(tmp_path, monkeypatch, capsys, name: str):
    (dirs, rule_line) = LAYOUTS[name]
    ((en_dir, zh_dir),) = dirs.items()
    repo = init_repo(tmp_path / name, layout_files(en_dir, zh_dir))
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "update")
    assert code == 0 and "0 pairs" in out
    assert f"6 files pair up: {en_dir}/{{path}} <-> {zh_dir}/{{path}} (3 pairs)" in err
    assert err.endswith("add this to .docsnippets.yml:\npair_rules:\n" + rule_line)
    code, _, err = run(capsys, "check")
    assert code == 0 and err.endswith(rule_line)
    # Pasted as told, the rule pairs the three pages, and the hint goes.
    (repo / ".docsnippets.yml").write_text("pair_rules:\n" + rule_line, encoding="utf-8")
    code, out, err = run(capsys, "update")
    assert code == 0 and "3 pairs" in out and err == ""


def test_no_hint_when_the_rules_pair_something(tmp_path, monkeypatch, capsys):
    files = layout_files("docs/en", "docs/zh_cn")
    files.update({"docs/en/x.md": EN, "docs/zh/x.md": EN})
    repo = init_repo(tmp_path / "r", files)
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "update")
    assert code == 0 and "1 pair," in out and err == ""


def test_no_hint_without_evidence(tmp_path, monkeypatch, capsys):
    repo = init_repo(tmp_path / "r", {"docs/en/a.md": EN, "docs/zh_cn/a.md": EN, "docs/en/b.md": EN})
    monkeypatch.chdir(repo)
    assert run(capsys, "update")[2] == ""


def test_outside_git_the_working_directory_is_the_root(tmp_path: Path, monkeypatch, capsys):
    (tmp_path / "plain").mkdir()
    (tmp_path / "plain" / "a.md").write_text(EN, encoding="utf-8")
    monkeypatch.chdir(tmp_path / "plain")
    code, out, _ = run(capsys, "update")
    assert code == 0 and out.startswith("wrote documentation-snippets.json: 1 snippet in 1 file,")
