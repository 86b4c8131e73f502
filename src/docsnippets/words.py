"""Counted nouns, said right whatever the count: ``0 pairs``, ``1 pair``, ``2 pairs``.

Every output that puts a number before a noun (the terminal report, the PR comment, the
verdict's sentence, ``update``'s summary, the catalogue) goes through :func:`counted`, so none
can say "1 pairs". The English rule is the regular one for the last word of the noun; an
irregular plural is given. A language without plural forms (Chinese) gives one form for
every count: see ``forms`` and the catalogue's words (templates/words.yaml).
"""

from __future__ import annotations

from collections.abc import Mapping

_SIBILANT_ENDS = ("s", "x", "z", "ch", "sh")


def _regular(noun: str) -> str:
    head, _, last = noun.rpartition(" ")
    if last.endswith("y") and len(last) > 1 and last[-2] not in "aeiou":
        last = last[:-1] + "ies"
    elif last.endswith(_SIBILANT_ENDS):
        last += "es"
    else:
        last += "s"
    return f"{head} {last}" if head else last


def plural(n: int, one: str, other: str | None = None) -> str:
    """The noun's form for ``n``: ``one`` for exactly one, else ``other`` (default: the
    regular English plural of its last word)."""
    return one if n == 1 else other if other is not None else _regular(one)


def counted(n: int, one: str, other: str | None = None) -> str:
    """``n`` and the noun's form for it: ``1 pair``, ``3 pairs``, ``2 distinct bodies``."""
    return f"{n} {plural(n, one, other)}"


def forms(n: int, said: Mapping[str, str] | str) -> str:
    """A count said by a table of forms: ``{"one": "{n} file", "other": "{n} files"}``, or one
    pattern for every count (``"{n} 个文件"``: Chinese has no plural)."""
    if isinstance(said, str):
        return said.format(n=n)
    return plural(n, said["one"], said["other"]).format(n=n)
