"""Where a tree's top-level Python packages are, as the reference check finds them: pure.

Top-level modules live at the root or under ``src/``; both questions below read only those
two listings of the tree's code view, so they cost the same whatever else the tree holds.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from docsnippets.constants import SOURCE_ROOTS
from docsnippets.sources import DIRECTORY, FILE, ModuleFiles


def _top_entries(files: ModuleFiles) -> Iterator[tuple[str, str, str]]:
    """(base, name, kind) of every entry where top-level modules live: the root and ``src/``."""
    for base in SOURCE_ROOTS:
        rel = base.rstrip("/")
        if rel and files.kind(rel) != DIRECTORY:
            continue
        for name, kind in files.listing(rel).items():
            yield base, name, kind


def find_packages(files: ModuleFiles) -> tuple[str, ...]:
    """Top-level packages and modules at the root or under ``src/``, as the reference check sees them."""
    names: set[str] = set()
    for base, name, kind in _top_entries(files):
        stem = name[:-3] if kind == FILE and name.endswith(".py") else name
        if not stem.isidentifier():
            continue
        if (kind == FILE and name.endswith(".py")) or files.kind(f"{base}{name}/__init__.py") == FILE:
            names.add(stem)
    return tuple(sorted(names))


def reaches_code(files: ModuleFiles, packages: Iterable[str]) -> bool:
    """Whether any import may resolve into this tree: a module file or a package directory at
    the root or under ``src/``, or a listed package whose directory holds code. When none can,
    no snippet reaches the repository's code (a docs-only checkout) and the reference check has
    nothing to judge, nor anything to load for it.

    It may say True where :class:`resolve.ModuleIndex` then finds nothing (that only costs the check),
    never False where ModuleIndex finds something. It reads the root and ``src/`` listings and one
    ``stat`` per directory there, never a directory's own listing: a large data or build
    directory that git ignores is not read on every check.
    """
    for base, name, kind in _top_entries(files):
        if kind == FILE and name.endswith(".py") and name[:-3].isidentifier():
            return True
        if kind == DIRECTORY and name.isidentifier() and files.may_be_package(f"{base}{name}"):
            return True
    return any(files.holds_code(base + name) for name in packages if name.isidentifier() for base in SOURCE_ROOTS)
