"""What git says about a work tree's files: ignored, not yet committed, and whether a commit is
on the ``origin`` remote. Asked by ``init``, which must tell the user what is left to do.

Paths go to git on standard input, NUL-separated, never as arguments, and come back the same
way, so no file name can be taken for an option or split at a space.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from docsnippets.git.refs import GitError, git_output


@dataclass(frozen=True)
class IgnoreRule:
    """The rule that decides whether git ignores a path: where it is written, and the pattern
    (one starting with ``!`` lets the path in)."""

    source: str  # `.gitignore`, `docs/.gitignore`, `.git/info/exclude`, the global excludes file
    line: int
    pattern: str

    @property
    def negates(self) -> bool:
        return self.pattern.startswith("!")

    def __str__(self) -> str:
        return f"{self.source}:{self.line} ({self.pattern})"


def deciding_rules(root: Path, paths: Iterable[str]) -> dict[str, IgnoreRule]:
    """Each of ``paths`` some ignore rule matches, with the rule git goes by (the last match in
    the file that outranks the others); paths no rule matches are left out.

    A tracked file matches nothing, as for ``git add``. A file inside an ignored directory is
    reported with the directory's rule: git does not look inside such a directory at all.
    """
    wanted = list(paths)
    if not wanted:
        return {}
    stdin = b"".join(p.encode("utf-8", "surrogateescape") + b"\0" for p in wanted)
    try:
        # Exit 1 says that no path is ignored: an answer, not a failure.
        raw = git_output(root, ["check-ignore", "--verbose", "--non-matching", "-z", "--stdin"], stdin, ok=(0, 1))
    except GitError as exc:
        raise GitError(f"{exc}; cannot tell which files git ignores in {root}") from None
    fields = raw.decode("utf-8", "surrogateescape").split("\0")
    out: dict[str, IgnoreRule] = {}
    for i in range(0, len(fields) - 3, 4):
        source, line, pattern, path = fields[i : i + 4]
        if source:
            out[path] = IgnoreRule(source, int(line), pattern)
    return out


def ignored(root: Path, paths: Iterable[str]) -> dict[str, IgnoreRule]:
    """Each of ``paths`` git would ignore (so ``git add`` refuses it), with the rule that does."""
    return {path: rule for path, rule in deciding_rules(root, paths).items() if not rule.negates}


def ignored_directory(root: Path, path: str) -> IgnoreRule | None:
    """The rule ignoring a directory ``path`` lies in, if one does: no line of a ``.gitignore``
    can bring a file back out of such a directory."""
    parts = path.split("/")[:-1]
    parents = ["/".join(parts[: i + 1]) + "/" for i in range(len(parts))]
    found = ignored(root, parents)
    return next((found[p] for p in parents if p in found), None)


def changed(root: Path) -> set[str]:
    """Every path whose work-tree state is not the last commit's: untracked, added, modified,
    deleted, and both names of a rename."""
    raw = git_output(root, ["status", "--porcelain=v1", "-z", "--untracked-files=all", "--ignored=no"])
    out: set[str] = set()
    source_next = False
    for entry in raw.decode("utf-8", "surrogateescape").split("\0"):
        if source_next:
            out.add(entry)  # the name a rename or copy came from
            source_next = False
        elif len(entry) > 3:
            out.add(entry[3:])
            source_next = entry[0] in "RC"
    return out


def head(root: Path) -> str | None:
    """The commit ``HEAD`` names, or None in a repository without one."""
    try:
        return git_output(root, ["rev-parse", "--verify", "--quiet", "HEAD^{commit}"]).decode().strip() or None
    except GitError:
        return None


def on_remote(root: Path, commit: str, remote: str = "origin") -> bool:
    """Whether ``commit`` is in the history of a branch the clone knows ``remote`` to have: only
    then can a link to it be opened on the server."""
    refs = git_output(
        root, ["for-each-ref", "--count=1", "--format=%(refname)", f"--contains={commit}", f"refs/remotes/{remote}/"]
    )
    return bool(refs.strip())
