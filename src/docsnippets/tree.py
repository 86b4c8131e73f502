"""The file-system edge: which Markdown files a tree has, their bytes, and git facts.

It lists and reads, nothing more; what is extracted from the bytes is engine.py's business.
"""

from __future__ import annotations

import errno
import os
import re
import stat
from collections.abc import Callable, Iterable
from functools import lru_cache
from pathlib import Path

from docsnippets.config import Config
from docsnippets.constants import CONFIG_FILENAMES, DEFAULT_MANIFEST
from docsnippets.snippets.records import Notice

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


class TreeError(Exception):
    """The tree cannot be read; the message names the path and the fix."""


def check_root(root: Path) -> Path:
    if not root.exists():
        raise TreeError(f"{root}: root directory does not exist; pass an existing docs tree to --root")
    if not root.is_dir():
        raise TreeError(f"{root}: root is not a directory; pass the repository directory to --root")
    return root.resolve()


def find_root(start: Path) -> Path:
    """The root a command run in ``start`` means, found as git, pre-commit and ruff find theirs.

    The nearest directory, ``start`` or above, that holds the manifest or the config; else the
    top of the git work tree (the first directory with ``.git``: the search never leaves the
    repository); else ``start`` itself. Only names are looked at, so no git process is run.
    """
    here = start.resolve()
    markers = (DEFAULT_MANIFEST, *CONFIG_FILENAMES)
    for directory in (here, *here.parents):
        if any(os.path.isfile(directory / name) for name in markers):
            return directory
        if os.path.lexists(directory / ".git"):
            return directory
    return here


def _git(root: Path, *args: str) -> str | None:
    import subprocess  # here, not at the top: `check --changed` never runs git and skips its import

    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    return done.stdout.decode("utf-8", "surrogateescape") if done.returncode == 0 else None


def is_git_root(root: Path) -> bool:
    # Only the work tree's own top level: a docs tree copied into some other repo is not tracked.
    # A top level always has .git (a directory, or a file for worktrees): no git process without it.
    if not os.path.lexists(os.path.join(root, ".git")):
        return False
    top = _git(root, "rev-parse", "--show-toplevel")
    return top is not None and Path(top.strip()).resolve() == root.resolve()


def markdown_files(root: Path, config: Config) -> tuple[list[str], frozenset[str]]:
    """Relative '/' paths of the Markdown files (git's view when root is a work tree), and
    those of them the walk saw as regular files (not symlinks): a hint for :func:`read_listed`."""
    listed = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard") if is_git_root(root) else None
    regular: frozenset[str] = frozenset()
    if listed is not None:
        candidates: Iterable[str] = sorted(set(p for p in listed.split("\0") if p))
    else:
        candidates, regular = _walk_typed(root)
    return [p for p in candidates if config.selects(p)], regular


def _walk_typed(root: Path) -> tuple[list[str], frozenset[str]]:
    """Every file under ``root`` except inside ``.git`` directories, as sorted '/' paths,
    plus the paths whose directory entry says "regular file".

    The entry types come free with ``os.scandir`` (no stat), and let the reader skip its
    lstat. The scan does what ``os.walk(root, followlinks=False)`` does, entry by entry,
    except that a directory it cannot list is an error: skipping it would report its
    snippets as removed, and ``update`` would drop them from the manifest.
    """
    top = os.fspath(root)
    if os.sep == "/" and os.altsep is None:
        return _scan(top)
    return _os_walk(root, top), frozenset()


def _unlistable(rel: str, exc: OSError) -> TreeError:
    where = rel.rstrip("/") or "."
    why = "permission denied" if isinstance(exc, PermissionError) else exc.strerror or str(exc)
    return TreeError(
        f"{where}: directory cannot be read ({why}); make it readable, or move it out of the root, "
        "so that its Markdown is not taken as deleted"
    )


def _scan(top: str) -> tuple[list[str], frozenset[str]]:
    out: list[str] = []
    regular: set[str] = set()
    stack = [("", top)]
    while stack:
        rel, path = stack.pop()
        try:
            with os.scandir(path) as entries:
                listed = list(entries)
        except OSError as exc:
            raise _unlistable(rel, exc) from None
        for entry in listed:
            name = rel + entry.name
            if _entry_is(entry.is_dir):
                # os.walk lists a directory symlink among the directories, never descends.
                if entry.name != ".git" and not _entry_is(entry.is_symlink):
                    stack.append((name + "/", entry.path))
                continue
            out.append(name)
            if _entry_is(lambda e=entry: e.is_file(follow_symlinks=False)):
                regular.add(name)
    out.sort()
    return out, frozenset(regular)


def _entry_is(test: Callable[[], bool]) -> bool:
    """An entry type test, False when it fails (os.walk and os.path.islink do the same)."""
    try:
        return test()
    except OSError:
        return False


def _os_walk(root: Path, top: str) -> list[str]:
    # os.walk names a subdirectory os.path.join(parent, name), so on POSIX its path relative to
    # the root is a plain suffix and string slicing is enough (no Path objects per file, the
    # walk's main cost on large trees). Elsewhere keep the portable form.
    prefix = top if top.endswith(os.sep) else top + os.sep
    fast = os.sep == "/" and os.altsep is None
    out: list[str] = []

    def fail(exc: OSError) -> None:
        raise _unlistable(os.path.relpath(exc.filename or top, top), exc)

    for dirpath, dirnames, filenames in os.walk(top, followlinks=False, onerror=fail):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        if not fast:
            rel = Path(dirpath).relative_to(root)
            out.extend((rel / name).as_posix() for name in filenames)
        elif dirpath == top:
            out.extend(filenames)
        else:
            base = dirpath[len(prefix) :] + "/"
            out.extend(base + name for name in filenames)
    return sorted(out)


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

    Raises TreeError when the file exists but cannot be read, because silently dropping
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
                raise TreeError(f"{rel}: broken symlink (its target does not exist); fix the link or remove it")
            if not os.path.isfile(real):
                return None  # a directory or a device: not a page
            return _read_regular(real, limit)
        if not stat.S_ISREG(mode):
            return None
        return _read_regular(name, limit)
    except PermissionError:
        raise TreeError(f"{rel}: permission denied; make the file readable or exclude it in the config") from None
    except OSError as exc:
        raise TreeError(f"{rel}: cannot read ({exc.strerror or exc}); fix or exclude the file") from None


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


def exists_markdown(root: Path, rel: str, config: Config) -> bool:
    if not config.selects(rel):
        return False
    name = os.path.join(root, rel)
    try:
        return os.path.isfile(name) and _inside(os.path.realpath(name), root)
    except (OSError, ValueError):
        return False


_REMOTE = re.compile(r"(?:github\.com[:/]|^https?://[^/]+/)([\w.-]+/[\w.-]+?)(?:\.git)?/?$")


def origin_repository(root: Path) -> str | None:
    """OWNER/NAME from the ``origin`` remote, or None (not a git work tree, no such remote)."""
    if not is_git_root(root):
        return None
    match = _REMOTE.search((_git(root, "remote", "get-url", "origin") or "").strip())
    return match.group(1) if match else None
