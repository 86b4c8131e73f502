"""The terminal report: one line per finding, grouped under each file name once; twins told
together and many moves summarized by rename, as the PR comment does."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace
from typing import TYPE_CHECKING, Any

from docsnippets.constants import FIX_COMMAND, FailOn
from docsnippets.judge.compare import Change, Desync, Report, all_lost
from docsnippets.judge.verdict import Verdict, decide
from docsnippets.report.markup import span
from docsnippets.snippets.records import Inventory, Snippet
from docsnippets.visible import visible
from docsnippets.words import counted

# The listing's helpers (entries.py, the reference findings) load only when there is something
# to list: a fresh check prints its verdict without them.
if TYPE_CHECKING:
    from docsnippets.report import entries as en

Entry = tuple[int, str]


def _lines(s: Snippet) -> str:
    return span(s.code_lines)


def _loc(s: Snippet) -> str:
    return f"{visible(s.file)}:{_lines(s)}"


def _was(c: Change) -> str:
    """The old location, only when it differs; the file name only when that differs too."""
    if c.before.file != c.after.file:
        return f"  (was {_loc(c.before)})"
    if c.before.code_lines != c.after.code_lines:
        return f"  (was {_lines(c.before)})"
    return ""


_STATES = {
    "identical": "counterpart identical",
    "same-code": "counterpart has the same code",
    "translated": "counterpart has the same code, its strings translated",
    "differs": "counterpart differs",
}


def _twin(item: en.Item, how: str) -> str:
    """``(and <counterpart>:<lines>, <how>)`` for twins shown as one entry."""
    if len(item.after) > 2:
        return f"  (and {len(item.after) - 1} translations, {how})"
    return f"  (and {_loc(item.after[1])}, {how})" if item.twins else ""


def _added_note(item: en.Item) -> str:
    if item.twins:
        how = "same code" if item.same else "different code"
        return _twin(item, how + (", strings translated" if item.state == "translated" else ""))
    if item.state == "missing":
        return f"  (no {item.other_language or 'translated'} counterpart yet)"
    return f"  ({_STATES[item.state]})" if item.state else ""


def _listed(report: Report) -> bool:
    """Whether the report has any entry to list."""
    r = report
    return bool(r.added or r.removed or r.changed or r.moved or r.metadata or r.desynchronized or r.broken_references)


Edited = dict[tuple[str, int], Change | None]


def _language(d: Desync, edited: Edited) -> str:
    """``  [de]``, and whether the change left that translation behind, under the translations setting."""
    if d.language is None:
        return ""
    from docsnippets.report import entries as en

    behind = ", left behind by this change" if en.edited_side(d, edited) == (0,) else ""
    return f"  [{d.language}{behind}]"


def _unaligned(d: Desync) -> str:
    """The page a snippet has no aligned twin in, when that is the divergence."""
    return f" (no aligned snippet in {visible(d.counterpart_file)})" if d.counterpart_file else ""


def _entries(
    report: Report, inventory: Inventory | None, edited: dict[tuple[str, int], object]
) -> dict[str, list[Entry]]:
    by_file: dict[str, list[Entry]] = defaultdict(list)
    if not _listed(report):
        return by_file
    from docsnippets.references.findings import IMPORT_KINDS
    from docsnippets.report import entries as en

    cp = en.Counterparts.of(inventory)

    def add(s: Snippet, text: str) -> None:
        by_file[s.file].append((s.code_lines[0], text))

    ids = {s.key: sid for sid, s in report.added}
    for item in en.added(report, cp):
        s = item.after[0]
        add(s, f"added    {_lines(s)}  ({ids[s.key]}, {s.status}){_added_note(item)}")
    for sid, s in report.removed:
        add(s, f"removed  {_lines(s)}  (was {sid})")
    changes = {c.after.key: c for c in report.changed}
    for item in en.changed(report, cp):
        c = changes[item.after[0].key]
        how = "the same change" if item.same else "changed differently"
        add(c.after, f"changed  {_lines(c.after)}{_was(c)}{_twin(item, how)}")
    if len(report.moved) <= en.HANDFUL:
        for c in report.moved:
            add(c.after, f"moved    {_lines(c.after)}{_was(c)}")
    for c in report.metadata:
        add(c.after, f"record   {_lines(c.after)}  {c.false_record()}")
    for d in report.desynchronized:
        first = d.sides[0]
        others = "".join(f" <-> {_loc(s)}" for s in d.sides[1:])
        add(first, f"{d.relation:<8} {_lines(first)}{others}{_unaligned(d)}{_language(d, edited)}")
    for sid, b in report.broken_references:
        label = "import" if b.kind in IMPORT_KINDS else b.kind
        by_file[b.file].append((b.line, f"{label:<8} {b.line}  {visible(b.reason)}  ({sid})"))
    return by_file


def _moves(report: Report) -> list[str]:
    """Many moves in one summary, by rename, as the comment groups them."""
    if not report.moved:
        return []
    from docsnippets.report import entries as en

    if len(report.moved) <= en.HANDFUL:
        return []
    m = en.moves(report)
    lines = [f"  moved: {counted(m.total, 'snippet')}, code unchanged"]
    lines += [
        f"    {visible(old)} -> {visible(new)}: {counted(n, 'snippet')} in {counted(k, 'file')}"
        for old, new, n, k in m.renames
    ]
    lines += [f"    {visible(f)}: {counted(n, 'snippet')} on other lines" for f, n in m.shifted]
    return lines


def _debts(report: Report) -> list[str]:
    """What the change's base already held, apart from what the change is asked to fix."""
    lines = []
    if report.desync_debts:
        lines.append("already out of sync before this change (not counted):")
        for d in report.desync_debts:
            where = " <-> ".join(_loc(s) for s in d.sides)
            lines.append(f"  {d.relation:<8} {where}{_unaligned(d)}")
    if report.reference_debts:
        lines.append("already broken before this change (not counted):")
        lines += [f"  {visible(b.file)}:{b.line}  {visible(b.reason)}  ({sid})" for sid, b in report.reference_debts]
    return lines


