"""What a change did, grouped the way a reviewer reads it; shared by the comment and the text report.

Twins (the two translations of one example) that changed, appeared or went away the same way
are one entry; snippets that only moved are counted by rename instead of listed one by one.
Who is whose translation comes from the head tree's inventory; without it every snippet
stands alone.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from docsnippets import work
from docsnippets.constants import Relation
from docsnippets.judge.compare import Change, Desync, Report, renamed_dirs
from docsnippets.report.codediff import changed_lines, code_lines, shared_lines
from docsnippets.snippets.records import Inventory, Snippet

Key = tuple[str, int]
HANDFUL = 5  # a section longer than this gets a per-file table, its entries collapsed
NAMED_PAGES = 10  # pages named per language before the rest are counted


@dataclass(frozen=True)
class Counterparts:
    """The head tree's translations: snippet -> (its counterpart, their relation), file -> side."""

    partner: dict[Key, tuple[Snippet, str]] = field(default_factory=dict)
    english: frozenset[str] = frozenset()
    chinese: frozenset[str] = frozenset()
    counterpart_file: dict[str, str | None] = field(default_factory=dict)
    # Any number of languages: a source example -> its twins, a translation's -> its source's.
    group: dict[Key, tuple[Key, ...]] = field(default_factory=dict)

    @classmethod
    def of(cls, inventory: Inventory | None) -> Counterparts:
        if inventory is None:
            return cls()
        s = inventory.snippets
        partner: dict[Key, tuple[Snippet, str]] = {}
        for p in inventory.pairs:
            partner[s[p.source].key] = (s[p.translation], p.relation)
            partner[s[p.translation].key] = (s[p.source], p.relation)
        if inventory.languages:  # any number of languages: no page is "the English" or "the Chinese" one
            group: dict[Key, tuple[Key, ...]] = {}
            for p in inventory.pairs:
                group[s[p.source].key] = (*group.get(s[p.source].key, ()), s[p.translation].key)
                group[s[p.translation].key] = (s[p.source].key,)
            return cls(partner, counterpart_file=dict(inventory.counterparts), group=group)
        return cls(
            partner,
            frozenset(s[p.source].file for p in inventory.pairs),
            frozenset(s[p.translation].file for p in inventory.pairs),
            dict(inventory.counterparts),
        )

    def other_language(self, file: str) -> str | None:
        if file in self.english:
            return "Chinese"
        if file in self.chinese:
            return "English"
        return None


@dataclass(frozen=True)
class Item:
    """One entry: a snippet, or twins shown together (``same``: the same edit, or identical code)."""

    after: tuple[Snippet, ...]  # where the snippets are now (for a removal: where they were)
    before: tuple[Snippet | None, ...] = ()
    same: bool = True
    state: str = ""  # an added snippet's counterpart: identical, same-code, translated, differs, missing
    other_language: str | None = None

    @property
    def twins(self) -> bool:
        return len(self.after) > 1


def _common_prefix(texts: Sequence[str]) -> str:
    first, last = min(texts), max(texts)
    n = 0
    while n < len(first) and first[n] == last[n]:
        n += 1
    return first[:n]


def braced(paths: Sequence[str]) -> str:
    """Paths as one, their differing part in braces: ``docs/{en,zh}/a.md``, ``guide/{x,x_zh}.md``.

    The shared head ends at a ``/`` and the shared tail starts at a ``/`` or ``.``, so the braces
    hold whole names, never half a word."""
    if len(set(paths)) == 1:
        return paths[0]
    head = _common_prefix(paths)
    head = head[: head.rfind("/") + 1]
    rest = [p[len(head) :] for p in paths]
    tail = _common_prefix([r[::-1] for r in rest])[::-1]
    cut = min((i for i in (tail.find("/"), tail.find(".")) if i >= 0), default=len(tail))
    tail = tail[cut:]
    middles = [r[: len(r) - len(tail)] for r in rest]
    return f"{head}{{{','.join(middles)}}}{tail}"


def _pairwise(snippets: Sequence[Snippet], cp: Counterparts) -> list[tuple[int, ...]]:
    """Indices grouped into twins (every member in ``snippets``), in order of first appearance;
    under the translations setting a source example with every translation of it listed."""
    where = {s.key: n for n, s in enumerate(snippets)}
    used: set[int] = set()
    groups: list[tuple[int, ...]] = []
    for n, s in enumerate(snippets):
        if n in used:
            continue
        other = cp.partner.get(s.key)
        keys = cp.group.get(s.key) or ((other[0].key,) if other else ())
        if len(keys) == 1 and s.key in cp.group.get(keys[0], ()):  # a translation: its source's whole group
            keys = (keys[0], *cp.group[keys[0]])
        members = [] if s.key in keys else [n]
        members += [m for k in keys if (m := where.get(k)) is not None and m not in used]
        group = tuple(dict.fromkeys(members))
        used.update(group)
        groups.append(group)
    return groups


