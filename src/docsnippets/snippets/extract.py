"""One Markdown file's bytes -> its selected snippets (pure: no file system here).

A byte-level prefilter runs first so that the few files worth parsing are the only ones
parsed. It says "no" only when no selected fence can exist, which is provable from how
markdown-it and fences.py cut a fence (the argument is spelt out in ``may_contain_snippet``
and tested in tests/test_prefilter.py), so skipping such files changes no result; files it
skips are still checked for being UTF-8 text, so their notices are the same too.
"""

from __future__ import annotations

import itertools
import re
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from functools import lru_cache
from typing import Protocol

from docsnippets.config import Config
from docsnippets.snippets import classify, grammar
from docsnippets.snippets.digest import sha256
from docsnippets.snippets.fences import NestingError, extract_fences, sha256_text
from docsnippets.snippets.records import Notice, Snippet

# Every character ``str.split()``/``str.strip()`` treat as whitespace (``str.isspace``): that is
# what separates the language word in fences.py, so the byte patterns must allow all of them.
# tests/test_prefilter.py checks both tables against the running interpreter's Unicode data.
PY_WHITESPACE = (
    "\t\n\x0b\x0c\r\x1c\x1d\x1e\x1f \x85\xa0\u1680"
    + "".join(chr(c) for c in range(0x2000, 0x200B))
    + "\u2028\u2029\u202f\u205f\u3000"
)
# Non-ASCII characters whose ``str.lower()`` is a single ASCII letter (U+212A KELVIN SIGN -> k).
ASCII_LOWER_OF = {"\u212a": "k"}
_LINE_ENDS = "\r\n"  # markdown-it ends lines at CR, LF and CRLF


def _alternation(chars: str) -> bytes:
    """A byte pattern matching any one of ``chars`` encoded as UTF-8."""
    by_prefix: dict[bytes, list[bytes]] = {}
    for c in sorted(chars):
        raw = c.encode()
        by_prefix.setdefault(raw[:-1], []).append(raw[-1:])
    parts = [re.escape(head) + b"[" + b"".join(map(re.escape, tails)) + b"]" for head, tails in by_prefix.items()]
    return b"(?:" + b"|".join(parts) + b")"


def _letters(language: str) -> bytes:
    """An ASCII language as bytes (IGNORECASE does A-Z), plus non-ASCII letters lowering into it."""
    out = b""
    for ch in language:
        others = [k.encode() for k, v in ASCII_LOWER_OF.items() if v == ch.lower()]
        out += b"(?:" + b"|".join([re.escape(ch.encode()), *others]) + b")" if others else re.escape(ch.encode())
    return out


def _languages_pattern(languages: tuple[str, ...]) -> bytes:
    """Bytes of every word whose ``lower()`` is a language, then whitespace or a line end.

    Only ASCII languages get a precise pattern; any other one makes the pattern match at
    every fence opener, which is safe and merely slower.
    """
    names = sorted(set(languages), key=len, reverse=True)
    alternatives = []
    ascii_names = [_letters(name) for name in names if name.isascii()]
    if ascii_names:
        alternatives.append(b"(?:" + b"|".join(ascii_names) + b")(?=" + _alternation(PY_WHITESPACE) + rb"|\Z)")
    if len(ascii_names) < len(names):
        alternatives.append(b"")
    return b"(?:" + b"|".join(alternatives) + b")"


def _longest_common(a: bytes, b: bytes) -> bytes:
    best = b""
    for i in range(len(a)):
        for j in range(i + len(best) + 1, len(a) + 1):
            if a[i:j] not in b:
                break
            best = a[i:j]
    return best


def _needles(words: set[bytes]) -> tuple[bytes, ...]:
    """Few substrings such that every word contains one: each is a scan of every file's bytes.

    Two words sharing six or more bytes are searched as that common part (``_thread`` and
    ``threading`` as ``thread``); words containing another word go (``asyncio``, ``async``).
    """
    needles = set(words)
    merged = True
    while merged:
        merged = False
        for a, b in itertools.combinations(sorted(needles), 2):
            common = _longest_common(a, b)
            if len(common) >= 6:
                needles = (needles - {a, b}) | {common}
                merged = True
                break
    return tuple(sorted(n for n in needles if not any(o != n and o in n for o in needles)))


@dataclass(frozen=True)
class _Plan:
    """What the prefilter searches for, derived once per selection settings."""

    needles: tuple[bytes, ...]  # searched in the whole file
    words: tuple[bytes, ...]  # searched in what could be a body
    text_words: tuple[str, ...]
    # Per fence character: its opener pattern (group 1 is the whole run) and its closer lines.
    fences: tuple[tuple[re.Pattern[bytes], re.Pattern[bytes]], ...]


