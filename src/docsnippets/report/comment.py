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
from typing import Any, TypeVar

from docsnippets import work
from docsnippets.constants import COMMENT_BUDGET, FailOn
from docsnippets.judge.compare import Desync, Report, all_lost, move_reasons
from docsnippets.judge.verdict import Verdict, decide
from docsnippets.report import entries as en
from docsnippets.report import items as ci
from docsnippets.report import templating
from docsnippets.report.context import CommentContext
from docsnippets.report.guidance import HEADLINE_REASONS, fixes, headline
from docsnippets.report.markup import code_span, location, plain
from docsnippets.snippets.records import Snippet
from docsnippets.words import counted

T = TypeVar("T")
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
class Shortening:
    cap: int | None  # entries shown per section; None shows all
    diffs: bool  # whether changed and desynchronized entries carry their diff

    def shown(self, n: int) -> bool:
        return self.diffs and (self.cap is None or n < self.cap)


def verdict_of(freshness: Report, ctx: CommentContext) -> Verdict:
    """The context's verdict; a caller without a gate setting gets the default one (stale)."""
    if ctx.verdict is not None:
        return ctx.verdict
    return decide(freshness, FailOn.STALE, manifest_missing=ctx.head_manifest_missing, changes=ctx.changes)


def comment(freshness: Report, ctx: CommentContext, budget: int = COMMENT_BUDGET) -> str:
    """The sticky PR comment, sections shortened (with a count of what was left out) to fit."""
    template, name = templating.load(ctx.template, DEFAULT_TEMPLATE, root=ctx.root)
    lists = _Lists.of(ctx.changes if ctx.changes is not None else freshness, en.Counterparts.of(ctx.inventory))
    for cap, diffs in SHORTENINGS:
        data = context(freshness, ctx, Shortening(cap, diffs), lists)
        text = templating.render(template, name, data).rstrip() + "\n"
        if len(text) <= budget:
            return text
    counts = _counts(freshness.summary, ctx.changes or freshness, len(freshness.desynchronized))
    title = headline(verdict_of(freshness, ctx), ctx.manifest_name)
    return f"{ctx.marker}\n{title}\n\n{counts}\n\nThe full report is in the job summary.\n"


@dataclass(frozen=True)
class _Lists:
    """The entries of the Changed, Added and Removed sections, found once for every shortening tried."""

    changed: list[en.Item]
    added: list[en.Item]
    removed: list[en.Item]

    @classmethod
    def of(cls, listed: Report, cp: en.Counterparts) -> _Lists:
        return cls(en.changed(listed, cp), en.added(listed, cp), en.removed(listed, cp))


def context(freshness: Report, ctx: CommentContext, short: Shortening, lists: _Lists | None = None) -> dict[str, Any]:
    """The template's variables (docs/action.md lists them); every string in it is safe Markdown."""
    changes = ctx.changes
    listed = changes if changes is not None else freshness
    verdict = verdict_of(freshness, ctx)
    lists = lists if lists is not None else _Lists.of(listed, en.Counterparts.of(ctx.inventory))
    compared = "base" if changes is not None else None if freshness.fresh else "committed"
    return {
        "marker": ctx.marker,
        "headline": headline(verdict, ctx.manifest_name),
        "stale": not freshness.fresh,
        "base_missing": ctx.base_missing,
        "news": _nonempty(
            [
                _reasons_section(verdict, freshness, short),
                _desync_section(freshness, ctx, short),
                _section("Pages that lost their counterpart", _lost_items(freshness, ctx), [], short),
                _section(
                    "Broken references",
                    [ci.broken(sid, b, ctx.links) for sid, b in freshness.broken_references],
                    [],
                    short,
                ),
            ]
        ),
        "debts": _nonempty(_debt_sections(freshness, ctx, short)),
        "counts": _counts(freshness.summary, listed, len(freshness.desynchronized)),
        "compared_with": compared,
        "unchanged": not (listed.changed or listed.added or listed.removed or listed.resynchronized or listed.moved),
        "sections": _nonempty(_sections(freshness, listed, ctx, lists, short)),
        "moved": _moved(listed),
        "fixes": fixes(
            freshness,
            verdict,
            changes=changes if not ctx.base_missing else None,
            fix_command=ctx.fix_command,
            manifest_path=ctx.manifest_path,
            links=ctx.links,
            cap=short.cap,
        ),
    }


# Columns one counts table holds at most: wider, GitHub's comment column cuts off the last ones.
MAX_COLUMNS = 5


