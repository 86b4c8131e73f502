"""Each entry of the comment as finished, escaped Markdown (list items, tables, collapsed blocks).

A collapsed block inside a list item is indented to the item's content, so the list goes on
after it: at column 0 it would end the list and make every entry a list of its own. The
``<summary>`` of a block is raw HTML to GitHub, so it only ever holds our own words.
"""

from __future__ import annotations

import re
from collections.abc import Sequence

from docsnippets.judge.compare import Change, Desync
from docsnippets.references.findings import IMPORT_KINDS, BrokenReference
from docsnippets.report import entries as en
from docsnippets.report.codediff import change_diff, code_diff
from docsnippets.report.context import Links
from docsnippets.report.markup import (
    code_span,
    details,
    fenced,
    line_location,
    lines_word,
    linkable,
    location,
    plain,
    span,
    summary_words,
    visible_block,
)
from docsnippets.report.resync import Offer, patch_every
from docsnippets.snippets.records import Snippet
from docsnippets.words import counted

STATES = {
    "identical": "counterpart identical",
    "same-code": "counterpart has the same code",
    "translated": "counterpart has the same code, its strings translated",
    "differs": "counterpart differs (see *Desynchronized*)",
}


def indent(block: str) -> str:
    """A block moved into a list item (two spaces), blank lines left blank."""
    return "\n".join("  " + line if line else "" for line in block.split("\n"))


def collapsed(summary: str, body: str) -> str:
    """A collapsed block inside a list item, after a blank line."""
    return "\n\n" + indent(details(summary, body))


def ended(entry: str) -> str:
    """An entry that ends in a collapsed block gets a blank line after it: that ends the HTML
    block, so the next entry is a list item again and not raw HTML."""
    return entry + "\n" if entry.endswith("</details>") else entry


def _both(item: en.Item) -> str:
    """``both`` for twins, ``all 12`` for a source example and its translations."""
    return "both" if len(item.after) == 2 else f"all {len(item.after)}"


def _lines(s: Snippet) -> str:
    return span(s.code_lines)


def _where(item: en.Item, links: Links | None) -> str:
    """One location, or the twins' shared path once with a link to each one's lines."""
    if not item.twins:
        return location(item.after[0], links)
    name = code_span(en.braced([s.file for s in item.after]))
    parts = [f"[{_lines(s)}]({links.lines(s)})" if links and linkable(s.file) else _lines(s) for s in item.after]
    one = all(s.code_lines[0] == s.code_lines[1] for s in item.after)
    listed = " and ".join(parts) if len(parts) < 3 else ", ".join(parts[:-1]) + f" and {parts[-1]}"
    return f"{name} {'line' if one and len(parts) == 1 else 'lines'} {listed}"


def _was(before: Snippet | None, after: Snippet) -> str:
    if before is None or (before.file == after.file and before.code_lines == after.code_lines):
        return ""
    if before.file == after.file:
        return f" (was {lines_word(before.code_lines)})"
    return f" (was {location(before, None)})"


def _diff(before: Snippet, after: Snippet, summary: str) -> str:
    return collapsed(summary, fenced(visible_block(change_diff(before.body, after.body)), "diff"))


def changed(item: en.Item, links: Links | None, with_diff: bool) -> str:
    after, before = item.after, item.before
    was = "" if item.twins else _was(before[0], after[0])
    line = f"- {_where(item, links)}{was} · {code_span(after[0].status)}"
    if item.twins:
        line += (
            f" · the same change in {_both(item)}"
            if item.same
            else f" · changed differently ({_both(item)} diffs below)"
        )
    if not with_diff:
        return line
    if item.same:
        return ended(line + _diff(before[0], after[0], "What changed" + (f" (in {_both(item)})" if item.twins else "")))
    n = len(after)
    pairs = enumerate(zip(before, after, strict=True))
    return ended(line + "".join(_diff(b, a, f"What changed ({k + 1} of {n})") for k, (b, a) in pairs if b))


def added(item: en.Item, links: Links | None, with_code: bool) -> str:
    s = item.after[0]
    line = f"- {_where(item, links)} · {code_span(s.status)}"
    if item.twins:
        n = len(item.after)
        line += " · added in both languages" if n == 2 else f" · added in {n} languages"
        line += ", same code" if item.same else ", different code"
        line += ", strings translated" if item.state == "translated" else ""
    elif item.state == "missing":
        line += f" · no {item.other_language or 'translated'} counterpart yet"
    elif item.state:
        line += f" · {STATES[item.state]}"
    if not with_code:
        return line
    shown = item.after[:1] if item.same else item.after
    n = len(shown)
    return ended(
        line
        + "".join(
            collapsed("The code" + (f" ({k + 1} of {n})" if n > 1 else ""), fenced(visible_block(x.body)))
            for k, x in enumerate(shown)
        )
    )


def removed(item: en.Item) -> str:
    if item.twins:
        return f"- {_where(item, None)} · removed from {_both(item)}"
    return f"- {location(item.after[0], None)}"