@lru_cache(maxsize=16)
def _prefilter(languages: tuple[str, ...], modules: tuple[str, ...]) -> _Plan:
    words = {b"async", b"await"} | {m.split(".")[0].encode() for m in modules}
    # A word containing another word adds nothing (asyncio -> async).
    kept = tuple(sorted(w for w in words if not any(o != w and o in w for o in words)))
    gap = _alternation("".join(c for c in PY_WHITESPACE if c not in _LINE_ENDS)) + b"*"
    langs = _languages_pattern(languages)
    # An opener match starts where its run does (the look-behind refuses a fourth fence
    # character before the first three), so a long run of backticks is tried once, not once
    # per character; the literal first keeps the search fast. No languages, no opener at all.
    fences = tuple(
        (
            re.compile(
                b"(" + re.escape(c * 3) + b"(?<!" + re.escape(c * 4) + b")" + re.escape(c) + b"*)" + gap + langs,
                re.IGNORECASE,
            ),
            re.compile(rb"^ {0,3}(" + re.escape(c * 3) + rb"+)[ \t]*(?:\r|\n|\Z)", re.MULTILINE),
        )
        for c in (b"`", b"~")
        if languages
    )
    return _Plan(_needles(set(kept)), kept, tuple(w.decode() for w in kept), fences)


class _NextWord:
    """Where the first marker or module word at or after a position ends.

    Positions only grow, and for each word it is remembered how far it has been searched
    (``_clear``: no hit starts before it, after the last position) and its first hit beyond,
    so each word's searches together read the file at most once. A search stops where a
    hit would no longer be the first to end, so absent words rarely cost a whole read.
    """

    def __init__(self, data: bytes, words: tuple[bytes, ...]) -> None:
        self._data = data
        self._hit: dict[bytes, int | None] = dict.fromkeys(words)
        self._clear = dict.fromkeys(words, 0)

    def end_after(self, position: int) -> int | None:
        best: int | None = None
        for word, hit in self._hit.items():
            if hit is not None and hit >= position:
                best = min(best, hit + len(word)) if best is not None else hit + len(word)
        for word, hit in list(self._hit.items()):
            if hit is not None and hit >= position:
                continue
            start = max(position, self._clear[word])
            stop = len(self._data) if best is None else best
            found = self._data.find(word, start, stop)
            if found == -1:
                if best is None:
                    del self._hit[word]  # in no later window either
                    continue
                self._hit[word] = None
                self._clear[word] = max(start, stop - len(word) + 1)
                continue
            self._hit[word] = found
            best = found + len(word)
        return best


def _opener_reaches_word(data: bytes, opener: re.Pattern[bytes], closer: re.Pattern[bytes], words: _NextWord) -> bool:
    """Whether some opener match has a word between it and the first closer line for it.

    For an opener whose body would start at ``start``, with run length ``run``: the first word
    ending at ``end`` after ``start`` is in its body unless a closer line with a run of at
    least ``run`` starts in ``[start, end)``. Both ends of that window only move forward
    from one opener to the next, so the closer lines are read once, kept in a deque whose
    runs decrease from the front: the front is the longest run in the window.
    """
    closers: Iterator[re.Match[bytes]] | None = None  # read only once an opener is found
    pending: re.Match[bytes] | None = None
    window: deque[tuple[int, int]] = deque()  # (line start, run length)
    for match in opener.finditer(data):
        start, run = match.end(), len(match.group(1))
        end = words.end_after(start)
        if end is None:
            return False  # no word after this opener, so none after any later one
        if closers is None:
            closers = closer.finditer(data, start)
            pending = next(closers, None)
        while pending is not None and pending.start() < end:
            item = (pending.start(), len(pending.group(1)))
            while window and window[-1][1] <= item[1]:
                window.pop()
            window.append(item)
            pending = next(closers, None)
        while window and window[0][0] < start:
            window.popleft()
        if not window or window[0][1] < run:
            return True
    return False


def may_contain_snippet(data: bytes, config: Config) -> bool:
    """False only when no fence with a selected language can hold a marker or module word.

    Why a False is safe. A selected fence needs (1) an opener line: a run of 3+ backticks or
    tildes (the line's first text after any container markers), Python whitespace, then a
    word whose ``lower()`` is a selected language followed by whitespace or the line end; and
    (2) a NAME token ``async``/``await``, or an import whose first dotted part is a module's
    first part, in the body. Tokens are substrings of single body lines, and the body lies
    after the opener line and before the first later line made of at most 3 spaces, a run of
    the opener's character at least as long as its run, and spaces or tabs. In markdown-it
    such a line ends the fence in every container: at top level or in a list item indented
    no deeper than it, it is the closing fence; in a deeper list item it is outdented, which
    ends the item; without ``>`` it is outside any blockquote (a lazy line would stop the
    fence too). So every word of a selected body lies between an opener match and that line.

    Each search reads the file a bounded number of times, so the time is linear in its size
    whatever its lines are (tests/unit/test_linear_time.py).
    """
    plan = _prefilter(config.languages, config.modules)
    for needle in plan.needles:  # cheap first: most files mention none of the words at all
        if needle in data:
            break
    else:
        return False
    return any(_opener_reaches_word(data, o, c, _NextWord(data, plan.words)) for o, c in plan.fences)


