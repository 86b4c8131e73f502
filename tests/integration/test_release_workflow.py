"""The release workflow's own shell steps, run with real git against a local remote.

Only the registry steps (docker build/push) cannot run here; the tag check, the release
commit made with .ci/pin_action.py and the tag moves run exactly as written in release.yml.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

REPO = Path(__file__).resolve().parents[2]
WORKFLOW = REPO / ".github" / "workflows" / "release.yml"
IMAGE_REF = "docker://ghcr.io/owner/docsnippets@sha256:" + "ab" * 32

pytestmark = pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")


def _steps() -> dict[str, str]:
    data = yaml.safe_load(WORKFLOW.read_text(encoding="utf-8"))
    return {s["name"]: s["run"] for s in data["jobs"]["release"]["steps"] if "run" in s}


def _git(cwd: Path, *args: str) -> str:
    env = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1"}
    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True, env=env)
    return done.stdout.strip()


def _python3_first(tmp: Path) -> str:
    """PATH with this interpreter as ``python3``: the steps call ``python3``, and the one that
    comes first on the tester's PATH may lack PyYAML (the workflow installs it on the runner)."""
    shim = tmp / "python3-shim"
    shim.mkdir(exist_ok=True)
    (shim / "python3").write_text(f'#!/bin/sh\nexec "{sys.executable}" "$@"\n', encoding="utf-8")
    (shim / "python3").chmod(0o755)
    return f"{shim}{os.pathsep}{os.environ.get('PATH', '')}"


def _bash(script: str, cwd: Path, **env: str) -> subprocess.CompletedProcess[str]:
    path = _python3_first(cwd.parent)
    full = {**os.environ, "GIT_CONFIG_GLOBAL": os.devnull, "GIT_CONFIG_NOSYSTEM": "1", "PATH": path, **env}
    # The runner runs `run:` scripts with `bash -e {0}`.
    return subprocess.run(["bash", "-e", "-c", script], cwd=cwd, capture_output=True, text=True, env=full, check=False)


@pytest.fixture
def checkout(tmp_path: Path) -> tuple[Path, Path]:
    """A remote with main and a pushed v1.2.3 tag, and the workflow's checkout of that tag."""
    remote = tmp_path / "remote.git"
    work = tmp_path / "work"
    _git(tmp_path, "init", "-q", "--bare", str(remote))
    work.mkdir()
    _git(work, "init", "-q", "-b", "main")
    shutil.copy2(REPO / "action.yml", work / "action.yml")
    (work / ".ci").mkdir()
    shutil.copy2(REPO / ".ci" / "pin_action.py", work / ".ci" / "pin_action.py")
    # The script writes with the checkout's own src/docsnippets, as the workflow's checkout has it.
    package = work / "src" / "docsnippets"
    shutil.copytree(REPO / "src" / "docsnippets", package, ignore=shutil.ignore_patterns("__pycache__"))
    _git(work, "add", "-A")
    _git(work, "-c", "user.name=t", "-c", "user.email=t@e", "commit", "-qm", "main")
    _git(work, "tag", "v1.2.3")
    _git(work, "push", "-q", str(remote), "main", "v1.2.3")
    runner = tmp_path / "runner"
    _git(tmp_path, "clone", "-q", "--branch", "v1.2.3", str(remote), str(runner))
    return remote, runner


def test_the_tag_check(checkout: tuple[Path, Path]) -> None:
    _, runner = checkout
    script = _steps()["Check the tag"]
    assert _bash(script, runner, TAG="v1.2.3").returncode == 0
    for bad in ("v1.2", "v1.2.3-rc1", "1.2.3", "v1.2.3;true"):
        done = _bash(script, runner, TAG=bad)
        assert done.returncode == 1 and "is not vMAJOR.MINOR.PATCH" in done.stdout
    (runner / "action.yml").write_text((runner / "action.yml").read_text().replace("Dockerfile", "docker://x/y:z"))
    done = _bash(script, runner, TAG="v1.2.3")
    assert done.returncode == 1 and "tag a commit of main" in done.stdout


def test_release_commit_and_tag_moves(checkout: tuple[Path, Path]) -> None:
    remote, runner = checkout
    steps = _steps()
    main_before = _git(remote, "rev-parse", "refs/heads/main")
    env = {
        "TAG": "v1.2.3",
        "IMAGE_REF": IMAGE_REF,
        "GITHUB_TOKEN": "not-a-token",
        "GITHUB_SERVER_URL": f"file://{remote.parent}",
        "GITHUB_REPOSITORY": "remote",
    }
    for name in ("Release commit with the image pinned by digest", "Move the tags"):
        done = _bash(steps[name], runner, **env)
        assert done.returncode == 0, f"{name}: {done.stdout}{done.stderr}"
    release = _git(remote, "rev-parse", "refs/tags/v1.2.3^{commit}")
    assert _git(remote, "rev-parse", "refs/tags/v1^{commit}") == release
    assert _git(remote, "rev-parse", f"{release}^") == main_before  # on top of the tagged commit
    assert _git(remote, "rev-parse", "refs/heads/main") == main_before  # main untouched
    released = _git(remote, "show", f"{release}:action.yml")
    original = (REPO / "action.yml").read_text(encoding="utf-8").rstrip("\n")
    assert released == original.replace("  image: Dockerfile", f"  image: {IMAGE_REF}")
    assert _git(remote, "diff", "--name-only", main_before, release) == "action.yml"


def test_a_bad_image_reference_stops_the_release(checkout: tuple[Path, Path]) -> None:
    remote, runner = checkout
    done = _bash(
        _steps()["Release commit with the image pinned by digest"], runner, TAG="v1.2.3", IMAGE_REF="docker://oops"
    )
    assert done.returncode != 0 and "not an image reference" in done.stderr
    assert _git(runner, "status", "--porcelain") == ""
    assert _git(remote, "tag", "--list") == "v1.2.3"
