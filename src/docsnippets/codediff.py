"""The difference between two translations of one example, with comments and docstrings left out.

A translated comment changes every line it is on; diffing the bodies as they are would bury
a changed argument among lines that differ only in language. The code is tokenized, never run.
"""

from __future__ import annotations

import difflib
import tokenize

from .classify import dedent, tokens

_LAYOUT = frozenset({tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT, tokenize.COMMENT})
_STATEMENT_START = frozenset({tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})

Span = tuple[tuple[int, int], tuple[int, int]]


def _docstring_at(toks: list[tokenize.TokenInfo], i: int, prev: int) -> bool:
    """A string that is a whole statement of its own (a docstring or a bare string)."""
    if toks[i].type != tokenize.STRING or prev not in _STATEMENT_START:
        return False
    j = i + 1
    while j < len(toks) and toks[j].type in (tokenize.COMMENT, tokenize.NL):
        j += 1
    return j >= len(toks) or toks[j].type in (tokenize.NEWLINE, tokenize.DEDENT, tokenize.ENDMARKER)


def _spans(source: str) -> list[Span]:
    out: list[Span] = []
    toks = tokens(source)
    prev = tokenize.NEWLINE
    for i, tok in enumerate(toks):
        if tok.type == tokenize.COMMENT or _docstring_at(toks, i, prev):
            out.append((tok.start, tok.end))
        if tok.type not in _LAYOUT or tok.type in _STATEMENT_START:
            prev = tok.type
    return out


def _cut(lines: list[str], span: Span) -> None:
    (r1, c1), (r2, c2) = span
    if r1 == r2:
        lines[r1 - 1] = lines[r1 - 1][:c1] + lines[r1 - 1][c2:]
        return
    lines[r1 - 1] = lines[r1 - 1][:c1] + lines[r2 - 1][c2:]
    for r in range(r1, r2):
        lines[r] = ""


def code_lines(body: str) -> list[str]:
    """The body's lines without comments and docstrings; lines left empty are dropped."""
    source = dedent(body)
    lines = source.split("\n")
    for span in sorted(_spans(source), reverse=True):
        _cut(lines, span)
    return [line.rstrip() for line in lines if line.strip()]


def unified(before: list[str], after: list[str], before_name: str, after_name: str, context: int) -> str:
    """A unified diff of two lists of lines, every line of it ending in a newline."""
    diff = difflib.unified_diff(before, after, before_name, after_name, n=context)
    return "".join(line if line.endswith("\n") else line + "\n" for line in diff)


def body_diff(before: str, after: str, context: int = 1) -> str:
    """How one snippet's body changed, every line as it is."""
    return unified(before.splitlines(keepends=True), after.splitlines(keepends=True), "before", "after", context)


def code_diff(en: str, zh: str, en_name: str, zh_name: str) -> str:
    """A unified diff of the two bodies' code lines; empty when only comments differ."""
    return unified(
        [line + "\n" for line in code_lines(en)], [line + "\n" for line in code_lines(zh)], en_name, zh_name, 2
    )
