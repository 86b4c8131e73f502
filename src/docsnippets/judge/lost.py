"""What a change did to pairs (bilingual, or a source page and a translation): pairs that lost
one side's page, pairs whose relation changed and pages whose counterparts changed, each
named by its files.

A *lost pair* is a pair of pages that held aligned examples before, of which one page still
holds snippets while its counterpart page no longer exists: renamed or moved (its snippets
now live in another file) or deleted. Nothing else reports it: the page that stays has no
counterpart file any more, so its examples are neither paired nor *missing*, and the count
of pairs just drops.
"""

from __future__ import annotations

import posixpath
from collections import Counter
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docsnippets.constants import Relation
from docsnippets.snippets.records import Inventory
from docsnippets.visible import visible
from docsnippets.words import counted, plural

NAMED_RELATIONS = 3  # pairs named in a reason before the rest are counted


@dataclass(frozen=True)
class LostPair:
    """``kept`` stays; its counterpart ``gone`` was renamed to ``moved_to`` or deleted (None)."""

    kept: str
    gone: str
    moved_to: str | None
    pairs: int  # aligned examples the two pages had
    # Under the translations setting (``languages``): the page's other languages that still
    # exist, which a fix deleting or renaming ``kept`` alone would leave without their source
    # or one of their translations.
    others: tuple[str, ...] = ()
    languages: bool = False

    @property
    def happened(self) -> str:
        return f"renamed to {self.moved_to}" if self.moved_to else "deleted"

    def sentence(self) -> str:
        noun = "example" if self.languages else "bilingual example"
        lost = f"{counted(self.pairs, noun)} no longer paired"
        return f"{self.kept} lost its counterpart {self.gone} ({self.happened}); {lost}"

    def fix(self) -> str:
        if self.languages:
            return self._every_language()
        if self.moved_to is None:
            return f"delete {self.kept} as well, or restore {self.gone}"
        target = _same_rename(self.kept, self.gone, self.moved_to)
        to = f" to {target}" if target else " the same way"
        return f"rename {self.kept}{to}, or undo the rename of {self.gone}"

    def _every_language(self) -> str:
        """Undo what happened to the one page, or do it to the page in every language."""
        pages = sorted((self.kept, *self.others))
        if self.moved_to is None:
            return f"restore {self.gone}, or delete the page in every language ({', '.join(pages)})"
        renamed = [f"{p} to {t}" if (t := _same_rename(p, self.gone, self.moved_to)) else p for p in pages]
        return (
            f"undo the rename of {self.gone}, or rename the page the same way in every language ({', '.join(renamed)})"
        )

    def as_json(self) -> dict[str, Any]:
        return {
            "kept": self.kept,
            "gone": self.gone,
            "happened": "renamed" if self.moved_to else "deleted",
            "moved_to": self.moved_to,
            "pairs": self.pairs,
            "others": list(self.others),
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
        pages[(before.snippets[p.source].file, before.snippets[p.translation].file)] += 1
    present = {file for file, _ in after.counterparts}
    out: list[LostPair] = []
    for (source, translation), n in sorted(pages.items()):
        for kept, gone in ((source, translation), (translation, source)):
            if kept not in present or gone in present or gone in after.counterparts_of(kept):
                continue
            went = Counter(
                after.snippets[mapping[i]].file
                for i, s in enumerate(before.snippets)
                if s.file == gone and i in mapping and after.snippets[mapping[i]].file != gone
            )
            moved_to = went.most_common(1)[0][0] if went else None
            others = _other_languages(before, present, kept, gone) if after.languages else ()
            out.append(LostPair(kept, gone, moved_to, n, others, bool(after.languages)))
    return tuple(out)


def _other_languages(before: Inventory, present: Collection[str], kept: str, gone: str) -> tuple[str, ...]:
    """The pages that were in one translation group with ``kept`` and ``gone`` and still exist."""
    group = set(before.counterparts_of(kept)) | set(before.counterparts_of(gone))
    return tuple(sorted(group & set(present) - {kept, gone}))


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
    after_pairs = {(p.source, p.translation): p.relation for p in after.pairs}
    continued: set[tuple[int, int]] = set()
    named: list[str] = []

    def where(inv: Inventory, source: int, translation: int) -> str:
        a, b = inv.snippets[source], inv.snippets[translation]
        return f"{a.file}:{a.code_lines[0]} ↔ {b.file}:{b.code_lines[0]}"

    for p in before.pairs:
        source, translation = mapping.get(p.source), mapping.get(p.translation)
        relation = after_pairs.get((source, translation)) if source is not None and translation is not None else None
        if source is None or translation is None or relation is None:
            named.append(f"{where(before, p.source, p.translation)} no longer paired")
            continue
        continued.add((source, translation))
        if relation != p.relation:
            named.append(f"{where(after, source, translation)} {p.relation} → {relation}")
    named += [
        f"{where(after, source, translation)} newly paired"
        for source, translation in sorted(after_pairs)
        if (source, translation) not in continued
    ]
    was_missing = {(mapping[i], _lacking(after, other)) for i, other in before.missing_twins() if i in mapping}
    now_missing = {(j, _lacking(after, other)) for j, other in after.missing_twins()}
    for j, other in after.missing_twins():
        if (j, _lacking(after, other)) not in was_missing:
            s = after.snippets[j]
            named.append(f"{s.file}:{s.code_lines[0]} now has no example to pair with in {other}")
    for i, other in before.missing_twins():
        j = mapping.get(i)
        if j is None or (j, _lacking(after, other)) in now_missing:
            continue
        s = after.snippets[j]
        if other not in after.counterparts_of(s.file):  # else it pairs now: said above as newly paired
            named.append(f"{s.file}:{s.code_lines[0]} was recorded with no example to pair with in {visible(other)}")
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


def pair_reasons(
    before: Inventory,
    after: Inventory,
    mapping: dict[int, int],
    lost: Sequence[LostPair],
    *,
    by_counts: bool,
    said: bool,
) -> list[str]:
    """The pages' and pairs' claims: each page's counterparts, and the pairs themselves unless a
    count of snippets already explains them (``by_counts``); pairs that changed only as their
    pages moved together are said by the moves (``said``: a reason was given)."""
    pair_changes = _pair_keys(before) ^ _pair_keys(after)
    out = _counterpart_reasons(before, after, lost, {f for key in pair_changes for f in (key[0], key[2])})
    if pair_changes and not by_counts:
        named = relation_changes(before, after, mapping)
        if named or not (said or out):
            pairs = "translation pairs" if after.languages else "bilingual pairs"
            out.append(f"{pairs} changed" + (": " + "; ".join(named) if named else ""))
    return out


def _pair_keys(inv: Inventory) -> set[tuple[str, str, str, str, str]]:
    out = set()
    for p in inv.pairs:
        a, b = inv.snippets[p.source], inv.snippets[p.translation]
        out.add((a.file, a.body_sha256, b.file, b.body_sha256, p.relation))
    for i, other in inv.missing_twins():
        s = inv.snippets[i]
        out.add((s.file, s.body_sha256, _lacking(inv, other), "", Relation.MISSING))
    return out


def _lacking(inv: Inventory, other: str) -> str:
    """The page that lacks a missing twin, as it tells one such entry from another: which
    translation lacks it matters only when there are several; with two languages the recorded
    counterpart is checked as a field of its own."""
    return other if inv.languages else ""


def _counterpart_reasons(
    before: Inventory, after: Inventory, lost: Sequence[LostPair], pairs_changed: Collection[str]
) -> list[str]:
    """A file's recorded counterpart is a claim too; a pair lost to a rename or a deletion, or
    its examples pairing differently, already say why it changed."""
    explained = {name for x in lost for name in (x.kept, x.gone)} | set(pairs_changed)
    # Under the translations setting a page's language, and each counterpart's, are claims too.
    coded = before.source_language is not None and after.source_language is not None
    was = {file: _claimed(before, file, coded) for file, _ in before.counterparts}
    now = {file: _claimed(after, file, coded) for file, _ in after.counterparts}
    out = []
    for file in sorted(was.keys() & now.keys() - {x.kept for x in lost}):
        if coded and before.language_of(file) != after.language_of(file):
            said, found = before.language_of(file) or "none", after.language_of(file) or "none"
            out.append(f"{file}: recorded language {visible(said)} differs from the tree's ({found})")
        if was[file] != now[file] and file not in explained:
            said, found = visible(was[file] or "none"), now[file] or "none"
            out.append(f"{file}: recorded counterpart differs from the tree ({said}, now {found})")
    return out


def _claimed(inv: Inventory, file: str, coded: bool) -> str:
    """A page's counterparts as the inventory states them, by language when there are languages."""
    others = inv.counterparts_of(file)
    return ", ".join(sorted(f"{inv.language_of(o) or 'none'}: {o}" if coded else o for o in others))
