"""One path of a directory on disk, read by the rules every work-tree reader shares.

A listed path is read only as a regular file: a FIFO or a device is no page, a symlink is
followed only while its target stays inside the root (one leading out is a Notice, never
read), and past ``limit`` only ``limit + 1`` bytes are read, enough to tell the file is too
large. A path that exists but cannot be read is a :class:`SourceError`: dropping its snippets
silently would turn a broken checkout into a green check.
"""

from __future__ import annotations

import errno
import os
import stat
from functools import lru_cache
from pathlib import Path

from docsnippets.snippets.records import Notice
from docsnippets.sources import EntryKind, SourceError

# What pathlib's is_symlink()/is_file() swallow as "no such file" (Python 3.11 pathlib._IGNORED_*).
_ABSENT_ERRNOS = frozenset({errno.ENOENT, errno.ENOTDIR, errno.EBADF, errno.ELOOP})
_ABSENT_WINERRORS = frozenset({21, 123, 1921})
_READ_FLAGS = (
    os.O_RDONLY
    | getattr(os, "O_NOFOLLOW", 0)
    | getattr(os, "O_NONBLOCK", 0)
    | getattr(os, "O_CLOEXEC", 0)
    | getattr(os, "O_BINARY", 0)
)
_CHUNK = 1 << 20


def _read_regular(name: str, limit: int | None = None) -> bytes | None:
    """The bytes of ``name`` when it is a regular file and not a symlink, else None.

    ``os.open``/``os.read`` skip the buffered-io objects ``open()`` builds, which cost as much
    as reading a small page does. O_NOFOLLOW, O_NONBLOCK and the fstat mean that a
    file swapped for a symlink or a FIFO since it was listed is neither followed nor waited on.
    Past ``limit`` only ``limit + 1`` bytes are read: enough to tell the file is too large.
    """
    fd = os.open(name, _READ_FLAGS)
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            return None
        if limit is not None and info.st_size > limit:
            return os.read(fd, limit + 1)
        chunks = []
        size = info.st_size + 1  # one read for the whole file, one more to see the end
        while chunk := os.read(fd, size):
            chunks.append(chunk)
            size = _CHUNK
    finally:
        os.close(fd)
    return chunks[0] if len(chunks) == 1 else b"".join(chunks)


def read_file(root: Path, rel: str, limit: int | None = None) -> bytes | Notice | None:
    """The file's bytes; a Notice when it is a symlink out of the root; None when absent.

    Raises SourceError when the file exists but cannot be read, because silently dropping
    its snippets would turn a broken checkout into a green check.
    """
    name = os.path.join(root, rel)
    try:
        # One lstat instead of Path.is_symlink() + Path.is_file() (two stats, two Path objects);
        # the errors pathlib treats as "not there" give None here too, the others still raise.
        try:
            mode = os.lstat(name).st_mode
        except OSError as exc:
            if exc.errno in _ABSENT_ERRNOS or getattr(exc, "winerror", None) in _ABSENT_WINERRORS:
                return None
            raise
        except ValueError:  # a NUL or unencodable character in the name: pathlib says "no file"
            return None
        # Checked for every listed path, not just symlinked files: a symlinked directory on
        # the way (from git's listing or --changed) leads out of the root just the same.
        # realpath, unlike Path.resolve() on 3.11, does not raise on a symlink loop.
        real = os.path.realpath(name)
        if not _inside(real, root):
            return Notice(rel, "symlink points outside the root; not followed")
        if stat.S_ISLNK(mode):
            if not os.path.exists(name):  # dangling or a loop: what it stood for is lost
                raise SourceError(f"{rel}: broken symlink (its target does not exist); fix the link or remove it")
            if not os.path.isfile(real):
                return None  # a directory or a device: not a page
            return _read_regular(real, limit)
        if not stat.S_ISREG(mode):
            return None
        return _read_regular(name, limit)
    except PermissionError:
        raise SourceError(f"{rel}: permission denied; make the file readable or exclude it in the config") from None
    except OSError as exc:
        raise SourceError(f"{rel}: cannot read ({exc.strerror or exc}); fix or exclude the file") from None


@lru_cache(maxsize=8)
def _real_root(root: str) -> str:
    return os.path.realpath(root)


def _inside(real: str, root: Path) -> bool:
    top = _real_root(os.fspath(root))
    return real == top or real.startswith(top.rstrip(os.sep) + os.sep)


def read_listed(root: Path, rel: str, regular: bool, limit: int | None = None) -> bytes | Notice | None:
    """:func:`read_file`, without its lstat when the listing already saw a regular file."""
    if regular:
        try:
            data = _read_regular(os.path.join(root, rel), limit)
        except (OSError, ValueError):
            data = None  # gone, replaced or unreadable since the listing: let read_file say which
        if data is not None:
            return data
    return read_file(root, rel, limit)


def kind_of(root: Path, rel: str) -> EntryKind | None:
    """What ``rel`` is as a page: a regular file, a symlink to one inside the root, else None
    (absent, a directory, a device, a link that leads out or nowhere)."""
    name = os.path.join(root, rel)
    try:
        mode = os.lstat(name).st_mode
        if stat.S_ISREG(mode):
            return EntryKind.FILE
        if stat.S_ISLNK(mode) and os.path.isfile(name) and _inside(os.path.realpath(name), root):
            return EntryKind.SYMLINK
    except (OSError, ValueError):
        pass
    return None
