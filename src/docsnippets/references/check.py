"""Snippets checked against the code they import, statically: nothing is imported or run.

Rules
-----
* **What is checked.** Every absolute ``import X.Y``, ``import X.Y as Z``, ``from X import Y``
  and ``from X import (A, B)`` anywhere in a snippet (inside functions and ``try`` blocks too).
  The body, with its common indentation removed, is parsed with :mod:`ast` (top-level
  ``await`` allowed, so async examples need no wrapper and keep their line numbers). A body
  that does not parse still has its import statements found, token by token: the tokenizer
  is restarted after a line it gives up on, so one broken line hides nothing after it.
  Each import is reported at the line of its statement in the Markdown file.
* **Which imports belong to the repository.** Those whose top-level name is, at the tree's
  root or under ``src/``, a package directory with ``__init__.py`` or a module file ``X.py``;
  and those named in ``packages`` whose directory there holds Python code (a namespace
  package). Relative imports and everything else (standard library, third-party) are out
  of scope. A name whose code is absent from the tree (a docs-only checkout) is never
  reported: nothing can be judged there.
* **Modules.** ``a.b`` resolves, like Python's path finder, to ``a/b/__init__.py``, else
  ``a/b.py``, else a directory ``a/b/`` (a namespace portion). ``import a.b.c`` needs every
  prefix; the report names the first part that is missing.
* **Names.** ``from X import Y`` needs ``Y`` bound at X's top level, including inside
  top-level ``if``/``try``/``with``/``for``/``while``/``match`` blocks: ``def``, ``async def``,
  ``class``, an assignment (also by unpacking, augmented, or walrus), an annotated assignment
  *with* a value (a bare ``x: int`` binds nothing, so importing ``x`` fails at run time), an
  import or re-export, or a name listed in ``__all__`` (``=``, ``+=``, ``.append``,
  ``.extend`` with string literals). Otherwise ``Y`` may be a submodule of package X.
  ``from X import *`` re-exports are followed through the repository's own modules (their
  ``__all__``, else their public names). ``from X import *`` in a snippet only needs X.
* **When names are not judged** (so nothing is reported about them): X's source cannot be
  read or does not parse (its existence still counts, but a parse error says nothing
  reliable about which names it binds); X defines a module-level ``__getattr__`` (PEP 562:
  any name may exist); X star-imports from a module outside the repository or one that
  cannot be judged.

Limits
------
Names bound only by ``globals()``, ``setattr``, ``exec`` or ``sys.modules`` tricks are not
seen, nor names captured by ``match`` patterns; ``del`` is ignored (a deleted name still
counts as defined), and so is the condition of a block (a name imported under
``if TYPE_CHECKING:`` counts although it is absent at run time). Compiled extension modules
and ``.pyi`` stubs are not looked at; only the root and ``src/`` are searched for packages.
Each module is parsed at most once per call, and only if a snippet imports (or star-imports through) it.
"""

from __future__ import annotations

import ast
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Protocol

from docsnippets.references.imports import ImportRef, imports_of
from docsnippets.snippets.records import Snippet

FILE = "file"
DIRECTORY = "directory"
SOURCE_ROOTS = ("", "src/")
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)


class ModuleFiles(Protocol):
    """Read-only access to the checked tree, by '/'-separated paths relative to its root."""

    def kind(self, path: str) -> str | None:
        """:data:`FILE`, :data:`DIRECTORY`, or None when there is nothing usable there."""

    def read(self, path: str) -> bytes | None:
        """The bytes of a regular file, or None when it cannot be read."""

    def holds_code(self, path: str) -> bool:
        """Whether the directory holds at least one ``.py`` file at any depth."""


@dataclass(frozen=True)
class BrokenReference:
    """An import of a snippet that the checked tree does not satisfy."""

    file: str
    line: int
    module: str
    name: str | None
    reason: str
    snippet: Snippet = field(repr=False)

    @property
    def place(self) -> tuple[str, int]:
        return (self.file, self.line)


# --- names a module binds -------------------------------------------------------------------


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


