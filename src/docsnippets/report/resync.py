"""The patch that gives an untouched translation the change its counterpart got in this PR.

Offered only when it provably works: the untouched side must hold every line the change
replaced, unaltered, and once patched its code (comments left out) must equal the changed
side's. The patch is cut from the snippet's own lines, which are the file's lines from
``code_lines[0]`` on, so ``git apply`` finds them where the manifest says they are.

A patch carries code only. Comments and docstrings are prose in one language: the lines it
brings over lose their comments, the lines it replaces keep the untouched side's own, and a
result holding any prose the untouched side did not already have is not offered. String
literals a translation may reword (:mod:`docsnippets.snippets.literals`) are prose too: lines
are matched with them set aside, a line brought over takes the untouched side's own wording
of each string the change kept (found on the lines the two sides share), and a change that
adds or rewords such a string gets no patch. When the change cannot be carried that way, the
reason is said instead of a patch.
"""

from __future__ import annotations

import re
import tokenize
from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass

from docsnippets.report.codediff import STRING_MARK, LineMatcher, code_lines, hunks, prose_spans, string_spans
from docsnippets.snippets.classify import dedent, tokens
from docsnippets.snippets.literals import translated_only
from docsnippets.snippets.records import Snippet
from docsnippets.visible import visible_block

Lines = list[str]
# A name git writes without quoting, and that reads the same in the comment as in the file.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_.+@][A-Za-z0-9_./+@-]*")


@dataclass(frozen=True)
class Offer:
    """A patch for the untouched side, or why none is offered (both None: nothing to patch)."""

    text: str | None = None
    why: str | None = None


class _NoPatch(Exception):
    """The change cannot be carried over exactly; the message says why, for the reader."""


@dataclass(frozen=True)
class _Prose:
    """Where a body's prose is, by line index: comment columns, docstring lines, and the texts;
    the column spans of the strings a translation may reword, and the lines of those that span lines."""

    comments: dict[int, int]
    docstrings: frozenset[int]
    texts: Counter[str]
    strings: dict[int, tuple[tuple[int, int], ...]]
    long_strings: frozenset[int]

    def strings_of(self, lines: Lines, i: int) -> list[str]:
        """The translatable strings on line ``i``, as written."""
        return [lines[i][c1:c2] for c1, c2 in self.strings.get(i, ())]


def _prose(body: str) -> _Prose:
    """The prose of ``body``, whose lines are ``body.splitlines(keepends=True)``."""
    source = dedent(body)
    toks = tokens(source)
    if not toks or toks[-1].type != tokenize.ENDMARKER:
        raise _NoPatch("the example does not tokenize as Python, so its comments cannot be told from its code")
    body_lines, source_lines = body.split("\n"), source.split("\n")
    if len(body_lines) != len(body.splitlines()) + (1 if body.endswith("\n") else 0):
        raise _NoPatch("the example has line breaks other than newlines")
    comments: dict[int, int] = {}
    docstrings: set[int] = set()
    texts: Counter[str] = Counter()

    def shift(row: int) -> int:
        return len(body_lines[row - 1]) - len(source_lines[row - 1])

    for (r1, c1), (r2, c2) in prose_spans(source):
        if r1 == r2 and source_lines[r1 - 1][c1 : c1 + 1] == "#":
            comments[r1 - 1] = c1 + shift(r1)
            texts[source_lines[r1 - 1][c1:c2]] += 1
        else:
            docstrings.update(range(r1 - 1, r2))
            rows = source_lines[r1 - 1 : r2]
            texts["\n".join([*rows[:-1], rows[-1][:c2]])[c1:]] += 1
    strings: dict[int, list[tuple[int, int]]] = {}
    long_strings: set[int] = set()
    for (r1, c1), (r2, c2) in string_spans(source):
        if r1 == r2:
            strings.setdefault(r1 - 1, []).append((c1 + shift(r1), c2 + shift(r1)))
        else:
            long_strings.update(range(r1 - 1, r2))
    spans = {i: tuple(found) for i, found in strings.items()}
    return _Prose(comments, frozenset(docstrings), texts, spans, frozenset(long_strings))


