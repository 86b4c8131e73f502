"""What a name in the repository's code stands for: a module, a function, a class, a method.

Pure: modules come parsed from :class:`resolve.ModuleIndex`; nothing is imported. A name resolves
only when its module binds it exactly once (a ``def``, a ``class`` or an import of the
repository's own code), anywhere at top level including ``if``/``try`` blocks; a name bound
twice (a fallback in ``except ImportError``, an ``@overload`` family, a reassignment) or by
anything else (an assignment, a loop) is left unresolved, and so nothing about it is judged.
Imports and re-exports are followed through the repository's modules, relative ones too, and
``from X import *`` when every star module is the repository's. Methods are looked up through
a class's repository bases; a class with a base outside the repository (but ``object``,
``ABC`` and ``Generic[...]``), a metaclass, or a decorator other than ``@dataclass`` has no
known members here.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any, TypeVar

from docsnippets.references.resolve import MAX_STAR_STEPS, Module, ModuleIndex, absolute

T = TypeVar("T")
# How many imports, re-exports and bases a lookup follows before it gives up (cycles, depth).
MAX_HOPS = 24
# Bases that add no member a call could reach (besides what ``object`` has).
_PLAIN_BASES = frozenset({"object", "ABC", "Generic"})

Scope = dict[str, list[ast.stmt]]
_COMPOUND = (ast.If, ast.Try, ast.With, ast.AsyncWith, ast.For, ast.AsyncFor, ast.While, ast.Match)
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")
if hasattr(ast, "TryStar"):
    _COMPOUND = (*_COMPOUND, ast.TryStar)


@dataclass(frozen=True, eq=False)
class Definition:
    """A ``def`` or ``class`` of the repository; ``owner`` is the class a method is defined in."""

    module: Module
    qualname: str
    node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef
    owner: Definition | None = None

    @property
    def where(self) -> str:
        """How a reason names it: ``Class.method`` (path:line)."""
        return f"`{self.qualname}` ({self.module.source}:{self.node.lineno})"

    @property
    def dotted(self) -> str:
        return f"{self.module.name}.{self.qualname}"


@dataclass(frozen=True)
class ModuleValue:
    module: Module


@dataclass(frozen=True)
class Instance:
    """A value made by calling a repository class."""

    cls: Definition


@dataclass(frozen=True)
class Member:
    """A function found on a class: through an instance (``self`` filled) or the class itself."""

    function: Definition
    via_instance: bool


Value = Definition | ModuleValue | Instance | Member


def _targets(node: ast.AST) -> Iterator[str]:
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Store):
            yield sub.id
        elif isinstance(sub, ast.MatchAs | ast.MatchStar) and sub.name:
            yield sub.name
        elif isinstance(sub, ast.MatchMapping) and sub.rest:
            yield sub.rest
        elif isinstance(sub, ast.ExceptHandler) and sub.name:
            yield sub.name


def collect_scope(body: list[ast.stmt]) -> Scope:
    """Every binding of a module or class body, by name, nested blocks included."""
    scope: Scope = {}

    def add(name: str, binding: ast.stmt) -> None:
        scope.setdefault(name, []).append(binding)

    def visit(statements: list[ast.stmt]) -> None:
        for node in statements:
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                add(node.name, node)
            elif isinstance(node, ast.Import):
                for alias in node.names:
                    add(alias.asname or alias.name.split(".")[0], node)
            elif isinstance(node, ast.ImportFrom):
                for alias in node.names:
                    if alias.name != "*":
                        add(alias.asname or alias.name, node)
            elif isinstance(node, _COMPOUND):
                heads = [getattr(node, "target", None), getattr(node, "items", None), getattr(node, "subject", None)]
                for head in heads:
                    for part in head if isinstance(head, list) else [head]:
                        for name in _targets(part) if part is not None else ():
                            add(name, node)
                for case in getattr(node, "cases", ()):
                    for name in _targets(case.pattern):
                        add(name, node)
                for handler in getattr(node, "handlers", ()):
                    if handler.name:
                        add(handler.name, node)
                for block in _BLOCKS:
                    inner = getattr(node, block, None) or []
                    visit([s for s in inner if isinstance(s, ast.stmt)])
                for case in getattr(node, "cases", ()):
                    visit(case.body)
                for handler in getattr(node, "handlers", ()):
                    visit(handler.body)
            else:
                for name in _targets(node):
                    add(name, node)

    visit(body)
    return scope


class Namespaces:
    """Name lookups in the repository's modules and classes, each scope collected once."""

    def __init__(self, tree: ModuleIndex) -> None:
        self.tree = tree
        self._scopes: dict[int, Scope] = {}
        self._memos: dict[tuple[object, ...], tuple[Any, frozenset[str]]] = {}
        self._stars: dict[str, tuple[Module | None, ...]] = {}
        self._star_steps = 0  # star imports the lookup under way has followed
        self._asked = ""  # the module that lookup started from

    def _scope_of(self, node: ast.Module | ast.ClassDef) -> Scope:
        if id(node) not in self._scopes:
            self._scopes[id(node)] = collect_scope(node.body)
        return self._scopes[id(node)]

    def module(self, dotted: str) -> Module | None:
        """A module of the repository (its top-level package found in the tree), else None."""
        if not dotted or self.tree.module(dotted.split(".")[0]) is None:
            return None
        return self.tree.module(dotted)

    def _memo(self, key: tuple[object, ...], compute: Callable[[], T]) -> T | None:
        """``compute()`` once per key. The source files it consulted are remembered with the
        answer and counted again on every later use: they are what a finding depends on (a
        code-only change re-checks the snippets whose calls went through it). A key met again
        while it is being computed (an import cycle) answers None."""
        if key in self._memos:
            value, deps = self._memos[key]
            self.tree.visited |= deps
            return value
        self._memos[key] = (None, frozenset())
        outer, self.tree.visited = self.tree.visited, set()
        try:
            value = compute()
        finally:
            deps = frozenset(self.tree.visited)
            self.tree.visited = outer | deps
        self._memos[key] = (value, deps)
        return value

    def lookup(self, module: Module, name: str, hops: int = 0) -> Value | None:
        """What ``module.name`` is, or None when that cannot be known."""
        if hops > MAX_HOPS:
            return None
        if hops == 0:
            self._star_steps = 0
            self._asked = module.name
        return self._memo(("lookup", module.name, name), lambda: self._lookup(module, name, hops))

    def _lookup(self, module: Module, name: str, hops: int) -> Value | None:
        syntax = self.tree.syntax(module)
        if hops > MAX_HOPS or (syntax is None and module.source is not None):
            return None
        entries = self._scope_of(syntax).get(name) if syntax is not None else None
        if not entries:
            return self._unbound(module, name, syntax, hops)
        if len(entries) != 1:
            return None
        return self._binding(module, name, entries[0], hops)

    def _unbound(self, module: Module, name: str, syntax: ast.Module | None, hops: int) -> Value | None:
        if module.directory is not None:
            sub = self.tree.module(f"{module.name}.{name}")
            if sub is not None:
                return ModuleValue(sub)
        for found in self._star_targets(module, syntax):
            self._star_steps += 1
            if self._star_steps > MAX_STAR_STEPS:
                self.tree.stopped.add(self._asked)
                return None  # too far to follow: not known
            if found is None:
                return None  # a star from outside the repository may bind anything
            value = self.lookup(found, name, hops + 1)
            if value is not None:
                return value
        return None

    def _star_targets(self, module: Module, syntax: ast.Module | None) -> tuple[Module | None, ...]:
        """The modules of ``module``'s top-level star imports, resolved once per run (None: not the repository's)."""
        if module.name not in self._stars:
            found = []
            for star in syntax.body if syntax is not None else []:
                if _is_star(star):
                    assert isinstance(star, ast.ImportFrom)
                    target = absolute(module, star.level, star.module or "")
                    found.append(self.module(target) if target else None)
            self._stars[module.name] = tuple(found)
        return self._stars[module.name]

    def _binding(self, module: Module, name: str, entry: ast.stmt, hops: int) -> Value | None:
        if isinstance(entry, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            return Definition(module, name, entry)
        if isinstance(entry, ast.Import):
            alias = next(a for a in entry.names if (a.asname or a.name.split(".")[0]) == name)
            found = self.module(alias.name if alias.asname else name)
            return ModuleValue(found) if found is not None else None
        if isinstance(entry, ast.ImportFrom):
            alias = next(a for a in entry.names if (a.asname or a.name) == name)
            target = absolute(module, entry.level, entry.module or "")
            found = self.module(target) if target else None
            return None if found is None else self.lookup(found, alias.name, hops + 1)
        return None

    def expression(self, module: Module, node: ast.expr, hops: int = 0) -> Value | None:
        """What an expression in ``module``'s top level (a base class, a decorator) stands for."""
        if isinstance(node, ast.Name):
            return self.lookup(module, node.id, hops)
        if isinstance(node, ast.Attribute):
            value = self.expression(module, node.value, hops)
            return None if value is None else self.attribute(value, node.attr, hops)
        return None

    def attribute(self, value: Value, attr: str, hops: int = 0) -> Value | None:
        if isinstance(value, ModuleValue):
            return self.lookup(value.module, attr, hops + 1)
        if isinstance(value, Definition) and isinstance(value.node, ast.ClassDef):
            found = self.member(value, attr)
            if isinstance(found, Definition) and isinstance(found.node, ast.ClassDef):
                return found
            return Member(found, via_instance=False) if isinstance(found, Definition) else None
        if isinstance(value, Instance):
            found = self.member(value.cls, attr)
            if isinstance(found, Definition) and not isinstance(found.node, ast.ClassDef):
                return Member(found, via_instance=True)
        return None

    # --- classes ------------------------------------------------------------------------------

    def mro(self, cls: Definition, hops: int = 0) -> tuple[Definition, ...] | None:
        """The class and its repository bases, nearest first; None when a base, a metaclass or a
        class decorator is not followed here (then no member is known)."""
        if hops > MAX_HOPS:
            return None
        return self._memo(("mro", id(cls.node)), lambda: self._mro(cls, hops))

    def _mro(self, cls: Definition, hops: int) -> tuple[Definition, ...] | None:
        node = cls.node
        assert isinstance(node, ast.ClassDef)
        if node.keywords:
            return None
        if any(_dataclass_call(d) is None for d in node.decorator_list):
            return None
        out: list[Definition] = [cls]
        for base in node.bases:
            if _plain_base(base):
                continue
            found = self.expression(cls.module, base, hops + 1)
            if not isinstance(found, Definition) or not isinstance(found.node, ast.ClassDef):
                return None
            above = self.mro(found, hops + 1)
            if above is None:
                return None
            out.extend(c for c in above if all(c.node is not o.node for o in out))
        return tuple(out)

    def member(self, cls: Definition, name: str) -> Definition | bool | None:
        """The ``def``/``class`` that ``name`` finds on ``cls``; False when no class of a fully
        known hierarchy binds it; None when that cannot be known."""
        order = self.mro(cls)
        if order is None:
            return None
        for c in order:
            assert isinstance(c.node, ast.ClassDef)
            entries = self._scope_of(c.node).get(name)
            if entries:
                node = entries[0]
                if len(entries) != 1 or not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
                    return None
                return Definition(c.module, f"{c.qualname}.{name}", node, owner=c)
        return False

    def fields_scope(self, cls: Definition) -> Scope:
        assert isinstance(cls.node, ast.ClassDef)
        return self._scope_of(cls.node)


def _is_star(node: ast.stmt) -> bool:
    return isinstance(node, ast.ImportFrom) and any(a.name == "*" for a in node.names)


def _plain_base(node: ast.expr) -> bool:
    if isinstance(node, ast.Subscript):
        node = node.value
    word = node.id if isinstance(node, ast.Name) else node.attr if isinstance(node, ast.Attribute) else None
    return word in _PLAIN_BASES


def _dataclass_call(node: ast.expr) -> ast.expr | None:
    """The decorator when it is ``@dataclass`` in any spelling, else None."""
    target = node.func if isinstance(node, ast.Call) else node
    word = target.id if isinstance(target, ast.Name) else target.attr if isinstance(target, ast.Attribute) else None
    return node if word == "dataclass" else None
