"""Two inventories (usually: the committed manifest and the tree) -> a report of differences.

Snippets are matched by what they are, not by their numbers: the same body in the same
file first (unchanged or moved), then similar bodies in the same file (changed), then the
same body in another file (moved with its file); what is left was added or removed.
"""

from __future__ import annotations

from collections import defaultdict, deque
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from functools import lru_cache
from typing import TYPE_CHECKING, Any

from docsnippets import work
from docsnippets.config import DEFAULT_PYTHON
from docsnippets.judge.desyncs import Desync, desync_sets, involves, members
from docsnippets.judge.lost import LostPair, lost_pairs, pair_reasons, union
from docsnippets.manifest.build import summarize
from docsnippets.snippets.grammar import Running
from docsnippets.snippets.pairs import Budget, align
from docsnippets.snippets.records import (
    COMPILED_FIELDS,
    POSITION_FIELDS,
    Inventory,
    Snippet,
    moved_as_a_whole,
    recorded_fields,
)
from docsnippets.words import counted, plural

RECORD_REASONS = 5  # false records named one by one; the rest are counted

if TYPE_CHECKING:  # a finding's type only: the reference check loads when a tree has code to judge
    from docsnippets.references.findings import BrokenReference


@dataclass(frozen=True)
class Change:
    """One snippet before and after, with its manifest ids on each side; ``fields``: what the
    record before states that the snippet after does not bear out (see ``false_fields``)."""

    before: Snippet
    after: Snippet
    before_id: str
    after_id: str
    fields: tuple[str, ...] = ()
    python: str = DEFAULT_PYTHON  # the declared Python, whose reading the record is held to

    def false_record(self) -> str:
        """What is false in the record, in words: the fields, and when the compiler's findings
        are among them the Python that judged them, since another one may have written them."""
        said = f"recorded {', '.join(self.fields)} {plural(len(self.fields), 'differs', 'differ')} from the page"
        if any(f in COMPILED_FIELDS for f in self.fields):
            said += f" as Python {self.python} reads it"
        return said


@dataclass(frozen=True)
class Report:
    """Manifest against tree: the verdict with its reasons, and every difference by kind."""

    fresh: bool
    reasons: tuple[str, ...]
    summary: dict[str, Any]
    added: tuple[tuple[str, Snippet], ...]
    removed: tuple[tuple[str, Snippet], ...]
    changed: tuple[Change, ...]
    moved: tuple[Change, ...]
    metadata: tuple[Change, ...]
    desynchronized: tuple[Desync, ...]
    resynchronized: tuple[Desync, ...]
    notices: tuple[str, ...] = ()
    # Imports of snippets the checked tree's code does not satisfy (references.py); the
    # engine fills it in, since comparing two inventories says nothing about the code.
    broken_references: tuple[tuple[str, BrokenReference], ...] = ()  # (snippet id, finding)
    lost: tuple[LostPair, ...] = ()  # pairs of pages of which only one side stays (lost.py)
    # What a change found already out of sync or broken at its base (debts.py): shown apart,
    # never counted; the two lists above then hold only what the change made worse.
    desync_debts: tuple[Desync, ...] = ()
    reference_debts: tuple[tuple[str, BrokenReference], ...] = ()  # (snippet id, finding)


# Which old snippet a new one continues only words the report; whether anything changed is
# decided by the records alone. The running Python's tokens serve, so no other is started.
_RUNNING = Running()


def match(before: Inventory, after: Inventory) -> dict[int, int]:
    """before index -> after index for every snippet that continues in ``after``."""
    mapping: dict[int, int] = {}
    by_key: dict[tuple[str, str], deque[int]] = defaultdict(deque)
    for j, s in enumerate(after.snippets):
        by_key[(s.file, s.body_sha256)].append(j)
    taken: set[int] = set()
    for i, s in enumerate(before.snippets):
        candidates = by_key.get((s.file, s.body_sha256))
        if candidates:
            j = candidates.popleft()
            mapping[i] = j
            taken.add(j)
    left_b: dict[str, list[int]] = defaultdict(list)
    left_a: dict[str, list[int]] = defaultdict(list)
    for i, s in enumerate(before.snippets):
        if i not in mapping:
            left_b[s.file].append(i)
    for j, s in enumerate(after.snippets):
        if j not in taken:
            left_a[s.file].append(j)
    for file, olds in left_b.items():
        work.check()
        news = left_a.get(file, [])
        pairs = _aligned(tuple(before.snippets[i] for i in olds), tuple(after.snippets[j] for j in news))
        for a, b in pairs:
            mapping[olds[a]] = news[b]
            taken.add(news[b])
    by_body: dict[str, deque[int]] = defaultdict(deque)
    for j, s in enumerate(after.snippets):
        if j not in taken:
            by_body[s.body_sha256].append(j)
    for i, s in enumerate(before.snippets):
        if i not in mapping and by_body.get(s.body_sha256):
            mapping[i] = by_body[s.body_sha256].popleft()
    return mapping