def _edits(changes: Report) -> Edited:
    from docsnippets.report import entries as en

    return en.edits(changes)


PER_LANGUAGE = "a source page counted once per language with no page for it"


def _untranslated(summary: dict[str, Any]) -> list[str]:
    """Per language, the source pages with snippets it has no page for: informational."""
    by_language: dict[str, dict[str, Any]] = summary.get("untranslated_by_language") or {}
    orphans: list[str] = summary.get("without_source") or []
    out: list[str] = []
    if by_language:
        from docsnippets.report import entries as en

        out.append("source pages with no page in a language (informational):")
        for code, missing in sorted(by_language.items()):
            shown = en.some_pages(missing["pages"], missing["count"], visible)
            out.append(f"  {visible(code)} ({missing['count']}): {shown}")
    if orphans:
        out.append(f"{counted(len(orphans), 'translation page')} with no source page: {visible(', '.join(orphans))}")
    return out


def _grouped(by_file: dict[str, list[Entry]]) -> list[str]:
    lines: list[str] = []
    for file in sorted(by_file):
        lines.append(f"  {visible(file)}")
        lines.extend(f"    {text}" for _, text in sorted(by_file[file], key=lambda e: e[0]))
    return lines


def report_text(
    report: Report,
    manifest_name: str = "documentation-snippets.json",
    verdict: Verdict | None = None,
    changes: Report | None = None,
    inventory: Inventory | None = None,
) -> str:
    """``report`` decides fresh or stale; ``changes`` (a diff's base comparison) is listed after it;
    ``inventory`` (the head tree's) lets twins be told together."""
    verdict = verdict if verdict is not None else decide(report, FailOn.STALE, changes=changes)
    lines: list[str] = []
    if report.fresh:
        lines.append(f"fresh: {manifest_name} matches the docs ({counted(report.summary['fences'], 'snippet')})")
    else:
        lines.append(f"stale: {manifest_name} is out of date: {'; '.join(report.reasons)}")
    edited = _edits(changes) if changes is not None else {}
    lines += _grouped(_entries(report, inventory, edited)) + _moves(report)
    if changes is not None:
        lines.append("compared with the base manifest:")
        plain = replace(changes, desynchronized=())
        lines += (_grouped(_entries(plain, inventory, edited)) + _moves(plain)) or ["  no snippet changes"]
    lines += _debts(report)
    lost = all_lost(report, changes)
    if lost:
        lines.append("pages that lost their counterpart:")
        lines += [f"  {visible(x.sentence())}" for x in lost]
    if report.summary.get("untranslated"):
        n = report.summary["untranslated"]
        how = PER_LANGUAGE if "untranslated_by_language" in report.summary else "snippets, no counterpart file"
        lines.append(f"{counted(n, 'untranslated page')} ({how}): informational")
    lines += _untranslated(report.summary)
    lines.append(verdict.sentence())
    if not report.fresh:
        lines.append(f"fix: run `{FIX_COMMAND}` and commit {manifest_name}")
    if report.desynchronized:
        lines.append(
            "fix: give each out-of-sync pair the same code (comments and translated strings may differ); "
            "translate a missing example"
        )
    lines += list(dict.fromkeys(f"fix: {visible(x.fix())}" for x in lost))
    if report.broken_references:
        from docsnippets.references.findings import fixes_for

        lines += [f"fix: {fix}" for fix in fixes_for(b for _, b in report.broken_references)]
    return "\n".join(lines) + "\n"
