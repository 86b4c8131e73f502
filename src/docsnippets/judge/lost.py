"""What a change did to bilingual pairs: pairs that lost one side's page, and pairs whose
relation changed, each named by its files.

A *lost pair* is a pair of pages that held aligned examples before, of which one page still
holds snippets while its counterpart page no longer exists: renamed or moved (its snippets
now live in another file) or deleted. Nothing else reports it: the page that stays has no
counterpart file any more, so its examples are neither paired nor *missing*, and the count
of pairs just drops.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from docsnippets.snippets.records import Inventory
from docsnippets.words import counted, plural

NAMED_RELATIONS = 3  # pairs named in a reason before the rest are counted


@dataclass(frozen=True)
class LostPair:
    """``kept`` stays; its counterpart ``gone`` was renamed to ``moved_to`` or deleted (None)."""

    kept: str
    gone: str
    moved_to: str | None
    pairs: int  # aligned examples the two pages had

    @property
    def happened(self) -> str:
        return f"renamed to {self.moved_to}" if self.moved_to else "deleted"

    def sentence(self) -> str:
        return (
            f"{self.kept} lost its counterpart {self.gone} ({self.happened}); "
            f"{counted(self.pairs, 'bilingual example')} no longer paired"
        )

    def fix(self) -> str:
        if self.moved_to is None:
            return f"delete {self.kept} as well, or restore {self.gone}"
        target = _same_rename(self.kept, self.gone, self.moved_to)
        to = f" to {target}" if target else " the same way"
        return f"rename {self.kept}{to}, or undo the rename of {self.gone}"

    def as_json(self) -> dict[str, Any]:
        return {
            "kept": self.kept,
            "gone": self.gone,
            "happened": "renamed" if self.moved_to else "deleted",
            "moved_to": self.moved_to,
            "pairs": self.pairs,
            "fix": self.fix(),
        }


def _same_rename(kept: str, gone: str, moved_to: str) -> str | None:
    """The path ``kept`` takes when renamed as ``gone`` was, when that is plain: a page renamed
    within its directory, its counterpart carrying the same file name (``docs/{en,zh}/a.md``)."""
    if posixpath.dirname(gone) != posixpath.dirname(moved_to):
        return None
    if posixpath.basename(kept) != posixpath.basename(gone):
        return None
    return posixpath.join(posixpath.dirname(kept), posixpath.basename(moved_to))


def lost_pairs(before: Inventory, after: Inventory, mapping: Mapping[int, int]) -> tuple[LostPair, ...]:
    """The pairs of pages in ``before`` that ``after`` keeps only one side of.

    ``mapping`` (before index -> after index, from compare.match) tells where the vanished
    page's snippets went: to another file means it was renamed or moved.
    """
    pages: Counter[tuple[str, str]] = Counter()
    for p in before.pairs:
        pages[(before.snippets[p.en].file, before.snippets[p.zh].file)] += 1
    present = {file for file, _ in after.counterparts}
    out: list[LostPair] = []
    for (en, zh), n in sorted(pages.items()):
        for kept, gone in ((en, zh), (zh, en)):
            if kept not in present or gone in present or after.counterpart_of(kept) == gone:
                continue
            went = Counter(
                after.snippets[mapping[i]].file
                for i, s in enumerate(before.snippets)
                if s.file == gone and i in mapping and after.snippets[mapping[i]].file != gone
            )
            out.append(LostPair(kept, gone, went.most_common(1)[0][0] if went else None, n))
    return tuple(out)


def union(*groups: Iterable[LostPair]) -> tuple[LostPair, ...]:
    """The lost pairs of several comparisons (a diff's base and its committed manifest), once each."""
    seen: dict[tuple[str, str], LostPair] = {}
    for group in groups:
        for lost in group:
            seen.setdefault((lost.kept, lost.gone), lost)
    return tuple(seen[k] for k in sorted(seen))


def relation_changes(before: Inventory, after: Inventory, mapping: Mapping[int, int]) -> list[str]:
    """Each pair whose relation changed, by its files and lines (``identical → diverged``, no
    longer paired, newly paired); past a few, the rest as a count."""
    after_pairs = {(p.en, p.zh): p.relation for p in after.pairs}
    continued: set[tuple[int, int]] = set()
    named: list[str] = []

    def where(inv: Inventory, en: int, zh: int) -> str:
        a, b = inv.snippets[en], inv.snippets[zh]
        return f"{a.file}:{a.code_lines[0]} ↔ {b.file}:{b.code_lines[0]}"

    for p in before.pairs:
        en, zh = mapping.get(p.en), mapping.get(p.zh)
        relation = after_pairs.get((en, zh)) if en is not None and zh is not None else None
        if en is None or zh is None or relation is None:
            named.append(f"{where(before, p.en, p.zh)} no longer paired")
            continue
        continued.add((en, zh))
        if relation != p.relation:
            named.append(f"{where(after, en, zh)} {p.relation} → {relation}")
    named += [f"{where(after, en, zh)} newly paired" for en, zh in sorted(after_pairs) if (en, zh) not in continued]
    was_missing = {mapping[i] for i in before.missing() if i in mapping}
    for j in after.missing():
        if j not in was_missing:
            s = after.snippets[j]
            named.append(
                f"{s.file}:{s.code_lines[0]} now has no example to pair with in {after.counterpart_of(s.file)}"
            )
    if len(named) > NAMED_RELATIONS:
        rest = len(named) - NAMED_RELATIONS
        named = [*named[:NAMED_RELATIONS], f"{rest} more {plural(rest, 'pair')}"]
    return named


def pair_count_line(before: Inventory | None, after: Inventory, lost: Iterable[LostPair]) -> str | None:
    """``update``'s word on the pairs, when their number changed or a page lost its counterpart:
    ``12 → 9 pairs: 3 lost (…)``, and what the lost pages do not explain (pairs that broke up
    or formed on the other pages) when some were lost; ``3 → 4 pairs`` alone otherwise."""
    if before is None:
        return None
    lost = tuple(lost)
    old, new = len(before.pairs), len(after.pairs)
    if old == new and not lost:
        return None
    head = f"{old} → {counted(new, 'pair')}"
    if not lost:
        return head
    gone = sum(x.pairs for x in lost)
    parts = [f"{gone} lost ({'; '.join(x.sentence() for x in lost)})"]
    # Whatever the lost pages do not explain is pairs that broke up or formed within pages.
    other = new - (old - gone)
    if other:
        parts.append(f"{counted(abs(other), 'pair')} {'fewer' if other < 0 else 'more'} among the other pages")
    return f"{head}: {', '.join(parts)}"