@lru_cache(maxsize=32)
def _aligned(olds: tuple[Snippet, ...], news: tuple[Snippet, ...]) -> tuple[tuple[int, int], ...]:
    """The changed snippets of one file aligned by similarity, the costly part of :func:`match`;
    kept for the next call, since a change's pages are matched with the base twice (what
    the change does, and which findings the base already had). Like a file pair's alignment,
    one file spends a bounded allowance on exact matching."""
    return tuple(align(olds, news, Budget().scorer(_RUNNING))) if olds and news else ()


def false_fields(before: Snippet, after: Snippet) -> tuple[str, ...]:
    """The fields of ``before``'s record (``records.recorded_fields``, every one) that differ
    from ``after``'s, the same snippet on the page.

    Where it stands is no false claim when the snippet moved to another file (that is a move)
    or moved as a whole within its file (lines above it came or went: only ``strict_lines``
    holds that against the manifest); any other difference of its lines is one.
    """
    was, now = recorded_fields(before), recorded_fields(after)
    lenient = before.file != after.file or moved_as_a_whole(before, after)
    return tuple(
        key
        for key in (*was, *(k for k in now if k not in was))
        if was.get(key) != now.get(key) and not (lenient and key in POSITION_FIELDS)
    )


def _continued(
    before: Inventory, after: Inventory, mapping: dict[int, int], python: str
) -> tuple[list[Change], list[Change], list[Change]]:
    """The snippets that continue, sorted by their place in ``after``: changed, moved, and
    those whose record states something else than the page (``metadata``)."""
    changed: list[Change] = []
    moved: list[Change] = []
    metadata: list[Change] = []
    for i, j in sorted(mapping.items(), key=lambda kv: kv[1]):
        b, a = before.snippets[i], after.snippets[j]
        change = Change(b, a, before.ids[i], after.ids[j], python=python)
        if b.body_sha256 != a.body_sha256:
            changed.append(change)
            continue
        if b.code_lines != a.code_lines or b.file != a.file:
            moved.append(change)
        false = false_fields(b, a)
        if false:
            metadata.append(replace(change, fields=false))
    return changed, moved, metadata


def _record_reasons(before: Inventory, metadata: Sequence[Change]) -> list[str]:
    """One reason per false record, named as a person finds it in the manifest: the file, the
    snippet's number there (1-based, document order) and what is false."""
    ordinal: dict[str, int] = {}
    counts: dict[str, int] = defaultdict(int)
    for sid, s in zip(before.ids, before.snippets, strict=True):
        counts[s.file] += 1
        ordinal[sid] = counts[s.file]
    out = []
    for c in metadata[:RECORD_REASONS]:
        out.append(f"{c.before.file} snippet {ordinal[c.before_id]}: {c.false_record()}")
    if len(metadata) > RECORD_REASONS:
        rest = len(metadata) - RECORD_REASONS
        out.append(
            f"{counted(rest, 'more snippet record')} {plural(rest, 'differs from its page', 'differ from their pages')}"
        )
    return out


def renamed_dirs(old: str, new: str) -> tuple[str, str]:
    """What was renamed: ``docs/en-us/a.md`` → ``docs/en/a.md`` gives the two directories,
    files whose names differ give the two files."""
    a, b = old.split("/"), new.split("/")
    n = 0
    while n < min(len(a), len(b)) - 1 and a[-1 - n] == b[-1 - n]:
        n += 1
    if n == 0:
        return old, new
    return "/".join(a[:-n]) + "/", "/".join(b[:-n]) + "/"


def move_reasons(moved: Sequence[Change]) -> list[str]:
    """One reason per rename, not per file: a renamed tree is one event however many pages it holds."""
    groups: dict[tuple[str, str], list[Change]] = defaultdict(list)
    for c in moved:
        if c.before.file != c.after.file:
            groups[renamed_dirs(c.before.file, c.after.file)].append(c)
    out = []
    for (old, new), changes in sorted(groups.items()):
        files = {(c.before.file, c.after.file) for c in changes}
        if len(files) == 1:
            (old, new), where = next(iter(files)), "another file"
        else:
            where = counted(len({after for _, after in files}), "other file")
        out.append(f"{counted(len(changes), 'snippet')} moved to {where}: {old} → {new}")
    return out


def _moved_reasons(moved: Sequence[Change], strict_lines: bool) -> list[str]:
    """A snippet whose file changed is stale: its entry names a file that no longer holds it
    (and its permalink would be dead). Moves within a file only under ``--strict-lines``."""
    within = sum(1 for c in moved if c.before.file == c.after.file)
    out = move_reasons(moved)
    if strict_lines and within:
        out.append(f"{counted(within, 'snippet')} moved (--strict-lines)")
    return out


