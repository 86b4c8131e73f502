"""README's first command works in a fresh clone with nothing beside it (no ../shared)."""

from __future__ import annotations

import shlex
import shutil
import subprocess
import sys
from pathlib import Path

from markdown_it import MarkdownIt
from tests.support.corpus import REPO
from tests.support.gitinit import git_env, init_repo, run_git


def first_command() -> str:
    tokens = MarkdownIt("commonmark").parse((REPO / "README.md").read_text(encoding="utf-8"))
    block = next(t for t in tokens if t.type == "fence")
    assert block.info.strip() == "sh"
    return block.content.splitlines()[0]


def clone(dst: Path) -> Path:
    """The repository's files as a clone has them (tracked, plus new files not ignored), in a
    directory with no sibling: the test's temporary directory holds nothing else."""
    listed = run_git(REPO, "ls-files", "-z", "--cached", "--others", "--exclude-standard")
    for rel in filter(None, listed.split("\0")):
        source = REPO / rel
        if source.is_file():
            (dst / rel).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, dst / rel)
    return init_repo(dst)


def test_readme_first_command_exits_0_in_a_fresh_clone(tmp_path):
    command = first_command()
    install, *steps = command.split(" && ")
    assert install == "pip install ." and steps, command
    repo = clone(tmp_path / "docsnippets")
    (tmp_path / "home").mkdir()
    assert sorted(p.name for p in tmp_path.iterdir()) == ["docsnippets", "home"]  # no ../shared
    for cwd in (repo, repo / "examples"):
        for step in steps:
            argv = shlex.split(step)
            assert argv[0] == "docsnippets", step
            done = subprocess.run(
                [sys.executable, str(repo / "entrypoint.py"), *argv[1:]],
                cwd=cwd,
                capture_output=True,
                text=True,
                env=git_env(tmp_path / "home"),
                timeout=120,
                check=False,
            )
            assert done.returncode == 0, f"{step} in {cwd}: {done.stdout}{done.stderr}"
    assert run_git(repo, "status", "--porcelain") == ""  # the first command changes nothing
