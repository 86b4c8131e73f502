"""A commit's listing as GitHub gives it: ``GET /git/trees/{sha}?recursive=1``, parsed.

Reading by path through the contents API leaves two doors open: the path is normalised on
the way (a name with a leading space or slash reads another file), and a push between two
reads mixes two commits. The tree of one commit SHA names every path exactly as git stores
it, with its mode, type, size and blob SHA, and a blob SHA is its content; so what is judged
is that commit and nothing else, and a file's size is known before a byte of it is read.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any, Final

from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.sources import EntryKind, Refusal

REGULAR_MODES: Final = ("100644", "100755")
SYMLINK_MODE: Final = "120000"


@dataclass(frozen=True)
class ListingEntry:
    """One path of a commit's tree as git stores it."""

    path: str
    mode: str
    type: str  # blob | tree | commit (a submodule)
    sha: str
    size: int | None  # blobs only


@dataclass(frozen=True)
class CommitListing:
    """Every path of one commit (``truncated``: GitHub listed only part of it)."""

    sha: str
    entries: Mapping[str, ListingEntry]
    truncated: bool


def parse_listing(data: Any, sha: str) -> CommitListing:
    """The tree answer of ``GET /git/trees/{sha}?recursive=1``; anything else is an error."""
    items = data.get("tree") if isinstance(data, dict) else None
    if not isinstance(items, list):
        raise GitHubError(ErrorKind.FAILED, f"listing the tree of {sha[:12]} failed: the answer is not a tree")
    entries: dict[str, ListingEntry] = {}
    for item in items:
        try:
            size = item.get("size")
            entry = ListingEntry(
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
    return CommitListing(sha, entries, bool(data.get("truncated")))


def refusal_of(entry: ListingEntry) -> Refusal | None:
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


def kind_of(entry: ListingEntry) -> EntryKind | None:
    """What a listed path is as a file of the tree (None for a directory)."""
    if entry.type == "commit":
        return EntryKind.SUBMODULE
    if entry.mode == SYMLINK_MODE:
        return EntryKind.SYMLINK
    if entry.type == "blob":
        return EntryKind.FILE if entry.mode in REGULAR_MODES else EntryKind.SYMLINK
    return None