def _ending(line: str) -> str:
    return line[len(line.rstrip("\r\n")) :]


class _Wording:
    """The untouched side's own wording of the translatable strings the changed side had, read
    from the lines the two share; a string it words two ways has no one wording."""

    def __init__(self, a: Lines, prose_a: _Prose, y: Lines, prose_y: _Prose, pos: dict[int, int]) -> None:
        self.own: dict[str, str | None] = {}
        for i, k in pos.items():
            for text, theirs in zip(prose_a.strings_of(a, i), prose_y.strings_of(y, k), strict=False):
                self.own[text] = theirs if self.own.get(text, theirs) == theirs else None
        self.present = {t for k in prose_y.strings for t in prose_y.strings_of(y, k)}

    def __call__(self, text: str) -> str:
        if text in self.own:
            theirs = self.own[text]
            if theirs is None:
                raise _NoPatch("a string it brings over is worded two ways on the untouched side")
            return theirs
        if text in self.present:  # the very text the untouched side has: not one language's
            return text
        raise _NoPatch("the change adds or rewords text in a string, which each language writes in its own words")


def _code_of(lines: Lines, j1: int, j2: int, prose: _Prose, wording: _Wording) -> Lines:
    """Lines j1..j2 of the changed side as they go over: comments cut, comment-only lines left
    out, each translatable string in the untouched side's wording."""
    out: Lines = []
    for j in range(j1, j2):
        if j in prose.docstrings:
            raise _NoPatch("the change edits a docstring, which each language writes in its own words")
        if j in prose.long_strings:
            raise _NoPatch("the change edits a string of several lines, which each language writes in its own words")
        line, col = lines[j], prose.comments.get(j)
        if col is not None:
            if not (code := line[:col].rstrip()):
                continue
            line = code + _ending(line)
        for c1, c2 in reversed(prose.strings.get(j, ())):
            line = line[:c1] + wording(line[c1:c2]) + line[c2:]
        out.append(line)
    return out


def _keeping_own(y: Lines, w0: int, w1: int, new: Lines, prose: _Prose) -> Lines:
    """``new`` in place of y[w0:w1], with the comment the replaced line carried kept on it."""
    if not any(i in prose.comments or i in prose.docstrings for i in range(w0, w1)):
        return new
    if w1 - w0 == 1 and len(new) == 1 and w0 not in prose.docstrings:
        code = y[w0][: prose.comments[w0]].rstrip()
        if code:
            return [new[0].rstrip("\r\n") + y[w0][len(code) :]]
    raise _NoPatch("the lines it changes hold comments of the untouched side's own")


def _positions(a: Lines, y: Lines) -> dict[int, int]:
    """Line i of ``a`` -> the line of ``y`` it is, for the lines the two have in common."""
    out: dict[int, int] = {}
    for block in LineMatcher(a, y).get_matching_blocks():
        for n in range(block.size):
            out[block.a + n] = block.b + n
    return out


def _where(pos: dict[int, int], i1: int, i2: int) -> tuple[int, int] | None:
    """Where ``a[i1:i2]`` sits in ``y``; for an insertion (i1 == i2), the line it goes before."""
    if i1 < i2:
        found = [pos.get(i) for i in range(i1, i2)]
        start = found[0]
        if start is None or found != list(range(start, start + len(found))):
            return None
        return start, start + len(found)
    if i1 == 0:
        return 0, 0
    before = pos.get(i1 - 1)
    return None if before is None else (before + 1, before + 1)


def _keys(lines: Lines, prose: _Prose) -> Lines:
    """Each line as the two languages share it: its code with each translatable string as
    ``"…"``, a comment-only line as a bare ``#``."""
    out: Lines = []
    for i, line in enumerate(lines):
        col = prose.comments.get(i)
        key = line.rstrip("\r\n") if col is None else (line[:col].rstrip() or "#")
        for c1, c2 in reversed(prose.strings.get(i, ())):
            key = key[:c1] + STRING_MARK + key[c2:]
        out.append(key)
    return out


