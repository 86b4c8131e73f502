"""Safe Markdown pieces: untrusted text (paths, code, messages) shown so it cannot act.

Anything from a pull request only ever appears inside code spans or fenced blocks longer than
any backtick run it contains, or with every Markdown/HTML character escaped; hidden characters
in the one visible form of ``docsnippets.visible``.
"""

from __future__ import annotations

import re
from html import escape
from typing import TYPE_CHECKING

from docsnippets.snippets.records import Snippet
from docsnippets.visible import visible, visible_block

if TYPE_CHECKING:
    from docsnippets.report.context import Links


def code_span(text: str, *, in_table: bool = False) -> str:
    """An inline code span that no backtick run inside ``text`` can end early."""
    text = visible(text)
    if in_table:
        text = text.replace("|", "\\|")
    longest = max((len(r) for r in re.findall(r"`+", text)), default=0)
    ticks = "`" * (longest + 1)
    pad = " " if text.startswith(("`", " ")) or text.endswith(("`", " ")) or not text else ""
    return f"{ticks}{pad}{text}{pad}{ticks}"


def fenced(code: str, info: str = "python") -> str:
    """A fenced block longer than any backtick run in ``code``, hidden characters shown (tabs
    and newlines are the code's layout); ``info`` is ours, not the PR's."""
    code = visible_block(code)
    longest = max((len(r) for r in re.findall(r"`+", code)), default=0)
    fence = "`" * max(3, longest + 1)
    body = code if code.endswith("\n") or not code else code + "\n"
    return f"{fence}{info}\n{body}{fence}"


# A word that may be a path, a URL, a mention or an issue reference. GitHub links mentions,
# issue numbers (#123 and GH-123) and bare URLs in the *rendered* text, so a backslash escape
# does not stop them; inside a code span nothing is linked.
_LINKABLE_WORD = re.compile(r"[@#/.:]|www|\bgh-[0-9]", re.IGNORECASE)
_TRAILING = ",;:)"


def plain(text: str) -> str:
    """Our own prose with any Markdown/HTML meaning removed (used for reasons and notices).

    Reasons quote file names from the pull request; every word that could become a link or
    a mention is set in a code span, the rest has its Markdown punctuation escaped.
    """
    return "".join(_plain_word(part) for part in re.split(r"(\s+)", visible(text)))


def _plain_word(word: str) -> str:
    if not word or word.isspace():
        return word
    core = word.rstrip(_TRAILING)
    if not _LINKABLE_WORD.search(core):
        return re.sub(r"([\\`*_{}\[\]()#+!|<>@&~=-])", r"\\\1", word)
    tail = word[len(core) :]
    head = core[: len(core) - len(core.lstrip("("))]  # "(docs/a.md," opens a list: the "(" is ours
    return "\\(" * len(head) + code_span(core[len(head) :]) + re.sub(r"([)])", r"\\\1", tail)


def summary_words(text: str) -> str:
    """Words for a ``<summary>``, which is raw HTML: Markdown's code spans do not work there, and
    GitHub still links ``GH-77``, ``#77`` and ``@name`` in its text. Language names and codes come
    from a configuration (the pull request's in stage 1): each word that could link is set in
    ``<code>``, the rest HTML-escaped, hidden characters in their visible form."""
    return "".join(_summary_word(part) for part in re.split(r"(\s+)", visible(text)))


def _summary_word(word: str) -> str:
    core = word.rstrip(_TRAILING)
    if not core or word.isspace() or not _LINKABLE_WORD.search(core):
        return escape(word)
    return f"<code>{escape(core)}</code>{escape(word[len(core) :])}"


def linkable(path: str) -> bool:
    # A '.' or '..' segment would resolve outside blob/<sha>/ and so outside the repository.
    return not any(part in ("", ".", "..") for part in path.split("/"))


def span(lines: tuple[int, int]) -> str:
    """``79`` for one line, ``79-81`` for several."""
    first, last = lines
    return str(first) if first == last else f"{first}-{last}"


def lines_word(lines: tuple[int, int]) -> str:
    """``line 79`` or ``lines 79-81``."""
    return f"line {lines[0]}" if lines[0] == lines[1] else f"lines {span(lines)}"


def location(snippet: Snippet, links: Links | None, *, link: bool = True) -> str:
    text = code_span(f"{snippet.file}:{span(snippet.code_lines)}")
    if links is None or not link or not linkable(snippet.file):
        return text
    return f"[{text}]({links.lines(snippet)})"


def line_location(file: str, line: int, links: Links | None) -> str:
    """``file:line`` as a code span, linked to that line when there are links."""
    text = code_span(f"{file}:{line}")
    if links is None or not linkable(file):
        return text
    return f"[{text}]({links.line(file, line)})"


def details(summary: str, body: str) -> str:
    """A collapsed block; ``summary`` is our own words, ``body`` already safe Markdown."""
    return f"<details><summary>{summary}</summary>\n\n{body}\n\n</details>"
