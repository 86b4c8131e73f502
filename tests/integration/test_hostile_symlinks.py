"""A symlink inside the repository is hostile content: no command reads or writes through one.

A pull request can commit a symlink where docsnippets expects a file (``.gitattributes``, the
manifest, the config, the comment template) or a directory (``.github``, the directory of
``--output``). Followed, it copies a secret into a file the user commits, or writes outside the
repository. Every such path is refused by name with exit 2, and the link stays as it was. A
path the user names outside the root is theirs to choose and is followed as given.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.support.gitinit import init_repo

from docsnippets import fileio
from docsnippets.cli import main

SECRET = "GITHUB_TOKEN=ghs_0123456789secretSECRET\n"
SNIPPET = "```python\nasync def main():\n    await step()\n```\n"
DOCS = {"docs/en/guide.md": "# Guide\n\n" + SNIPPET, "docs/zh/guide.md": "# 指南\n\n" + SNIPPET}
MANIFEST = "documentation-snippets.json"


@pytest.fixture
def outside(tmp_path: Path) -> Path:
    """A directory beside the repository holding a secret."""
    place = tmp_path / "outside"
    place.mkdir()
    (place / "secret").write_text(SECRET, encoding="utf-8")
    return place


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    return init_repo(tmp_path / "repo", dict(DOCS))


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def contents(top: Path) -> dict[str, bytes | str]:
    """Every entry under ``top`` without following a link: file bytes, or a link's target."""
    found: dict[str, bytes | str] = {}
    for dirpath, dirnames, filenames in os.walk(top):
        dirnames[:] = [d for d in dirnames if d != ".git"]
        for name in [*filenames, *(d for d in dirnames if os.path.islink(os.path.join(dirpath, d)))]:
            path = Path(dirpath, name)
            rel = path.relative_to(top).as_posix()
            found[rel] = f"-> {os.readlink(path)}" if path.is_symlink() else path.read_bytes()
    return found


def assert_refused(code: int, out: str, err: str, name: str) -> None:
    """Exit 2 with one error line naming the symlink, and nothing of the secret anywhere."""
    assert code == 2, (out, err)
    assert err.count("\n") == 1 and err.startswith("docsnippets: error: "), err
    assert f"{name}: a symlink inside the repository" in err, err
    assert "ghs_" not in out + err


def assert_no_secret_in(repo: Path) -> None:
    for rel, data in contents(repo).items():
        assert not isinstance(data, bytes) or b"ghs_" not in data, rel


# --- init -----------------------------------------------------------------------------------------


@pytest.mark.parametrize("target", ["outside", "/proc/self/environ"])
def test_init_does_not_copy_a_symlinked_gitattributes_into_the_repository(repo, outside, capsys, monkeypatch, target):
    secret = outside / "secret" if target == "outside" else Path(target)
    if not secret.exists():
        pytest.skip(f"{secret} does not exist here")
    (repo / ".gitattributes").symlink_to(secret)
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "init")
    assert_refused(code, out, err, str(repo / ".gitattributes"))
    assert "git add" not in out and "git commit" not in out
    assert (repo / ".gitattributes").is_symlink() and os.readlink(repo / ".gitattributes") == str(secret)
    assert (outside / "secret").read_text(encoding="utf-8") == SECRET
    assert_no_secret_in(repo)


@pytest.mark.parametrize("link", [".github", ".github/workflows"])
def test_init_does_not_write_workflows_through_a_symlinked_directory(repo, outside, capsys, monkeypatch, link):
    target = outside / "dir"
    target.mkdir()
    (repo / link).parent.mkdir(exist_ok=True)
    (repo / link).symlink_to(target, target_is_directory=True)
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "init")
    assert_refused(code, out, err, str(repo / link))
    assert list(target.iterdir()) == []
    assert (repo / link).is_symlink()


# --- the manifest -----------------------------------------------------------------------------


def test_update_does_not_replace_a_symlinked_manifest(repo, outside, capsys):
    (repo / MANIFEST).symlink_to(outside / "secret")
    code, out, err = run(capsys, "update", "--root", str(repo))
    assert_refused(code, out, err, str(repo / MANIFEST))
    assert (repo / MANIFEST).is_symlink()
    assert (outside / "secret").read_text(encoding="utf-8") == SECRET


