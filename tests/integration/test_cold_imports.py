"""What a cold ``docsnippets check`` loads: only what a plain check uses.

The Action starts a fresh process for every run, so every module imported at start-up is paid
for on every pull request. A plain check (text output, no cache, no config file, snippets that
import nothing of the tree, a tree without code) must not load the comment's rendering, the
templates, git, GitHub, YAML, a schema library, OpenSSL, or the reference check, nor list what
a fresh report does not have. What must never load is listed here; a new module of its own
on the path is no failure.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import judging

from docsnippets.config import DEFAULT_PYTHON, Config
from docsnippets.manifest import build as mf
from docsnippets.snippets.grammar import RUNNING

CODE = "import asyncio\n\n\nasync def main():\n    await asyncio.sleep(0)"
DOCS = {
    "docs/en/a.md": f"# A\n\n```python\n{CODE}\n```\n",
    "docs/zh/a.md": f"# 甲\n\n```python\n{CODE}  # 中文\n```\n",
}

# Never on that path (each has a command or a case of its own that loads it).
NEVER = (
    "jinja2",
    "yaml",
    "github",
    "requests",
    "jsonschema",
    "fastjsonschema",
    "subprocess",
    "docsnippets.adopt",
    "docsnippets.git",
    "docsnippets.github",
    "docsnippets.report.comment",
    "docsnippets.report.catalogue",
    "docsnippets.references.calls",
    "docsnippets.references.namespaces",
    "docsnippets.snippets.layouts",
    # A tree without code an import could resolve to has no reference check to load.
    "docsnippets.references.broken",
    "docsnippets.references.imports",
    "docsnippets.references.findings",
    "docsnippets.references.resolve",
    # A fresh report lists nothing: the entries and the comment's context are not needed.
    "docsnippets.report.entries",
    "docsnippets.report.context",
    "docsnippets.report.render",
    "docsnippets.report.data",
    # Only a manifest of the first schema needs its reader; only update records a source.
    "docsnippets.manifest.schema1",
    "docsnippets.manifest.source",
)
# Under another Python than the declared one (the Action's image runs the declared one) a check
# starts that Python to judge the snippets: subprocess is then on the plain path.
ANOTHER_PYTHON = () if RUNNING == DEFAULT_PYTHON else ("subprocess",)
_CHILD = (
    "import json, sys; from docsnippets.cli import main; "
    "code = main(sys.argv[1:]); print(json.dumps([code, sorted(sys.modules)]))"
)


def _check_modules(root: Path, *argv: str, env: dict[str, str] | None = None) -> tuple[int, set[str]]:
    """Exit code and modules of ``docsnippets check`` run in a fresh interpreter."""
    child_env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "DOCSNIPPETS_NO_CACHE": "1", **(env or {})}
    done = subprocess.run(
        [sys.executable, "-c", _CHILD, "check", "--root", str(root), *argv],
        env=child_env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.stdout, done.stderr
    code, modules = json.loads(done.stdout.splitlines()[-1])
    return code, set(modules)


@pytest.fixture
def fresh_tree(make_tree) -> Path:
    root = make_tree(DOCS).resolve()
    judging.update(root, Config(), root / mf.DEFAULT_MANIFEST, repository=None, commit=None)
    return root


def test_a_plain_check_loads_only_what_it_uses(fresh_tree):
    code, modules = _check_modules(fresh_tree)
    assert code == 0 and "docsnippets.judge" in modules
    never = [m for m in NEVER if m not in ANOTHER_PYTHON]
    loaded = [m for m in never if m in modules or any(x.startswith(m + ".") for x in modules)]
    assert loaded == []


def test_no_openssl_when_the_interpreter_has_its_own_sha256(fresh_tree):
    if not any(importlib.util.find_spec(name) for name in ("_sha2", "_sha256")):
        pytest.skip("this interpreter has no built-in SHA-256 module")
    _, modules = _check_modules(fresh_tree)
    assert "hashlib" not in modules and "_hashlib" not in modules


def test_other_outputs_load_their_own_code(fresh_tree):
    """The lazy modules are still there when asked for: the comment for markdown, calls for code."""
    code, modules = _check_modules(fresh_tree, "--format", "markdown")
    assert code == 0 and "docsnippets.report.comment" in modules and "jinja2" in modules
    package = fresh_tree / "pkg"
    package.mkdir()
    (package / "__init__.py").write_text("def run():\n    return 1\n", encoding="utf-8")
    for name in DOCS:
        text = (fresh_tree / name).read_text(encoding="utf-8")
        (fresh_tree / name).write_text(text.replace("import asyncio\n", "import asyncio\nimport pkg\n"), "utf-8")
    judging.update(fresh_tree, Config(), fresh_tree / mf.DEFAULT_MANIFEST, repository=None, commit=None)
    code, modules = _check_modules(fresh_tree)
    assert code == 0 and "docsnippets.references.calls" in modules
    assert "docsnippets.references.broken" in modules


def test_a_stale_report_loads_its_listing(fresh_tree):
    """What a fresh check leaves unloaded is there once there is something to list."""
    page = fresh_tree / "docs/en/a.md"
    page.write_text(page.read_text(encoding="utf-8") + "\n```python\nawait later()\n```\n", encoding="utf-8")
    code, modules = _check_modules(fresh_tree)
    assert code == 1 and "docsnippets.report.entries" in modules


def test_the_objects_of_start_up_are_kept_out_of_later_collections():
    code = (
        "import gc; before = gc.get_freeze_count(); import docsnippets.cli; "
        "print(before, gc.get_freeze_count(), gc.get_threshold()[0])"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    before, after, first_generation = map(int, done.stdout.split())
    assert before == 0 and after > 10_000
    assert first_generation > 700  # the default would collect the parse's objects again and again
