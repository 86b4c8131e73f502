"""Safe reads and atomic writes: the only code that opens the manifest, the config, a comment
template, the files ``init`` and ``render --output`` write, the merge driver's files or a cache
entry.

Reads never block on a FIFO nor read a device; writes go beside the target and are renamed
over it, so a reader sees the old file or the new one, never half of one.

**No symlink inside the root is followed.** A repository is hostile content (a pull request
commits what it likes), and a symlink where a file or a directory is expected would copy a
secret into a file the user commits (``.gitattributes`` -> ``/proc/self/environ``) or write
outside the repository (``.github`` -> elsewhere). So every call names its ``root``: the
repository the command works on, or None for a path that belongs to no repository (the cache,
the runner's files). The rule:

- The path is made absolute and its ``..`` folded away first, lexically; then it is walked from
  the top, one directory at a time. It is *inside the root* from the step that reaches the root
  directory itself (the same device and inode, however the root was spelt). From there on each
  directory and the file itself is opened with ``O_NOFOLLOW`` relative to the descriptor of the
  one before, and a symlink is refused by name (:class:`SymlinkRefused`, exit 2): never read
  through, never replaced, wherever it points.
- The steps above the root are the user's: their home, ``/tmp`` on macOS, a ``--root`` given
  through a link of their own. A path that never reaches the root (``--manifest /tmp/x.json``)
  is the user's explicit choice and is followed as given.

Because the refusal is the open itself, a file or a directory swapped for a symlink between a
look and the use is refused too. On a platform without ``dir_fd`` (Windows) each step is
looked at with ``lstat`` just before it is used, which cannot see a swap in between.
"""

from __future__ import annotations

import contextlib
import errno
import os
import stat
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

_CLOEXEC = getattr(os, "O_CLOEXEC", 0)
_NOFOLLOW = getattr(os, "O_NOFOLLOW", 0)
_DIRECTORY = os.O_RDONLY | getattr(os, "O_DIRECTORY", 0) | _CLOEXEC
_READ = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | _CLOEXEC | getattr(os, "O_BINARY", 0)
_TEMP = os.O_WRONLY | os.O_CREAT | os.O_EXCL | _CLOEXEC | _NOFOLLOW | getattr(os, "O_BINARY", 0)
# Walk with descriptors where the platform can; else by path, with a look before each step.
_AT = bool(_NOFOLLOW) and os.open in os.supports_dir_fd and os.stat in os.supports_dir_fd

REFUSED = (
    "a symlink inside the repository, which docsnippets never follows; replace it with the file or directory itself"
)


class NotRegularFile(OSError):
    """A path that exists but is a FIFO, a device or a socket rather than a file."""


class SymlinkRefused(OSError):
    """A symlink inside the root on the way to a file, or the file itself: not followed."""

    def __init__(self, name: str) -> None:
        super().__init__(errno.ELOOP, REFUSED, name)

    def __str__(self) -> str:
        return f"{self.filename}: {self.strerror}"


@dataclass(frozen=True)
class _Place:
    """The directory a path's last name is opened in, and whether that name may be followed."""

    fd: int | None  # the directory's descriptor; None: work by path
    directory: str
    name: str
    inside: bool  # the directory is the root or below it
    shown: str  # the path to name in errors: as given (relative or not), its ``..`` folded

    def at(self, name: str) -> str:
        """``name`` as the os calls take it along with ``dir_fd=self.fd``."""
        return name if self.fd is not None else os.path.join(self.directory, name)

    def is_link(self, name: str) -> bool:
        try:
            return stat.S_ISLNK(os.stat(self.at(name), dir_fd=self.fd, follow_symlinks=False).st_mode)
        except OSError:
            return False

    def open(self, name: str, flags: int, shown: str, mode: int = 0o777) -> int:
        """``os.open`` of ``name`` here, not following it when the place is inside the root."""
        if self.inside and self.fd is None and self.is_link(name):
            raise SymlinkRefused(shown)
        try:
            return os.open(self.at(name), flags | (_NOFOLLOW if self.inside else 0), mode, dir_fd=self.fd)
        except OSError:
            if self.inside and self.is_link(name):
                raise SymlinkRefused(shown) from None
            raise


