"""Which string literals of an example are prose, translated like its comments.

Twins whose code is the same except for string literals are ``strings`` (not desynchronized)
when every literal that differs is a translation by this rule; otherwise they stay ``diverged``.
Two literals at the same place in the two bodies (the code tokens before and after them being
the same) are a translation when all of these hold:

1. Neither is code by where it stands:
   a dict key (a string followed by ``:`` in braces); a subscript (``d["k"]``) or anything
   inside one; an operand of ``==``, ``!=``, ``<``, ``>``, ``<=``, ``>=``, ``in``, ``not in``,
   ``is``, or inside a bracket that is one (``x in ("a", "b")``); a ``case`` pattern; an
   annotation (after ``->``, or after ``:`` outside braces); an argument of ``getattr``,
   ``setattr``, ``hasattr``, ``delattr``, ``import_module``, ``__import__``, ``open``,
   ``Path`` or ``getenv``; a value bound to a name that says it is code.
   The name is the keyword argument's, the assigned variable's or attribute's (``name=``,
   ``self.name =``), the dict key's (``{"role": "user"}``), or that of the list, tuple or set
   the string sits in (``models=["a", "b"]``). It says code when, split at ``_``, ``-`` and
   camel case, its last word (a plural read as its singular) is one of :data:`CODE_WORDS`:
   ``model``, ``path``, ``file``, ``url``, ``key``, ``id``, ``name``, ``role``, ``type``,
   ``format`` and the others listed there. ``model_name=``, ``api_key=``, ``base_url=`` are code;
   ``content=``, ``sys_prompt=``, ``address=``, ``query=`` are not.
2. Neither is code by what it holds: a bytes literal; text without a letter; a URL (a
   ``scheme://`` or ``www.`` or ``mailto:`` start, or ``://`` in a text without spaces); or, in
   a text without whitespace, a path (a ``/`` or ``\\``), a file name (ending in a dot and one
   to eight letters or digits) or an identifier-like word: plain ASCII that is not a single
   word of Latin letters (an apostrophe inside, sentence punctuation at the end allowed).
   ``"qwen-max"``, ``"gpt-4o"``, ``"OPENAI_API_KEY"``, ``"utf-8"``, ``"a.b"``, ``"data.json"``
   are code; ``"Beijing"``, ``"Goodbye!"``, ``"天安门广场"``, ``"Tiananmen Square"`` are not.
3. Their format placeholders are the same: the replacement fields of an f-string (their
   expressions, conversion and format spec, compared as code), ``{name}`` fields of a
   ``str.format`` text and ``%`` conversions (``%s``, ``%(name)d``; ``%%`` is text). Named and
   numbered ones may come in another order, as a translation reorders words; with an automatic
   one (``{}``, ``%s``) the order is part of the meaning and must be the same.
4. At least one of the two holds a letter outside ASCII (Chinese, Japanese, Korean, Cyrillic,
   an accented Latin letter...): two different plain-English texts are an edit, not a translation.

Implicitly concatenated literals are compared piece by piece, so the two sides must have as
many pieces. A literal longer than 20,000 characters is not read and counts as code.
Docstrings are left out before any of this, as comments are. Everything is read from
tokens, which :mod:`classify` keeps for the body already; nothing is run.
"""

from __future__ import annotations

import keyword
import re
import tokenize
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass

from docsnippets.snippets import classify
from docsnippets.snippets.classify import FSTRING_END, FSTRING_START
from docsnippets.snippets.placeholders import Token, literal_parts, placeholders, plain_value

# The last words of names that hold code (rule 1).
_CODE_WORDS = (
    "attr attribute backend branch class cls column delimiter device dir directory dtype encoding "
    "endpoint engine env ext extension field file filename fmt folder format func function host id key "
    "kind lang language locale method mode model module name path pattern port protocol provider regex "
    "role scheme sep separator tag token tool transport type uri url version"
)
CODE_WORDS = frozenset(_CODE_WORDS.split())
CODE_CALLEES = frozenset(
    {"getattr", "setattr", "hasattr", "delattr", "import_module", "__import__", "open", "Path", "getenv"}
)
# A literal longer than this is not read (it counts as code): Python 3.11 parses an f-string in
# time that grows faster than its length, and no translated sentence is this long.
MAX_READ_CHARS = 20_000
_COMPARE = frozenset({"==", "!=", "<", ">", "<=", ">=", "in", "is", "not"})
_OPEN = {"(": ")", "[": "]", "{": "}"}
_CLOSE = frozenset(_OPEN.values())
_STARTS = (tokenize.STRING, FSTRING_START)  # 3.12 and later split an f-string into tokens

