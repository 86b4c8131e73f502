"""The names a module's top level binds, read with :mod:`ast` (pure: nothing is imported)."""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from docsnippets.references.findings import PARSE_ERRORS


@dataclass(frozen=True)
class ModuleNames:
    """What a module's top level binds, as far as :mod:`ast` can tell without running it."""

    defined: frozenset[str]
    exported: frozenset[str] | None  # the literal names of ``__all__``; None without ``__all__``
    stars: tuple[tuple[int, str], ...]  # (level, module) of each ``from ... import *``
    dynamic: bool  # a module-level ``__getattr__``: any name may exist


class _Binder(ast.NodeVisitor):
    """Collects the names a module's top level binds; function and class bodies are not entered."""

    def __init__(self) -> None:
        self.defined: set[str] = set()
        self.exported: set[str] | None = None
        self.stars: list[tuple[int, str]] = []
        self.dynamic = False

    def _scope(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.defined.add(node.name)
        if node.name == "__getattr__" and not isinstance(node, ast.ClassDef):
            self.dynamic = True
        for decorator in node.decorator_list:
            self.visit(decorator)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _scope

    def _no_scope(self, node: ast.AST) -> None:
        """Lambdas and comprehensions bind in their own scope."""

    visit_Lambda = visit_ListComp = visit_SetComp = visit_DictComp = visit_GeneratorExp = _no_scope

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Store):
            self.defined.add(node.id)

    def visit_AnnAssign(self, node: ast.AnnAssign) -> None:
        if node.value is not None:
            self.visit(node.target)
            self.visit(node.value)
            self._all_names(node.target, node.value)

    def visit_Assign(self, node: ast.Assign) -> None:
        self.generic_visit(node)
        for target in node.targets:
            self._all_names(target, node.value)

    def visit_AugAssign(self, node: ast.AugAssign) -> None:
        self.generic_visit(node)
        self._all_names(node.target, node.value)

    def visit_Expr(self, node: ast.Expr) -> None:
        call = node.value
        if (
            isinstance(call, ast.Call)
            and isinstance(call.func, ast.Attribute)
            and call.func.attr in ("append", "extend")
            and isinstance(call.func.value, ast.Name)
        ):
            for arg in call.args:
                self._all_names(call.func.value, arg)
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.defined.add(alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        for alias in node.names:
            if alias.name == "*":
                self.stars.append((node.level, node.module or ""))
            else:
                self.defined.add(alias.asname or alias.name)

    def _all_names(self, target: ast.AST, value: ast.AST) -> None:
        if isinstance(target, ast.Name) and target.id == "__all__":
            if self.exported is None:
                self.exported = set()
            self.exported.update(_string_literals(value))


def _string_literals(node: ast.AST) -> Iterator[str]:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        yield node.value
    elif isinstance(node, ast.List | ast.Tuple | ast.Set):
        for element in node.elts:
            yield from _string_literals(element)
    elif isinstance(node, ast.BinOp):
        yield from _string_literals(node.left)
        yield from _string_literals(node.right)


def parse_module(source: bytes) -> ast.Module | None:
    """A module's syntax tree; None when it does not parse (then nothing about it is judged)."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(source, "<module>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except PARSE_ERRORS:
        return None


def names_of(tree: ast.Module) -> ModuleNames:
    """The names a parsed module binds at top level."""
    binder = _Binder()
    for statement in tree.body:
        binder.visit(statement)
    exported = None if binder.exported is None else frozenset(binder.exported)
    return ModuleNames(frozenset(binder.defined), exported, tuple(binder.stars), binder.dynamic)


def module_names(source: bytes) -> ModuleNames | None:
    """The names a module's source binds at top level; None when it does not parse."""
    tree = parse_module(source)
    return None if tree is None else names_of(tree)
