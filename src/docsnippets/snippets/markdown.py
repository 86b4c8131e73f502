"""markdown-it's block parser as extraction uses it: its own answers, in time and memory linear
in the page (pure).

markdown-it decides where a fence is, and three of its habits make a hostile page costly:

* the thematic break rule reads its line to the end, and a line of list markers
  (``- - - ... x``) is read again at every level of the lists it opens;
* the reference rule gathers a definition's lines by appending each to the text read so
  far, so a title left open over a whole page (``[a]: /u '`` then thousands of lines) is
  copied once per line: quadratic;
* every block becomes a token held to the end of the parse, a few hundred bytes each, and a
  line of nested list markers makes a dozen: were all kept, a 5 MiB page's would take gigabytes.

So the break rule is asked only of lines that can be one, the reference rule sees at most
:data:`REFERENCE_LINES` lines from where it starts (a definition longer than that is read as
the paragraph it would otherwise be: where fences are does not change, since the lines that
end a definition end a paragraph too), and only the tokens extraction reads are kept; the
others are replaced by one shared placeholder as they come, so markdown-it's own look back
over a list's tokens still finds them where it expects. The work is checked against the
run's CPU bound as the tokens come (work.py), so one page cannot run past it unseen.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import TYPE_CHECKING

from docsnippets import work

if TYPE_CHECKING:  # markdown-it is imported when a file is parsed: a cached run never needs it
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import StateBlock
    from markdown_it.token import Token

# Lists and blockquotes deeper than this many token levels (a list takes two, a quote one):
# markdown-it stops there, and extraction refuses a page whose fence could be below it.
MAX_NESTING = 200
# The lines a link reference definition may span, from its first (labels are at most 999
# characters, titles a line or two in any page a person writes).
REFERENCE_LINES = 100
# The tokens extraction reads; a container opened at the nesting limit is kept too.
KEPT = frozenset({"fence", "blockquote_open", "blockquote_close"})

_RuleFn = Callable[["StateBlock", int, int, bool], bool]


@lru_cache(maxsize=1)
def parser() -> MarkdownIt:
    """markdown-it's CommonMark block parser with the two rules above bounded."""
    from markdown_it import MarkdownIt
    from markdown_it.rules_block import hr, reference

    # Only block structure matters: inline parsing is skipped, which also makes it cheaper.
    md = MarkdownIt("commonmark", {"maxNesting": MAX_NESTING})
    md.disable(["inline", "text_join"], ignoreInvalid=True)
    # Replaced in place, ending the same rule chains (a break ends a paragraph, a list...).
    for name, rule, wrapped in (("hr", hr, _ruled_lines_only(hr)), ("reference", reference, _within_lines(reference))):
        ends = [c for c in ("paragraph", "reference", "blockquote", "list") if rule in md.block.ruler.getRules(c)]
        md.block.ruler.at(name, wrapped, {"alt": ends})
    return md


def block_tokens(text: str) -> list[Token]:
    """The tokens of ``text`` that extraction reads (:data:`KEPT`, and the containers opened
    at the nesting limit), in document order, as markdown-it gives them."""
    from markdown_it.rules_core import StateCore

    md = parser()
    state = StateCore(text, md, {})
    kept = _Kept()
    state.tokens = kept  # type: ignore[assignment]
    md.core.process(state)
    return kept.tokens()


class _Kept:
    """The token list markdown-it fills, as far as its rules use one (append, length, index):
    a token extraction never reads is let go as soon as its rule is done with it, and its
    place answers with one shared placeholder."""

    placeholder: Token | None = None

    def __init__(self) -> None:
        if _Kept.placeholder is None:
            from markdown_it.token import Token

            _Kept.placeholder = Token("", "", 0, level=-1)
            _QUOTES.update({kind: Token(kind, "blockquote", nesting) for kind, nesting in _QUOTE_KINDS})
        self._count = 0
        self._kept: dict[int, Token] = {}

    def append(self, token: Token) -> None:
        if token.nesting == 1 and token.level >= MAX_NESTING - 1:
            self._kept[self._count] = token  # its map says what the limit cut off
        elif token.type in KEPT:
            # Of a quote, extraction reads only that it opens or closes: one token stands for all.
            self._kept[self._count] = _QUOTES.get(token.type) or token
        self._count += 1
        if self._count % work.CHECK_EVERY == 0:
            work.check()

    def __len__(self) -> int:
        return self._count

    def __getitem__(self, index: int) -> Token | None:
        return self._kept.get(index, _Kept.placeholder)

    def tokens(self) -> list[Token]:
        return list(self._kept.values())


_QUOTES: dict[str, Token] = {}
_QUOTE_KINDS = (("blockquote_open", 1), ("blockquote_close", -1))


def _ruled_lines_only(rule: _RuleFn) -> _RuleFn:
    """markdown-it's thematic break rule, asked only of lines that can be one.

    A break is made of one marker character, spaces and tabs, so where the rest of the line
    holds another character the answer is no without asking the rule (which would read the
    line character by character, once per list level): where the last such character of a
    line stands is found once per line and marker.
    """

    def ruled(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        pos = state.bMarks[start] + state.tShift[start]
        marker = state.src[pos : pos + 1]
        if marker not in ("*", "-", "_"):
            return False
        line_end = state.eMarks[start]
        if line_end - pos <= _SHORT_LINE:  # it nests few levels: reading it again costs little
            last = pos + len(state.src[pos:line_end].rstrip(marker + " \t")) - 1
        else:
            known = state.env.setdefault(_OTHER_CHARACTER, {})
            found = known.get((line_end, marker))
            if found is None or found[0] > pos:  # read from here to the end of the line
                rest = state.src[pos:line_end].rstrip(marker + " \t")
                found = known[(line_end, marker)] = (pos, pos + len(rest) - 1)
            last = found[1]
        if last > pos:
            return False  # another character follows the marker on this line
        return rule(state, start, end, silent)

    return ruled


_OTHER_CHARACTER = "docsnippets.hr"  # per parse: (line end, marker) -> (read from, last other character)
_SHORT_LINE = 80  # characters: a line this short nests few levels, and is not remembered


def _within_lines(rule: _RuleFn) -> _RuleFn:
    """markdown-it's reference rule, shown at most :data:`REFERENCE_LINES` lines: the rule
    reads no line past ``state.lineMax``, which is restored before anything else reads it."""

    def bounded(state: StateBlock, start: int, end: int, silent: bool) -> bool:
        last = state.lineMax
        state.lineMax = min(last, start + REFERENCE_LINES)
        try:
            return rule(state, start, end, silent)
        finally:
            state.lineMax = last

    return bounded
