"""Which block each code token of a body is in, and where its statements end.

Python's layout is partly its syntax: indentation opens and closes blocks, and the end of a
logical line ends a statement. The same tokens with a line moved into or out of a block, or
read as one statement instead of two, are other code; the rest of the layout (spacing, blank
lines, comments, lines continued inside brackets) is not. A simple statement written on its
header's line (``if ready: go()``) is the first statement of that header's block, as it is on
the next line, indented: the two forms are one program and read alike here.

Only tokens are read (the tokenizer's INDENT, DEDENT and NEWLINE, brackets and keywords), so a
body that does not compile is read as far as its tokens go, like the rest of its comparable form.
"""

from __future__ import annotations

import tokenize
from collections.abc import Sequence

# The type of the item, with no text, that marks where a statement ends.
END = tokenize.NEWLINE
# The tokens that are layout, not code: comments, line ends and indentation.
LAYOUT = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE, tokenize.INDENT, tokenize.DEDENT})
NOT_CODE = LAYOUT | {tokenize.ENDMARKER}  # and the end of the input

# Keywords that start a compound statement, whose header ends at a colon outside brackets.
_HEADERS = frozenset(
    {"if", "elif", "else", "for", "while", "with", "try", "except", "finally", "def", "class", "async", "match", "case"}
)
# Soft keywords are names too (``match = re.match(...)``; ``case: int``): as a header they have
# a subject between them and the colon.
_SOFT = frozenset({"match", "case"})
_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")


class Statements:
    """Told a body's tokens in order, says each code token's block depth and where a statement
    starts: :meth:`layout` for INDENT, DEDENT and NEWLINE, :meth:`enter` then :meth:`code` for a
    kept token (comments and NL are never told)."""

    def __init__(self) -> None:
        self.blocks = 0  # opened by INDENT, closed by DEDENT
        self._inline = 0  # 1 after a header's colon, on the header's line
        self._length = 0  # code tokens of the logical line so far
        self._head: str | None = None  # the header's keyword, until its colon
        self._brackets = 0
        self._lambdas = 0  # lambdas outside brackets: the next colon is theirs, not the header's
        self._opened = False  # a header's colon was the last code token

    @property
    def depth(self) -> int:
        """The block depth of the next code token."""
        return self.blocks + self._inline

    def starts(self) -> bool:
        """Whether the next code token starts a statement."""
        return self._length == 0 or self._opened

    def layout(self, kind: int) -> None:
        if kind == tokenize.INDENT:
            self.blocks += 1
        elif kind == tokenize.DEDENT:
            self.blocks -= 1
        elif kind == tokenize.NEWLINE:
            self._inline = self._length = self._brackets = self._lambdas = 0
            self._head, self._opened = None, False

    def enter(self) -> bool:
        """Called before a code token is kept: True when it is a statement on its header's
        line, which starts the header's block (a statement ends before it)."""
        if not self._opened:
            return False
        self._opened, self._inline = False, 1
        return True

    def code(self, kind: int, text: str) -> None:
        """A kept code token."""
        if self._length == 0:
            self._head = text if kind == tokenize.NAME and text in _HEADERS else None
        self._length += 1
        if kind == tokenize.NAME and text == "lambda" and self._brackets == 0:
            self._lambdas += 1
        elif kind != tokenize.OP:
            return
        elif text in _OPEN:
            self._brackets += 1
        elif text in _CLOSE:
            self._brackets = max(0, self._brackets - 1)
        elif text == ":" and self._brackets == 0 and self._head is not None:
            self._colon()

    def _colon(self) -> None:
        if self._lambdas:
            self._lambdas -= 1
        elif not (self._head in _SOFT and self._length == 2):
            self._head, self._opened = None, True


Item = tuple[int, int, int, str]  # (row, block depth, type, text)


def items(toks: Sequence[tokenize.TokenInfo]) -> tuple[list[Item], int]:
    """The code tokens (not the ENDMARKER) with their block depth, docstrings left out, an
    ``END`` item where a statement ends; and the depth reached (where an unread rest is)."""
    out: list[Item] = []
    where = Statements()
    for i, tok in enumerate(toks):
        if tok.type in LAYOUT:
            if tok.type == tokenize.NEWLINE:
                _end(out, tok.start[0], where.depth)
            where.layout(tok.type)
            continue
        if tok.type == tokenize.STRING and where.starts() and _bare(toks, i):
            continue  # a bare string statement: a docstring
        if where.enter():
            _end(out, tok.start[0], where.depth - 1)
        out.append((tok.start[0], where.depth, tok.type, tok.string))
        where.code(tok.type, tok.string)
    return out, where.depth


def _bare(toks: Sequence[tokenize.TokenInfo], i: int) -> bool:
    """Whether the string at ``i``, which starts a statement, is all of it."""
    j = i + 1
    while j < len(toks) and toks[j].type in (tokenize.COMMENT, tokenize.NL):
        j += 1
    return j >= len(toks) or toks[j].type in (tokenize.NEWLINE, tokenize.DEDENT)


def _end(out: list[Item], row: int, depth: int) -> None:
    """Mark where a statement ends, once (a docstring's end, after the statement before, adds none)."""
    if out and out[-1][2] != END:
        out.append((row, depth, END, ""))