def _counts(summary: dict[str, Any], changes: Report | None, desync: int) -> str:
    """The non-zero counts: the tree's in one table, the change's in another, each narrow
    whatever the number of languages."""
    grouped = "untranslated_by_language" in summary
    tree = [
        ("snippets", summary["fences"]),
        ("translation pairs" if grouped else "bilingual pairs", summary["pairs"]),
        ("examples", summary["examples"]),
        ("untranslated pages", summary.get("untranslated", 0)),
        ("pages with no source", len(summary.get("without_source", []))),
    ]
    change = [("desynchronized", desync)]
    if changes is not None:
        moves = [("added", len(changes.added)), ("removed", len(changes.removed)), ("changed", len(changes.changed))]
        change = [*moves, ("moved", len(changes.moved)), *change]
    shown = [row for row in tree if row[1]] or tree[:1]
    rest = [row for row in change if row[1]]
    if len(shown) + len(rest) <= MAX_COLUMNS:
        return _table(shown + rest)
    return _table(shown) + "\n\n" + _table(rest)


def _table(rows: Sequence[tuple[str, int]]) -> str:
    head = "| " + " | ".join(r[0] for r in rows) + " |"
    sep = "|" + "|".join(" ---: " for _ in rows) + "|"
    body = "| " + " | ".join(str(r[1]) for r in rows) + " |"
    return "\n".join((head, sep, body))


def _nonempty(sections: list[dict[str, Any]]) -> list[dict[str, Any]]:
    return [s for s in sections if s["count"]]


def _section(
    title: str, items: Sequence[str], snippets: Sequence[Snippet], short: Shortening, total: int | None = None
) -> dict[str, Any]:
    """A section: its entries (capped), and past a handful of them a per-file table with the list collapsed.

    ``total``: how many entries there are, when ``items`` holds only those shown (see _shown)."""
    shown = list(items if short.cap is None else items[: short.cap])
    total = len(items) if total is None else total
    big = total > en.HANDFUL
    return {
        "title": title,
        "count": len(snippets) or total,
        "entries": shown,
        "more": total - len(shown),
        "table": ci.file_table(snippets) if big and snippets else "",
        "collapsed": big,
        "summary": "",  # the collapsed list's own words, else "All N entries"
    }


def _shown(items: Sequence[T], short: Shortening, render: Callable[[int, T], str]) -> list[str]:
    """The entries a shortening shows, rendered; the rest are only counted."""
    out = []
    for n, item in enumerate(items if short.cap is None else items[: short.cap]):
        work.check()
        out.append(render(n, item))
    return out


def _sections(
    freshness: Report, listed: Report, ctx: CommentContext, lists: _Lists, short: Shortening
) -> list[dict[str, Any]]:
    links = ctx.links
    back = [f"- {' ↔ '.join(location(s, None) for s in d.sides)}" for d in listed.resynchronized]
    return [
        _section(
            "Changed",
            _shown(lists.changed, short, lambda n, item: ci.changed(item, links, short.shown(n))),
            [c.after for c in listed.changed],
            short,
            len(lists.changed),
        ),
        _section(
            "Added",
            _shown(lists.added, short, lambda n, item: ci.added(item, links, short.shown(n))),
            [s for _, s in listed.added],
            short,
            len(lists.added),
        ),
        _section(
            "Removed",
            _shown(lists.removed, short, lambda n, item: ci.removed(item)),
            [s for _, s in listed.removed],
            short,
            len(lists.removed),
        ),
        _section("Back in sync", back, [], short),
        _section("Warnings", [f"- {code_span(n)}" for n in freshness.notices], [], short),
        _untranslated(freshness.summary, ctx, short),
        _without_source(freshness.summary, short),
    ]


def _untranslated(summary: dict[str, Any], ctx: CommentContext, short: Shortening) -> dict[str, Any]:
    """Per language, the source pages with examples and no page in it: informational, never a
    failure, so collapsed; counted as the table counts them, a page once per language."""
    items = []
    for code, missing in sorted(summary.get("untranslated_by_language", {}).items()):
        pages = _pages(missing["pages"], missing["count"])
        items.append(f"- {code_span(code)} ({plain(ctx.language_name(code))}): {pages}")
    section = _section("Untranslated pages", items, [], short)
    return {
        **section,
        # with two languages the pages are counted in the table but not listed here
        "count": summary.get("untranslated", 0) if items else 0,
        "collapsed": True,
        "summary": counted(len(items), "language"),
    }


