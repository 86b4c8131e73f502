"""A snippet's calls, awaits, ``with`` items and ``async for`` loops, resolved into the
repository's code and judged by :mod:`references.callables` (pure: nothing is run).

A name of the snippet resolves only when the snippet binds it exactly once, anywhere (its
functions share one view, so a parameter of the same name elsewhere makes it unknown): by an
import of the repository's code, or by ``name = Class(...)`` of a resolved repository class.
Everything else (a name the snippet never binds, a loop variable, the result of a function
call) is unknown, and what is done with it is not judged.

A placeholder argument (``...``, ``Ellipsis``) stands for arguments the page leaves out (see
:mod:`references.signatures`). ``…`` (U+2026) is not Python, yet pages write it the same way:
a body that does not parse is parsed once more with every ``…`` token (not one inside a string
or a comment) read as ``...``, so its calls are judged like those of ``f(...)``.

A finding is reported at the first line of its call, ``with`` item or loop. It is silenced by
``# docsnippets: ignore[call]`` (or ``await``, ``context``, several with commas) on any line
of that node, or when the callee's dotted name matches a pattern of ``ignore_calls``.
"""

from __future__ import annotations

import ast
import io
import re
import textwrap
import tokenize
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from fnmatch import fnmatchcase

from docsnippets.references.callables import Problem, call_problem, context_problem, iteration_problem
from docsnippets.references.callables import await_problem as _await_problem
from docsnippets.references.findings import ReferenceKind
from docsnippets.references.imports import parse_snippet
from docsnippets.references.namespaces import Definition, Instance, ModuleValue, Namespaces, Scope, Value, collect_scope
from docsnippets.snippets.records import Snippet

_MARKER = re.compile(r"#\s*docsnippets:\s*ignore\[([a-z, ]+)\]")
_ELLIPSIS_CHARACTER = "\N{HORIZONTAL ELLIPSIS}"


@dataclass(frozen=True)
class CallFinding:
    """One finding of the new kinds; ``line`` counts from the snippet body's first line (1)."""

    line: int
    kind: ReferenceKind
    callee: Definition
    reason: str


def _ellipsis_read_as_dots(source: str) -> str | None:
    """``source`` with each ``…`` token spelled ``...`` (lines kept); None when it has none."""
    lines = source.split("\n")
    spots: list[tuple[int, int]] = []
    try:
        for tok in tokenize.generate_tokens(io.StringIO(source).readline):
            if tok.string == _ELLIPSIS_CHARACTER:
                spots.append(tok.start)
    except (tokenize.TokenError, SyntaxError, ValueError, RecursionError, MemoryError):
        pass  # the spots found before the tokenizer gave up are still placeholders
    for row, col in reversed(spots):
        line = lines[row - 1]
        lines[row - 1] = line[:col] + "..." + line[col + 1 :]
    return "\n".join(lines) if spots else None


def _parse(source: str) -> ast.Module | None:
    """:func:`parse_snippet`, or when that fails, the same with ``…`` read as ``...``."""
    tree = parse_snippet(source)
    if tree is None and _ELLIPSIS_CHARACTER in source:
        dotted = _ellipsis_read_as_dots(source)
        tree = None if dotted is None else parse_snippet(dotted)
    return tree


def ignored_kinds(source: str) -> dict[int, frozenset[str]]:
    """The kinds each line's ``# docsnippets: ignore[...]`` marker silences, by body line."""
    out: dict[int, frozenset[str]] = {}
    for number, text in enumerate(source.split("\n"), start=1):
        match = _MARKER.search(text)
        if match:
            out[number] = frozenset(word.strip() for word in match.group(1).split(","))
    return out


class _Locals:
    """The snippet's own names: each binding, and what the single-bound ones stand for."""

    def __init__(self, tree: ast.Module, ns: Namespaces, earlier: Sequence[Scope] = ()) -> None:
        self._ns = ns
        self._earlier = earlier
        self._bindings: dict[str, list[ast.AST]] = {}
        self._values: dict[str, Value | None] = {}
        simple: dict[int, ast.expr] = {}
        for node in ast.walk(tree):
            if isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name):
                simple[id(node.targets[0])] = node.value
            elif isinstance(node, ast.AnnAssign) and node.value is not None and isinstance(node.target, ast.Name):
                simple[id(node.target)] = node.value
        for node in ast.walk(tree):
            for name, binding in self._binds(node, simple):
                self._bindings.setdefault(name, []).append(binding)

    @staticmethod
    def _binds(node: ast.AST, simple: dict[int, ast.expr]) -> Iterable[tuple[str, ast.AST]]:
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            yield node.id, simple.get(id(node), node)
        elif isinstance(node, ast.arg):
            yield node.arg, node
        elif isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef):
            yield node.name, node
        elif isinstance(node, ast.Import | ast.ImportFrom):
            for alias in node.names:
                yield alias.asname or alias.name.split(".")[0], node
        elif isinstance(node, ast.ExceptHandler | ast.MatchAs | ast.MatchStar) and node.name:
            yield node.name, node
        elif isinstance(node, ast.Global | ast.Nonlocal):
            for name in node.names:
                yield name, node

    def value(self, name: str) -> Value | None:
        if name not in self._values:
            self._values[name] = None  # a self-reference resolves to nothing
            bindings = self._bindings.get(name) or self._imported_before(name)
            self._values[name] = self._resolve(name, bindings[0]) if len(bindings) == 1 else None
        return self._values[name]

    def _imported_before(self, name: str) -> list[ast.AST]:
        """The import of ``name`` by the nearest earlier snippet of the page that binds it."""
        for scope in reversed(self._earlier):
            entries = scope.get(name)
            if entries:
                return [entries[0]] if len(entries) == 1 and isinstance(entries[0], ast.Import | ast.ImportFrom) else []
        return []

    def _resolve(self, name: str, binding: ast.AST) -> Value | None:
        ns = self._ns
        if isinstance(binding, ast.ImportFrom):
            if binding.level or not binding.module:
                return None
            alias = next(a for a in binding.names if (a.asname or a.name) == name)
            module = ns.module(binding.module)
            return None if module is None else ns.lookup(module, alias.name)
        if isinstance(binding, ast.Import):
            alias = next(a for a in binding.names if (a.asname or a.name.split(".")[0]) == name)
            module = ns.module(alias.name if alias.asname else name)
            return None if module is None else ModuleValue(module)
        if isinstance(binding, ast.Call):
            return self.expression(binding)
        return None

    def expression(self, node: ast.expr) -> Value | None:
        if isinstance(node, ast.Name):
            return self.value(node.id)
        if isinstance(node, ast.Attribute):
            owner = self.expression(node.value)
            return None if owner is None else self._ns.attribute(owner, node.attr)
        if isinstance(node, ast.Call):
            made = self.expression(node.func)
            is_class = isinstance(made, Definition) and isinstance(made.node, ast.ClassDef)
            if is_class and self._ns.mro(made) is not None and self._ns.member(made, "__new__") is False:
                return Instance(made)
        return None


