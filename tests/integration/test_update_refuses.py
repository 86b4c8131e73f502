"""``update`` replaces a damaged manifest but never one it cannot reproduce (newer schema, not its own)."""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest

from docsnippets.cli import main
from docsnippets.manifest import build as mf

DOC = "# Guide\n\n```python\nasync def f():\n    return await g()\n```\n"
M = mf.DEFAULT_MANIFEST


@pytest.fixture
def root(tmp_path: Path) -> Path:
    for rel, text in {"docs/en/g.md": DOC, "docs/zh/g.md": DOC.replace("Guide", "指南")}.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    assert main(["update", "--root", str(tmp_path)], out=io.StringIO()) == 0
    return tmp_path


def _update(root: Path) -> int:
    return main(["update", "--root", str(root)], out=io.StringIO())


def _rewrite(root: Path, change: dict) -> bytes:
    data = {**json.loads((root / M).read_text(encoding="utf-8")), **change}
    raw = json.dumps(data, ensure_ascii=False).encode("utf-8")
    (root / M).write_bytes(raw)
    return raw


def test_newer_schema_is_refused_and_left_byte_identical(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _rewrite(root, {"schema": 4, "newfield": {"kept": True}})
    assert _update(root) == 2
    err = capsys.readouterr().err
    assert M in err and "schema 4" in err and "upgrade docsnippets" in err
    assert err.count("\n") == 1
    assert (root / M).read_bytes() == raw


def test_a_json_file_of_another_tool_is_refused(root: Path, capsys: pytest.CaptureFixture[str]) -> None:
    raw = _rewrite(root, {"generator": "othertool"})
    assert _update(root) == 2
    assert "not a docsnippets manifest" in capsys.readouterr().err
    assert (root / M).read_bytes() == raw
    (root / M).write_text('{"name": "package", "version": "1.0"}', encoding="utf-8")
    assert _update(root) == 2
    assert (root / M).read_text(encoding="utf-8") == '{"name": "package", "version": "1.0"}'


@pytest.mark.parametrize(
    "damage",
    ['{"schema": 2,\n<<<<<<< HEAD\n', '{"schema": 2, "generator": "docsnippets", "files": []}', '{"schema": "2"}'],
)
def test_a_damaged_manifest_is_still_rewritten(root: Path, damage: str) -> None:
    good = (root / M).read_bytes()
    (root / M).write_text(damage, encoding="utf-8")
    assert _update(root) == 0
    assert (root / M).read_bytes() == good
