"""The terminal report: one line per finding, grouped under each file name once."""

from __future__ import annotations

from collections import defaultdict
from dataclasses import replace

from .compare import Change, Report
from .markup import visible
from .records import Snippet
from .verdict import Verdict, decide

FIX_COMMAND = "docsnippets update"
Entry = tuple[int, str]


def _lines(s: Snippet) -> str:
    return f"{s.code_lines[0]}-{s.code_lines[1]}"


def _loc(s: Snippet) -> str:
    return f"{visible(s.file)}:{_lines(s)}"


def _was(c: Change) -> str:
    """The old location, only when it differs; the file name only when that differs too."""
    if c.before.file != c.after.file:
        return f"  (was {_loc(c.before)})"
    if c.before.code_lines != c.after.code_lines:
        return f"  (was {_lines(c.before)})"
    return ""


def _entries(report: Report) -> dict[str, list[Entry]]:
    by_file: dict[str, list[Entry]] = defaultdict(list)

    def add(s: Snippet, text: str) -> None:
        by_file[s.file].append((s.code_lines[0], text))

    for sid, s in report.added:
        add(s, f"added    {_lines(s)}  ({sid}, {s.status})")
    for sid, s in report.removed:
        add(s, f"removed  {_lines(s)}  (was {sid})")
    for word, changes in (("changed", report.changed), ("moved", report.moved)):
        for c in changes:
            add(c.after, f"{word:<8} {_lines(c.after)}{_was(c)}")
    for c in report.metadata:
        add(c.after, f"status   {_lines(c.after)}  {c.before.status} -> {c.after.status}")
    for d in report.desynchronized:
        first = d.sides[0]
        others = "".join(f" <-> {_loc(s)}" for s in d.sides[1:])
        extra = f" (no aligned snippet in {visible(d.counterpart_file)})" if d.counterpart_file else ""
        add(first, f"{d.relation:<8} {_lines(first)}{others}{extra}")
    return by_file


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
) -> str:
    """``report`` decides fresh or stale; ``changes`` (a diff's base comparison) is listed after it."""
    verdict = verdict if verdict is not None else decide(report, "stale")
    lines: list[str] = []
    if report.fresh:
        lines.append(f"fresh: {manifest_name} matches the docs ({report.summary['fences']} snippets)")
    else:
        lines.append(f"stale: {manifest_name} is out of date: {'; '.join(report.reasons)}")
    lines += _grouped(_entries(report))
    if changes is not None:
        lines.append("compared with the base manifest:")
        lines += _grouped(_entries(replace(changes, desynchronized=()))) or ["  no snippet changes"]
    lines.append(verdict.sentence())
    if not report.fresh:
        lines.append(f"fix: run `{FIX_COMMAND}` and commit {manifest_name}")
    if report.desynchronized:
        lines.append("fix: give each out-of-sync pair the same code (comments may differ); translate a missing example")
    return "\n".join(lines) + "\n"