def _prose_only(keys: Lines) -> bool:
    return all(not k.strip() or k == "#" for k in keys)


def applied(before: str, after: str, other: str) -> str:
    """``other`` with the code of the edit ``before`` -> ``after`` made to it. Lines are matched
    by their code, so a line whose comment each language words its own way still matches."""
    a, b, y = before.splitlines(keepends=True), after.splitlines(keepends=True), other.splitlines(keepends=True)
    prose_a, prose_b, prose_y = _prose(before), _prose(after), _prose(other)
    a_keys, b_keys = _keys(a, prose_a), _keys(b, prose_b)
    pos = _positions(a_keys, _keys(y, prose_y))
    wording = _Wording(a, prose_a, y, prose_y, pos)
    out = list(y)
    ops = [op for op in LineMatcher(a, b).get_opcodes() if op[0] != "equal"]
    for _, i1, i2, j1, j2 in reversed(ops):
        if a_keys[i1:i2] == b_keys[j1:j2]:
            continue  # a change of comments or translatable strings only: the untouched side keeps its own
        new = _code_of(b, j1, j2, prose_b, wording)
        if not new and _prose_only(a_keys[i1:i2]):
            continue  # a change of prose or blank lines only: the untouched side keeps its own
        where = _where(pos, i1, i2)
        if where is None:
            raise _NoPatch("the untouched side differs from the old code beyond this change")
        out[where[0] : where[1]] = _keeping_own(y, *where, new, prose_y)
    return "".join(out)


def _checked(before: Snippet, after: Snippet, other: Snippet) -> str | None:
    """The untouched side patched, proven to carry the code and no prose of the other language."""
    if not other.body.endswith("\n"):
        raise _NoPatch("the example's last line has no line break")
    if not _PLAIN_PATH.fullmatch(other.file):
        raise _NoPatch("its file name would need quoting in a patch")
    fixed = applied(before.body, after.body, other.body)
    if fixed == other.body:
        return None
    if code_lines(fixed) != code_lines(after.body) and not translated_only(after.body, fixed):
        raise _NoPatch("the change does not carry over line for line")
    mine, theirs = _prose(fixed), _prose(other.body)
    if mine.texts - theirs.texts or _strings(fixed, mine) - _strings(other.body, theirs):
        raise _NoPatch("it would bring over text of the other language")
    return fixed


def _strings(body: str, prose: _Prose) -> set[str]:
    lines = body.splitlines(keepends=True)
    return {t for i in prose.strings for t in prose.strings_of(lines, i)}


def patch(before: Snippet, after: Snippet, other: Snippet) -> Offer:
    """A ``git apply`` patch for ``other``'s file, or why none brings it in line."""
    try:
        fixed = _checked(before, after, other)
    except _NoPatch as refused:
        return Offer(why=str(refused))
    if fixed is None:
        return Offer()
    offset = other.code_lines[0] - 1
    body = hunks(other.body.splitlines(keepends=True), fixed.splitlines(keepends=True), 3, offset=offset, trim=False)
    # git anchors a hunk without trailing context to the end of the file; the fence follows
    # the snippet, so such a hunk would not apply.
    if not body or not body[-1].startswith(" "):
        return Offer(why="the change reaches the example's last line, where a patch cannot be anchored")
    text = "".join([f"--- a/{other.file}\n", f"+++ b/{other.file}\n", *body])
    if visible_block(text) != text:
        return Offer(why="the patch would hold characters the comment cannot show as they are")
    return Offer(text=text)


def patch_every(before: Snippet, after: Snippet, targets: Sequence[Snippet]) -> Offer:
    """One patch for every target, or none (with the first reason) when one of them has none: a
    patch that brings only some pages in line would leave the rest looking done."""
    offers = [patch(before, after, t) for t in targets]
    if all(o.text is not None for o in offers):
        return Offer(text="".join(o.text or "" for o in offers))
    return Offer(why=next((o.why for o in offers if o.why is not None), None))
