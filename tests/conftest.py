"""Shared fixtures: small trees written by the tests, and the Slime corpus when present."""

from __future__ import annotations

import shutil
import stat
from pathlib import Path

import pytest

SHARED = Path(__file__).resolve().parents[1].parent / "shared"
CORPUS = SHARED / "corpus"
HEAD = CORPUS / "slime-docs-624b824a8"
BASE = CORPUS / "slime-docs-44d29ee59"
SEED = SHARED / "spec" / "seed-catalogue.md"


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The CLI's extraction cache goes to a directory of this run, never to the user's home.

    One directory for the whole run, so that the many tests that check a tree twice, or the
    same documents again, exercise the cached path too.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOCSNIPPETS_CACHE_DIR", str(tmp_path_factory.mktemp("extraction-cache")))
        patch.delenv("DOCSNIPPETS_NO_CACHE", raising=False)
        yield


def _need(path: Path) -> Path:
    if not path.exists():
        pytest.skip(f"{path} is absent (../shared is not beside the checkout)")
    return path


def copy_tree(src: Path, dst: Path) -> Path:
    shutil.copytree(src, dst)
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    dst.chmod(dst.stat().st_mode | stat.S_IWUSR)
    return dst


@pytest.fixture
def head_tree(tmp_path: Path) -> Path:
    return copy_tree(_need(HEAD), tmp_path / "head")


@pytest.fixture
def base_tree(tmp_path: Path) -> Path:
    return copy_tree(_need(BASE), tmp_path / "base")


@pytest.fixture
def seed() -> Path:
    return _need(SEED)


def write(root: Path, files: dict[str, str | bytes]) -> Path:
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


@pytest.fixture
def make_tree(tmp_path: Path):
    def make(files: dict[str, str | bytes], name: str = "tree") -> Path:
        return write(tmp_path / name, files)

    return make
