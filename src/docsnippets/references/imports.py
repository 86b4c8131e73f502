"""The absolute imports of a snippet body, with their file lines (pure: nothing is run).

The body, with its common indentation removed (which keeps its line count), is parsed with
:mod:`ast`, top-level ``await`` allowed so that async examples need no wrapper that would
shift their lines. A body that does not parse is read token by token instead: every
``import`` keyword token starts or continues an import statement, and the tokenizer is
restarted after a line it gives up on, so one broken line hides no import after it.
Relative imports are left out: they name modules by the snippet's unknown location.
"""

from __future__ import annotations

import ast
import textwrap
import tokenize
import warnings
from collections.abc import Iterator
from dataclasses import dataclass

from docsnippets.snippets.records import Snippet

# Beyond this a snippet body is not parsed (the bound classify.py puts on compile()).
MAX_PARSE_CHARS = 2_000_000
# How often the tokenizer may be restarted in one body after it gave up.
MAX_RESTARTS = 64
_PARSE_ERRORS = (SyntaxError, ValueError, RecursionError, MemoryError, OverflowError)
_TOKEN_ERRORS = (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError)
_SKIPPED_TOKENS = frozenset({tokenize.COMMENT, tokenize.NL, tokenize.INDENT, tokenize.DEDENT, tokenize.ENDMARKER})


@dataclass(frozen=True)
class ImportRef:
    """One imported module of a snippet; ``names`` is empty for ``import X``, ``("*",)`` for a star."""

    line: int
    module: str
    names: tuple[str, ...] = ()


def imports_of(snippet: Snippet) -> tuple[ImportRef, ...]:
    """The absolute imports of a snippet, at their lines in the snippet's file."""
    return find_imports(snippet.body, snippet.code_lines[0])


def find_imports(body: str, first_line: int = 1) -> tuple[ImportRef, ...]:
    """Absolute imports of ``body``, whose first line is line ``first_line`` of its file."""
    if "import" not in body:
        return ()
    source = textwrap.dedent(body)  # keeps the number of lines, so line numbers stay exact
    tree = parse_snippet(source)
    found = _ast_imports(tree) if tree is not None else _token_imports(source)
    return tuple(ImportRef(first_line + ref.line - 1, ref.module, ref.names) for ref in found)


def parse_snippet(source: str) -> ast.Module | None:
    """A dedented snippet body's syntax tree (top-level ``await`` allowed); None when it does not parse."""
    if len(source) > MAX_PARSE_CHARS:
        return None
    flags = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT
    try:
        with warnings.catch_warnings():
            warnings.simplefilter("ignore")
            return compile(source, "<snippet>", "exec", flags=flags, dont_inherit=True)
    except _PARSE_ERRORS:
        return None


# Import statements only stand in statement lists; expressions need not be walked.
_BLOCKS = ("body", "orelse", "finalbody", "handlers", "cases")


def _statements(nodes: list[ast.AST]) -> Iterator[ast.AST]:
    for node in nodes:
        yield node
        for block in _BLOCKS:
            yield from _statements(getattr(node, block, None) or [])


def _ast_imports(tree: ast.Module) -> list[ImportRef]:
    out: list[ImportRef] = []
    for node in _statements(tree.body):
        if isinstance(node, ast.Import):
            out.extend(ImportRef(node.lineno, alias.name) for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            out.append(ImportRef(node.lineno, node.module, tuple(alias.name for alias in node.names)))
    return sorted(out, key=lambda ref: ref.line)


@dataclass(frozen=True)
class _Tok:
    type: int
    string: str
    line: int


def _resilient_tokens(source: str) -> Iterator[_Tok]:
    """Tokens of possibly broken code; after the tokenizer gives up it starts again further on.

    Restarts begin on the line after the last token it produced, skipped ahead to the next
    line that mentions ``import`` (nothing before it can matter), at most MAX_RESTARTS times.
    """
    lines = source.split("\n")
    start = 0
    for _ in range(MAX_RESTARTS + 1):
        last = 0
        try:
            rest = iter([line + "\n" for line in lines[start:]])
            for tok in tokenize.generate_tokens(lambda rest=rest: next(rest, "")):
                last = tok.end[0]
                if tok.type not in _SKIPPED_TOKENS:
                    yield _Tok(tok.type, tok.string, start + tok.start[0])
            return
        except _TOKEN_ERRORS:
            start += max(last, 1)
            while start < len(lines) and "import" not in lines[start]:
                start += 1
            if start >= len(lines):
                return


def _token_imports(source: str) -> list[ImportRef]:
    toks = list(_resilient_tokens(source))
    out: list[ImportRef] = []
    for i, tok in enumerate(toks):
        if tok.type == tokenize.NAME and tok.string == "import":
            out.extend(_import_at(toks, i))
    return out


def _dotted_before(toks: list[_Tok], i: int) -> tuple[str, int]:
    """The dotted name (leading dots included) that ends just before token ``i``, and where it starts."""
    j = i
    if j > 0 and _is_word(toks[j - 1]):
        j -= 1
        while j >= 2 and toks[j - 1].string == "." and _is_word(toks[j - 2]):
            j -= 2
    while j > 0 and toks[j - 1].string in (".", "..."):
        j -= 1
    return "".join(t.string for t in toks[j:i]), j


def _is_word(tok: _Tok) -> bool:
    return tok.type == tokenize.NAME and tok.string not in ("from", "import", "as")


def _import_at(toks: list[_Tok], i: int) -> list[ImportRef]:
    """The import statement whose ``import`` keyword is token ``i`` (possibly a from-import)."""
    base, j = _dotted_before(toks, i)
    if j > 0 and toks[j - 1].string == "from":
        if not base or base.startswith("."):
            return []  # relative: out of scope
        return [ImportRef(toks[j - 1].line, base, tuple(_from_names(toks, i + 1)))]
    return [ImportRef(tok_line, name) for tok_line, name in _plain_names(toks, i + 1)]


def _dotted_after(toks: list[_Tok], j: int) -> tuple[str, int]:
    parts: list[str] = []
    while j < len(toks) and toks[j].type == tokenize.NAME and toks[j].string not in ("import", "as", "from"):
        parts.append(toks[j].string)
        j += 1
        if j + 1 < len(toks) and toks[j].string == "." and toks[j + 1].type == tokenize.NAME:
            j += 1
        else:
            break
    return ".".join(parts), j


def _skip_alias(toks: list[_Tok], j: int) -> int:
    return j + 2 if j < len(toks) and toks[j].string == "as" else j


def _plain_names(toks: list[_Tok], j: int) -> Iterator[tuple[int, str]]:
    line = toks[j - 1].line
    while True:
        name, j = _dotted_after(toks, j)
        if not name:
            return
        yield line, name
        j = _skip_alias(toks, j)
        if j >= len(toks) or toks[j].string != ",":
            return
        j += 1


def _from_names(toks: list[_Tok], j: int) -> Iterator[str]:
    if j < len(toks) and toks[j].string == "*":
        yield "*"
        return
    parens = j < len(toks) and toks[j].string == "("
    j += parens
    while j < len(toks) and toks[j].type == tokenize.NAME and toks[j].string not in ("import", "from"):
        yield toks[j].string
        j = _skip_alias(toks, j + 1)
        if j >= len(toks) or toks[j].string != ",":
            return
        j += 1
        if not parens and j < len(toks) and toks[j].type == tokenize.NEWLINE:
            return
