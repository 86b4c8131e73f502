"""The out-of-sync entries of an inventory: its diverged pairs and its examples without a twin.

Under the translations setting a source example is out of step with each translation on its
own, so each entry knows the translation it concerns; with two languages it knows none, and
everything reads as it always did.
"""

from __future__ import annotations

from dataclasses import dataclass

from docsnippets.constants import Relation
from docsnippets.snippets.records import Inventory, Snippet

Twin = tuple[str, Snippet]  # (language, the example in that language's page)


@dataclass(frozen=True)
class Desync:
    """An out-of-sync pair (``diverged``) or a snippet whose counterpart has none (``missing``)."""

    relation: Relation
    sides: tuple[Snippet, ...]
    indices: tuple[int, ...]
    ids: tuple[str, ...]
    counterpart_file: str | None = None
    new: bool = False
    # Known under the translations setting only: the translation's language (of the page that
    # is not the source page), and the source's.
    language: str | None = None
    source_language: str | None = None
    in_source: bool = True  # the first side is the source page's (a translation's example the source lacks: not)
    # Under the translations setting, a diverged pair's source example in each other translation
    # (language, its twin there): a fix made on one translation alone must reach these too.
    others: tuple[Twin, ...] = ()


# (snippet index, the translation it is out of step in): a source example may be out of step
# with one translation and not with another. With two languages the language is None.
Member = tuple[int, str | None]


def members(d: Desync) -> tuple[Member, ...]:
    return tuple((i, d.language) for i in d.indices)


def _codes(inv: Inventory, first: str, other: str) -> tuple[str | None, str | None, bool]:
    """(the translation's language, the source's, whether ``first`` is the source page) for a
    pair or a missing twin between two pages; None and None with two languages."""
    a, b = inv.language_of(first), inv.language_of(other)
    if inv.source_language is None:
        return None, None, True
    return (b, a, True) if a == inv.source_language else (a, b, False)


def _twins(inv: Inventory) -> dict[int, list[int]]:
    """Each source example's twins, one per translation that has it (empty with two languages)."""
    out: dict[int, list[int]] = {}
    if inv.source_language is None:
        return out
    for pair in inv.pairs:
        out.setdefault(pair.source, []).append(pair.translation)
    return out


def _others(inv: Inventory, twins: dict[int, list[int]], source: int, translation: int) -> tuple[Twin, ...]:
    """The source example's twins in every translation but ``translation``'s, by language."""
    found = (
        (inv.language_of(inv.snippets[t].file) or "?", inv.snippets[t])
        for t in twins.get(source, ())
        if t != translation
    )
    return tuple(sorted(found, key=lambda x: x[0]))


def desync_sets(inv: Inventory) -> tuple[list[Desync], set[Member]]:
    """The out-of-sync entries, by file and line of their first side, and every snippet in one
    (with the translation it is out of step in): an entry is followed through a change by its
    members, not by the entry itself."""
    entries: list[Desync] = []
    twins = _twins(inv)
    for pair in inv.pairs:
        if pair.relation == Relation.DIVERGED:
            sides = (inv.snippets[pair.source], inv.snippets[pair.translation])
            ids = (inv.ids[pair.source], inv.ids[pair.translation])
            code, source, _ = _codes(inv, sides[0].file, sides[1].file)
            found = Desync(
                Relation.DIVERGED,
                sides,
                (pair.source, pair.translation),
                ids,
                language=code,
                source_language=source,
                others=_others(inv, twins, pair.source, pair.translation),
            )
            entries.append(found)
    for i, other in inv.missing_twins():
        s = inv.snippets[i]
        code, source, in_source = _codes(inv, s.file, other)
        entries.append(
            Desync(
                Relation.MISSING,
                (s,),
                (i,),
                (inv.ids[i],),
                other,
                language=code,
                source_language=source,
                in_source=in_source,
            )
        )
    entries.sort(key=lambda d: d.sides[0].key)
    return entries, {m for d in entries for m in members(d)}


def desync_of(inv: Inventory) -> tuple[Desync, ...]:
    """Every out-of-sync entry of ``inv``: its diverged pairs and its examples without a counterpart."""
    return tuple(desync_sets(inv)[0])


def involves(d: Desync, touched: set[str], edited: set[str] | None) -> bool:
    """Whether an out-of-sync pair concerns a change: one of its pages is ``touched`` (a page the
    change edited, or a counterpart of one). Under the translations setting, only a page the
    change itself ``edited`` counts, so a PR that edits the German page is not held to the old
    debt of the French one, which shares only the English page with it."""
    pages = {s.file for s in d.sides} | ({d.counterpart_file} if d.counterpart_file else set())
    if d.language is not None and edited is not None:
        return bool(pages & edited)
    return bool(pages & touched)
