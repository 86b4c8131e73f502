"""What the import-linter contracts in pyproject.toml cannot say on their own.

``lint-imports`` (run by .ci/run) enforces the layers and keeps the pure core free of edges. It
ignores a module that no contract names, and it does not look for cycles inside one layer. So
this file checks that every top-level module and subpackage has a place in the layers, that the
contracts name only modules that exist, and that the whole import graph (read with ``ast``) has no
cycle.
"""

from __future__ import annotations

import ast
import tomllib
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
PACKAGE = REPO / "src" / "docsnippets"


def _contracts() -> list[dict]:
    return tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))["tool"]["importlinter"]["contracts"]


def _layer_names() -> set[str]:
    (layers,) = [c for c in _contracts() if c["type"] == "layers"]
    return {part.strip() for line in layers["layers"] for part in line.replace(":", "|").split("|")}


def _module_name(path: Path) -> str:
    parts = path.relative_to(PACKAGE.parent).with_suffix("").parts
    return ".".join(parts[:-1] if parts[-1] == "__init__" else parts)


def _modules() -> dict[str, Path]:
    return {_module_name(p): p for p in PACKAGE.rglob("*.py")}


def _resolve(module: str, node: ast.ImportFrom, is_package: bool) -> list[str]:
    """The package modules an import statement names (a name may be a submodule or an attribute)."""
    if node.level:
        base = module.split(".") if is_package else module.split(".")[:-1]
        base = base[: len(base) - (node.level - 1)]
        target = ".".join([*base, node.module] if node.module else base)
    else:
        target = node.module or ""
    return [target, *(f"{target}.{alias.name}" for alias in node.names)]


def _runtime_imports(
    module: str, tree: ast.Module, is_package: bool, known: set[str], type_hints: bool = False
) -> set[str]:
    """Package modules this module imports when it runs (``if TYPE_CHECKING:`` blocks excluded
    unless ``type_hints``)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if not type_hints and isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom):
            out.update(_resolve(module, node, is_package))
        elif isinstance(node, ast.Import):
            out.update(alias.name for alias in node.names)
    return {name for name in out if name in known and name != "docsnippets"} - {module}


def _graph(type_hints: bool = False) -> dict[str, set[str]]:
    modules = _modules()
    known = set(modules)
    return {
        name: _runtime_imports(
            name, ast.parse(path.read_text(encoding="utf-8")), path.name == "__init__.py", known, type_hints
        )
        for name, path in modules.items()
    }


def _cycle(graph: dict[str, set[str]]) -> list[str] | None:
    state: dict[str, int] = {}  # 1: on the current path, 2: done
    path: list[str] = []

    def visit(node: str) -> list[str] | None:
        state[node] = 1
        path.append(node)
        for dep in sorted(graph.get(node, ())):
            if state.get(dep) == 1:
                return [*path[path.index(dep) :], dep]
            if dep not in state and (found := visit(dep)):
                return found
        path.pop()
        state[node] = 2
        return None

    for node in sorted(graph):
        if node not in state and (found := visit(node)):
            return found
    return None


def test_every_top_level_module_and_subpackage_has_a_layer():
    top = {".".join(name.split(".")[:2]) for name in _modules() if name != "docsnippets"}
    unranked = sorted(top - _layer_names())
    assert not unranked, f"give these a layer in pyproject.toml's layers contract: {unranked}"


def test_the_contracts_name_only_modules_that_exist():
    known = set(_modules())
    named = set(_layer_names())
    for contract in _contracts():
        named.update(contract.get("source_modules", ()))
        named.update(m for m in contract.get("forbidden_modules", ()) if m.startswith("docsnippets"))
    assert sorted(named - known) == []


def test_the_top_level_stays_short():
    top_modules = [p for p in PACKAGE.glob("*.py") if p.name != "__init__.py"]
    subpackages = [p for p in PACKAGE.iterdir() if (p / "__init__.py").is_file()]
    assert len(top_modules) <= 12 and len(subpackages) >= 4, (top_modules, subpackages)


@pytest.mark.parametrize("type_hints", [False, True])
def test_the_import_graph_has_no_cycle_not_even_for_type_hints(type_hints):
    graph = _graph(type_hints)
    assert "docsnippets.snippets.records" in graph["docsnippets.snippets.extract"]  # the reader reads
    assert _cycle(graph) is None, " -> ".join(_cycle(graph) or [])


@pytest.mark.parametrize(
    ("graph", "expected"),
    [
        ({"a": {"b"}, "b": {"c"}, "c": set()}, None),
        ({"a": {"b"}, "b": {"c"}, "c": {"a"}}, ["a", "b", "c", "a"]),
        ({"a": {"a"}}, ["a", "a"]),
    ],
)
def test_the_cycle_finder_finds_cycles(graph, expected):
    assert _cycle(graph) == expected


def test_the_import_reader_sees_every_form_and_skips_type_checking():
    known = {
        "docsnippets.judge",
        "docsnippets.snippets",
        "docsnippets.snippets.records",
        "docsnippets.sources.worktree",
        "docsnippets.cache",
        "docsnippets.report.render",
    }
    source = (
        "from typing import TYPE_CHECKING\n"
        "from .. import judge\n"
        "from .records import Snippet\n"
        "import docsnippets.sources.worktree\n"
        "def f():\n    from docsnippets.cache import SnippetCache\n"
        "if TYPE_CHECKING:\n    from docsnippets.report.render import Context\n"
    )
    found = _runtime_imports("docsnippets.snippets.extract", ast.parse(source), False, known)
    runtime = {"docsnippets.judge", "docsnippets.snippets.records", "docsnippets.sources.worktree", "docsnippets.cache"}
    assert found == runtime
    with_hints = _runtime_imports("docsnippets.snippets.extract", ast.parse(source), False, known, type_hints=True)
    assert with_hints == runtime | {"docsnippets.report.render"}


def test_the_work_tree_only_lists_and_reads():
    assert not _graph()["docsnippets.sources.worktree"] & {
        "docsnippets.snippets.extract",
        "docsnippets.snippets.pairs",
        "docsnippets.judge",
        "docsnippets.manifest.build",
        "docsnippets.judge.compare",
    }