def test_check_and_render_do_not_read_a_symlinked_manifest(repo, outside, capsys):
    assert run(capsys, "update", "--root", str(repo))[0] == 0
    real = outside / MANIFEST
    (repo / MANIFEST).rename(real)  # a manifest that would pass, kept outside the repository
    (repo / MANIFEST).symlink_to(real)
    for command in (["check"], ["render"]):
        code, out, err = run(capsys, *command, "--root", str(repo))
        assert_refused(code, out, err, str(repo / MANIFEST))


def test_update_does_not_write_the_manifest_through_a_symlinked_directory(repo, outside, capsys):
    (repo / "meta").symlink_to(outside, target_is_directory=True)
    code, out, err = run(capsys, "update", "--root", str(repo), "--manifest", str(repo / "meta" / MANIFEST))
    assert_refused(code, out, err, str(repo / "meta"))
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]


def test_a_manifest_the_user_names_outside_the_root_is_followed(repo, outside, capsys, monkeypatch):
    """Outside the root the path is the user's choice: a symlink there is theirs, and read."""
    real = outside / "real.json"
    assert run(capsys, "update", "--root", str(repo), "--manifest", str(real))[0] == 0
    (outside / "link.json").symlink_to(real)
    code, out, err = run(capsys, "check", "--root", str(repo), "--manifest", str(outside / "link.json"))
    assert code == 0, err
    # The root itself reached through the user's own symlink is still the root.
    (outside / "repo-link").symlink_to(repo, target_is_directory=True)
    code, out, err = run(capsys, "update", "--root", str(outside / "repo-link"))
    assert code == 0, err
    (repo / "docs").rename(repo / "real-docs")
    (repo / "docs").symlink_to(repo / "real-docs", target_is_directory=True)
    monkeypatch.chdir(outside / "repo-link")
    code, out, err = run(capsys, "update", "--root", str(outside / "repo-link"), "--manifest", "docs/m.json")
    assert_refused(code, out, err, "docs")


# --- the config, the comment template, render --output, the merge driver ----------------------


def test_a_symlinked_config_is_refused(repo, outside, capsys):
    (outside / "config.yml").write_text("exclude: ['docs/zh/**']\n", encoding="utf-8")
    (repo / ".docsnippets.yml").symlink_to(outside / "config.yml")
    code, out, err = run(capsys, "check", "--root", str(repo))
    assert_refused(code, out, err, str(repo / ".docsnippets.yml"))
    code, out, err = run(capsys, "check", "--root", str(repo), "--config", str(repo / ".docsnippets.yml"))
    assert_refused(code, out, err, str(repo / ".docsnippets.yml"))


def test_a_dangling_symlinked_config_is_refused_not_taken_for_no_config(repo, capsys):
    (repo / ".docsnippets.yml").symlink_to(repo / "nowhere.yml")
    code, out, err = run(capsys, "check", "--root", str(repo))
    assert_refused(code, out, err, str(repo / ".docsnippets.yml"))


def test_a_symlinked_comment_template_is_not_rendered(repo, outside, capsys, monkeypatch):
    assert run(capsys, "update", "--root", str(repo))[0] == 0
    (repo / ".github").mkdir()
    (repo / ".github" / "comment.md.j2").symlink_to(outside / "secret")
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "check", "--format", "markdown", "--comment-template", ".github/comment.md.j2")
    assert_refused(code, out, err, ".github/comment.md.j2")


def test_render_output_is_not_written_through_a_symlink(repo, outside, capsys, monkeypatch):
    assert run(capsys, "update", "--root", str(repo))[0] == 0
    (repo / "site").symlink_to(outside, target_is_directory=True)
    (repo / "catalogue.md").symlink_to(outside / "secret")
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "render", "--output", "site/catalogue.md")
    assert_refused(code, out, err, "site")
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]
    code, out, err = run(capsys, "render", "--output", "catalogue.md")
    assert_refused(code, out, err, "catalogue.md")
    assert (repo / "catalogue.md").is_symlink() and (outside / "secret").read_text(encoding="utf-8") == SECRET


@pytest.mark.parametrize("side", ["base", "current", "other"])
def test_the_merge_driver_reads_and_writes_no_symlinked_file(repo, outside, capsys, monkeypatch, side):
    assert run(capsys, "update", "--root", str(repo))[0] == 0
    text = (repo / MANIFEST).read_text(encoding="utf-8")
    for name in ("base", "current", "other"):
        (repo / f".merge_file_{name}").write_text(text, encoding="utf-8")
    (repo / f".merge_file_{side}").unlink()
    (repo / f".merge_file_{side}").symlink_to(outside / "secret")
    monkeypatch.chdir(repo)
    code, out, err = run(capsys, "merge-driver", ".merge_file_base", ".merge_file_current", ".merge_file_other")
    assert_refused(code, out, err, f".merge_file_{side}")
    assert (repo / f".merge_file_{side}").is_symlink()
    assert (outside / "secret").read_text(encoding="utf-8") == SECRET
    assert_no_secret_in(repo)


