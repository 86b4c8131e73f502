"""Files ``init`` writes that git would ignore, and the ``.gitignore`` lines that bring each back.

An adoption commit without its manifest is worse than none: every later pull request would
report "no manifest at the base". So each file ``init`` is responsible for is asked of git
(``git check-ignore``), and an ignored one gets a negation line of its own (``!/path``, anchored
so that it frees that one file and no namesake deeper down) at the end of the ``.gitignore``
that holds the rule: a deeper ``.gitignore`` outranks the ones above it, so a line anywhere
else would be overruled. A rule from ``.git/info/exclude`` or the user's global excludes file
is outranked by every ``.gitignore``, so its negation goes in the top one.

No line can help a file inside an ignored directory: git does not look inside one. Such a file
is left to ``git add -f`` (once committed, git tracks it whatever the rules say), and the rule
that ignores it is named; a negation that would not work is never written.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path, PurePosixPath

from docsnippets.git import status
from docsnippets.git.status import IgnoreRule

GITIGNORE = ".gitignore"
# What a pattern would read as a wildcard or escape rather than as the character itself.
_SPECIAL = re.compile(r"[\\*?\[]")


@dataclass(frozen=True)
class IgnorePlan:
    """The negation lines to append to each ignore file (a path relative to the root), and the
    files no line can bring back, with the rule on the directory that holds each."""

    negate: dict[str, tuple[str, ...]]
    forced: dict[str, IgnoreRule]


def home_of(rule: IgnoreRule, path: str) -> str | None:
    """The work tree's ``.gitignore`` the rule deciding ``path`` is written in, or None when it
    comes from elsewhere (``.git/info/exclude``, the global excludes file)."""
    source = PurePosixPath(rule.source)
    if source.is_absolute() or source.name != GITIGNORE or ".." in source.parts or source.parts[0] == ".git":
        return None
    directory = source.parent.as_posix()
    return source.as_posix() if directory == "." or path.startswith(f"{directory}/") else None


def negation(path: str, ignore_file: str) -> str:
    """The line of ``ignore_file`` that lets exactly ``path`` in."""
    directory = PurePosixPath(ignore_file).parent.as_posix()
    rel = path if directory == "." else path.removeprefix(f"{directory}/")
    rel = _SPECIAL.sub(lambda m: "\\" + m.group(), rel)
    return "!/" + (rel[:-1] + "\\ " if rel.endswith(" ") else rel)


def _plan_once(root: Path, paths: Sequence[str]) -> IgnorePlan:
    rules = status.ignored(root, paths)
    negate: dict[str, list[str]] = {}
    forced: dict[str, IgnoreRule] = {}
    for path in paths:
        if path not in rules:
            continue
        directory = status.ignored_directory(root, path)
        if directory is not None:
            forced[path] = directory
            continue
        home = home_of(rules[path], path) or GITIGNORE
        negate.setdefault(home, []).append(negation(path, home))
    return IgnorePlan({home: tuple(lines) for home, lines in negate.items()}, forced)


def plan(root: Path, paths: Sequence[str]) -> IgnorePlan:
    """What brings ``paths`` back, and the ignore files it changes back too when they are
    ignored themselves (a ``.gitignore`` git ignores would be left out of the commit)."""
    first = _plan_once(root, paths)
    more = _plan_once(root, [home for home in first.negate if home not in paths])
    negate = dict(first.negate)
    for home, lines in more.negate.items():
        negate[home] = negate.get(home, ()) + lines
    return IgnorePlan(negate, {**first.forced, **more.forced})


def appended(old: bytes | None, lines: Sequence[str]) -> bytes:
    """The ignore file with ``lines`` at its end, each on a line of its own, ended as the file's
    own lines are (CRLF or LF)."""
    text = (old or b"").decode("utf-8", "surrogateescape")
    end = "\r\n" if "\r\n" in text else "\n"
    text += (end if text and not text.endswith("\n") else "") + "".join(f"{line}{end}" for line in lines)
    return text.encode("utf-8", "surrogateescape")
