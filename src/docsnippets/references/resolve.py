"""Repository modules located in the checked tree, parsed at most once per run."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from dataclasses import dataclass

from docsnippets import work
from docsnippets.constants import DIRECTORY, FILE, SOURCE_ROOTS
from docsnippets.references.bindings import ModuleNames, names_of, parse_module
from docsnippets.sources import ModuleFiles


@dataclass(frozen=True)
class Module:
    """A resolved module: the file holding its code (None for a namespace portion), its package directory."""

    name: str
    source: str | None
    directory: str | None


_NAMESPACE = ModuleNames(frozenset(), None, (), False)
# How many star imports one question (does this module bind that name?) follows before it
# counts as one that cannot be judged: modules that star-import each other by the hundred
# would otherwise be walked whole for every name a snippet imports.
MAX_STAR_STEPS = 1_000


class ModuleIndex:
    """Modules and their names looked up in :class:`ModuleFiles`, each at most once per run."""

    def __init__(self, files: ModuleFiles, packages: Iterable[str]) -> None:
        self._files = files
        self._packages = frozenset(packages)
        self._modules: dict[str, Module | None] = {}
        self._names: dict[str, ModuleNames | None] = {}
        self._syntax: dict[str, ast.Module | None] = {}
        self._stars: dict[str, tuple[Module | None, ...]] = {}
        # The source files consulted since the caller last cleared it: what a finding depends on.
        self.visited: set[str] = set()
        # Modules a question about whose names stopped after MAX_STAR_STEPS star imports (not judged).
        self.stopped: set[str] = set()

    def _locate(self, name: str, path: str, namespace: bool) -> Module | None:
        if self._files.kind(f"{path}/__init__.py") == FILE:
            return Module(name, f"{path}/__init__.py", path)
        if self._files.kind(f"{path}.py") == FILE:
            return Module(name, f"{path}.py", None)
        if namespace and self._files.kind(path) == DIRECTORY:
            return Module(name, None, path)
        return None

    def _top(self, name: str) -> Module | None:
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

    def module(self, dotted: str) -> Module | None:
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

    def names(self, module: Module) -> ModuleNames | None:
        """What the module binds; None when that cannot be judged (unreadable or unparsable)."""
        if module.name not in self._names:
            syntax = None if module.source is None else self.syntax(module)
            if module.source is None:
                self._names[module.name] = _NAMESPACE
            else:
                self._names[module.name] = None if syntax is None else names_of(syntax)
        return self._names[module.name]

    def syntax(self, module: Module) -> ast.Module | None:
        """The module's syntax tree; None for a namespace portion, or when it cannot be read or parsed."""
        if module.source is None:
            return None
        self.visited.add(module.source)
        if module.source not in self._syntax:
            work.check()
            source = self._files.read(module.source)
            if source is not None:
                work.read_code(len(source), module.source)
            self._syntax[module.source] = None if source is None else parse_module(source)
        return self._syntax[module.source]

    def binds(self, module: Module, name: str) -> bool:
        """Whether ``from module import name`` can work, or cannot be judged."""
        names = self.names(module)
        if names is None or names.dynamic or name in names.defined or name in (names.exported or ()):
            return True
        if self._star_binds(module, names, name):
            return True
        return module.directory is not None and self.module(f"{module.name}.{name}") is not None

    def star_targets(self, module: Module, names: ModuleNames) -> tuple[Module | None, ...]:
        """The modules ``module`` star-imports from, resolved once per run; None for one
        outside the repository or broken."""
        if module.name not in self._stars:
            found = []
            for level, relative in names.stars:
                target = absolute(module, level, relative)
                top = None if target is None else self.module(target.split(".")[0])
                found.append(None if target is None or top is None else self.module(target))
            self._stars[module.name] = tuple(found)
        return self._stars[module.name]

    def _star_binds(self, module: Module, names: ModuleNames, name: str) -> bool:
        """Whether a module ``module`` star-imports from binds ``name``, through modules
        without ``__all__``. Each module is read once however many paths lead to it (a module
        that answered no answers no again), a cycle ends where it began, and past
        MAX_STAR_STEPS star imports the question counts as one that cannot be judged."""
        seen = {module.name}
        todo = [(module, names)]
        steps = 0
        while todo:
            here, here_names = todo.pop()
            for found in self.star_targets(here, here_names):
                steps += 1
                if steps > MAX_STAR_STEPS:
                    self.stopped.add(module.name)
                    return True  # too far to follow: not judged
                if found is None:
                    return True  # from outside the repository, or itself broken: not judged
                if found.name in seen:
                    continue
                seen.add(found.name)
                exported = self.names(found)
                if exported is None or exported.dynamic:
                    return True
                if exported.exported is not None:
                    if name in exported.exported:
                        return True
                elif not name.startswith("_"):
                    if name in exported.defined:
                        return True
                    todo.append((found, exported))
        return False


def absolute(module: Module, level: int, relative: str) -> str | None:
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
