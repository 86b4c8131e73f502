"""Where the read-only Slime material lives, and the small file helpers the fixtures share.

The material sits in ../shared beside the checkout; tests that need it skip when it is absent,
so a checkout on its own still runs every other test.
"""

from __future__ import annotations

import re
import shutil
import stat
from collections.abc import Mapping
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SHARED = REPO.parent / "shared"
CORPUS = SHARED / "corpus"
HEAD = CORPUS / "slime-docs-624b824a8"
BASE = CORPUS / "slime-docs-44d29ee59"
CODE = CORPUS / "slime-code-624b824a8"
SEED = SHARED / "spec" / "seed-catalogue.md"
# Every skip for want of ../shared ends with these words: tests/conftest.py counts such skips
# into one line instead of listing each, so that a clone's test run stays readable.
ABSENT = "(../shared is not beside the checkout)"


def need(*paths: Path) -> Path:
    """The first path, or a skip of the calling test when ../shared does not provide them all."""
    for path in paths:
        if not path.exists():
            import pytest  # only here: .ci/container_e2e.py imports this module without pytest

            pytest.skip(f"{path} is absent {ABSENT}")
    return paths[0]


def copy_tree(src: Path, dst: Path) -> Path:
    """A writable copy: the shared material is read-only, and tests edit their copy."""
    shutil.copytree(src, dst)
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    dst.chmod(dst.stat().st_mode | stat.S_IWUSR)
    return dst


def docs_with_code(dst: Path) -> Path:
    """A writable copy of Slime's docs with its Python packages laid over them: the repository
    as the reference check sees it."""
    copy_tree(need(HEAD), dst)
    shutil.copytree(need(CODE), dst, dirs_exist_ok=True)
    for p in dst.rglob("*"):
        p.chmod(p.stat().st_mode | stat.S_IWUSR)
    return dst


def write(root: Path, files: Mapping[str, str | bytes]) -> Path:
    """Write each relative path's text (UTF-8, line endings kept) or bytes under root."""
    for rel, content in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        if isinstance(content, bytes):
            path.write_bytes(content)
        else:
            path.write_text(content, encoding="utf-8", newline="")
    return root


def lines_matching(root: Path, pattern: str) -> set[tuple[str, int]]:
    """(file, line) of every line of ``root/docs`` Markdown matching ``pattern``: where a report must point."""
    out = set()
    for md in sorted((root / "docs").rglob("*.md")):
        for n, line in enumerate(md.read_text(encoding="utf-8").splitlines(), start=1):
            if re.search(pattern, line):
                out.add((md.relative_to(root).as_posix(), n))
    return out