def module_names(source: bytes) -> ModuleNames | None:
    """The names a module's source binds at top level; None when it does not parse."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = compile(source, "<module>", "exec", flags=ast.PyCF_ONLY_AST, dont_inherit=True)
    except _PARSE_ERRORS:
        return None
    binder = _Binder()
    for statement in tree.body:
        binder.visit(statement)
    exported = None if binder.exported is None else frozenset(binder.exported)
    return ModuleNames(frozenset(binder.defined), exported, tuple(binder.stars), binder.dynamic)


# --- resolution in the checked tree ---------------------------------------------------------


@dataclass(frozen=True)
class _Module:
    """A resolved module: the file holding its code (None for a namespace portion), its package directory."""

    name: str
    source: str | None
    directory: str | None


_NAMESPACE = ModuleNames(frozenset(), None, (), False)


class _Tree:
    """Modules and their names looked up in :class:`ModuleFiles`, each at most once per run."""

    def __init__(self, files: ModuleFiles, packages: Iterable[str]) -> None:
        self._files = files
        self._packages = frozenset(packages)
        self._modules: dict[str, _Module | None] = {}
        self._names: dict[str, ModuleNames | None] = {}

    def _locate(self, name: str, path: str, namespace: bool) -> _Module | None:
        if self._files.kind(f"{path}/__init__.py") == FILE:
            return _Module(name, f"{path}/__init__.py", path)
        if self._files.kind(f"{path}.py") == FILE:
            return _Module(name, f"{path}.py", None)
        if namespace and self._files.kind(path) == DIRECTORY:
            return _Module(name, None, path)
        return None

    def _top(self, name: str) -> _Module | None:
        for base in SOURCE_ROOTS:
            found = self._locate(name, base + name, namespace=False)
            if found is not None:
                return found
        if name in self._packages:
            for base in SOURCE_ROOTS:
                # A listed name counts only where its code is: a docs-only tree may hold its README.
                found = self._locate(name, base + name, namespace=True)
                if found is not None and self._files.holds_code(base + name):
                    return found
        return None

    def module(self, dotted: str) -> _Module | None:
        """The module ``dotted`` names, None when it does not resolve."""
        if dotted in self._modules:
            return self._modules[dotted]
        parent, _, last = dotted.rpartition(".")
        if not parent:
            found = self._top(dotted) if dotted.isidentifier() else None
        else:
            above = self.module(parent)
            found = None
            if above is not None and above.directory is not None and last.isidentifier():
                found = self._locate(dotted, f"{above.directory}/{last}", namespace=True)
        self._modules[dotted] = found
        return found

    def first_missing(self, dotted: str) -> str | None:
        parts = dotted.split(".")
        for n in range(1, len(parts) + 1):
            prefix = ".".join(parts[:n])
            if self.module(prefix) is None:
                return prefix
        return None

    def names(self, module: _Module) -> ModuleNames | None:
        """What the module binds; None when that cannot be judged (unreadable or unparsable)."""
        if module.name not in self._names:
            if module.source is None:
                self._names[module.name] = _NAMESPACE
            else:
                source = self._files.read(module.source)
                self._names[module.name] = None if source is None else module_names(source)
        return self._names[module.name]

    def binds(self, module: _Module, name: str, seen: frozenset[str] = frozenset()) -> bool:
        """Whether ``from module import name`` can work, or cannot be judged."""
        names = self.names(module)
        if names is None or names.dynamic or name in names.defined or name in (names.exported or ()):
            return True
        if self._star_binds(module, names, name, seen | {module.name}):
            return True
        return module.directory is not None and self.module(f"{module.name}.{name}") is not None

    def _star_binds(self, module: _Module, names: ModuleNames, name: str, seen: frozenset[str]) -> bool:
        for level, relative in names.stars:
            target = _absolute(module, level, relative)
            found = None if target is None or self.module(target.split(".")[0]) is None else self.module(target)
            if found is None:
                return True  # from outside the repository, or itself broken: cannot be judged
            if found.name in seen:
                continue
            exported = self.names(found)
            if exported is None or exported.dynamic:
                return True
            if exported.exported is not None:
                if name in exported.exported:
                    return True
            elif not name.startswith("_") and (
                name in exported.defined or self._star_binds(found, exported, name, seen | {found.name})
            ):
                return True
        return False


def _absolute(module: _Module, level: int, relative: str) -> str | None:
    """The absolute name of a (possibly relative) import made inside ``module``."""
    if level == 0:
        return relative or None
    parts = module.name.split(".")
    if module.directory is None:
        parts.pop()
    keep = len(parts) - (level - 1)
    if keep <= 0:
        return None
    base = ".".join(parts[:keep])
    return f"{base}.{relative}" if relative else base


def _problems(tree: _Tree, ref: ImportRef) -> list[tuple[str | None, str]]:
    if tree.module(ref.module.split(".")[0]) is None:
        return []  # not the repository's, or the tree holds none of its code
    missing = tree.first_missing(ref.module)
    if missing is not None:
        suffix = "" if missing == ref.module else f" (imported as {ref.module})"
        return [(None, f"module {missing} does not exist{suffix}")]
    module = tree.module(ref.module)
    assert module is not None
    return [
        (name, f"{ref.module} defines no name {name}")
        for name in dict.fromkeys(ref.names)
        if name != "*" and not tree.binds(module, name)
    ]


def check_references(
    snippets: Iterable[Snippet], files: ModuleFiles, packages: Iterable[str] = ()
) -> tuple[BrokenReference, ...]:
    """Every import of ``snippets`` that the tree behind ``files`` does not satisfy.

    Sorted by file and line; on one line, in the order the statement names them.
    """
    tree = _Tree(files, packages)
    found: dict[tuple[str, int, str, str | None, Snippet], BrokenReference] = {}
    for snippet in snippets:
        for ref in imports_of(snippet):
            for name, reason in _problems(tree, ref):
                key = (snippet.file, ref.line, ref.module, name, snippet)
                found.setdefault(key, BrokenReference(snippet.file, ref.line, ref.module, name, reason, snippet))
    return tuple(sorted(found.values(), key=lambda b: b.place))


# --- which snippets a code change can break ------------------------------------------------


def path_modules(path: str) -> tuple[str, ...]:
    """The module names a changed ``.py`` path may be imported as (with and without ``src.``)."""
    if not path.endswith(".py"):
        return ()
    parts = path[:-3].split("/")
    if parts[-1] == "__init__":
        parts.pop()
    if not parts or not all(part.isidentifier() for part in parts):
        return ()
    names = [".".join(parts)]
    if parts[0] == "src" and len(parts) > 1:
        names.append(".".join(parts[1:]))
    return tuple(names)


def _touches(ref: ImportRef, module: str) -> bool:
    if ref.module == module or ref.module.startswith(module + ".") or module.startswith(ref.module + "."):
        return True
    return any(f"{ref.module}.{name}" == module for name in ref.names)


def snippets_importing(snippets: Iterable[Snippet], paths: Iterable[str]) -> tuple[Snippet, ...]:
    """The snippets whose imports a change to ``paths`` (Python files, '/'-separated) can affect;
    importing a parent package counts, as its ``__init__`` may re-export from the changed module."""
    modules = [m for path in paths for m in path_modules(path)]
    if not modules:  # no code changed: no snippet's imports need reading
        return ()
    return tuple(s for s in snippets if any(_touches(ref, m) for ref in imports_of(s) for m in modules))


def snippets_to_check(
    snippets: Iterable[Snippet], touched: Iterable[str], changed: Iterable[str]
) -> tuple[Snippet, ...]:
    """What a partial check re-checks: the snippets of the touched files, and those importing
    a changed, renamed or removed ``.py`` file (in ``changed``)."""
    snippets = tuple(snippets)
    files = set(touched)
    chosen = {s.key: s for s in snippets if s.file in files}
    chosen.update((s.key, s) for s in snippets_importing(snippets, [p for p in changed if p.endswith(".py")]))
    return tuple(chosen.values())
