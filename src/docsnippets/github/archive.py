"""The head commit's archive (``GET /repos/{repo}/tarball/{sha}``), read in memory as data.

One download replaces a request per file, and it counts against no API limit. The archive is
PR content all the same, so it is read with hard bounds and believed only where the commit's
listing agrees with it:

* the gzip stream is inflated here, a chunk at a time, never past ``max_bytes`` of either
  compressed or inflated data, and the tar holds at most ``max_members`` members; both bounds
  are also held to what the listing says the commit contains (a bomb is the archive holding
  more than its commit), so an archive over them is an error, never a partial reading;
* every member name is one top directory (GitHub's ``owner-repo-sha/``) and then a relative
  path: an absolute name, ``..``, a hard link or a device is an error; symbolic links and
  directories are passed over (the listing says what they are);
* only the members the caller wants are kept, up to :data:`MAX_KEPT_BYTES` in all, and each
  is kept only when its bytes hash to the blob the listing names (git's ``blob <size>\\0``
  SHA-1): a file git archive rewrote (``export-subst``, an ``eol`` attribute) or left out
  (``export-ignore``), or one past that bound, is simply not taken, and its caller reads
  that blob instead. Nothing is written to disk or executed.
"""

from __future__ import annotations

import hashlib
import io
import tarfile
import zlib
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass

from docsnippets.github.listing import REGULAR_MODES, CommitListing
from docsnippets.visible import quoted

CHUNK = 1 << 16
# Per member, what a tar header and its padding add to the file's bytes (plus pax records).
_MEMBER_OVERHEAD = 3 * 512
# Room beyond the listing for what git archive may add: a pax header, expanded attributes.
_SLACK = 1 << 20
# The bytes of wanted files kept in memory for the run (distinct blobs): past them a wanted
# file is left to its reader, who downloads it as a blob. The archive may inflate to far
# more, and what is kept stays beside the parse of the costliest page.
MAX_KEPT_BYTES = 256 * 1024 * 1024


class ArchiveError(Exception):
    """The archive is not the commit it claims to be, or is over its bounds; one line."""


@dataclass(frozen=True)
class ArchiveBounds:
    """How much one archive may hold: inflated (and compressed) bytes, and members."""

    max_bytes: int
    max_members: int

    def fits(self, listing: CommitListing) -> bool:
        """Whether the commit, as its listing counts it, is within these bounds."""
        return _expected_bytes(listing) <= self.max_bytes and len(listing.entries) + 2 <= self.max_members


def _expected_bytes(listing: CommitListing) -> int:
    sizes = sum(e.size or 0 for e in listing.entries.values())
    return sizes + _MEMBER_OVERHEAD * (len(listing.entries) + 2)


def _blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


class _Inflated(io.RawIOBase):
    """The inflated bytes of a gzip stream given as chunks, within hard bounds."""

    def __init__(self, chunks: Iterable[bytes], max_compressed: int, max_inflated: int) -> None:
        self._chunks: Iterator[bytes] = iter(chunks)
        self._inflater = zlib.decompressobj(16 + zlib.MAX_WBITS)
        self._tail = b""
        self._max_compressed = max_compressed
        self._max_inflated = max_inflated
        self.compressed = 0
        self.inflated = 0

    def readable(self) -> bool:
        return True

    def readinto(self, buffer: memoryview) -> int:  # type: ignore[override]
        while not self._inflater.eof:
            data = self._tail or self._next_chunk()
            if data is None:
                raise ArchiveError("the archive ends before its gzip stream does (truncated)")
            try:
                out = self._inflater.decompress(data, len(buffer))
            except zlib.error:
                raise ArchiveError("the archive is not a gzip stream") from None
            self._tail = self._inflater.unconsumed_tail
            if out:
                self.inflated += len(out)
                if self.inflated > self._max_inflated:
                    raise ArchiveError(f"the archive inflates past {self._max_inflated} bytes")
                buffer[: len(out)] = out
                return len(out)
        return 0

    def _next_chunk(self) -> bytes | None:
        for chunk in self._chunks:
            if chunk:
                self.compressed += len(chunk)
                if self.compressed > self._max_compressed:
                    raise ArchiveError(f"the archive is larger than {self._max_compressed} bytes")
                return chunk
        return None


def _relative(name: str, top: list[str]) -> str | None:
    """The member's path below the archive's one top directory (None for that directory)."""
    if name.startswith("/") or "\\" in name:
        raise ArchiveError(f"the archive holds an absolute or Windows path {quoted(name[:80])}")
    parts = [p for p in name.split("/") if p not in ("", ".")]
    if any(p == ".." for p in parts) or not parts:
        raise ArchiveError(f"the archive holds a path leaving its directory {quoted(name[:80])}")
    if not top:
        top.append(parts[0])
    elif parts[0] != top[0]:
        raise ArchiveError(f"the archive holds a second top directory {quoted(parts[0][:80])}")
    return "/".join(parts[1:]) or None


def read_archive(
    chunks: Iterable[bytes], listing: CommitListing, wanted: Callable[[str], bool], bounds: ArchiveBounds
) -> dict[str, bytes]:
    """path -> bytes of every wanted regular file of ``listing`` the archive holds exactly."""
    expected = _expected_bytes(listing) + _SLACK
    limit = min(bounds.max_bytes, 2 * expected)
    raw = _Inflated(chunks, max_compressed=limit, max_inflated=limit)
    kept: dict[str, bytes] = {}
    blobs: dict[str, bytes] = {}  # a blob under many paths is kept once
    held = 0  # bytes of the distinct blobs kept
    top: list[str] = []
    members = 0
    max_members = min(bounds.max_members, len(listing.entries) + 16)
    try:
        with tarfile.open(fileobj=io.BufferedReader(raw, CHUNK), mode="r|") as tar:
            for member in tar:
                members += 1
                if members > max_members:
                    raise ArchiveError(f"the archive holds more than {max_members} members")
                _check_commit(tar, listing.sha)
                path = _relative(member.name, top)
                if member.islnk() or not (member.isfile() or member.isdir() or member.issym()):
                    raise ArchiveError(f"the archive holds a link or device {quoted(member.name[:80])}")
                entry = listing.entries.get(path or "")
                if path is None or not member.isfile() or entry is None or not wanted(path):
                    continue
                if entry.mode not in REGULAR_MODES or entry.size is None:
                    continue
                if member.size > 2 * entry.size + _SLACK:  # no attribute git archive applies makes that much
                    raise ArchiveError(
                        f"{quoted(path[:80])} is larger in the archive than its blob ({entry.size} bytes)"
                    )
                if entry.sha not in blobs and held + entry.size > MAX_KEPT_BYTES:
                    continue  # read as a blob if it is read at all
                handle = tar.extractfile(member)
                data = handle.read() if handle is not None else b""
                if _blob_sha(data) == entry.sha:
                    if entry.sha not in blobs:
                        held += len(data)
                    kept[path] = blobs.setdefault(entry.sha, data)
    except (tarfile.TarError, ValueError, UnicodeError, OverflowError) as exc:
        raise ArchiveError(f"the archive is not a valid tar ({str(exc)[:80]})") from None
    except EOFError:
        raise ArchiveError("the archive ends before its tar does (truncated)") from None
    return kept


def _check_commit(tar: tarfile.TarFile, sha: str) -> None:
    """git archive names the commit in a pax global header; another commit's archive is refused."""
    comment = tar.pax_headers.get("comment")
    if comment is not None and comment.strip() != sha:
        raise ArchiveError(f"the archive is of commit {quoted(comment.strip()[:40])}, not {sha[:12]}")