_URL = re.compile(r"^(?:[A-Za-z][A-Za-z0-9+.-]*://|www\.|mailto:)")
_FILE = re.compile(r".\.[A-Za-z0-9]{1,8}$")
_WORD = re.compile(r"[A-Za-z]+(?:'[A-Za-z]+)?[.!?,:;]*")
_CAMEL = re.compile(r"(?<=[a-z0-9])(?=[A-Z])")

Span = tuple[tuple[int, int], tuple[int, int]]


@dataclass(frozen=True)
class Piece:
    """One string literal (a STRING token, or the tokens of one f-string), as compared."""

    raw: tuple[str, ...]  # its tokens' texts: equal pieces are the same literal
    code: bool  # code by where it stands or by what it holds (rules 1 and 2)
    fields: tuple[str, ...] = ()  # its placeholders, in order
    ordered: bool = False  # an automatic placeholder makes their order matter
    foreign: bool = False  # holds a letter outside ASCII

    def translates(self, other: Piece) -> bool:
        """Rules 3 and 4 for two literals that are not code."""
        if self.ordered or other.ordered:
            same = self.fields == other.fields
        else:
            same = sorted(self.fields) == sorted(other.fields)
        return same and (self.foreign or other.foreign)


def translated_only(a: str, b: str, tokens: Callable[[str], Sequence[Token]] = classify.comparable_tokens) -> bool:
    """Whether two bodies are the same code once translated string literals are set aside,
    and differ in at least one such literal (comments, docstrings and layout never count).

    ``tokens`` reads a body as the declared Python does (by default the running one); the two
    streams are walked side by side and only literals that differ are read."""
    ta, tb = tokens(a), tokens(b)
    stack_a: list[_Bracket] = []
    stack_b: list[_Bracket] = []
    i = j = 0
    translated = False
    while i < len(ta) and j < len(tb):
        if ta[i][0] in _STARTS and tb[j][0] in _STARTS:
            run_a, run_b = _run(ta, i), _run(tb, j)
            if len(run_a) != len(run_b):
                return False
            differ = [(x, y) for x, y in zip(run_a, run_b, strict=True) if ta[x[0] : x[1]] != tb[y[0] : y[1]]]
            if differ:
                if _placed_as_code(ta, i, run_a[-1][1], stack_a) or _placed_as_code(tb, j, run_b[-1][1], stack_b):
                    return False
                for (a0, a1), (b0, b1) in differ:
                    x, y = _piece(ta[a0:a1], False), _piece(tb[b0:b1], False)
                    if x.code or y.code or not x.translates(y):
                        return False
                translated = True
            i, j = run_a[-1][1], run_b[-1][1]
            continue
        if ta[i] != tb[j]:
            return False
        _track(ta, i, stack_a)
        _track(tb, j, stack_b)
        i, j = i + 1, j + 1
    return translated and i == len(ta) and j == len(tb)


def spans(code: Sequence[tokenize.TokenInfo]) -> list[Span]:
    """Where the literals are that may be translations (not code by rules 1 and 2), among code
    tokens: comments, docstrings and layout already left out, as ``comparable_tokens`` does."""
    found = pieces([(t.type, t.string) for t in code])
    return [(code[start].start, code[end - 1].end) for start, end, piece in found if not piece.code]


@dataclass
class _Bracket:
    char: str
    kind: str  # "subscript", "compare", "call", "group"
    name: str | None = None  # the callee of a call; the name a group is bound to


def pieces(tokens: Sequence[Token]) -> Iterator[tuple[int, int, Piece]]:
    """(first token, end token, piece) of every string literal, in order."""
    stack: list[_Bracket] = []
    i, n = 0, len(tokens)
    while i < n:
        if tokens[i][0] in _STARTS:
            run = _run(tokens, i)
            coded = _placed_as_code(tokens, run[0][0], run[-1][1], stack)
            for start, end in run:
                yield start, end, _piece(tokens[start:end], coded)
            i = run[-1][1]
            continue
        _track(tokens, i, stack)
        i += 1


def _track(tokens: Sequence[Token], i: int, stack: list[_Bracket]) -> None:
    """The brackets open after token ``i``."""
    kind, text = tokens[i]
    if kind != tokenize.OP:
        return
    if text in _OPEN:
        stack.append(_opened(tokens, i, stack))
    elif text in _CLOSE and stack and _OPEN[stack[-1].char] == text:
        stack.pop()


