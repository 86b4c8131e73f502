"""The one visible form of characters a reader cannot see, for every output docsnippets writes.

A file name, a snippet or a message from a pull request can hold characters that show as
nothing or rewrite what is shown: C0 and C1 controls (ESC starts a terminal escape sequence),
bidi controls (U+202E turns the rest of a line around), zero-width and other format
characters, line and paragraph separators, private-use, unassigned and surrogate code points,
and letters that render as blank space. Each is shown as ``\\u{XXXX}`` (its code point in hex,
at least four digits) wherever text leaves docsnippets: the log and annotations, the step
outputs, the job summary, the PR comment, the commit status, the terminal and the files it
renders. Text a reader can see (any script, emoji, ordinary spaces) stays as it is, and so
does one emoji or text presentation selector right after a symbol (``⚠️``), where it chooses how
the symbol looks; after a letter it changes nothing seen, and is shown.

Two outputs keep a form of their own, because their readers are programs: JSON (the report,
``--format json``, the manifest) writes each hidden character as JSON's own ``\\uXXXX`` escape,
so the data reads back exactly and nothing hidden is in the file; a workflow command escapes
``%``, CR, LF (and ``:`` and ``,`` in its properties) as the runner expects, after this form
was applied, so no CR or LF is left for it to escape.
"""

from __future__ import annotations

import re
import unicodedata
from typing import TextIO

# What cannot be seen, or can be mistaken for nothing or for something else: controls, format
# characters (bidi marks among them), private-use, unassigned and surrogate code points, line
# and paragraph separators.
_HIDDEN_CATEGORIES = frozenset({"Cc", "Cf", "Co", "Cn", "Cs", "Zl", "Zp"})
# Letters and marks that render as nothing or as blank space (default-ignorable code points
# outside those categories, the Braille blank), which can hide inside a name or an identifier.
_BLANK_LOOKING = (
    (0x034F, 0x034F),  # combining grapheme joiner
    (0x115F, 0x1160),  # Hangul fillers
    (0x17B4, 0x17B5),  # Khmer inherent vowels
    (0x180B, 0x180F),  # Mongolian free variation selectors
    (0x2800, 0x2800),  # Braille pattern blank
    (0x3164, 0x3164),  # Hangul filler
    (0xFE00, 0xFE0F),  # variation selectors
    (0xFFA0, 0xFFA0),  # halfwidth Hangul filler
    (0xE0000, 0xE0FFF),  # tags and variation selectors supplement
)
# Candidates only: printable ASCII never needs a look-up; in a block (a fenced code block, a
# report of many lines) tab and newline are the text's own layout.
_CANDIDATE = re.compile(r"[^\x20-\x7e]")
_BLOCK_CANDIDATE = re.compile(r"[^\t\n\x20-\x7e]")
_ESCAPE_START = "\\u{"
_PRESENTATION = "\ufe0e\ufe0f"
# What a presentation selector may style: a symbol (Unicode's Other Symbol category holds
# nearly every emoji), and the emoji of other categories (Unicode's emoji data names these).
_SYMBOL = "So"
_EMOJI_BEYOND_SYMBOLS = frozenset("‼⁉ℹ↔◻◼◽◾⤴⤵〰〽")


def hidden(char: str) -> bool:
    """Whether ``char`` would be invisible, or pass for blank space, where it is shown."""
    code = ord(char)
    return (
        code < 0x20
        or code == 0x7F
        or unicodedata.category(char) in _HIDDEN_CATEGORIES
        or any(low <= code <= high for low, high in _BLANK_LOOKING)
    )


def _presentation(match: re.Match[str]) -> bool:
    """A text or emoji presentation selector right after the symbol it styles (the ``⚠️`` of
    our own headlines): part of how that symbol is seen. One only, after a symbol; after a
    letter (``中\ufe0f``) it is invisible, so two names differing by it would look the same,
    and a run of selectors can spell hidden data: both are shown as any other."""
    start = match.start()
    if match.group() not in _PRESENTATION or start == 0:
        return False
    base = match.string[start - 1]
    return (unicodedata.category(base) == _SYMBOL or base in _EMOJI_BEYOND_SYMBOLS) and not hidden(base)


def _shown(match: re.Match[str]) -> str:
    char = match.group()
    return f"\\u{{{ord(char):04X}}}" if hidden(char) and not _presentation(match) else char


def visible(text: str, *, block: bool = False) -> str:
    """``text`` with every hidden character (see ``hidden``) shown as ``\\u{XXXX}``, so a name
    or a line cannot hide or reorder what it says. Idempotent: what it returns holds nothing
    hidden, so output guards may apply it again.

    In a ``block`` tabs and newlines are the text's own layout and stay.
    """
    return (_BLOCK_CANDIDATE if block else _CANDIDATE).sub(_shown, text)


def visible_block(text: str) -> str:
    """``visible`` for text of many lines: tabs and newlines stay."""
    return visible(text, block=True)


def quoted(value: object) -> str:
    """A value quoted in a message: a string as ``'text'``, visible, its own quotes and
    backslashes escaped so the quote ends where it seems to (``repr`` in the one visible
    form); anything else as its ``repr``, visible."""
    if not isinstance(value, str):
        return visible(repr(value))
    return "'" + visible(value.replace("\\", "\\\\").replace("'", "\\'")) + "'"


def clipped(text: str, limit: int) -> str:
    """``text`` (already visible) in at most ``limit`` characters, the last an ellipsis when
    cut, and never cut inside a ``\\u{XXXX}``."""
    if len(text) <= limit:
        return text
    cut = text[: limit - 1]
    start = cut.rfind(_ESCAPE_START)
    if start != -1 and "}" not in cut[start:]:
        cut = cut[:start]
    return cut + "\u2026"


def _json_escape(match: re.Match[str]) -> str:
    char = match.group()
    if not hidden(char):
        return char
    code = ord(char)
    if code <= 0xFFFF:
        return f"\\u{code:04x}"
    code -= 0x10000  # beyond the BMP JSON spells a surrogate pair
    return f"\\u{0xD800 + (code >> 10):04x}\\u{0xDC00 + (code & 0x3FF):04x}"


def visible_json(text: str) -> str:
    """JSON text (as ``json.dumps(..., ensure_ascii=False)`` writes it) with every hidden
    character written as JSON's ``\\uXXXX`` escape: the same data, nothing hidden in the file.

    JSON's structure is ASCII, so every hidden character is inside a string, where the escape
    means that very character; a lone surrogate becomes writable as UTF-8 too.
    """
    return _BLOCK_CANDIDATE.sub(_json_escape, text)


class VisibleWriter:
    """A text stream that shows hidden characters (``visible_block``) in all that is written
    to it: the terminal output of the CLI goes through one, whatever prints it."""

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def write(self, text: str) -> int:
        self._stream.write(visible_block(text))
        return len(text)

    def flush(self) -> None:
        self._stream.flush()

    def __getattr__(self, name: str) -> object:  # encoding, isatty, fileno: the stream's own
        return getattr(self._stream, name)
