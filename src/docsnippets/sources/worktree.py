"""The work tree: a directory on disk as a source of files, and the git facts about it.

Which files a tree has is git's answer when the root is the top of a git work tree (tracked
files, plus untracked ones git does not ignore); otherwise every file under the root but
``.git``. A directory that cannot be listed is an error, never an absence: its Markdown would
otherwise be taken for deleted. Each path is read by the rules of :mod:`sources.disk`.
"""

from __future__ import annotations

import os
import re
from collections.abc import Callable, Iterable, Iterator, Mapping
from pathlib import Path

from docsnippets.constants import CONFIG_FILENAMES, DEFAULT_MANIFEST
from docsnippets.links import repository_of_remote
from docsnippets.sources import EntryKind, ModuleFiles, Read, SourceError
from docsnippets.sources.disk import kind_of, read_listed

_MODES = {"120000": EntryKind.SYMLINK, "160000": EntryKind.SUBMODULE}
_STAGED = re.compile(r"([0-7]{6}) [0-9a-f]{40,64} [0-3]\t")  # `git ls-files --stage`: mode, object, stage


class WorkTree:
    """:class:`sources.FileSource` over a directory on disk (a checkout, a copy of docs)."""

    def __init__(self, root: Path) -> None:
        self.root = root
        self._entries: dict[str, EntryKind] | None = None
        self._regular: frozenset[str] = frozenset()

    @property
    def label(self) -> str:
        return "the work tree"

    def entries(self) -> Mapping[str, EntryKind]:
        if self._entries is None:
            self._entries, self._regular = _listing(self.root)
        return self._entries

    def kind(self, path: str) -> EntryKind | None:
        return kind_of(self.root, path)

    def read(self, path: str, limit: int) -> Read:
        return read_listed(self.root, path, path in self._regular, limit)

    def read_many(self, paths: Iterable[str], limit: int) -> Iterator[tuple[str, Read]]:
        for path in sorted(set(paths)):
            yield path, self.read(path, limit)

    def code(self) -> ModuleFiles:
        from docsnippets.sources.directory import DirectoryFiles  # only a tree with code to judge

        return DirectoryFiles(self.root)


def _listing(root: Path) -> tuple[dict[str, EntryKind], frozenset[str]]:
    """Every file of the tree with its kind as the listing knows it (git's index modes), and
    those a directory walk saw as regular files (a hint that lets a read skip its lstat)."""
    git = is_git_root(root)
    listed = _git(root, "ls-files", "-z", "--cached", "--others", "--exclude-standard", "--stage") if git else None
    if listed is not None:
        out: dict[str, EntryKind] = {}
        for item in listed.split("\0"):
            staged = _STAGED.match(item)  # untracked files come as bare names (which may hold a tab)
            name = item[staged.end() :] if staged else item
            if name:
                out.setdefault(name, _MODES.get(staged.group(1), EntryKind.FILE) if staged else EntryKind.FILE)
        return dict(sorted(out.items())), frozenset()
    # The walk tells only regular files from the rest; a read decides what the rest is.
    names, regular = _walk_typed(root)
    return dict.fromkeys(names, EntryKind.FILE), regular


def check_root(root: Path) -> Path:
    if not root.exists():
        raise SourceError(f"{root}: root directory does not exist; pass an existing docs tree to --root")
    if not root.is_dir():
        raise SourceError(f"{root}: root is not a directory; pass the repository directory to --root")
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


def _unlistable(rel: str, exc: OSError) -> SourceError:
    where = rel.rstrip("/") or "."
    why = "permission denied" if isinstance(exc, PermissionError) else exc.strerror or str(exc)
    return SourceError(
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


def origin_repository(root: Path, server_url: str = "https://github.com") -> str | None:
    """OWNER/NAME from the ``origin`` remote when it names a repository on ``server_url``, or
    None (not a git work tree, no such remote, another host, a URL that is not a repository's)."""
    if not is_git_root(root):
        return None
    url = _git(root, "remote", "get-url", "origin")
    return repository_of_remote(url.removesuffix("\n"), server_url) if url else None