def _identity(path: Path | None) -> tuple[int, int] | None:
    if path is None:
        return None
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None  # nothing is inside a root that is not there
    return info.st_dev, info.st_ino


def _is(info: os.stat_result, top: tuple[int, int] | None) -> bool:
    return top is not None and (info.st_dev, info.st_ino) == top


@contextlib.contextmanager
def _place_of(path: Path, root: Path | None, *, create: bool) -> Iterator[_Place]:
    """The place of ``path``'s last name; its missing directories made when ``create``."""
    full = Path(os.path.abspath(path))
    if root is None:  # no repository on the way: the path as the user gave it
        if create:
            os.makedirs(full.parent, exist_ok=True)
        yield _Place(None, str(full.parent), full.name, False, str(path))
        return
    walk = _walk_by_descriptor if _AT else _walk_by_path
    with walk(full, _identity(root), not Path(path).is_absolute(), create) as place:
        yield place


def _shown(walked: str, relative: bool) -> str:
    return os.path.relpath(walked) if relative else walked


@contextlib.contextmanager
def _walk_by_path(full: Path, top: tuple[int, int] | None, relative: bool, create: bool) -> Iterator[_Place]:
    walked = full.anchor
    inside = _is(os.stat(walked), top)
    for part in full.parts[1:-1]:
        walked = os.path.join(walked, part)
        if inside and os.path.islink(walked):
            raise SymlinkRefused(_shown(walked, relative))
        if create and not os.path.lexists(walked):
            with contextlib.suppress(FileExistsError):
                os.mkdir(walked)
        inside = inside or _is(os.stat(walked), top)
    yield _Place(None, walked, full.name, inside, _shown(str(full), relative))


@contextlib.contextmanager
def _walk_by_descriptor(full: Path, top: tuple[int, int] | None, relative: bool, create: bool) -> Iterator[_Place]:
    walked = full.anchor
    fd = os.open(walked, _DIRECTORY)
    try:
        inside = _is(os.fstat(fd), top)
        for part in full.parts[1:-1]:
            here = _Place(fd, walked, part, inside, walked)
            walked = os.path.join(walked, part)
            try:
                step = here.open(part, _DIRECTORY, _shown(walked, relative))
            except FileNotFoundError:
                if not create:
                    raise
                with contextlib.suppress(FileExistsError):
                    os.mkdir(part, dir_fd=fd)
                step = here.open(part, _DIRECTORY, _shown(walked, relative))
            os.close(fd)
            fd = step
            inside = inside or _is(os.fstat(fd), top)
        yield _Place(fd, walked, full.name, inside, _shown(str(full), relative))
    finally:
        os.close(fd)


def _named(exc: OSError, path: Path) -> OSError:
    """The same error naming the caller's path, not the last name it was opened by."""
    if isinstance(exc, SymlinkRefused | NotRegularFile) or exc.errno is None:
        return exc
    return OSError(exc.errno, exc.strerror, str(path))


def read_regular(path: Path, *, root: Path | None, limit: int | None = None) -> bytes | None:
    """The bytes of a regular file, None when it does not exist; past ``limit`` only
    ``limit + 1`` of them, enough to tell the file is too large.

    Opened without blocking and checked before reading: a manifest or config that is a FIFO,
    a device or (outside the root) a symlink to ``/dev/zero`` would otherwise hang or fill the
    memory. Raises SymlinkRefused for a symlink inside ``root`` (see the module's rule),
    IsADirectoryError, NotRegularFile, or another OSError naming ``path``.
    """
    try:
        with _place_of(path, root, create=False) as place:
            fd = place.open(place.name, _READ, place.shown)
    except FileNotFoundError:
        return None
    except OSError as exc:
        raise _named(exc, path) from None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        return handle.read() if limit is None else handle.read(limit + 1)