def _run(tokens: Sequence[Token], i: int) -> list[tuple[int, int]]:
    """The (start, end) of each literal of the implicit concatenation starting at ``i``."""
    out: list[tuple[int, int]] = []
    n = len(tokens)
    while i < n and tokens[i][0] in _STARTS:
        if tokens[i][0] == tokenize.STRING:
            out.append((i, i + 1))
            i += 1
            continue
        depth, j = 0, i
        while j < n:
            if tokens[j][0] == FSTRING_START:
                depth += 1
            elif tokens[j][0] == FSTRING_END:
                depth -= 1
                if depth == 0:
                    break
            j += 1
        out.append((i, min(j + 1, n)))
        i = j + 1
    return out


def _before(tokens: Sequence[Token], i: int) -> Token:
    return tokens[i - 1] if i > 0 else (tokenize.NEWLINE, "")


def _opened(tokens: Sequence[Token], i: int, stack: list[_Bracket]) -> _Bracket:
    char = tokens[i][1]
    kind, text = _before(tokens, i)
    callee = kind == tokenize.NAME and not keyword.iskeyword(text)
    follows_value = callee or text in (")", "]") or kind in (tokenize.STRING, FSTRING_END)
    if text in _COMPARE or text == "case":
        return _Bracket(char, "compare")
    if char == "[" and follows_value:
        return _Bracket(char, "subscript")
    if char == "(" and follows_value:
        return _Bracket(char, "call", text if callee else None)
    return _Bracket(char, "group", _bound_name(tokens, i, stack))


def _bound_name(tokens: Sequence[Token], i: int, stack: Sequence[_Bracket]) -> str | None:
    """The name what starts at ``i`` is bound to: ``name=``, ``x.name =``, a dict key's ``"name":``."""
    text = _before(tokens, i)[1]
    if text in ("=", ":=") and i >= 2 and tokens[i - 2][0] == tokenize.NAME:
        return tokens[i - 2][1]
    if text == ":" and stack and stack[-1].char == "{" and i >= 2 and tokens[i - 2][0] == tokenize.STRING:
        return plain_value(tokens[i - 2][1])
    return None


def _placed_as_code(tokens: Sequence[Token], start: int, end: int, stack: Sequence[_Bracket]) -> bool:
    """Rule 1: a literal that is code wherever it stands, whatever it says."""
    prev = _before(tokens, start)[1]
    after = tokens[end][1] if end < len(tokens) else ""
    inner = stack[-1] if stack else None
    if prev in _COMPARE or after in _COMPARE or prev in ("case", "->"):
        return True
    if after == ":" and inner is not None and inner.char == "{":
        return True  # a dict key
    if prev == ":" and (inner is None or inner.char != "{"):
        return True  # an annotation
    if any(b.kind in ("subscript", "compare") for b in stack):
        return True
    if inner is not None and inner.kind == "call" and inner.name in CODE_CALLEES:
        return True
    name = _bound_name(tokens, start, stack)
    if name is None and inner is not None and inner.kind == "group" and prev in (inner.char, ","):
        name = inner.name
    return name is not None and names_code(name)


def names_code(name: str) -> bool:
    """Whether a name says that what it holds is code: its last word is one of CODE_WORDS."""
    words = [w for w in re.split(r"[_\-\s]+", _CAMEL.sub("_", name)) if w]
    if not words:
        return False
    last = words[-1].lower()
    return last in CODE_WORDS or (last.endswith("s") and last[:-1] in CODE_WORDS)


def _piece(tokens: Sequence[Token], coded: bool) -> Piece:
    raw = tuple(text for _, text in tokens)
    if sum(map(len, raw)) > MAX_READ_CHARS:
        return Piece(raw, True)
    parts = literal_parts(tokens)
    if parts is None:
        return Piece(raw, True)
    segments: list[str] = []
    fields: list[str] = []
    ordered = False
    literal = ""
    last = len(parts) - 1
    for n, (part, field) in enumerate(parts):
        literal += part  # the tokenizer may cut one text in two at an escaped brace: join it first
        if field is None and n < last:
            continue
        text, found, auto = placeholders(literal)
        segments.append(text)
        fields += found
        ordered = ordered or auto
        literal = ""
        if field is not None:
            segments.append(" ")
            fields.append(field)
    text = "".join(segments)
    foreign = any(ch.isalpha() and not ch.isascii() for ch in text)
    return Piece(raw, coded or code_shaped(text), tuple(fields), ordered, foreign)


def code_shaped(text: str) -> bool:
    """Rule 2: a text that is code by what it holds."""
    s = text.strip()
    if not any(ch.isalpha() for ch in s):
        return True
    spaced = any(ch.isspace() for ch in s)
    if _URL.match(s) or (not spaced and "://" in s):
        return True
    if spaced:
        return False
    if "/" in s or "\\" in s or _FILE.search(s):
        return True
    return s.isascii() and not _WORD.fullmatch(s)
