"""A commit on GitHub as a source of files: its listing, then bytes by blob SHA.

The listing (:mod:`github.listing`) says what the commit holds. Bytes come from the commit's
archive where the archive holds them exactly (:mod:`github.archive`), otherwise from the blob
API, one request per distinct blob, each checked against its listed size. A path the listing
does not hold does not exist, except one that ``listed`` (the PR's file list) says exists:
that one is refused, never taken for a deletion. A symbolic link or a submodule is refused by
name; a file over the size limit is skipped unread, as a local run skips it.

Pages are read once, in one pass (:meth:`read_many`); the code check may read a page with
snippets again, for the modules its other fences create. A page that cannot hold a snippet
(``kept`` says no) is let go once read: a head may hold hundreds of megabytes of Markdown
without an example, and holding it to the end of the run beside the parse of one costly page
passed the run's memory.
"""

from __future__ import annotations

from collections.abc import Callable, Collection, Iterable, Iterator, Mapping

from docsnippets.github.errors import ErrorKind, GitHubError
from docsnippets.github.listing import CommitListing, ListingEntry, kind_of, refusal_of
from docsnippets.snippets.extract import oversized
from docsnippets.sources import EntryKind, ModuleFiles, Read, Refusal
from docsnippets.sources.listing import ListedModules


class GitHubCommit:
    """:class:`sources.FileSource` over one commit read through the API (``blob``: by SHA)."""

    def __init__(
        self,
        listing: CommitListing,
        blob: Callable[[str], bytes],
        *,
        archived: Mapping[str, bytes] | None = None,
        listed: Collection[str] = frozenset(),
        kept: Callable[[bytes], bool] | None = None,
    ) -> None:
        self.listing = listing
        self._blob = blob
        self._from_archive = archived is not None
        self._archived = dict(archived or {})
        self._listed = frozenset(listed)
        self._blobs: dict[str, bytes] = {}
        self._kept = kept
        self._entries = {path: k for path, e in listing.entries.items() if (k := kind_of(e)) is not None}

    @property
    def label(self) -> str:
        return f"commit {self.listing.sha[:12]}"

    @property
    def archived(self) -> bool:
        """Whether the commit's bytes came in one archive (so reading its code costs nothing)."""
        return self._from_archive

    def entries(self) -> Mapping[str, EntryKind]:
        return self._entries

    def kind(self, path: str) -> EntryKind | None:
        return self._entries.get(path)

    def read(self, path: str, limit: int) -> Read:
        entry = self.listing.entries.get(path)
        if entry is None or entry.type == "tree":
            if path in self._listed:
                return Refusal(path, f"listed as changed by the PR but not in its head {self.listing.sha[:12]}")
            return None
        refusal = refusal_of(entry)
        if refusal is not None:
            return refusal
        if entry.size is None or entry.size > limit:
            return oversized(path, limit)  # never downloaded
        return self._bytes(entry, limit)

    def read_many(self, paths: Iterable[str], limit: int) -> Iterator[tuple[str, Read]]:
        for path in sorted(set(paths)):
            found = self.read(path, limit)
            yield path, found
            if self._kept is not None and isinstance(found, bytes) and not self._kept(found):
                self._archived.pop(path, None)
                self._blobs.pop(self.listing.entries[path].sha, None)

    def code(self) -> ModuleFiles:
        return ListedModules(self._entries, self._module)

    def _module(self, path: str) -> bytes | None:
        entry = self.listing.entries[path]
        return self._bytes(entry, entry.size or 0) if entry.size is not None else None

    def _bytes(self, entry: ListingEntry, limit: int) -> bytes:
        data = self._archived.get(entry.path)
        if data is not None:
            return data
        if entry.sha not in self._blobs:
            found = self._blob(entry.sha)
            if len(found) != entry.size or len(found) > limit:
                raise GitHubError(
                    ErrorKind.FAILED,
                    f"reading {entry.path} failed: its blob has {len(found)} bytes, the tree says {entry.size}",
                )
            self._blobs[entry.sha] = found
        return self._blobs[entry.sha]