def write_atomic(path: Path, content: str | bytes | Iterable[str], *, root: Path | None, durable: bool = True) -> None:
    """Write beside the target, then rename over it: a reader sees the old or the new file.

    Text given in pieces (a large JSON document as its encoder makes it) is written as it
    comes, so it is never held whole; a piece that cannot be encoded leaves the target as
    it was. Whole text is encoded before anything touches the disk, the new file keeps the old one's
    permissions (a 0600 temp file would hide the manifest from other users of a shared
    checkout), and a failure names the target, never the temp file (which is gone by then).
    Temp files are named after their writer's PID, so that the next write can remove those
    of a writer that was killed half-way. Missing directories are made; inside ``root`` none
    of them nor the target may be a symlink (SymlinkRefused).

    ``durable`` files (the manifest, reports) are synced, and their directory after the
    rename, so the rename survives a crash; a cache entry (``durable=False``) need not be,
    because a lost entry is only a miss.
    """
    if isinstance(content, bytes):
        data: bytes | Iterable[bytes] = content
    elif isinstance(content, str):
        data = content.encode("utf-8")
    else:
        data = (piece.encode("utf-8") for piece in _batched(content))
    try:
        with _place_of(path, root, create=True) as place:
            _replace(place, data, durable=durable)
    except OSError as exc:
        raise _named(exc, path) from None


def _batched(pieces: Iterable[str], size: int = 1 << 16) -> Iterator[str]:
    """Small pieces of text joined into ones of about ``size`` characters."""
    held: list[str] = []
    count = 0
    for piece in pieces:
        held.append(piece)
        count += len(piece)
        if count >= size:
            yield "".join(held)
            held, count = [], 0
    if held:
        yield "".join(held)


def _replace(place: _Place, data: bytes | Iterable[bytes], *, durable: bool) -> None:
    try:
        info = os.stat(place.at(place.name), dir_fd=place.fd, follow_symlinks=not place.inside)
    except FileNotFoundError:
        info = None
    if info is not None and stat.S_ISLNK(info.st_mode):
        raise SymlinkRefused(place.shown)
    if info is not None and stat.S_ISDIR(info.st_mode):
        raise IsADirectoryError(errno.EISDIR, "is a directory", place.shown)
    mode = stat.S_IMODE(info.st_mode) if info is not None else _default_mode()
    fd, temp = _temp_file(place)
    try:
        with os.fdopen(fd, "wb") as handle:
            for piece in [data] if isinstance(data, bytes) else data:
                handle.write(piece)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            if durable:
                os.fsync(handle.fileno())
        os.replace(place.at(temp), place.at(place.name), src_dir_fd=place.fd, dst_dir_fd=place.fd)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(place.at(temp), dir_fd=place.fd)
        raise
    if durable:
        _sync_directory(place)
        _remove_stale_temps(place)


def _default_mode() -> int:
    """What a plain ``open(..., "w")`` would give a new file."""
    umask = os.umask(0)
    os.umask(umask)
    return 0o666 & ~umask


def _temp_file(place: _Place) -> tuple[int, str]:
    """A new file beside the target, ``.NAME.PID.RANDOM.tmp``, created exclusively (never a link)."""
    for _ in range(100):
        name = f".{place.name}.{os.getpid()}.{os.urandom(4).hex()}.tmp"
        try:
            return os.open(place.at(name), _TEMP, 0o600, dir_fd=place.fd), name
        except FileExistsError:
            continue
    raise FileExistsError(errno.EEXIST, "no free temporary name", os.path.join(place.directory, place.name))


def _sync_directory(place: _Place) -> None:
    with contextlib.suppress(OSError):
        if place.fd is not None:
            os.fsync(place.fd)
            return
        dir_fd = os.open(place.directory, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)


def _remove_stale_temps(place: _Place) -> None:
    """Delete the temp files of writers killed half-way (``.NAME.PID.XXXX.tmp``, PID gone).

    Only files whose process no longer exists go, so a concurrent writer's file is safe.
    """
    if os.name != "posix":
        return
    prefix = f".{place.name}."
    with contextlib.suppress(OSError):
        for name in os.listdir(place.fd if place.fd is not None else place.directory):
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) :].split(".", 1)[0]
            if not pid.isdigit() or int(pid) <= 1 or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                with contextlib.suppress(OSError):
                    os.unlink(place.at(name), dir_fd=place.fd)
            except (OSError, OverflowError):
                pass  # alive (someone else's) or not a PID at all
