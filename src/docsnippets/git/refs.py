"""Files as they are at a git ref, read through git itself: no checkout, no work-tree change.

git runs with an argument list (never a shell), and a ref that starts with '-' is refused
before git sees it, so no ref can be taken for an option.
"""

from __future__ import annotations

import subprocess
from collections.abc import Iterable
from pathlib import Path

from docsnippets.sources import EntryKind, SourceError
from docsnippets.visible import quoted

_TIMEOUT = 120


class GitError(SourceError):
    """git could not answer; the message names the ref or path and the fix."""


def check_ref(ref: str) -> str:
    if not ref or ref.startswith("-") or any(c in ref for c in "\0\n\r"):
        raise GitError(
            f"{quoted(ref)}: not a usable git ref; name a branch, tag or commit (refs may not start with '-')"
        )
    return ref


def git_output(root: Path, args: list[str], stdin: bytes | None = None, ok: tuple[int, ...] = (0,)) -> bytes:
    """git's standard output; an exit code not in ``ok`` is a :class:`GitError` naming it."""
    try:
        done = subprocess.run(
            ["git", "-C", str(root), *args],
            input=stdin,
            capture_output=True,
            timeout=_TIMEOUT,
            check=False,
        )
    except FileNotFoundError:
        raise GitError("git is not installed; install git to compare refs") from None
    except (OSError, subprocess.SubprocessError) as exc:
        raise GitError(f"git {args[0]} failed ({type(exc).__name__}); check the repository at {root}") from None
    if done.returncode not in ok:
        detail = done.stderr.decode("utf-8", "replace").strip().splitlines()
        first = detail[0] if detail else f"exit {done.returncode}"
        raise GitError(f"git {args[0]}: {first}")
    return done.stdout


def _quiet(root: Path, args: list[str]) -> str | None:
    try:
        return git_output(root, args).decode("utf-8", "surrogateescape").strip() or None
    except GitError:
        return None


def resolve(root: Path, ref: str) -> str:
    """The commit ``ref`` names, or a one-line error."""
    sha = _quiet(root, ["rev-parse", "--verify", "--quiet", f"{check_ref(ref)}^{{commit}}"])
    if sha is None:
        raise GitError(f"{ref}: no such commit in {root}; name an existing branch, tag or commit")
    return sha


def require_repository(root: Path) -> None:
    if _quiet(root, ["rev-parse", "--is-inside-work-tree"]) != "true":
        raise GitError(f"{root}: not inside a git work tree; run docsnippets diff in a git repository")


def default_base(root: Path) -> str:
    """The merge base of HEAD with the default branch: origin/HEAD if set, else main, else master."""
    origin = _quiet(root, ["symbolic-ref", "--quiet", "--short", "refs/remotes/origin/HEAD"])
    for name in (origin, "main", "master"):
        if name and _quiet(root, ["rev-parse", "--verify", "--quiet", f"{name}^{{commit}}"]):
            base = _quiet(root, ["merge-base", name, "HEAD"])
            if base is None:
                raise GitError(f"{name} and HEAD share no history; name the base: docsnippets diff BASE")
            return base
    raise GitError("no default branch (origin/HEAD, main or master) to compare with; name it: docsnippets diff BASE")


def list_objects(root: Path, commit: str) -> dict[str, tuple[EntryKind, str, int]]:
    """path (relative to ``root``) -> (kind, object id, size) of every file at ``commit`` under ``root``."""
    out: dict[str, tuple[EntryKind, str, int]] = {}
    raw = git_output(root, ["ls-tree", "-r", "-z", "-l", "--end-of-options", check_ref(commit)])
    for entry in raw.split(b"\0"):
        if not entry:
            continue
        meta, _, name = entry.partition(b"\t")
        mode, kind, sha, size = meta.split()
        if kind == b"commit":
            found = EntryKind.SUBMODULE
        elif mode == b"120000":
            found = EntryKind.SYMLINK
        elif kind == b"blob" and mode in (b"100644", b"100755"):
            found = EntryKind.FILE
        else:
            continue
        out[name.decode("utf-8", "surrogateescape")] = (found, sha.decode("ascii"), int(size) if size.isdigit() else 0)
    return out


def read_blobs(root: Path, shas: Iterable[str]) -> dict[str, bytes]:
    """blob id -> content, all through one ``git cat-file --batch``."""
    wanted = sorted(set(shas))
    if not wanted:
        return {}
    raw = git_output(root, ["cat-file", "--batch"], ("\n".join(wanted) + "\n").encode("ascii"))
    out: dict[str, bytes] = {}
    pos = 0
    for sha in wanted:
        end = raw.index(b"\n", pos)
        header = raw[pos:end].split(b" ")
        if len(header) != 3:
            raise GitError(f"git cat-file: blob {sha} is missing; the repository may be shallow or damaged")
        size = int(header[2])
        out[sha] = raw[end + 1 : end + 1 + size]
        pos = end + 1 + size + 1
    return out


def changed_paths(root: Path, base: str, head: str | None) -> list[str]:
    """Paths (relative to ``root``) that differ between ``base`` and ``head`` (None: the work tree),
    each rename as its two paths, as a pull request's file list names them."""
    args = ["diff", "--name-only", "--no-renames", "--relative", "-z", check_ref(base)]
    if head is not None:
        args.append(check_ref(head))
    names = {p for p in git_output(root, [*args, "--"]).decode("utf-8", "surrogateescape").split("\0") if p}
    if head is None:
        untracked = git_output(root, ["ls-files", "-z", "--others", "--exclude-standard"])
        names.update(p for p in untracked.decode("utf-8", "surrogateescape").split("\0") if p)
    return sorted(names)
