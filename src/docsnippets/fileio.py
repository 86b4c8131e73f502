"""Safe reads and atomic writes: the only code that opens the manifest, the config or a cache entry.

Reads never block on a FIFO nor read a device; writes go beside the target and are renamed
over it, so a reader sees the old file or the new one, never half of one.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from pathlib import Path


class NotRegularFile(OSError):
    """A path that exists but is a FIFO, a device or a socket rather than a file."""


def read_regular(path: Path) -> bytes | None:
    """The bytes of a regular file, None when it does not exist.

    Opened without blocking and checked before reading: a manifest or config that is a FIFO,
    a device or a symlink to ``/dev/zero`` would otherwise hang or fill the memory. Raises
    IsADirectoryError, NotRegularFile, or another OSError for anything else.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        return handle.read()


def _new_file_mode(path: Path) -> int:
    """The target's current permissions, else what a plain ``open(..., "w")`` would give."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: Path, content: str | bytes, *, durable: bool = True) -> None:
    """Write beside the target, then rename over it: a reader sees the old or the new file.

    The text is encoded before anything touches the disk, the new file keeps the old one's
    permissions (mkstemp's 0600 would hide the manifest from other users of a shared
    checkout), and a failure names the target, never the temp file (which is gone by then).
    Temp files are named after their writer's PID, so that the next write can remove those
    of a writer that was killed half-way.

    ``durable`` files (the manifest, reports) are synced, and their directory after the
    rename, so the rename survives a crash; a cache entry (``durable=False``) need not be,
    because a lost entry is only a miss.
    """
    data = content.encode("utf-8") if isinstance(content, str) else content
    if path.is_dir():
        raise IsADirectoryError(errno.EISDIR, "is a directory", str(path))
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _new_file_mode(path)
    import tempfile  # only writers need it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException as exc:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        if isinstance(exc, OSError) and exc.errno is not None:
            raise OSError(exc.errno, exc.strerror, str(path)) from None
        raise
    if durable:
        _sync_directory(path.parent)
        _remove_stale_temps(path)


def _sync_directory(directory: Path) -> None:
    with contextlib.suppress(OSError):
        dir_fd = os.open(directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _remove_stale_temps(path: Path) -> None:
    """Delete the temp files of writers killed half-way (``.NAME.PID.XXXX.tmp``, PID gone).

    Only files whose process no longer exists go, so a concurrent writer's file is safe.
    """
    if os.name != "posix":
        return
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) :].split(".", 1)[0]
            if not pid.isdigit() or int(pid) <= 1 or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                with contextlib.suppress(OSError):
                    os.unlink(path.parent / name)
            except (OSError, OverflowError):
                pass  # alive (someone else's) or not a PID at all
