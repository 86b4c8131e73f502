"""The patch that gives an untouched translation the change its counterpart got in this PR.

Offered only when it provably works: the untouched side must hold every line the change
replaced, unaltered, and once patched its code (comments left out) must equal the changed
side's. The patch is cut from the snippet's own lines, which are the file's lines from
``code_lines[0]`` on, so ``git apply`` finds them where the manifest says they are.
"""

from __future__ import annotations

import difflib
import re

from docsnippets.report.codediff import code_lines, hunks
from docsnippets.report.markup import visible_block
from docsnippets.snippets.records import Snippet

Lines = list[str]
# A name git writes without quoting, and that reads the same in the comment as in the file.
_PLAIN_PATH = re.compile(r"[A-Za-z0-9_.+@][A-Za-z0-9_./+@-]*")


def _positions(a: Lines, y: Lines) -> dict[int, int]:
    """Line i of ``a`` -> the line of ``y`` it is, for the lines the two have in common."""
    out: dict[int, int] = {}
    for block in difflib.SequenceMatcher(None, a, y, autojunk=False).get_matching_blocks():
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


def applied(before: str, after: str, other: str) -> str | None:
    """``other`` with the edit ``before`` -> ``after`` made to it, or None when it does not fit."""
    a, b, y = before.splitlines(keepends=True), after.splitlines(keepends=True), other.splitlines(keepends=True)
    pos = _positions(a, y)
    out = list(y)
    ops = [op for op in difflib.SequenceMatcher(None, a, b, autojunk=False).get_opcodes() if op[0] != "equal"]
    for _, i1, i2, j1, j2 in reversed(ops):
        where = _where(pos, i1, i2)
        if where is None:
            return None
        out[where[0] : where[1]] = b[j1:j2]
    return "".join(out)


def patch(before: Snippet, after: Snippet, other: Snippet) -> str | None:
    """A ``git apply`` patch for ``other``'s file, or None when none brings it in line."""
    if not other.body.endswith("\n") or not _PLAIN_PATH.fullmatch(other.file):
        return None
    fixed = applied(before.body, after.body, other.body)
    if fixed is None or fixed == other.body or code_lines(fixed) != code_lines(after.body):
        return None
    offset = other.code_lines[0] - 1
    body = hunks(other.body.splitlines(keepends=True), fixed.splitlines(keepends=True), 3, offset=offset, trim=False)
    # git anchors a hunk without trailing context to the end of the file; the fence follows
    # the snippet, so such a hunk would not apply, and none is offered.
    if not body or not body[-1].startswith(" "):
        return None
    text = "".join([f"--- a/{other.file}\n", f"+++ b/{other.file}\n", *body])
    return text if visible_block(text) == text else None
