"""Real git repositories for the tests of root discovery and ``docsnippets init``.

Identity and configuration come from the environment, never from the user's files, so a test
neither reads nor changes anything outside its temporary directory.
"""

from __future__ import annotations

import os
import subprocess
from pathlib import Path

from tests.support.corpus import docs_with_code, write


def git_env(home: Path) -> dict[str, str]:
    return {
        **os.environ,
        "GIT_AUTHOR_NAME": "t",
        "GIT_AUTHOR_EMAIL": "t@example.com",
        "GIT_COMMITTER_NAME": "t",
        "GIT_COMMITTER_EMAIL": "t@example.com",
        "GIT_CONFIG_NOSYSTEM": "1",
        "GIT_CONFIG_GLOBAL": os.devnull,
        "HOME": str(home),
    }


def run_git(repo: Path, *args: str) -> str:
    done = subprocess.run(
        ["git", "-C", str(repo), *args], capture_output=True, text=True, env=git_env(repo.parent), check=False
    )
    if done.returncode != 0:
        raise AssertionError(f"git {' '.join(args)}: {done.stdout}{done.stderr}")
    return done.stdout


def commit_all(repo: Path, message: str = "docs") -> Path:
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "-m", message)
    return repo


def init_repo(repo: Path, files: dict[str, str | bytes] | None = None) -> Path:
    """A git repository at ``repo`` holding ``files``, committed."""
    repo.mkdir(parents=True, exist_ok=True)
    run_git(repo, "init", "-q", "-b", "main")
    write(repo, files or {})
    return commit_all(repo, "initial")


def slime_repo(repo: Path) -> Path:
    """Slime's docs and code as one committed git repository (skips without ../shared)."""
    docs_with_code(repo)
    return init_repo(repo)
