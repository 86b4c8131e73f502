"""Async markers, concurrency imports and syntax status of a code body.

Everything here reads tokens or calls ``compile()`` of the running Python; nothing is ever
executed. Which Python's reading counts is decided in :mod:`docsnippets.snippets.grammar`.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
import warnings
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import lru_cache
from inspect import CO_COROUTINE
from types import CodeType

from docsnippets import work
from docsnippets.constants import Status
from docsnippets.snippets import blocks
from docsnippets.snippets.digest import sha256

MARKERS = ("async def", "async for", "async with", "await")

# Bodies larger than this are not compiled: the status says so instead of stalling.
MAX_COMPILE_CHARS = 2_000_000

# Python 3.12 and later split an f-string into tokens (3.14 a t-string too); an older tokenizer
# has no such types, and their tokens arrive from a newer Python's: these numbers stand for them.
_NEWER_TYPES = ("FSTRING_START", "FSTRING_MIDDLE", "FSTRING_END", "TSTRING_START", "TSTRING_MIDDLE", "TSTRING_END")
FSTRING_START: int = getattr(tokenize, "FSTRING_START", -2)
FSTRING_MIDDLE: int = getattr(tokenize, "FSTRING_MIDDLE", -3)
FSTRING_END: int = getattr(tokenize, "FSTRING_END", -4)
# The type of the one item that stands for what the tokenizer could not read (see comparable).
REST = -1
# The type of the item, with no text, that marks where a statement ends.
END = blocks.END

_HEADER = re.compile(r"^(\s*)(?:async\s+)?(?:def|class)\b")


@dataclass(frozen=True)
class SyntaxStatus:
    """A syntax status, with the compiler's message and line when it is ``syntax-error``."""

    status: Status
    message: str | None = None
    line: int | None = None


# Bodies up to this size are tokenized once for every reader of their tokens (markers, imports,
# the comparable form pairing uses); a longer one is streamed by each reader instead, so memory
# never holds a huge block's tokens.
SHARED_TOKENS_CHARS = 100_000


@lru_cache(maxsize=64)
def dedent(body: str) -> str:
    """The body with its common indentation removed (asked for by every classification of it)."""
    return textwrap.dedent(body)


def _iter_tokens(source: str) -> Iterator[tokenize.TokenInfo]:
    """The tokens one by one, until the tokenizer gives up (bad code is the norm here), each
    without its line (3.12 copies the line into every token), the run's CPU bound checked."""
    try:
        for n, tok in enumerate(tokenize.generate_tokens(io.StringIO(source).readline), 1):
            if n % work.CHECK_EVERY == 0:
                work.check()
            yield tok._replace(line="")
    # SystemError: the tokenizer of 3.12 and 3.13 fails so on a NUL character.
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError, SystemError):
        return


def type_name(kind: int) -> str:
    """The name of a token type, the same in every Python release (its number is not)."""
    if kind == REST:
        return "REST"
    if -2 - len(_NEWER_TYPES) < kind < REST:  # a newer release's type this one does not have
        return _NEWER_TYPES[-2 - kind]
    return tokenize.tok_name.get(kind, "ERRORTOKEN")


def type_number(name: str) -> int:
    """The running Python's number for a token type named by :func:`type_name`, maybe another release's."""
    if name == "REST":
        return REST
    found = getattr(tokenize, name, None)
    if isinstance(found, int):
        return found
    return -2 - _NEWER_TYPES.index(name) if name in _NEWER_TYPES else tokenize.ERRORTOKEN


def tokens(source: str) -> list[tokenize.TokenInfo]:
    """As many tokens as the tokenizer yields before it gives up."""
    return list(_tokens_of(source))


@lru_cache(maxsize=1)  # a body's readers come one after another: only the latest body is kept
def _shared_tokens(source: str) -> tuple[tokenize.TokenInfo, ...]:
    return tuple(_iter_tokens(source))


def _tokens_of(source: str) -> Iterable[tokenize.TokenInfo]:
    """The tokens of ``source``: the shared list for a body of ordinary size, else a fresh stream."""
    return _shared_tokens(source) if len(source) <= SHARED_TOKENS_CHARS else _iter_tokens(source)


def _code_tokens(source: str) -> list[tokenize.TokenInfo]:
    return [t for t in tokens(source) if t.type not in blocks.NOT_CODE]


def find_markers(body: str) -> list[str]:
    """Native async syntax present as real tokens (strings and comments do not count).

    A long block's tokens are streamed, not listed, and the scan stops once every marker is
    found: a megabyte-long block costs one pass of the tokenizer and no memory in proportion.
    """
    if "async" not in body and "await" not in body:  # both are NAME tokens: nothing to find
        return []
    found: set[str] = set()
    after_async = False
    for tok in _tokens_of(dedent(body)):
        if tok.type in blocks.NOT_CODE:
            continue
        if after_async and tok.string in ("def", "for", "with"):
            found.add(f"async {tok.string}")
        after_async = tok.type == tokenize.NAME and tok.string == "async"
        if tok.type == tokenize.NAME and tok.string == "await":
            found.add("await")
        if len(found) == len(MARKERS):
            break
    return [m for m in MARKERS if m in found]


