"""A source example and every translation out of step with it, as one entry of the comment.

Under the translations setting a change to one English example can leave a dozen translations
behind. Listed pair by pair, that is a dozen copies of one diff; here it is one entry: the
source example, each translation with its link and what happened to it, then one diff per
distinct translated variant (translations that show the same code share it) and one patch per
variant. Every string is finished, escaped Markdown, as in items.py.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from docsnippets.judge.compare import Change, Desync
from docsnippets.report import entries as en
from docsnippets.report.codediff import change_diff, code_diff, code_lines
from docsnippets.report.context import Links
from docsnippets.report.items import NO_DIFF, collapsed, ended
from docsnippets.report.markup import code_span, fenced, location, plain, summary_words, visible_block
from docsnippets.report.resync import patch_every

Name = Callable[[str | None], str]
LEFT_BEHIND = "still shows the old code"


def state(d: Desync, edited: dict[en.Key, Change | None], in_change: bool) -> str:
    """What happened to one translation of the example, as plain words."""
    if len(d.sides) != 2:
        return f"has no matching example in {d.counterpart_file or '?'}"
    if not in_change:
        return "the code differs"
    touched = en.edited_side(d, edited)
    if touched == (0,):
        return LEFT_BEHIND
    if touched == (1,):
        return "edited in this PR, the source example not"
    return "both edited in this PR, differently" if touched else "the code differs; neither was edited in this PR"


def variants(group: Sequence[Desync]) -> list[list[Desync]]:
    """The diverged translations grouped by their code (comments and layout aside), in order."""
    out: dict[tuple[str, ...], list[Desync]] = {}
    for d in group:
        if len(d.sides) == 2:
            out.setdefault(tuple(code_lines(d.sides[1].body)), []).append(d)
    return list(out.values())


def group_entry(
    group: Sequence[Desync],
    links: Links | None,
    name: Name,
    *,
    new_keys: set[tuple[en.Key, ...]],
    edited: dict[en.Key, Change | None],
    with_diff: bool,
    in_change: bool,
) -> str:
    source = group[0].sides[0]
    said = [state(d, edited, in_change) for d in group]
    behind = all(s == LEFT_BEHIND for s in said)
    edit = " · edited in this PR" if in_change and source.key in edited else ""
    verb = "still show the old code" if behind else "are out of step with it"
    codes = ", ".join(code_span(d.language or "?") for d in group)
    language = name(group[0].source_language)
    text = (
        f"- the {plain(language)} example at {location(source, links)}{edit}: {len(group)} translations {verb}: {codes}"
    )
    for d, words in zip(group, said, strict=True):
        where = f" {location(d.sides[1], links)}" if len(d.sides) == 2 else ""
        how = "" if behind else f": {plain(words)}"
        tag = " · new in this PR" if tuple(x.key for x in d.sides) in new_keys else ""
        text += f"\n  - {code_span(d.language or '?')}{where}{how}{tag}"
    if not with_diff:
        return text
    change = edited.get(source.key)
    if change is not None:
        text += collapsed(f"What changed in {summary_words(language)}", fenced(visible_block(_changed(change)), "diff"))
    left_behind = {id(d) for d, words in zip(group, said, strict=True) if words == LEFT_BEHIND}
    for variant in variants(group):
        left = all(id(d) in left_behind for d in variant)
        text += _variant(variant, name, change if left else None)
    return ended(text)


def _changed(change: Change) -> str:
    return change_diff(change.before.body, change.after.body)


def _variant(variant: Sequence[Desync], name: Name, change: Change | None) -> str:
    """One diff for the translations that share this code, and one patch for all their pages."""
    source, first = variant[0].sides
    codes = ", ".join(d.language or "?" for d in variant)
    label = codes if len(variant) == 1 else f"{codes} ({len(variant)} translations with this code)"
    diff = code_diff(source.body, first.body, source.file, first.file) or NO_DIFF
    summary = summary_words(f"{name(variant[0].source_language)} vs {label}: the code without comments or docstrings")
    out = collapsed(summary, fenced(visible_block(diff), "diff"))
    if change is None:
        return out
    offer = patch_every(change.before, change.after, [d.sides[1] for d in variant])
    if offer.text is not None:
        return out + collapsed(
            f"Patch that brings {summary_words(codes)} in line (git apply)", fenced(offer.text, "diff")
        )
    if offer.why is not None:
        which = codes if len(variant) == 1 else f"every one of {codes}"
        out += f"\n\n  No patch for {plain(which)}: {plain(offer.why)}; edit the code by hand."
    return out
