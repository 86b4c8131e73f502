"""A directory's Python code, read-only: the work tree's code view for the reference check.

Paths are looked up entry by entry in directory listings (one ``scandir`` per directory,
cached), so names match exactly as Python's import system sees them, also on file systems
that ignore case. Symlinks are followed only while they stay inside the root; one that leads
out is treated as absent, as it would be in a fresh checkout. Only regular files are read,
never FIFOs or devices, and never more than ``max_bytes`` of one.
"""

from __future__ import annotations

import os
import stat
from pathlib import Path

from docsnippets.sources import DIRECTORY, FILE, SourceError
from docsnippets.sources.disk import read_file

DEFAULT_MAX_MODULE_BYTES = 5 * 1024 * 1024
# holds_code gives up (answering False: nothing is judged) after this many directory entries.
MAX_WALK_ENTRIES = 20_000


class DirectoryFiles:
    """:class:`sources.ModuleFiles` over a directory on disk."""

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
        except SourceError:
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
