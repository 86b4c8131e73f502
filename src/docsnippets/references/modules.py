"""The checked tree's Python code, read-only: the I/O edge of the reference check.

Paths are looked up entry by entry in directory listings (one ``scandir`` per directory,
cached), so names match exactly as Python's import system sees them, also on file systems
that ignore case. Symlinks are followed only while they stay inside the root; one that leads
out is treated as absent, as it would be in a fresh checkout. Only regular files are read,
never FIFOs or devices, and never more than ``max_bytes`` of one.
"""

from __future__ import annotations

import os
import stat
from collections.abc import Iterable, Iterator
from pathlib import Path

from docsnippets.constants import DIRECTORY, FILE, SOURCE_ROOTS
from docsnippets.tree import TreeError, read_file

DEFAULT_MAX_MODULE_BYTES = 5 * 1024 * 1024
# holds_code gives up (answering False: nothing is judged) after this many directory entries.
MAX_WALK_ENTRIES = 20_000


class DirectoryFiles:
    """:class:`references.ModuleFiles` over a directory on disk."""

    def __init__(self, root: Path, max_bytes: int = DEFAULT_MAX_MODULE_BYTES) -> None:
        self._root = Path(os.path.realpath(root))
        self._top = os.fspath(self._root)
        self._max_bytes = max_bytes
        self._listings: dict[str, dict[str, str]] = {}

    def _inside(self, real: str) -> bool:
        return real == self._top or real.startswith(self._top.rstrip(os.sep) + os.sep)

    def _entry_kind(self, entry: os.DirEntry[str]) -> str | None:
        try:
            if entry.is_symlink():
                real = os.path.realpath(entry.path)
                if not self._inside(real):
                    return None
                mode = os.stat(real).st_mode
            else:
                mode = entry.stat(follow_symlinks=False).st_mode
        except (OSError, ValueError):
            return None
        if stat.S_ISDIR(mode):
            return DIRECTORY
        return FILE if stat.S_ISREG(mode) else None

    def listing(self, rel_dir: str) -> dict[str, str]:
        """Entry name -> FILE or DIRECTORY of a directory ('' for the root); cached."""
        if rel_dir not in self._listings:
            entries: dict[str, str] = {}
            try:
                with os.scandir(os.path.join(self._top, rel_dir) if rel_dir else self._top) as it:
                    for entry in it:
                        kind = self._entry_kind(entry)
                        if kind is not None and entry.name != ".git":
                            entries[entry.name] = kind
            except (OSError, ValueError):
                pass
            self._listings[rel_dir] = entries
        return self._listings[rel_dir]

    def kind(self, path: str) -> str | None:
        parts = path.split("/")
        if any(part in ("", ".", "..") or os.sep in part or "\0" in part for part in parts):
            return None
        here = ""
        for n, part in enumerate(parts):
            found = self.listing(here).get(part)
            if found is None or (n < len(parts) - 1 and found != DIRECTORY):
                return None
            here = f"{here}/{part}" if here else part
        return found

    def read(self, path: str) -> bytes | None:
        if self.kind(path) != FILE:
            return None
        try:
            data = read_file(self._root, path, self._max_bytes)
        except TreeError:
            return None  # unreadable: the module exists, its names cannot be judged
        if not isinstance(data, bytes) or len(data) > self._max_bytes:
            return None
        return data

    def may_be_package(self, path: str) -> bool:
        """Whether ``path``/__init__.py may be a file, by one ``stat`` and no listing. Unlike
        :meth:`kind` it may say yes where the exact-case lookup then finds nothing (a file
        system that ignores case, a symlink out of the root): an answer for a quick gate only."""
        try:
            return os.path.isfile(os.path.join(self._top, path, "__init__.py"))
        except (OSError, ValueError):
            return False

    def holds_code(self, path: str) -> bool:
        if self.kind(path) != DIRECTORY:
            return False
        pending = [path]
        seen = 0
        while pending and seen < MAX_WALK_ENTRIES:
            here = pending.pop()
            for name, kind in self.listing(here).items():
                seen += 1
                if kind == FILE and name.endswith(".py"):
                    return True
                if kind == DIRECTORY:
                    pending.append(f"{here}/{name}")
        return False


def _top_entries(files: DirectoryFiles) -> Iterator[tuple[str, str, str]]:
    """(base, name, kind) of every entry where top-level modules live: the root and ``src/``."""
    for base in SOURCE_ROOTS:
        rel = base.rstrip("/")
        if rel and files.kind(rel) != DIRECTORY:
            continue
        for name, kind in files.listing(rel).items():
            yield base, name, kind


def find_packages(root: Path) -> tuple[str, ...]:
    """Top-level packages and modules at the root or under ``src/``, as references.py sees them."""
    files = DirectoryFiles(root)
    names: set[str] = set()
    for base, name, kind in _top_entries(files):
        stem = name[:-3] if kind == FILE and name.endswith(".py") else name
        if not stem.isidentifier():
            continue
        if (kind == FILE and name.endswith(".py")) or files.kind(f"{base}{name}/__init__.py") == FILE:
            names.add(stem)
    return tuple(sorted(names))


def reaches_code(files: DirectoryFiles, packages: Iterable[str]) -> bool:
    """Whether any import may resolve into this tree: a module file or a package directory at
    the root or under ``src/``, or a listed package whose directory holds code. When none can,
    no snippet reaches the repository's code (a docs-only checkout) and the reference check has
    nothing to judge, nor anything to load for it.

    It may say True where :class:`resolve.Tree` then finds nothing (that only costs the check),
    never False where Tree finds something. It reads the root and ``src/`` listings and one
    ``stat`` per directory there, never a directory's own listing: a large data or build
    directory that git ignores is not read on every check.
    """
    for base, name, kind in _top_entries(files):
        if kind == FILE and name.endswith(".py") and name[:-3].isidentifier():
            return True
        if kind == DIRECTORY and name.isidentifier() and files.may_be_package(f"{base}{name}"):
            return True
    return any(files.holds_code(base + name) for name in packages if name.isidentifier() for base in SOURCE_ROOTS)
