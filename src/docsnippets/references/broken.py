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
* **Modules the page creates.** A fence of the page whose first line is a comment naming a
  ``.py`` path (``# pkg/tools/new_tool.py``) shows a file the page has its reader create: that
  module (and a package holding it) is not missing for the imports of the page's snippets. The
  fence need not be a selected snippet (a plain example counts); the page itself is read for
  it only when an import would otherwise be reported.
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

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from docsnippets import work
from docsnippets.constants import DIRECTORY, FILE, SOURCE_ROOTS
from docsnippets.references.bindings import module_names
from docsnippets.references.created import created_paths, is_created, page_fences
from docsnippets.references.findings import BrokenReference, ReferenceKind
from docsnippets.references.imports import ImportRef, imports_of
from docsnippets.references.resolve import ModuleIndex
from docsnippets.snippets.records import Snippet
from docsnippets.sources import ModuleFiles

if TYPE_CHECKING:
    from docsnippets.references.calls import CallFinding, Pages
    from docsnippets.references.namespaces import Namespaces

# Callers and tests reach these through this module, the reference check's front door.
__all__ = [
    "DIRECTORY",
    "FILE",
    "SOURCE_ROOTS",
    "BrokenReference",
    "ModuleFiles",
    "broken_references",
    "module_names",
    "path_modules",
    "snippets_calling",
    "snippets_importing",
    "snippets_to_check",
]


def _problems(
    tree: ModuleIndex, ref: ImportRef, created: Callable[[], frozenset[str]] = frozenset
) -> list[tuple[str | None, str]]:
    """``created``: the modules the snippet's page has its reader create (see created.py),
    asked for only when something would be reported."""
    if tree.module(ref.module.split(".")[0]) is None:
        return []  # not the repository's, or the tree holds none of its code
    missing = tree.first_missing(ref.module)
    if missing is not None and is_created(created(), missing):
        return []
    if missing is not None:
        suffix = "" if missing == ref.module else f" (imported as {ref.module})"
        return [(None, f"module {missing} does not exist{suffix}")]
    module = tree.module(ref.module)
    assert module is not None
    return [
        (name, f"{ref.module} defines no name {name}")
        for name in dict.fromkeys(ref.names)
        if name != "*" and not tree.binds(module, name) and not is_created(created(), f"{ref.module}.{name}")
    ]


def broken_references(
    snippets: Iterable[Snippet],
    files: ModuleFiles,
    packages: Iterable[str] = (),
    ignore_calls: Iterable[str] = (),
    pages: Iterable[Snippet] | None = None,
    languages: Iterable[str] = (),
    *,
    stopped: set[str] | None = None,
) -> tuple[BrokenReference, ...]:
    """Every import of ``snippets`` that the tree behind ``files`` does not satisfy, and every
    call, ``await``, ``with`` or ``async for`` into its code that would fail (see calls.py).
    ``pages``: every snippet of the tree, for the imports of earlier snippets on a page
    (``snippets`` themselves when None); ``languages``: the fence languages of the pages' other
    examples, which may show a module the page creates (the page is read through ``files``);
    ``stopped`` receives the modules about whose names a question stopped following star
    imports (resolve.MAX_STAR_STEPS): what they bind through them was not judged.

    Sorted by file and line; on one line, the imports first, in the order the statement names them.
    """
    snippets = tuple(snippets)
    tree = ModuleIndex(files, packages)
    calls = _Calls(tree, snippets if pages is None else pages, files, frozenset(languages))
    patterns = tuple(ignore_calls)
    found: dict[tuple[object, ...], BrokenReference] = {}
    for snippet in snippets:
        work.check()
        for ref in calls.imports(snippet):
            for name, reason in _problems(tree, ref, lambda page=snippet.file: calls.created(page)):
                key = (snippet.file, ref.line, ref.module, name, snippet)
                found.setdefault(
                    key, BrokenReference(snippet.file, ref.line, ref.module, name, reason, snippet, _kind(name))
                )
        first = snippet.code_lines[0]
        for f in calls.findings(snippet, patterns):
            line = first + f.line - 1
            module, name = f.callee.module.name, f.callee.qualname
            key = (snippet.file, line, f.kind, module, name, f.reason, snippet)
            found.setdefault(key, BrokenReference(snippet.file, line, module, name, f.reason, snippet, f.kind))
    if stopped is not None:
        stopped.update(tree.stopped)
    return tuple(sorted(found.values(), key=lambda b: b.place))


class _Calls:
    """The call checks of one run (calls.py), loaded and set up only for a page that needs them.

    A name of a snippet resolves into the repository only through an import of its code, made by
    the snippet or by one before it on its page. On a page none of whose snippets imports the
    tree's code there is nothing to find, and a check of such pages alone (a docs-only
    checkout, imports of third-party code) never loads that machinery.
    """

    def __init__(
        self,
        tree: ModuleIndex,
        pages: Iterable[Snippet],
        files: ModuleFiles | None = None,
        languages: frozenset[str] = frozenset(),
    ) -> None:
        self.tree = tree
        self._files = files
        self._languages = languages
        self._pages = tuple(pages)
        self._by_file: dict[str, list[Snippet]] = {}
        for s in self._pages:
            self._by_file.setdefault(s.file, []).append(s)
        self._reaching: dict[str, bool] = {}  # by file, found when first asked
        self._imports: dict[Snippet, tuple[ImportRef, ...]] = {}
        self._created: dict[str, frozenset[str]] = {}
        self._ns: Namespaces | None = None
        self._context: Pages | None = None

    def imports(self, snippet: Snippet) -> tuple[ImportRef, ...]:
        """:func:`imports_of`, read once per snippet for both the import and the call checks."""
        if snippet not in self._imports:
            self._imports[snippet] = imports_of(snippet)
        return self._imports[snippet]

    def created(self, page: str) -> frozenset[str]:
        """The modules the page has its reader create, by their dotted names: from its snippets
        and, given the languages, from its other fences (the page read once, when first asked)."""
        if page not in self._created:
            bodies = [s.body for s in self._by_file.get(page, ())]
            if self._files is not None and self._languages:
                bodies += page_fences(self._files.read(page), self._languages)
            paths = created_paths(bodies)
            self._created[page] = frozenset(m for path in paths for m in path_modules(path))
        return self._created[page]

    def _reaches(self, snippet: Snippet) -> bool:
        return any(self.tree.module(ref.module.split(".")[0]) is not None for ref in self.imports(snippet))

    def findings(self, snippet: Snippet, patterns: Iterable[str] = ()) -> list[CallFinding]:
        page = snippet.file
        if page not in self._reaching:
            self._reaching[page] = any(self._reaches(s) for s in self._by_file.get(page, ()))
        if not self._reaching[page] and not self._reaches(snippet):
            return []
        from docsnippets.references.calls import Pages, call_findings
        from docsnippets.references.namespaces import Namespaces

        if self._ns is None or self._context is None:
            self._ns, self._context = Namespaces(self.tree), Pages(self._pages)
        return call_findings(snippet.body, self._ns, patterns, self._context.earlier(snippet))


def _kind(name: str | None) -> ReferenceKind:
    return ReferenceKind.MODULE if name is None else ReferenceKind.NAME


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


def snippets_calling(
    snippets: Iterable[Snippet], paths: Iterable[str], files: ModuleFiles, packages: Iterable[str] = ()
) -> tuple[Snippet, ...]:
    """The snippets whose calls resolve through one of ``paths`` (changed ``.py`` files): the
    callee's module, a module re-exporting it, or one defining a base class of it."""
    changed = frozenset(paths)
    if not changed:
        return ()
    snippets = tuple(snippets)
    tree = ModuleIndex(files, packages)
    calls = _Calls(tree, snippets)
    out = []
    for snippet in snippets:
        work.check()
        tree.visited.clear()
        calls.findings(snippet)
        if tree.visited & changed:
            out.append(snippet)
    return tuple(out)


def snippets_to_check(
    snippets: Iterable[Snippet],
    touched: Iterable[str],
    changed: Iterable[str],
    files: ModuleFiles | None = None,
    packages: Iterable[str] = (),
) -> tuple[Snippet, ...]:
    """What a partial check re-checks: the snippets of the touched files, those importing a
    changed, renamed or removed ``.py`` file (in ``changed``), and, given the tree's ``files``,
    those whose calls resolve through a changed file."""
    snippets = tuple(snippets)
    code = [p for p in changed if p.endswith(".py")]
    chosen = {s.key: s for s in snippets if s.file in set(touched)}
    chosen.update((s.key, s) for s in snippets_importing(snippets, code))
    if files is not None:
        chosen.update((s.key, s) for s in snippets_calling(snippets, code, files, packages))
    return tuple(chosen.values())