SIDES = ("English", "Chinese")
NO_DIFF = "(the code lines are the same once comments are left out; the tokens differ in layout only)\n"


def _sides_said(touched: tuple[int, ...], side: tuple[str, str]) -> str:
    if len(touched) == 2:
        return "this PR edited both sides, differently"
    if not touched:
        return "neither side was edited in this PR"
    return f"this PR edited the {side[touched[0]]} side, not the {side[1 - touched[0]]} one"


def desync(
    d: Desync,
    links: Links | None,
    new: bool,
    edited: dict[en.Key, Change | None],
    with_diff: bool,
    in_change: bool = True,
    side: tuple[str, str] = SIDES,
) -> str:
    """One out-of-sync pair; ``in_change``: there is a change (a PR, a diff against a base with
    a manifest) to say which side it edited; ``side``: the two sides' language names."""
    tag = " · new in this PR" if new else ""
    if d.relation == "missing" or len(d.sides) != 2:
        where = code_span(d.counterpart_file or "?")
        return f"- {location(d.sides[0], links)}: no matching example in {where}{tag}"
    touched = en.edited_side(d, edited)
    said = f"; {plain(_sides_said(touched, side))}" if in_change else ""
    line = f"- {' ↔ '.join(location(s, links) for s in d.sides)}: the code differs{tag}{said}"
    if not with_diff:
        return line
    en_side, zh_side = d.sides
    text = code_diff(en_side.body, zh_side.body, en_side.file, zh_side.file)
    text = text or NO_DIFF
    summary = summary_words(f"{side[0]} vs {side[1]} code without comments or docstrings")
    line += collapsed(summary, fenced(visible_block(text), "diff"))
    if len(touched) != 1:
        return ended(line)
    # One translation edited alone: the source and every other translation still lacking the
    # edit take the same patch, so following it leaves no language behind.
    behind = [(code, s) for code, s in d.others if s.key not in edited] if touched == (1,) else []
    codes = ", ".join(code for code, _ in behind)
    which = f"{side[1 - touched[0]]} side" + (f" and {codes}" if codes else "")
    offer = _patch(d, touched[0], [d.sides[1 - touched[0]], *(s for _, s in behind)], edited)
    if offer.text is not None:
        summary = f"Patch that brings the {summary_words(which)} in line (git apply)"
        line += collapsed(summary, fenced(offer.text, "diff"))
    elif offer.why is not None:
        line += f"\n\n  No patch for the {plain(which)}: {plain(offer.why)}; edit its code by hand."
    return ended(line)


def _patch(d: Desync, edited_side: int, targets: Sequence[Snippet], edited: dict[en.Key, Change | None]) -> Offer:
    """The patch for ``targets`` that carries over the edit of ``edited_side`` (none when that
    side was not edited in this change)."""
    change = edited.get(d.sides[edited_side].key)
    if change is None:
        return Offer()
    return patch_every(change.before, change.after, targets)


def broken(sid: str, b: BrokenReference, links: Links | None) -> str:
    """A broken import, or a call into the code that would fail: where it is (linked to the
    line), what is wrong, which snippet."""
    if b.kind in IMPORT_KINDS:
        what = code_span(b.module if b.name is None else f"from {b.module} import {b.name}")
        reason = plain(b.reason)
    else:
        what = f"{b.kind} {code_span(b.name or b.module)}"
        reason = _quoted(b.reason)
    return f"- {line_location(b.file, b.line, links)} {what}: {reason} (snippet {code_span(sid)})"


def _quoted(reason: str) -> str:
    """A call finding's reason, whose backquoted parts (names, ``await``) become code spans;
    an odd part count (a backtick from the code itself) leaves the whole reason plain text."""
    parts = reason.split("`")
    if len(parts) % 2 == 0:
        return plain(reason)
    return "".join(code_span(p) if i % 2 else _with_places(p) for i, p in enumerate(parts))


def _with_places(text: str) -> str:
    """Plain text whose ``(path:line)`` places become code spans inside their parentheses."""
    pieces = _PLACE.split(text)
    return "".join(f"({code_span(p)})" if i % 2 else plain(p) for i, p in enumerate(pieces))


_PLACE = re.compile(r"\(([^()\s`]+:\d+)\)")


def file_table(snippets: Sequence[Snippet]) -> str:
    rows = [f"| {code_span(f, in_table=True)} | {n} |" for f, n in en.per_file(snippets)]
    return "\n".join(["| file | snippets |", "| --- | ---: |", *rows])


def moves(m: en.Moves) -> list[str]:
    out = [
        f"- {code_span(old)} → {code_span(new)}: {counted(n, 'snippet')} in {counted(k, 'file')}"
        for old, new, n, k in m.renames
    ]
    out += [f"- {code_span(f)}: {counted(n, 'snippet')} on other lines" for f, n in m.shifted]
    return out