def _without_source(summary: dict[str, Any], short: Shortening) -> dict[str, Any]:
    """Translation pages with examples and no source page: a kind of their own, never counted as
    untranslated (nothing is missing in a language; the source is)."""
    orphans = summary.get("without_source", [])
    section = _section("Translation pages with no source page", [f"- {code_span(p)}" for p in orphans], [], short)
    return {**section, "summary": counted(len(orphans), "page")}


def _pages(pages: Sequence[str], count: int) -> str:
    return f"{counted(count, 'page')}: {en.some_pages(pages, count, code_span)}"


def _reasons_section(verdict: Verdict, freshness: Report, short: Shortening) -> dict[str, Any]:
    """Every reason, when the headline had room for only the first few; the moves across
    files (one reason per renamed file) folded into one line, as the Moved section groups them."""
    if verdict.fresh or len(verdict.reasons) <= HEADLINE_REASONS:
        return _section("Why the manifest is stale", [], [], short)
    renames = set(move_reasons(freshness.moved))
    moves = [r for r in verdict.reasons if r in renames]
    items = [f"- {plain(r)}" for r in verdict.reasons if r not in renames]
    if moves:
        n = sum(1 for c in freshness.moved if c.before.file != c.after.file)
        m = en.moves(freshness)
        renames = counted(len(m.renames), "rename")
        items.append(f"- {counted(n, 'snippet')} moved to other files ({renames}, listed under *Moved*)")
    return _section("Why the manifest is stale", items, [], short)


def _moved(listed: Report) -> dict[str, Any] | None:
    m = en.moves(listed)
    if not m.total:
        return None
    return {"count": m.total, "renames": len(m.renames), "shifted": len(m.shifted), "entries": ci.moves(m)}


def _desync_section(freshness: Report, ctx: CommentContext, short: Shortening) -> dict[str, Any]:
    changes = ctx.changes
    new_keys = (
        {tuple(x.key for x in d.sides) for d in changes.desynchronized if d.new} if changes is not None else set()
    )
    edited = en.edits(changes if changes is not None else freshness)
    in_change = changes is not None and not ctx.base_missing  # else no change to say a side was edited in

    def entry(n: int, group: Sequence[Desync]) -> str:
        if len(group) > 1:
            from docsnippets.report.groupitems import group_entry

            return group_entry(
                group,
                ctx.links,
                ctx.language_name,
                new_keys=new_keys,
                edited=edited,
                with_diff=short.shown(n),
                in_change=in_change,
            )
        d = group[0]
        new = tuple(x.key for x in d.sides) in new_keys
        return ci.desync(d, ctx.links, new, edited, short.shown(n), in_change, _sides(d, ctx))

    groups = en.desync_groups(freshness.desynchronized)
    translated = any(d.language is not None for d in freshness.desynchronized)
    title = "Translations out of sync" if translated else "Desynchronized bilingual examples"
    section = _section(title, _shown(groups, short, entry), [], short, len(groups))
    return {**section, "count": len(freshness.desynchronized)}


def _sides(d: Desync, ctx: CommentContext) -> tuple[str, str]:
    """The two sides' language names: English and Chinese unless the languages are configured."""
    if d.language is None:
        return ci.SIDES
    return ctx.language_name(d.source_language), ctx.language_name(d.language)


def _debt_sections(freshness: Report, ctx: CommentContext, short: Shortening) -> list[dict[str, Any]]:
    """What the base already held (judge/debts.py): listed as found, with no side said to be
    edited and nothing asked, since the PR did not make it so."""
    pairs = [
        ci.desync(d, ctx.links, False, {}, short.shown(n), False, _sides(d, ctx))
        for n, d in enumerate(freshness.desync_debts)
    ]
    broken = [ci.broken(sid, b, ctx.links) for sid, b in freshness.reference_debts]
    return [
        _section("Already out of sync before this PR", pairs, [], short),
        _section("Already broken before this PR", broken, [], short),
    ]


def _lost_items(freshness: Report, ctx: CommentContext) -> list[str]:
    """Both pages of each lost pair, what happened to the one that went, how many examples it cost."""
    out = []
    for x in all_lost(freshness, ctx.changes):
        went = f"renamed to {code_span(x.moved_to)}" if x.moved_to else "deleted"
        n = counted(x.pairs, "example" if x.languages else "bilingual example")
        out.append(f"- {code_span(x.kept)} lost its counterpart {code_span(x.gone)} ({went}): {n} no longer paired")
    return out