# --- the mechanism: a swap between the look and the use ------------------------------------------


def test_a_file_swapped_for_a_symlink_just_before_it_is_opened_is_not_followed(tmp_path, outside, monkeypatch):
    """The refusal is the open itself (O_NOFOLLOW at each step), not a look before it."""
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    (root / "sub" / "page.txt").write_text("ours\n", encoding="utf-8")
    real_open = os.open

    def swapping_open(path, flags, *args, **kwargs):
        if os.fspath(path) in ("page.txt", str(root / "sub" / "page.txt")) and (root / "sub" / "page.txt").exists():
            (root / "sub" / "page.txt").unlink()
            (root / "sub" / "page.txt").symlink_to(outside / "secret")
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", swapping_open)
    with pytest.raises(fileio.SymlinkRefused) as refused:
        fileio.read_regular(root / "sub" / "page.txt", root=root)
    assert refused.value.filename == str(root / "sub" / "page.txt")


def test_a_directory_swapped_for_a_symlink_before_the_write_is_not_followed(tmp_path, outside, monkeypatch):
    root = tmp_path / "root"
    (root / "sub").mkdir(parents=True)
    real_open = os.open

    def swapping_open(path, flags, *args, **kwargs):
        if os.fspath(path) in ("sub", str(root / "sub")) and not (root / "sub").is_symlink():
            (root / "sub").rmdir()
            (root / "sub").symlink_to(outside, target_is_directory=True)
        return real_open(path, flags, *args, **kwargs)

    monkeypatch.setattr(os, "open", swapping_open)
    with pytest.raises(fileio.SymlinkRefused) as refused:
        fileio.write_atomic(root / "sub" / "out.txt", "x\n", root=root)
    assert refused.value.filename == str(root / "sub")
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]


@pytest.mark.parametrize("at", [True, False], ids=["by-descriptor", "by-path"])
def test_the_rule_holds_in_both_walks(tmp_path, outside, monkeypatch, at):
    """The descriptor walk, and the walk by path that platforms without ``dir_fd`` get."""
    monkeypatch.setattr(fileio, "_AT", at and fileio._AT)
    root = tmp_path / "root"
    (root / "real").mkdir(parents=True)
    (root / "real" / "f").write_text("ok\n", encoding="utf-8")
    (root / "dir").symlink_to(outside, target_is_directory=True)
    (root / "file").symlink_to(outside / "secret")
    (root / "inner").symlink_to(root / "real", target_is_directory=True)  # pointing in: refused too
    (tmp_path / "root-link").symlink_to(root, target_is_directory=True)
    refused = {
        "dir/secret": root / "dir",
        "file": root / "file",
        "inner/f": root / "inner",
        "real/../file": root / "file",  # `..` is folded before the walk
    }
    for rel, name in refused.items():
        for spelt, top in ((root, root), (tmp_path / "root-link", root), (root, tmp_path / "root-link")):
            with pytest.raises(fileio.SymlinkRefused) as info:
                fileio.read_regular(spelt / rel, root=top)
            assert Path(info.value.filename) == spelt / name.relative_to(root)
    for rel in ("dir/new", "file", "inner/new", "dir/deeper/new"):
        with pytest.raises(fileio.SymlinkRefused):
            fileio.write_atomic(root / rel, "x\n", root=root)
    assert sorted(p.name for p in outside.iterdir()) == ["secret"]
    assert os.readlink(root / "file") == str(outside / "secret")
    # What is no symlink is read and written, missing directories made.
    assert fileio.read_regular(root / "real" / "f", root=root) == b"ok\n"
    assert fileio.read_regular(root / "real" / "absent", root=root) is None
    assert fileio.read_regular(root / "absent" / "f", root=root) is None
    fileio.write_atomic(root / "new" / "deeper" / "f", "x\n", root=root)
    assert (root / "new" / "deeper" / "f").read_text(encoding="utf-8") == "x\n"
    # A path that is no repository's is followed as given.
    assert fileio.read_regular(root / "file", root=None) == SECRET.encode()
    assert fileio.read_regular(outside / "secret", root=root) == SECRET.encode()