def _imported_names(toks: list[tokenize.TokenInfo]) -> Iterator[str]:
    """Dotted module names of ``import`` / ``from ... import`` statements, from tokens."""
    i = 0
    n = len(toks)

    def dotted(j: int) -> tuple[str, int]:
        parts: list[str] = []
        while j < n and toks[j].string == ".":  # relative imports: never stdlib
            parts.append(".")
            j += 1
        while j < n and toks[j].type == tokenize.NAME and toks[j].string not in ("import", "as"):
            parts.append(toks[j].string)
            j += 1
            if j + 1 < n and toks[j].string == "." and toks[j + 1].type == tokenize.NAME:
                parts.append(".")
                j += 1
            else:
                break
        return "".join(parts), j

    while i < n:
        tok = toks[i]
        if tok.type == tokenize.NAME and tok.string == "import":
            j = i + 1
            while j < n:
                name, j = dotted(j)
                if name:
                    yield name
                if j < n and toks[j].string == "as":
                    j += 2
                if j < n and toks[j].string == ",":
                    j += 1
                    continue
                break
            i = j
        elif tok.type == tokenize.NAME and tok.string == "from":
            base, j = dotted(i + 1)
            if j < n and toks[j].string == "import" and (not base or base.startswith(".")):
                i = j + 1  # relative import: what follows names local modules
                continue
            if j < n and toks[j].string == "import" and base:
                yield base
                j += 1
                if j < n and toks[j].string == "(":
                    j += 1
                while j < n and toks[j].type == tokenize.NAME:
                    yield f"{base}.{toks[j].string}"
                    j += 1
                    if j < n and toks[j].string == "as":
                        j += 2
                    if j < n and toks[j].string == ",":
                        j += 1
                        continue
                    break
            i = j
        else:
            i += 1


def find_modules(body: str, modules: Iterable[str]) -> list[str]:
    """Configured concurrency modules that the body imports (``asyncio.subprocess`` counts)."""
    wanted = list(modules)
    found: set[str] = set()
    if "import" not in body:  # no import statement without the NAME token: skip the tokenizer
        return []
    for name in _imported_names(_code_tokens(dedent(body))):
        for module in wanted:
            if name == module or name.startswith(module + "."):
                found.add(module)
    return [m for m in wanted if m in found]


def _compile(source: str, flags: int = 0) -> CodeType | SyntaxError:
    # Warnings off: under ``-W error`` a SyntaxWarning (an invalid escape, ``is`` with a literal)
    # would turn into a SyntaxError, and the status must not depend on how Python was started.
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(source, "<snippet>", "exec", flags=flags, dont_inherit=True)
    except SyntaxError as exc:
        return exc
    except (ValueError, RecursionError, MemoryError, OverflowError) as exc:
        return SyntaxError(f"{type(exc).__name__}: {exc}".strip())


def _compiles(source: str, flags: int = 0) -> SyntaxError | None:
    found = _compile(source, flags)
    return found if isinstance(found, SyntaxError) else None


def _bracket_depth_after(line: str, depth: int) -> int:
    # Good enough for signatures: strings with brackets in headers are rare.
    for ch in line.split("#", 1)[0]:
        if ch in "([{":
            depth += 1
        elif ch in ")]}":
            depth -= 1
    return depth


def complete_signatures(source: str) -> str | None:
    """Add the missing colon and/or body to def/class headers; None when none was missing."""
    lines = source.split("\n")
    out: list[str] = []
    changed = False
    i = 0
    while i < len(lines):
        match = _HEADER.match(lines[i])
        if not match:
            out.append(lines[i])
            i += 1
            continue
        indent = match.group(1)
        depth = 0
        j = i
        while True:
            depth = _bracket_depth_after(lines[j], depth)
            if depth <= 0 or j + 1 >= len(lines):
                break
            j += 1
        header = lines[i : j + 1]
        last = header[-1].split("#", 1)[0].rstrip()
        if not last.endswith(":"):
            header[-1] = last + ":"
            changed = True
        out.extend(header)
        k = j + 1
        while k < len(lines) and not lines[k].strip():
            k += 1
        nxt = lines[k] if k < len(lines) else ""
        body_indent = len(nxt) - len(nxt.lstrip())
        if k >= len(lines) or body_indent <= len(indent):
            out.append(indent + "    ...")
            changed = True
        i = j + 1
    return "\n".join(out) if changed else None


