"""The code view of a tree known by its listing (a git commit, a GitHub commit): pure.

Directories are the prefixes of the listed paths; only regular files are files here, so a
symbolic link or a submodule is never followed into, as a fresh checkout of the commit would
not resolve one that leads out of it either. Bytes come from the source's own reader.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping

from docsnippets.sources import DIRECTORY, FILE, EntryKind


class ListedModules:
    """:class:`sources.ModuleFiles` over a listing and a reader of its regular files."""

    def __init__(self, entries: Mapping[str, EntryKind], read: Callable[[str], bytes | None]) -> None:
        self._files = {path for path, kind in entries.items() if kind == EntryKind.FILE}
        self._read = read
        self._children: dict[str, dict[str, str]] = {}
        self._code_dirs: set[str] = set()
        for path in self._files:
            parent, _, name = path.rpartition("/")
            self._children.setdefault(parent, {})[name] = FILE
            code = path.endswith(".py")
            while parent:
                above, _, name = parent.rpartition("/")
                if code:
                    self._code_dirs.add(parent)
                self._children.setdefault(above, {})[name] = DIRECTORY
                parent = above

    def kind(self, path: str) -> str | None:
        if path in self._files:
            return FILE
        return DIRECTORY if path in self._children else None

    def read(self, path: str) -> bytes | None:
        return self._read(path) if path in self._files else None

    def holds_code(self, path: str) -> bool:
        return path in self._code_dirs

    def listing(self, directory: str) -> Mapping[str, str]:
        return self._children.get(directory, {})

    def may_be_package(self, path: str) -> bool:
        return f"{path}/__init__.py" in self._files
