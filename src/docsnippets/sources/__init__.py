"""A source of files: one tree (a work tree, a git commit, a GitHub commit) seen the same way.

Every command judges a tree it reads through this protocol, and so does the reference check:
the Markdown scan asks for the listing and the bytes of the selected pages, the code check for
the code view (:meth:`FileSource.code`). Three implementations exist, each at its edge:
:mod:`sources.worktree` (the file system), :mod:`git.commit` (``git ls-tree``/``cat-file``) and
:mod:`github.commit` (GitHub's tree listing and archive). The judge sees only this module.

A listing names each path exactly as the tree stores it, with what it is (a regular file, a
symbolic link, a submodule); directories are implied by the paths below them. Reading a path
gives its bytes; None when there is no such file; a :class:`Notice` when it exists but is
skipped with a warning (over ``max_file_bytes``, a symlink leading out of the root); a
:class:`Refusal` when it exists and cannot be judged at all, which makes the verdict an
error (a symlink or submodule where a commit is read as data). A tree that cannot be read is
a :class:`SourceError`, never an absence.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import Protocol

from docsnippets.constants import DIRECTORY, FILE
from docsnippets.snippets.records import Notice

__all__ = [
    "DIRECTORY",
    "FILE",
    "EntryKind",
    "FileSource",
    "ModuleFiles",
    "Notice",
    "Read",
    "Refusal",
    "SourceError",
]


class SourceError(Exception):
    """The tree cannot be read; the message names the path and the fix."""


class EntryKind(StrEnum):
    """What a listed path is in its tree."""

    FILE = "file"
    SYMLINK = "symlink"
    SUBMODULE = "submodule"


@dataclass(frozen=True)
class Refusal:
    """A path that exists but cannot be judged as a file, and why; the verdict is then an error."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


Read = bytes | Notice | Refusal | None


class ModuleFiles(Protocol):
    """The code view of a tree for the reference check, by '/'-separated paths from its root."""

    def kind(self, path: str) -> str | None:
        """:data:`FILE`, :data:`DIRECTORY`, or None when there is nothing usable there."""

    def read(self, path: str) -> bytes | None:
        """The bytes of a regular file, or None when it cannot be read."""

    def holds_code(self, path: str) -> bool:
        """Whether the directory holds at least one ``.py`` file at any depth."""

    def listing(self, directory: str) -> Mapping[str, str]:
        """Entry name -> :data:`FILE` or :data:`DIRECTORY` of a directory ('' for the root)."""

    def may_be_package(self, path: str) -> bool:
        """Whether ``path/__init__.py`` may be a file: a quick gate that may only err towards yes."""


class FileSource(Protocol):
    """The files of one tree."""

    @property
    def label(self) -> str:
        """How messages name the tree: ``the work tree``, ``commit 1a2b3c4d5e6f``."""

    def entries(self) -> Mapping[str, EntryKind]:
        """Every path of the tree, as stored, with its kind."""

    def kind(self, path: str) -> EntryKind | None:
        """What ``path`` is in the tree, None when the tree does not hold it (cheap: no listing)."""

    def read(self, path: str, limit: int) -> Read:
        """The bytes of ``path``, reading at most ``limit`` of them (a larger file is a Notice)."""

    def read_many(self, paths: Iterable[str], limit: int) -> Iterator[tuple[str, Read]]:
        """:meth:`read` of several paths, each once, in path order. Pairs are made as they are
        consumed where the tree allows it, so a large tree is never held whole in memory."""

    def code(self) -> ModuleFiles:
        """The tree's code, for the reference check."""
