"""The difference between two translations of one example, with comments and docstrings left out.

A translated comment changes every line it is on; diffing the bodies as they are would bury
a changed argument among lines that differ only in language. The code is tokenized, never run.
"""

from __future__ import annotations

import difflib
import tokenize
from collections.abc import Hashable, Iterator, Sequence

from docsnippets.snippets import literals
from docsnippets.snippets.alignment import common_ends, matching_blocks
from docsnippets.snippets.blocks import LAYOUT, NOT_CODE
from docsnippets.snippets.classify import dedent, tokens

_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})

Span = tuple[tuple[int, int], tuple[int, int]]
STRING_MARK = '"…"'  # a string literal a translation may reword, where the languages' lines are compared
# Finding the lines two bodies share may look a line up this many times per line of both.
DIFF_STEPS = 20


class LineMatcher(difflib.SequenceMatcher):  # type: ignore[type-arg]
    """difflib's matcher of two line lists, its matching blocks found in bounded work.

    difflib looks each line of one side up among the other's, so a body of one line repeated
    throughout costs the square of its length. The blocks are difflib's own as long as they
    take at most :data:`DIFF_STEPS` lookups per line (alignment.matching_blocks); past that,
    the common head and tail of the two bodies are matched and the middle is one change.
    """

    def __init__(self, a: Sequence[Hashable], b: Sequence[Hashable]) -> None:
        super().__init__(None, a, b, autojunk=False)
        blocks = matching_blocks(a, b, DIFF_STEPS * (len(a) + len(b) + 1))
        self._blocks = [difflib.Match(*block) for block in (blocks or _ends(a, b))]

    def get_matching_blocks(self) -> list[difflib.Match]:
        return list(self._blocks)


def _ends(a: Sequence[Hashable], b: Sequence[Hashable]) -> list[tuple[int, int, int]]:
    """The common head and tail of ``a`` and ``b`` as matching blocks (with difflib's sentinel)."""
    head, tail = common_ends(a, b)
    found = [(0, 0, head)] if head else []
    if tail:
        found.append((len(a) - tail, len(b) - tail, tail))
    return [*found, (len(a), len(b), 0)]


def _docstring_at(toks: list[tokenize.TokenInfo], i: int, prev: int) -> bool:
    """A string that is a whole statement of its own (a docstring or a bare string)."""
    if toks[i].type != tokenize.STRING or prev not in _STATEMENT_START:
        return False
    j = i + 1
    while j < len(toks) and toks[j].type in (tokenize.COMMENT, tokenize.NL):
        j += 1
    return j >= len(toks) or toks[j].type in (tokenize.NEWLINE, tokenize.DEDENT, tokenize.ENDMARKER)


def _marked(toks: list[tokenize.TokenInfo]) -> Iterator[tuple[tokenize.TokenInfo, bool]]:
    """Each token, with whether it is (the string of) a docstring."""
    prev = tokenize.NEWLINE
    for i, tok in enumerate(toks):
        yield tok, _docstring_at(toks, i, prev)
        if tok.type not in LAYOUT or tok.type in _STATEMENT_START:
            prev = tok.type


def prose_spans(source: str) -> list[Span]:
    """Where the comments and docstrings are: the prose, which is written in one language."""
    return [(tok.start, tok.end) for tok, doc in _marked(tokens(source)) if doc or tok.type == tokenize.COMMENT]


def string_spans(source: str) -> list[Span]:
    """Where the string literals are that a translation may reword (rules 1 and 2 of
    :mod:`docsnippets.snippets.literals`); docstrings are prose already and not among them."""
    return literals.spans([t for t, doc in _marked(tokens(source)) if not doc and t.type not in NOT_CODE])


def _cut(lines: list[str], span: Span, put: str = "") -> None:
    (r1, c1), (r2, c2) = span
    if r1 == r2:
        lines[r1 - 1] = lines[r1 - 1][:c1] + put + lines[r1 - 1][c2:]
        return
    lines[r1 - 1] = lines[r1 - 1][:c1] + put + lines[r2 - 1][c2:]
    for r in range(r1, r2):
        lines[r] = ""