def changed(report: Report, cp: Counterparts) -> list[Item]:
    out: list[Item] = []
    for group in _pairwise([c.after for c in report.changed], cp):
        work.check()
        cs = [report.changed[n] for n in group]
        same = len({changed_lines(c.before.body, c.after.body) for c in cs}) == 1
        out.append(Item(tuple(c.after for c in cs), tuple(c.before for c in cs), same))
    return out


# An added snippet's counterpart state by their relation; the other relations are "same-code".
_STATES: dict[str, str] = {
    Relation.IDENTICAL: "identical",
    Relation.STRINGS: "translated",
    Relation.DIVERGED: "differs",
}


def _state(s: Snippet, cp: Counterparts) -> str:
    other = cp.partner.get(s.key)
    if other is not None:
        return _STATES.get(other[1], "same-code")
    return "missing" if cp.counterpart_file.get(s.file) else ""


def added(report: Report, cp: Counterparts) -> list[Item]:
    """Added snippets, twins added together as one entry (``translated``: their strings are)."""
    snippets = [s for _, s in report.added]
    out: list[Item] = []
    for group in _pairwise(snippets, cp):
        work.check()
        ss = tuple(snippets[n] for n in group)
        state = _state(ss[0], cp)
        if len(ss) > 1:
            state = "translated" if state == "translated" else ""
        same = state == "translated" or len({tuple(code_lines(s.body)) for s in ss}) == 1
        out.append(Item(ss, (), same, state, cp.other_language(ss[0].file)))
    return out


def removed(report: Report, cp: Counterparts | None = None) -> list[Item]:
    """Removals with the same code from two files are one entry: that is how a pair goes away
    (the code as the languages share it: comments, docstrings and translatable strings aside);
    under the translations setting, from as many files as there are languages."""
    many = cp is not None and bool(cp.group)
    out: list[Item] = []
    waiting: dict[tuple[str, ...], int] = {}
    for _, s in report.removed:
        work.check()
        code = tuple(shared_lines(s.body))
        n = waiting.get(code) if many else waiting.pop(code, None)
        if n is not None and all(x.file != s.file for x in out[n].after):
            out[n] = Item((*out[n].after, s))
            continue
        waiting[code] = len(out)
        out.append(Item((s,)))
    return out


@dataclass(frozen=True)
class Moves:
    """Snippets whose code did not change: by rename (old prefix, new prefix) and by file."""

    total: int
    renames: tuple[tuple[str, str, int, int], ...]  # old, new, snippets, files
    shifted: tuple[tuple[str, int], ...]  # file, snippets that only changed lines


def moves(report: Report) -> Moves:
    renames: Counter[tuple[str, str]] = Counter()
    files: dict[tuple[str, str], set[str]] = {}
    shifted: Counter[str] = Counter()
    for c in report.moved:
        if c.before.file == c.after.file:
            shifted[c.after.file] += 1
            continue
        key = renamed_dirs(c.before.file, c.after.file)
        renames[key] += 1
        files.setdefault(key, set()).add(c.after.file)
    return Moves(
        len(report.moved),
        tuple((old, new, n, len(files[(old, new)])) for (old, new), n in sorted(renames.items())),
        tuple(sorted(shifted.items())),
    )


def edits(report: Report | None) -> dict[Key, Change | None]:
    """Where this change edited (with its Change) or added (None) a snippet."""
    if report is None:
        return {}
    out: dict[Key, Change | None] = {s.key: None for _, s in report.added}
    out.update({c.after.key: c for c in report.changed})
    return out


def edited_side(d: Desync, edited: dict[Key, Change | None]) -> tuple[int, ...]:
    """Which sides of a desynchronized pair this change edited or added (indices into ``d.sides``)."""
    return tuple(n for n, s in enumerate(d.sides) if s.key in edited)


def per_file(snippets: Sequence[Snippet]) -> list[tuple[str, int]]:
    return sorted(Counter(s.file for s in snippets).items())


def desync_groups(desynchronized: Sequence[Desync]) -> list[tuple[Desync, ...]]:
    """Each source example with every translation out of step with it, in report order.

    Only entries that know their languages (the translations setting) are grouped: the
    two-language layout keeps one entry per pair. A translation's example that its source page
    lacks stays an entry of its own."""
    groups: dict[object, list[Desync]] = {}
    for n, d in enumerate(desynchronized):
        key: object = d.sides[0].key if d.language is not None and d.in_source else n
        groups.setdefault(key, []).append(d)
    return [tuple(sorted(g, key=lambda d: d.language or "") if len(g) > 1 else g) for g in groups.values()]


def some_pages(pages: Sequence[str], count: int, show: Callable[[str], str]) -> str:
    """The first of a language's ``count`` pages, each as ``show`` writes it, then how many more:
    the list grows with a repository, the line must not."""
    named = pages[:NAMED_PAGES]
    more = count - len(named)
    return ", ".join(show(p) for p in named) + (f" and {more} more" if more > 0 else "")