class Memo(Protocol):
    """Earlier extraction results by file content (cache.SnippetCache is the one in use)."""

    def get(self, path: str, file_sha256: str) -> list[Snippet] | None: ...

    def put(self, file_sha256: str, snippets: Sequence[Snippet]) -> None: ...


def decode(path: str, data: bytes) -> tuple[str | None, Notice | None]:
    """UTF-8 text (a BOM is allowed) or a notice saying why the file was skipped."""
    if data[:2] in (b"\xff\xfe", b"\xfe\xff"):
        return None, Notice(path, "UTF-16 text, not UTF-8; skipped - re-save the file as UTF-8")
    if data.find(b"\x00", 0, 8192) != -1:  # as ``in data[:8192]``, without copying 8 KB
        return None, Notice(path, "looks binary (NUL bytes); skipped - it is not Markdown text")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, Notice(
            path,
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); skipped - "
            "re-save the file as UTF-8",
        )


def oversized(path: str, max_file_bytes: int) -> Notice:
    """The notice of a file skipped for its size (read from disk, or known from a git tree)."""
    return Notice(
        path,
        f"larger than max_file_bytes ({max_file_bytes} bytes); skipped - "
        "raise max_file_bytes in the config or exclude the file",
    )


def snippets_from_bytes(
    path: str,
    data: bytes,
    config: Config,
    *,
    prefilter: bool = True,
    memo: Memo | None = None,
    on_parse: Callable[[], None] | None = None,
) -> tuple[list[Snippet], list[Notice]]:
    """The selected snippets of a page and its notices. ``on_parse`` is told, before anything
    else is done, that the page passed the prefilter (it may raise to stop the work)."""
    if len(data) > config.max_file_bytes:
        return [], [oversized(path, config.max_file_bytes)]
    if prefilter and not may_contain_snippet(data, config):
        # Skipped unparsed, but a file that is not UTF-8 text gets the notice it would get
        # unfiltered: a page saved as UTF-16 must not lose its examples silently. ASCII data
        # is valid UTF-8, so only NULs can make a notice there and no decode is needed.
        if data.isascii() and data.find(b"\x00", 0, 8192) == -1:
            return [], []
        notice = decode(path, data)[1]
        return [], [notice] if notice else []
    if on_parse is not None:
        on_parse()
    text, notice = decode(path, data)
    if text is None:
        return [], [notice] if notice else []
    file_sha = sha256(data).hexdigest()
    if memo is not None:
        known = memo.get(path, file_sha)
        if known is not None:
            return known, []
    try:
        found = snippets_from_text(path, text, config, file_sha)
    except NestingError as exc:
        # Only worth a word when a selected block could be among what cannot be parsed.
        return [], [Notice(path, str(exc))] if may_contain_snippet(data, config) else []
    if memo is not None:
        memo.put(file_sha, found)
    return found, []


def snippets_from_text(path: str, text: str, config: Config, file_sha256: str = "") -> list[Snippet]:
    if not file_sha256:
        file_sha256 = sha256_text(text)
    out: list[Snippet] = []
    languages = set(config.languages)
    words = _prefilter(config.languages, config.modules).text_words
    judge = grammar.judge(config.python)
    for fence in extract_fences(text):
        if fence.language not in languages:
            continue
        # Markers and imported modules are tokens, so substrings of the body: without any of
        # the words both lists come out empty, and tokenizing plain examples is the slow part.
        if not any(word in fence.body for word in words):
            continue
        facts = judge.facts(fence.body, config.modules)
        status = facts.status
        if status is None:  # no marker, no module: not selected
            continue
        # Pairing compares bodies by this digest; taken now, from the tokens just read.
        digest = classify.digest_of(facts.code) if facts.code is not None else ""
        out.append(
            Snippet(
                file=path,
                fence_lines=fence.fence_lines,
                code_lines=fence.code_lines,
                info=fence.info,
                markers=facts.markers,
                modules=facts.modules,
                status=status.status,
                body=fence.body,
                body_sha256=fence.body_sha256,
                file_sha256=file_sha256,
                status_message=status.message,
                status_line=status.line,
                code_digest=digest,
            )
        )
    return out