def code_lines(body: str) -> list[str]:
    """The body's lines without comments and docstrings; lines left empty are dropped."""
    source = dedent(body)
    lines = source.split("\n")
    for span in sorted(prose_spans(source), reverse=True):
        _cut(lines, span)
    return [line.rstrip() for line in lines if line.strip()]


def shared_lines(body: str) -> list[str]:
    """:func:`code_lines` with each string a translation may reword shown as ``"…"``: what the
    two languages' versions of one example have in common, line by line."""
    source = dedent(body)
    lines = source.split("\n")
    spans = [(span, "") for span in prose_spans(source)] + [(span, STRING_MARK) for span in string_spans(source)]
    for span, put in sorted(spans, reverse=True):
        _cut(lines, span, put)
    return [line.rstrip() for line in lines if line.strip()]


def unified(before: list[str], after: list[str], before_name: str, after_name: str, context: int) -> str:
    """A unified diff of two lists of lines, every line of it ending in a newline."""
    diff = difflib.unified_diff(before, after, before_name, after_name, n=context)
    return "".join(line if line.endswith("\n") else line + "\n" for line in diff)


def code_diff(en: str, zh: str, en_name: str, zh_name: str) -> str:
    """A unified diff of the two bodies' code lines; empty when only comments differ."""
    return unified(
        [line + "\n" for line in code_lines(en)], [line + "\n" for line in code_lines(zh)], en_name, zh_name, 2
    )


def _blank(line: str) -> bool:
    return not line.strip()


def _trimmed(group: list[tuple[str, int, int, int, int]], a: list[str]) -> list[tuple[str, int, int, int, int]]:
    """A hunk without the blank context lines at its edges: they show nothing and read as a change."""
    out = list(group)
    tag, i1, i2, j1, j2 = out[0]
    while tag == "equal" and i1 < i2 and _blank(a[i1]):
        i1, j1 = i1 + 1, j1 + 1
    out[0] = (tag, i1, i2, j1, j2)
    tag, i1, i2, j1, j2 = out[-1]
    while tag == "equal" and i1 < i2 and _blank(a[i2 - 1]):
        i2, j2 = i2 - 1, j2 - 1
    out[-1] = (tag, i1, i2, j1, j2)
    return [op for op in out if op[0] != "equal" or op[1] < op[2]]


def _range(start: int, length: int) -> str:
    first = start + 1 if length else start
    return f"{first}" if length == 1 else f"{first},{length}"


def hunks(a: list[str], b: list[str], context: int, *, offset: int = 0, trim: bool = True) -> list[str]:
    """Unified-diff hunks of two line lists (lines keep their newlines); ``trim`` leaves out
    blank edge context, ``offset`` is the line number before ``a[0]`` in its file."""
    out: list[str] = []
    for raw in LineMatcher(a, b).get_grouped_opcodes(context):
        group = _trimmed(raw, a) if trim else raw
        i1, i2, j1, j2 = group[0][1], group[-1][2], group[0][3], group[-1][4]
        out.append(f"@@ -{_range(i1 + offset, i2 - i1)} +{_range(j1 + offset, j2 - j1)} @@\n")
        for tag, k1, k2, m1, m2 in group:
            if tag == "equal":
                out += [" " + line for line in a[k1:k2]]
                continue
            out += ["-" + line for line in a[k1:k2]]
            out += ["+" + line for line in b[m1:m2]]
    return [line if line.endswith("\n") else line + "\n" for line in out]


def change_diff(before: str, after: str) -> str:
    """How one snippet's body changed, as a reviewer reads it."""
    body = hunks(before.splitlines(keepends=True), after.splitlines(keepends=True), 1)
    return "".join(["--- before\n", "+++ after\n", *body]) if body else ""


def changed_lines(before: str, after: str) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The lines a change removed and added, in order: two changes with equal ones are the same edit."""
    a, b = before.splitlines(), after.splitlines()
    removed: list[str] = []
    added: list[str] = []
    for tag, i1, i2, j1, j2 in LineMatcher(a, b).get_opcodes():
        if tag != "equal":
            removed += a[i1:i2]
            added += b[j1:j2]
    return tuple(removed), tuple(added)