def _judge(ns: Namespaces, names: _Locals, node: ast.AST) -> Iterable[tuple[ast.AST, ReferenceKind, Problem | None]]:
    if isinstance(node, ast.Call):
        callee = names.expression(node.func)
        if callee is not None:
            yield node, ReferenceKind.CALL, call_problem(ns, callee, node)
    elif isinstance(node, ast.Await) and isinstance(node.value, ast.Call):
        callee = names.expression(node.value.func)
        if callee is not None:
            yield node.value, ReferenceKind.AWAIT, _await_problem(callee)
    elif isinstance(node, ast.With | ast.AsyncWith):
        for item in node.items:
            expr = item.context_expr
            made_by = names.expression(expr.func) if isinstance(expr, ast.Call) else None
            found = context_problem(ns, made_by, names.expression(expr), isinstance(node, ast.AsyncWith))
            yield expr, ReferenceKind.CONTEXT, found
    elif isinstance(node, ast.AsyncFor) or (isinstance(node, ast.comprehension) and node.is_async):
        expr = node.iter
        made_by = names.expression(expr.func) if isinstance(expr, ast.Call) else None
        yield expr, ReferenceKind.CONTEXT, iteration_problem(ns, made_by, names.expression(expr))


class Pages:
    """The snippets of each Markdown file in order. A page often splits one session over several
    blocks, so a name a snippet uses but never binds is looked up in the imports of the snippets
    before it on the same page (the nearest one that binds the name at its top level)."""

    def __init__(self, snippets: Iterable[Snippet]) -> None:
        self._files: dict[str, list[Snippet]] = {}
        for s in snippets:
            self._files.setdefault(s.file, []).append(s)
        for group in self._files.values():
            group.sort(key=lambda s: s.code_lines[0])
        self._scopes: dict[tuple[object, ...], Scope | None] = {}

    def _scope(self, snippet: Snippet) -> Scope | None:
        if snippet.key not in self._scopes:
            tree = _parse(textwrap.dedent(snippet.body))
            self._scopes[snippet.key] = None if tree is None else collect_scope(tree.body)
        return self._scopes[snippet.key]

    def earlier(self, snippet: Snippet) -> list[Scope]:
        out = []
        for s in self._files.get(snippet.file, []):
            if s.code_lines[0] >= snippet.code_lines[0]:
                break
            scope = self._scope(s)
            if scope is not None:
                out.append(scope)
        return out


def call_findings(
    body: str, ns: Namespaces, ignore_calls: Iterable[str] = (), earlier: Sequence[Scope] = ()
) -> list[CallFinding]:
    """The findings of one snippet body, in source order; a body that does not parse has none.
    ``earlier``: the top-level bindings of the snippets before it on its page (see :class:`Pages`)."""
    source = textwrap.dedent(body)
    tree = _parse(source)
    if tree is None:
        return []
    try:
        return _findings(source, tree, ns, ignore_calls, earlier)
    except RecursionError:
        return []  # nesting deeper than the interpreter follows (hostile input): nothing is judged


def _findings(
    source: str, tree: ast.Module, ns: Namespaces, ignore_calls: Iterable[str], earlier: Sequence[Scope]
) -> list[CallFinding]:
    names = _Locals(tree, ns, earlier)
    markers = ignored_kinds(source) if "docsnippets:" in source else {}
    patterns = tuple(ignore_calls)
    out: list[CallFinding] = []
    for node in ast.walk(tree):
        for where, kind, problem in _judge(ns, names, node):
            if problem is None:
                continue
            callee, reason = problem
            start, end = where.lineno, where.end_lineno or where.lineno
            if any(kind in markers.get(n, ()) for n in range(start, end + 1)):
                continue
            if any(fnmatchcase(callee.dotted, p) for p in patterns):
                continue
            out.append(CallFinding(start, kind, callee, reason))
    return sorted(out, key=lambda f: (f.line, f.kind))