def _count_reasons(after: Inventory, reverse: dict[int, int], added: int, removed: int, changed: int) -> list[str]:
    """The counts as reasons; an example added in both languages at once is one example."""
    new = {j for j in range(len(after.snippets)) if j not in reverse}
    twins: dict[int, int] = {}  # a new source example -> how many new translations came with it
    for p in after.pairs:
        if p.source in new and p.translation in new:
            twins[p.source] = twins.get(p.source, 0) + 1
    both = len(twins)
    said = "(en + zh)" if not after.languages else f"with {plural(both, 'its', 'their')} translations"
    out = [f"{counted(both, 'example')} added {said}"] if both else []
    for n, word in ((added - both - sum(twins.values()), "added"), (removed, "removed"), (changed, "changed")):
        if n:
            out.append(f"{counted(n, 'snippet')} {word}")
    return out


def _desyncs(
    before: Inventory,
    after: Inventory,
    mapping: dict[int, int],
    reverse: dict[int, int],
    touched: Sequence[str] | None,
    edited: Sequence[str] | None,
) -> tuple[list[Desync], list[Desync]]:
    """``after``'s out-of-sync entries (each marked new or not) and ``before``'s back in sync,
    those that concern the change (see :func:`involves`); ``reverse`` is ``mapping`` inverted."""
    before_desync, before_members = desync_sets(before)
    after_desync, after_members = desync_sets(after)
    relevant = _concerning(touched, edited)
    desync = []
    for d in after_desync:
        was = any((reverse[j], code) in before_members for j, code in members(d) if j in reverse)
        if relevant(d):
            desync.append(replace(d, new=not was))
    resync = []
    for d in before_desync:
        now = [(mapping[i], code) for i, code in members(d) if i in mapping]
        if now and not any(m in after_members for m in now) and relevant(d):
            resync.append(d)
    return desync, resync


def _concerning(touched: Sequence[str] | None, edited: Sequence[str] | None) -> Callable[[Desync], bool]:
    """Whether an out-of-sync entry concerns the change (see :func:`involves`); every one does
    when ``touched`` is unknown."""
    if touched is None:
        return lambda d: True
    keep, mine = set(touched), set(edited) if edited is not None else None
    return lambda d: involves(d, keep, mine)


def compare(
    before: Inventory,
    after: Inventory,
    *,
    strict_lines: bool = False,
    settings_changed: bool = False,
    touched: Sequence[str] | None = None,
    edited: Sequence[str] | None = None,
    python: str = DEFAULT_PYTHON,
) -> Report:
    """How ``after`` differs from ``before``; ``fresh`` when the manifest needs no update.

    ``touched`` limits the desynchronized list to pairs that involve those files (see
    :func:`involves` for ``edited``); ``python`` is the declared version that read ``after``
    (the reasons name it).
    """
    mapping = match(before, after)
    reverse = {j: i for i, j in mapping.items()}
    added = tuple((after.ids[j], s) for j, s in enumerate(after.snippets) if j not in reverse)
    removed = tuple((before.ids[i], s) for i, s in enumerate(before.snippets) if i not in mapping)
    changed, moved, metadata = _continued(before, after, mapping, python)
    reasons: list[str] = []
    if settings_changed:
        reasons.append("the selection settings differ from the manifest's")
    reasons += _count_reasons(after, reverse, len(added), len(removed), len(changed))
    reasons += _record_reasons(before, metadata)
    reasons += _moved_reasons(moved, strict_lines)
    lost = lost_pairs(before, after, mapping)
    reasons += [x.sentence() for x in lost]
    by_counts = bool(added or removed or changed or lost)
    reasons += pair_reasons(before, after, mapping, lost, by_counts=by_counts, said=bool(reasons))
    desync, resync = _desyncs(before, after, mapping, reverse, touched, edited)
    return Report(
        fresh=not reasons,
        reasons=tuple(reasons),
        summary=summarize(after),
        added=added,
        removed=removed,
        changed=tuple(changed),
        moved=tuple(moved),
        metadata=tuple(metadata),
        desynchronized=tuple(desync),
        resynchronized=tuple(resync),
        notices=tuple(str(n) for n in after.notices),
        lost=lost,
    )


def limit_desync(report: Report, touched: Sequence[str] | None, edited: Sequence[str] | None = None) -> Report:
    """Only the desynchronized pairs that involve ``touched`` files (all of them when None)."""
    if touched is None:
        return report
    relevant = _concerning(touched, edited)
    return replace(report, desynchronized=tuple(d for d in report.desynchronized if relevant(d)))


def all_lost(freshness: Report, changes: Report | None) -> tuple[LostPair, ...]:
    """The lost pairs a run reports: against the committed manifest and, on a pull request or
    a diff, against the base's (a manifest updated on the branch has forgotten them)."""
    return union(freshness.lost, changes.lost if changes is not None else ())
