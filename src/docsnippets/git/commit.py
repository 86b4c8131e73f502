"""A git commit as a source of files, read through git itself: no checkout, no work-tree change.

The listing is ``git ls-tree -r`` (every path with its mode: regular files, symbolic links,
submodules); the bytes come from ``git cat-file --batch``, the selected pages in a few calls.
A symbolic link is never followed: its bytes are a path, not a page.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path

from docsnippets.git import refs as gitrefs
from docsnippets.snippets.extract import oversized
from docsnippets.sources import EntryKind, ModuleFiles, Read
from docsnippets.sources.listing import ListedModules

BATCH_BYTES = 8 << 20


class GitCommit:
    """:class:`sources.FileSource` over one commit of the repository at ``root``."""

    def __init__(self, root: Path, commit: str) -> None:
        self.root = root
        self.commit = commit
        self._objects = gitrefs.list_objects(root, commit)
        self._entries = {path: kind for path, (kind, _, _) in self._objects.items()}

    @property
    def label(self) -> str:
        return f"commit {self.commit[:12]}"

    def entries(self) -> Mapping[str, EntryKind]:
        return self._entries

    def kind(self, path: str) -> EntryKind | None:
        return self._entries.get(path)

    def read(self, path: str, limit: int) -> Read:
        return dict(self.read_many([path], limit))[path]

    def read_many(self, paths: Iterable[str], limit: int) -> Iterator[tuple[str, Read]]:
        """One ``git cat-file --batch`` per :data:`BATCH_BYTES` of blobs: few processes, and
        never every page of a large commit in memory at once."""
        batch: list[str] = []
        size_of_batch = 0
        for path in sorted(set(paths)):
            batch.append(path)
            size_of_batch += self._objects.get(path, (None, "", 0))[2]
            if size_of_batch >= BATCH_BYTES:
                yield from self._read_batch(batch, limit)
                batch, size_of_batch = [], 0
        yield from self._read_batch(batch, limit)

    def _read_batch(self, paths: list[str], limit: int) -> Iterator[tuple[str, Read]]:
        out: dict[str, Read] = {}
        wanted: dict[str, str] = {}
        for path in paths:
            kind, sha, size = self._objects.get(path, (None, "", 0))
            if kind != EntryKind.FILE:
                out[path] = None  # absent, or a link or submodule: no page of this commit
            elif size > limit:
                out[path] = oversized(path, limit)
            else:
                wanted[path] = sha
        blobs = gitrefs.read_blobs(self.root, wanted.values())
        out.update((path, blobs[sha]) for path, sha in wanted.items())
        for path in paths:
            yield path, out[path]

    def code(self) -> ModuleFiles:
        return ListedModules(self._entries, self._module)

    def _module(self, path: str) -> bytes | None:
        _, sha, _ = self._objects[path]
        return gitrefs.read_blobs(self.root, [sha]).get(sha)
