"""The package's import graph, read with ``ast``: layered low to high, and without a cycle.

A module may import modules of its own layer or of lower ones, never of a higher one. A new
module must be given a layer here, so that its place is a decision, not an accident.
"""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "src" / "docsnippets"

# Low to high. Edges (tree, gitrefs, modules, fileio) sit as low as what they import allows,
# so that the pure stages above them can use them only through the engine.
LAYERS: list[set[str]] = [
    {"__init__", "constants"},
    {"fileio", "links", "settings", "workflow", "github_errors"},
    {"github_pr"},
    {"records", "config"},
    {"fences", "classify", "imports", "references", "tree", "gitrefs", "modules"},
    {"extract"},
    {"pairs"},
    {"manifest_io", "schema1", "manifest_check", "manifest", "compare", "cache"},
    {"engine", "merge_driver", "diffcmd"},
    {"verdict", "markup", "codediff", "report_data", "templating"},
    {"entries", "resync", "guidance"},
    {"comment_items", "textreport", "catalogue"},
    {"comment"},
    {"render"},
    {"annotate", "outcome", "crosscheck"},
    {"pr_flow"},
    {"stage2"},
    {"cli_output"},
    {"action", "cli"},
]
RANK = {name: n for n, layer in enumerate(LAYERS) for name in layer}


def _runtime_imports(tree: ast.Module) -> set[str]:
    """Package modules this module imports when it runs (``if TYPE_CHECKING:`` blocks excluded)."""
    skipped: set[int] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.If) and "TYPE_CHECKING" in ast.unparse(node.test):
            skipped.update(id(child) for stmt in node.body for child in ast.walk(stmt))
    out: set[str] = set()
    for node in ast.walk(tree):
        if id(node) in skipped:
            continue
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                out.add(node.module.split(".")[0])
            else:
                out.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").startswith("docsnippets."):
            out.add(node.module.split(".")[1])
        elif isinstance(node, ast.Import):
            out.update(a.name.split(".")[1] for a in node.names if a.name.startswith("docsnippets."))
    return out & {p.stem for p in PACKAGE.glob("*.py")}


def _graph() -> dict[str, set[str]]:
    return {p.stem: _runtime_imports(ast.parse(p.read_text(encoding="utf-8"))) for p in PACKAGE.glob("*.py")}


def test_every_module_has_a_layer():
    unranked = sorted(set(_graph()) - set(RANK))
    assert not unranked, f"give these modules a layer in LAYERS: {unranked}"


def test_no_module_imports_a_higher_layer():
    upward = [
        f"{name} (layer {RANK[name]}) imports {dep} (layer {RANK[dep]})"
        for name, deps in sorted(_graph().items())
        for dep in sorted(deps)
        if name in RANK and dep in RANK and RANK[dep] > RANK[name]
    ]
    assert not upward, upward


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


def test_the_import_graph_has_no_cycle():
    assert _cycle(_graph()) is None, " -> ".join(_cycle(_graph()) or [])


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
    source = (
        "from typing import TYPE_CHECKING\n"
        "from . import engine\n"
        "from .records import Snippet\n"
        "import docsnippets.tree\n"
        "def f():\n    from .cache import SnippetCache\n"
        "if TYPE_CHECKING:\n    from .render import Context\n"
    )
    assert _runtime_imports(ast.parse(source)) == {"engine", "records", "tree", "cache"}


def test_tree_only_lists_and_reads():
    assert not _graph()["tree"] & {"extract", "pairs", "engine", "manifest", "compare"}
