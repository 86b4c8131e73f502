"""Nothing silently lost: a directory of the docs that cannot be read, in a tree that is not a
git repository, stops ``check`` and ``update`` with the directory named; the manifest stays
byte-identical. Run as user nobody, since root reads everything."""

from __future__ import annotations

import io
import os
import tempfile
from collections.abc import Iterator
from pathlib import Path

import pytest
from tests.support.corpus import HEAD, copy_tree, need
from tests.support.unprivileged import can_switch, run_as_nobody

from docsnippets.cli import main
from docsnippets.manifest import build as mf
from docsnippets.snippets.grammar import RUNNING

HIDDEN = "docs/zh/developer_guide"


@pytest.fixture
def tree() -> Iterator[Path]:
    """A non-git copy of the Slime docs with its manifest, writable by nobody (so that only the
    fix, not a permission, keeps ``update`` from rewriting the manifest), one directory 000."""
    if not can_switch():
        pytest.skip("cannot run the CLI as user nobody here (needs root and setpriv)")
    outer = Path(tempfile.mkdtemp(prefix="docsnippets-nobody-"))
    root = copy_tree(need(HEAD), outer / "slime")
    # Judged by this very Python: user nobody may not reach another one installed under /root.
    (root / ".docsnippets.yml").write_text(f'python: "{RUNNING}"\n', encoding="utf-8")
    try:
        assert main(["update", "--root", str(root)], out=io.StringIO()) == 0
        for path in [outer, *root.rglob("*"), root]:
            path.chmod(0o777 if path.is_dir() else 0o666)
        (root / HIDDEN).chmod(0o000)
        yield root
    finally:
        (root / HIDDEN).chmod(0o755)
        import shutil

        shutil.rmtree(outer)


def test_unreadable_directory_stops_check_and_update(tree: Path) -> None:
    manifest = tree / mf.DEFAULT_MANIFEST
    before = manifest.read_bytes()
    assert not os.access(tree / HIDDEN, os.R_OK) or os.geteuid() == 0
    for command in ("check", "update"):
        code, out, err = run_as_nobody(command, "--root", str(tree))
        assert code == 2, (command, out, err)
        assert f"{HIDDEN}: directory cannot be read (permission denied); make it readable" in err, err
        assert "Traceback" not in err and err.count("\n") == 1
        assert manifest.read_bytes() == before
    (tree / HIDDEN).chmod(0o755)
    assert run_as_nobody("check", "--root", str(tree))[0] == 0  # readable again: all there, fresh
