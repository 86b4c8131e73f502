"""A commit's files as stage 2 reads them: its tree listed once, each file's blob read by SHA.

Reading by path through the contents API leaves two doors open: the path is normalised on
the way (a name with a leading space or slash reads another file), and a push between two
reads mixes two commits. The tree of one commit SHA names every path exactly as git stores
it, with its mode, type, size and blob SHA, and a blob SHA is its content; so what is judged
is that commit and nothing else, and a file's size is known before a byte of it is read.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Final

from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.snippets.extract import oversized
from docsnippets.snippets.records import Notice

REGULAR_MODES: Final = ("100644", "100755")
SYMLINK_MODE: Final = "120000"


@dataclass(frozen=True)
class TreeEntry:
    """One path of a commit's tree as git stores it."""

    path: str
    mode: str
    type: str  # blob | tree | commit (a submodule)
    sha: str
    size: int | None  # blobs only


@dataclass(frozen=True)
class Tree:
    """Every path of one commit (``truncated``: GitHub listed only part of it)."""

    sha: str
    entries: Mapping[str, TreeEntry]
    truncated: bool


@dataclass(frozen=True)
class Refusal:
    """A file stage 2 will not judge, and why; the verdict is then an error naming it."""

    path: str
    reason: str

    def __str__(self) -> str:
        return f"{self.path}: {self.reason}"


@dataclass(frozen=True)
class Contents:
    """What reading some paths of a commit found.

    ``files``: bytes for a regular file, a Notice for one skipped (too large), None for a path
    that does not exist there. ``refused``: paths that exist but are not judged.
    """

    files: Mapping[str, bytes | Notice | None]
    refused: tuple[Refusal, ...]


def parse_tree(data: Any, sha: str) -> Tree:
    """The tree answer of ``GET /git/trees/{sha}?recursive=1``; anything else is an error."""
    items = data.get("tree") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise GitHubError(ErrorKind.FAILED, f"listing the tree of {sha[:12]} failed: the answer is not a tree")
    entries: dict[str, TreeEntry] = {}
    for item in items:
        try:
            size = item.get("size")
            entry = TreeEntry(
                str(item["path"]),
                str(item["mode"]),
                str(item["type"]),
                str(item["sha"]),
                size if isinstance(size, int) else None,
            )
        except (TypeError, KeyError, AttributeError):
            raise GitHubError(
                ErrorKind.FAILED, f"listing the tree of {sha[:12]} failed: an entry without path, mode, type or sha"
            ) from None
        entries[entry.path] = entry
    return Tree(sha, entries, bool(data.get("truncated")))


def refusal_of(entry: TreeEntry) -> Refusal | None:
    """Why a tree entry cannot be judged as a file; None for a regular file."""
    if entry.type == "blob" and entry.mode in REGULAR_MODES:
        return None
    if entry.mode == SYMLINK_MODE:
        reason = "a symbolic link; stage 2 reads regular files only: commit the file itself, or exclude it"
    elif entry.type == "commit":
        reason = "a submodule; stage 2 reads regular files only: exclude it in the config"
    else:
        reason = f"a {entry.type} (mode {entry.mode}), not a regular file: rename it or exclude it in the config"
    return Refusal(entry.path, reason)


def read_paths(
    tree: Tree,
    paths: Iterable[str],
    *,
    max_bytes: int,
    listed: Collection[str],
    blob: Callable[[str], bytes],
) -> Contents:
    """Read ``paths`` of ``tree``, each exactly as named, each blob once (``blob``: by SHA).

    ``listed``: paths the PR's file list says exist at its head; one missing from the tree is
    refused, never taken for a deletion. A directory named like a Markdown file is no file.
    """
    files: dict[str, bytes | Notice | None] = {}
    refused: list[Refusal] = []
    blobs: dict[str, bytes] = {}
    for path in sorted(set(paths)):
        entry = tree.entries.get(path)
        if entry is None or entry.type == "tree":
            if path in listed:
                refused.append(Refusal(path, f"listed as changed by the PR but not in its head {tree.sha[:12]}"))
            else:
                files[path] = None
            continue
        refusal = refusal_of(entry)
        if refusal is not None:
            refused.append(refusal)
        elif entry.size is None or entry.size > max_bytes:
            files[path] = oversized(path, max_bytes)  # never downloaded
        else:
            if entry.sha not in blobs:
                blobs[entry.sha] = _checked(blob(entry.sha), entry, max_bytes)
            files[path] = blobs[entry.sha]
    return Contents(files, tuple(refused))


def _checked(data: bytes, entry: TreeEntry, max_bytes: int) -> bytes:
    if len(data) != entry.size or len(data) > max_bytes:
        raise GitHubError(
            ErrorKind.FAILED,
            f"reading {entry.path} failed: its blob has {len(data)} bytes, the tree says {entry.size}",
        )
    return data
