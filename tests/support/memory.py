"""A tree held in memory as a :class:`sources.FileSource`, for tests of the pure judge."""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping

from docsnippets.snippets.extract import oversized
from docsnippets.sources import EntryKind, ModuleFiles, Read
from docsnippets.sources.listing import ListedModules


class MemoryTree:
    """path -> bytes; every path a regular file."""

    def __init__(self, files: Mapping[str, bytes | str]) -> None:
        self.files = {p: d.encode() if isinstance(d, str) else d for p, d in files.items()}
        self.reads: list[str] = []

    @property
    def label(self) -> str:
        return "a tree in memory"

    def entries(self) -> Mapping[str, EntryKind]:
        return dict.fromkeys(sorted(self.files), EntryKind.FILE)

    def kind(self, path: str) -> EntryKind | None:
        return EntryKind.FILE if path in self.files else None

    def read(self, path: str, limit: int) -> Read:
        self.reads.append(path)
        data = self.files.get(path)
        if data is not None and len(data) > limit:
            return oversized(path, limit)
        return data

    def read_many(self, paths: Iterable[str], limit: int) -> Iterator[tuple[str, Read]]:
        for path in sorted(set(paths)):
            yield path, self.read(path, limit)

    def code(self) -> ModuleFiles:
        return ListedModules(self.entries(), self.files.get)
