"""CONTRIBUTING.md's code map names every module of the package, so a newcomer finds each one."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
PACKAGE = ROOT / "src" / "docsnippets"


def _map_rows() -> str:
    text = (ROOT / "CONTRIBUTING.md").read_text(encoding="utf-8")
    start = text.index("## The code map")
    end = text.index("\n## ", start + 1)
    return text[start:end]


def test_every_module_is_in_the_code_map():
    rows = _map_rows()
    named = set(re.findall(r"`([\w/]+\.py)`", rows))
    missing = []
    for path in sorted(PACKAGE.rglob("*.py")):
        rel = path.relative_to(PACKAGE)
        if rel.name == "__init__.py" and rel.parent != Path("sources"):
            continue
        # A row names a module by its file name inside its folder's row, or by its path.
        if rel.name not in named and rel.as_posix() not in named:
            missing.append(rel.as_posix())
    assert missing == [], f"modules the code map of CONTRIBUTING.md does not name: {missing}"