def syntax_status(body: str) -> SyntaxStatus:
    """Classify by ``compile()`` alone, on the body with its common indentation removed.

    One compile allowing top-level ``await`` decides the first two statuses: it succeeds exactly
    when the body compiles as it is or inside an ``async def``, and the code it makes is a
    coroutine exactly when it needed the wrapper (as in asyncio's REPL). Only a body that fails
    it is compiled again, repaired, or plainly for the compiler's own message.
    """
    if len(body) > MAX_COMPILE_CHARS:
        return SyntaxStatus(Status.SYNTAX_ERROR, f"block longer than {MAX_COMPILE_CHARS} characters: not checked")
    source = dedent(body)
    top_await = ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    code = _compile(source, top_await)
    if not isinstance(code, SyntaxError):
        return SyntaxStatus(Status.NEEDS_ASYNC_WRAPPER if code.co_flags & CO_COROUTINE else Status.PARSES)
    repaired = complete_signatures(source)
    if repaired is not None and _compiles(repaired, top_await) is None:
        return SyntaxStatus(Status.INCOMPLETE_SIGNATURE)
    error = _compiles(source)  # the message a plain compile gives, as the status reports it
    if error is None:  # cannot happen (see above); never report a body that compiles as broken
        return SyntaxStatus(Status.PARSES)
    message = (error.msg or str(error)).splitlines()[0] if (error.msg or str(error)) else "invalid"
    return SyntaxStatus(Status.SYNTAX_ERROR, message, error.lineno)


Comparable = tuple[blocks.Item, ...]


@lru_cache(maxsize=4096)
def comparable(body: str) -> Comparable:
    """(row, block depth, type, text) of the code tokens, comments, docstrings and layout
    left out but the blocks and statements kept (:func:`blocks.items`): what
    :func:`comparable_tokens` and the others derive from.

    When the tokenizer gives up part-way, the untokenized rest is kept as one opaque item,
    so two bodies that differ after a syntax error never compare equal.
    """
    source = dedent(body)
    toks = tokens(source)
    complete = bool(toks) and toks[-1].type == tokenize.ENDMARKER
    toks = [t for t in toks if t.type != tokenize.ENDMARKER]
    out, depth = blocks.items(toks)
    if not complete:
        lines = source.split("\n")
        row, col = toks[-1].end if toks else (1, 0)
        rest = "\n".join([lines[row - 1][col:], *lines[row:]]) if row <= len(lines) else ""
        out.append((row, depth, REST, " ".join(rest.split())))
    return tuple(out)


def tokens_of(items: Comparable) -> tuple[tuple[int, str], ...]:
    return tuple((kind, text) for _, _, kind, text in items if kind != END)


def digest_of(items: Comparable) -> str:
    """Names, not numbers, for the types: the digest of a body is the same in every Python release.
    Blocks and statements count: a line moved into or out of a block, or the same tokens as
    one statement instead of two, are other code."""
    named = tuple((depth, type_name(kind), text) for _, depth, kind, text in items)
    return sha256(repr(named).encode("utf-8", "surrogatepass")).hexdigest()


def shape_of(items: Comparable) -> tuple[tuple[int, bool], ...]:
    """What :func:`tokens_of` leaves out of the code: (block depth, whether it ends a statement)
    of each item, an f-string counted as one (Python 3.12 splits it into as many tokens as its
    text and fields make, and a translation may order those otherwise)."""
    out: list[tuple[int, bool]] = []
    inside = 0
    for _, depth, kind, _ in items:
        if not inside:
            out.append((depth, kind == END))
        inside = max(0, inside + (kind == FSTRING_START) - (kind == FSTRING_END))
    return tuple(out)


def rows_of(items: Comparable) -> tuple[tuple[int, int, str], ...]:
    """(row, block depth, code) of every source row that holds code: its tokens joined by spaces,
    at the depth of its first token."""
    rows: dict[int, tuple[int, list[str]]] = {}
    for row, depth, kind, text in items:
        if kind != END:
            rows.setdefault(row, (depth, []))[1].append(text)
    return tuple((row, depth, " ".join(parts)) for row, (depth, parts) in sorted(rows.items()))


def lines_of(items: Comparable) -> tuple[str, ...]:
    """The code of each row :func:`rows_of` gives, without where it stands."""
    return tuple(code for _, _, code in rows_of(items))


def comparable_tokens(body: str) -> tuple[tuple[int, str], ...]:
    """The token stream with comments, docstrings and layout removed (for pair relations)."""
    return tokens_of(comparable(body))


@lru_cache(maxsize=4096)
def code_digest(body: str) -> str:
    """SHA-256 of :func:`comparable_tokens`, their blocks and statements: equal for the same
    code, and small enough to cache.

    Bodies are aligned and related by this equality, so a run that takes its snippets from
    the cache, digests included, need not tokenize them again.
    """
    return digest_of(comparable(body))


@lru_cache(maxsize=4096)
def comparable_lines(body: str) -> tuple[str, ...]:
    """The same tokens grouped by source line: a short sequence for comparing long bodies."""
    return lines_of(comparable(body))
