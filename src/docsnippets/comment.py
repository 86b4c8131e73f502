"""The PR comment (also the job summary and ``--format markdown``): data for its template.

Everything from a pull request (paths, info strings, code, compiler messages) is untrusted.
This module turns it into safe Markdown *before* the template sees it — code spans and
fences longer than any backtick run inside, links built from the repository and commit we
were given — so a template, the packaged one or a repository's own, only places finished
pieces and cannot make a file name ping anyone, link an issue or inject HTML. The size
budget is kept here: the comment is rendered again with shorter sections until it fits.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from . import templating
from .codediff import body_diff
from .compare import Change, Desync, Report
from .constants import COMMENT_BUDGET, DEFAULT_MANIFEST, FIX_COMMAND
from .guidance import desync_diff, fixes, headline
from .markup import Links, code_span, diff_block, location
from .records import Snippet
from .verdict import Verdict, decide

DEFAULT_TEMPLATE = "comment.md.j2"
# (entries per section, diffs shown): tried in turn until the comment fits its budget.
SHORTENINGS: tuple[tuple[int | None, bool], ...] = (
    (None, True),
    (50, True),
    (20, False),
    (10, False),
    (3, False),
    (0, False),
)


@dataclass(frozen=True)
class CommentContext:
    """What the comment needs besides the report: names, links, the fix, the base comparison."""

    marker: str
    manifest_name: str = DEFAULT_MANIFEST
    manifest_path: str = DEFAULT_MANIFEST
    fix_command: str = FIX_COMMAND
    links: Links | None = None
    base_missing: bool = False
    head_manifest_missing: bool = False
    changes: Report | None = None  # what the PR changes, against the base manifest
    verdict: Verdict | None = None  # the gate's answer every output shares
    template: Path | None = None  # a repository's own comment template, else the packaged one


@dataclass(frozen=True)
class Shortening:
    cap: int | None  # entries shown per section; None shows all
    diffs: bool  # whether changed and desynchronized entries carry their diff

    def shown(self, n: int) -> bool:
        return self.diffs and (self.cap is None or n < self.cap)


def verdict_of(freshness: Report, ctx: CommentContext) -> Verdict:
    """The context's verdict; a caller without a gate setting gets the default one (stale)."""
    if ctx.verdict is not None:
        return ctx.verdict
    return decide(freshness, "stale", manifest_missing=ctx.head_manifest_missing)


def comment(freshness: Report, ctx: CommentContext, budget: int = COMMENT_BUDGET) -> str:
    """The sticky PR comment, sections shortened (with a count of what was left out) to fit."""
    template, name = templating.load(ctx.template, DEFAULT_TEMPLATE)
    for cap, diffs in SHORTENINGS:
        data = context(freshness, ctx, Shortening(cap, diffs))
        text = templating.render(template, name, data).rstrip() + "\n"
        if len(text) <= budget:
            return text
    counts = _counts(freshness.summary, ctx.changes or freshness, len(freshness.desynchronized))
    title = headline(verdict_of(freshness, ctx), ctx.manifest_name)
    return f"{ctx.marker}\n{title}\n\n{counts}\n\nThe full report is in the job summary.\n"


def context(freshness: Report, ctx: CommentContext, short: Shortening) -> dict[str, Any]:
    """The template's variables (README lists them); every string in it is safe Markdown."""
    changes = ctx.changes
    listed = changes if changes is not None else freshness
    verdict = verdict_of(freshness, ctx)
    compared = "base" if changes is not None else None if freshness.fresh else "committed"
    return {
        "marker": ctx.marker,
        "headline": headline(verdict, ctx.manifest_name),
        "stale": not freshness.fresh,
        "base_missing": ctx.base_missing,
        "counts": _counts(freshness.summary, listed, len(freshness.desynchronized)),
        "compared_with": compared,
        "sections": [s for s in _sections(freshness, listed, ctx, short) if s["count"]],
        "fixes": fixes(
            freshness,
            verdict,
            changes=changes,
            fix_command=ctx.fix_command,
            manifest_path=ctx.manifest_path,
            links=ctx.links,
            cap=short.cap,
        ),
    }


def _counts(summary: dict[str, Any], changes: Report | None, desync: int) -> str:
    rows = [
        ("snippets", summary["fences"]),
        ("bilingual pairs", summary["pairs"]),
        ("examples", summary["examples"]),
    ]
    if changes is not None:
        rows += [
            ("added", len(changes.added)),
            ("removed", len(changes.removed)),
            ("changed", len(changes.changed)),
            ("moved", len(changes.moved)),
        ]
    rows.append(("desynchronized", desync))
    head = "| " + " | ".join(r[0] for r in rows) + " |"
    sep = "|" + "|".join(" ---: " for _ in rows) + "|"
    body = "| " + " | ".join(str(r[1]) for r in rows) + " |"
    return "\n".join((head, sep, body))


def _section(title: str, items: Sequence[str], cap: int | None) -> dict[str, Any]:
    shown = list(items if cap is None else items[:cap])
    return {"title": title, "count": len(items), "entries": shown, "more": len(items) - len(shown)}


def _was(before: Snippet, after: Snippet) -> str:
    if before.file == after.file and before.code_lines == after.code_lines:
        return ""
    if before.file == after.file:
        return f" (was lines {before.code_lines[0]}-{before.code_lines[1]})"
    return f" (was {location(before, None)})"


def _change_diff(c: Change) -> str:
    return diff_block("What changed", body_diff(c.before.body, c.after.body))


def _sections(freshness: Report, listed: Report, ctx: CommentContext, short: Shortening) -> list[dict[str, Any]]:
    loc: Callable[[Snippet], str] = lambda s: location(s, ctx.links)  # noqa: E731
    changed = [
        f"- {loc(c.after)}{_was(c.before, c.after)} · {code_span(c.after.status)}"
        + (f"\n\n{_change_diff(c)}\n" if short.shown(n) else "")
        for n, c in enumerate(listed.changed)
    ]
    back = [f"- {' ↔ '.join(location(s, None) for s in d.sides)}" for d in listed.resynchronized]
    return [
        _section("Added", [f"- {loc(s)} · {code_span(s.status)}" for _, s in listed.added], short.cap),
        _section("Removed", [f"- {location(s, None)}" for _, s in listed.removed], short.cap),
        _section("Changed", changed, short.cap),
        _section("Moved", [f"- {loc(c.after)}{_was(c.before, c.after)}" for c in listed.moved], short.cap),
        _section("Back in sync", back, short.cap),
        _section("Desynchronized bilingual examples", _desync_entries(freshness, ctx, short), short.cap),
        _section("Warnings", [f"- {code_span(n)}" for n in freshness.notices], short.cap),
    ]


def _desync_entries(freshness: Report, ctx: CommentContext, short: Shortening) -> list[str]:
    changes = ctx.changes
    new_keys = (
        {tuple(x.key for x in d.sides) for d in changes.desynchronized if d.new} if changes is not None else set()
    )
    return [
        _desync_entry(d, ctx.links, tuple(x.key for x in d.sides) in new_keys, short.shown(n))
        for n, d in enumerate(freshness.desynchronized)
    ]


def _desync_entry(d: Desync, links: Links | None, new: bool, with_diff: bool) -> str:
    tag = " · new in this PR" if new else ""
    if d.relation == "missing":
        where = code_span(d.counterpart_file or "?")
        return f"- {location(d.sides[0], links)}: no matching example in {where}{tag}"
    line = f"- {' ↔ '.join(location(s, links) for s in d.sides)}: the code differs{tag}"
    return line + (f"\n\n{desync_diff(d)}\n" if with_diff else "")
