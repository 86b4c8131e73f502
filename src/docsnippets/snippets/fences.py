"""Markdown text -> fenced code blocks with raw bodies and exact line numbers.

markdown-it-py decides *where* a fence is (lists, blockquotes, unclosed fences and all
the CommonMark corner cases); the body is then cut from the raw source lines, because
the token's own ``content`` has list indentation removed and the catalogue keeps it.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docsnippets.snippets.digest import sha256
from docsnippets.snippets.markdown import MAX_NESTING, block_tokens

if TYPE_CHECKING:
    from markdown_it.token import Token

BOM = "\ufeff"
# A blockquote marker with whatever container indentation precedes it (a quote nested in a
# list item sits deeper than three spaces) and the one optional space after it.
_QUOTE_MARKER = re.compile(r"^[ \t]*> ?")


class NestingError(ValueError):
    """The document nests containers too deeply to be parsed faithfully."""


@dataclass(frozen=True)
class Fence:
    """One fenced code block as it stands in the file (1-based, inclusive lines)."""

    info: str
    fence_lines: tuple[int, int]
    code_lines: tuple[int, int]
    body: str
    closed: bool

    @property
    def language(self) -> str:
        """First word of the info string, lower-cased; '' when there is none."""
        words = self.info.split()
        return words[0].lower() if words else ""

    @property
    def body_sha256(self) -> str:
        return sha256_text(self.body)


def sha256_text(text: str) -> str:
    return sha256(text.encode("utf-8", "surrogatepass")).hexdigest()


def normalize(text: str) -> str:
    """Line endings and BOM as markdown-it sees them, so our line numbers agree with its map."""
    if text.startswith(BOM):
        text = text[1:]
    return text.replace("\r\n", "\n").replace("\r", "\n")


def _parse(text: str, lines: list[str]) -> list[Token]:
    try:
        tokens = block_tokens(text)
    except RecursionError:
        tokens = None
    # markdown-it skips, without a word, the content of a container that reaches maxNesting
    # (for a list item: possibly the rest of the document, as the item's map then shows). That
    # only matters when a fence could be in what was skipped.
    lost = tokens is None or any(
        t.nesting == 1
        and t.level >= MAX_NESTING - 1
        and t.map is not None
        and any("```" in line or "~~~" in line for line in lines[t.map[0] : t.map[1]])
        for t in tokens
    )
    if lost:
        raise NestingError(
            f"lists or blockquotes nested over {MAX_NESTING} levels deep around a code fence; skipped - "
            "flatten the nesting or exclude the file"
        )
    return tokens


def _content_line_count(content: str) -> int:
    if not content:
        return 0
    return content.count("\n") + (0 if content.endswith("\n") else 1)


def _strip_quote_markers(line: str, depth: int) -> str:
    for _ in range(depth):
        match = _QUOTE_MARKER.match(line)
        if match is None:
            break
        line = line[match.end() :]
    return line


def extract_fences(text: str) -> list[Fence]:
    """All fenced blocks of a Markdown document, in document order.

    ``text`` may still carry a BOM or CRLF; line numbers refer to lines split on LF
    after :func:`normalize`. Raises :class:`NestingError` rather than return a partial list
    when containers nest deeper than :data:`MAX_NESTING` where a fence might be.
    """
    text = normalize(text)
    lines = text.split("\n")
    fences: list[Fence] = []
    quote_depth = 0
    for token in _parse(text, lines):
        if token.type == "blockquote_open":
            quote_depth += 1
        elif token.type == "blockquote_close":
            quote_depth -= 1
        elif token.type == "fence" and token.map is not None:
            start, end = token.map
            n_content = _content_line_count(token.content)
            closed = end - start - 1 - n_content >= 1
            first = start + 1  # 0-based index of the first content line
            raw = [_strip_quote_markers(lines[i], quote_depth) for i in range(first, first + n_content)]
            body = "".join(line + "\n" for line in raw)
            open_no = start + 1
            close_no = open_no + n_content + 1 if closed else open_no + n_content
            code = (open_no + 1, open_no + n_content) if n_content else (open_no + 1, open_no)
            fences.append(
                Fence(
                    info=token.info.strip(),
                    fence_lines=(open_no, close_no),
                    code_lines=code,
                    body=body,
                    closed=closed,
                )
            )
    return fences
