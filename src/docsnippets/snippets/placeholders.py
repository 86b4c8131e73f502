"""A string literal's text and its placeholders, read from its tokens (pure; nothing is run).

The text is what a reader sees of the literal, escapes read; the placeholders are an f-string's
replacement fields (compared as code), ``str.format`` fields and ``%`` conversions. Python 3.12
and later split an f-string into tokens, earlier ones give it as one: both read alike here.
"""

from __future__ import annotations

import ast
import codecs
import re
import string
import tokenize
import warnings
from collections.abc import Sequence

from docsnippets.snippets.classify import FSTRING_MIDDLE, FSTRING_START

Token = tuple[int, str]  # (type, text), as classify.comparable_tokens gives them

_PERCENT = re.compile(r"%(?:%|(\([^()\n]{0,100}\))?[#0+\-]*(?:\*|\d+)?(?:\.(?:\*|\d+))?[hlL]?[diouxXeEfFgGcrsa])")


def plain_value(text: str) -> str | None:
    """The value of a plain (not f-) string literal, None for bytes or what does not read as one."""
    body = text.lstrip("rRuU")
    quote = body[:3] if body[:3] in ('"""', "'''") else body[:1]
    if "\\" not in body and len(body) >= 2 * len(quote) and body.endswith(quote):
        return body[len(quote) : len(body) - len(quote)]  # nothing to unescape: the common case, cheaply
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            value = ast.literal_eval(text)
    except (ValueError, SyntaxError, MemoryError, RecursionError, TypeError):
        return None
    return value if isinstance(value, str) else None


def literal_parts(tokens: Sequence[Token]) -> list[tuple[str, str | None]] | None:
    """The literal as (text, the replacement field after it or None); None for bytes or what
    does not read as a string."""
    kind, first = tokens[0]
    prefix = first[: len(first) - len(first.lstrip("bBrRuUfF"))].lower()
    if "b" in prefix:
        return None
    if kind == FSTRING_START:
        return _split_fstring(tokens, "r" in prefix)
    if "f" not in prefix:
        value = plain_value(first)
        return None if value is None else [(value, None)]
    return _parsed_fstring(first)


def _parsed_fstring(text: str) -> list[tuple[str, str | None]] | None:
    """An f-string that is one token (before Python 3.12), by its syntax tree."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            tree = ast.parse(text, mode="eval").body
    except (SyntaxError, ValueError, MemoryError, RecursionError):
        return None
    if not isinstance(tree, ast.JoinedStr):
        return None
    out: list[tuple[str, str | None]] = []
    for value in tree.values:
        if isinstance(value, ast.Constant) and isinstance(value.value, str):
            out.append((value.value, None))
        else:
            out.append(("", ast.dump(value)))
    return out


def _split_fstring(tokens: Sequence[Token], raw: bool) -> list[tuple[str, str | None]]:
    """An f-string the tokenizer split (Python 3.12 and later): its text and its fields."""
    out: list[tuple[str, str | None]] = []
    depth = 0
    field: list[str] = []
    for kind, text in tokens[1:-1]:
        if depth == 0 and kind == FSTRING_MIDDLE:
            out.append((text if raw else _unescaped(text), None))
            continue
        if kind == tokenize.OP and text == "{":
            depth += 1
        elif kind == tokenize.OP and text == "}":
            depth -= 1
        field.append(text)
        if depth == 0:
            out.append(("", "".join(field)))
            field = []
    return out


def _unescaped(text: str) -> str:
    """An f-string's text with its backslash escapes read, as the one-token form has them."""
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return codecs.decode(text.encode("ascii", "backslashreplace"), "unicode_escape")
    except (UnicodeDecodeError, ValueError):
        return text


def placeholders(text: str) -> tuple[str, list[str], bool]:
    """The text with its ``{field}`` and ``%`` placeholders blanked, the placeholders, and
    whether one is automatic (its place gives its meaning)."""
    found: list[str] = []
    auto = False
    kept: list[str] = []
    try:
        parsed = list(string.Formatter().parse(text)) if "{" in text or "}" in text else [(text, None, None, None)]
    except ValueError:
        parsed = [(text, None, None, None)]
    for literal, name, spec, conversion in parsed:
        kept.append(literal)
        if name is not None:
            found.append(f"{{{name}{'!' + conversion if conversion else ''}{':' + spec if spec else ''}}}")
            auto = auto or name == ""
            kept.append(" ")
    blanked = "".join(kept)
    if "%" not in blanked:
        return blanked, found, auto
    for match in _PERCENT.finditer(blanked):
        if match.group(0) != "%%":
            found.append(match.group(0))
            auto = auto or match.group(1) is None
    return _PERCENT.sub(" ", blanked), found, auto
