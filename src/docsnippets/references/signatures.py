"""Parameter lists read from ``def`` and dataclass headers, and whether a call's arguments bind.

Pure: a signature is built from :mod:`ast` nodes of the repository's code, a call from a
snippet's :mod:`ast`; nothing is imported. Binding follows Python's own rules for a plain call
(positional arguments fill positional parameters in order, keywords fill the rest by name,
what is left must have a default) and gives up, saying nothing, where the call itself hides
its arguments (``*args`` or ``**kwargs`` at the call site).

Documentation writes ``Model(...)`` or ``create_app(..., debug=True)`` for "your arguments
here": a positional placeholder (``...``, ``Ellipsis``; ``…`` is turned into ``...`` before
parsing, see calls.py) stands for any number of positional arguments, none included. So a
call with one says nothing about missing arguments, counts only the positional arguments it
writes out against the parameters, and knows a parameter filled by position only when it is
filled whatever the placeholder stands for (the first as many as the arguments written out).
A keyword whose value is a placeholder is a keyword given, nothing more.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from enum import StrEnum

from docsnippets.words import plural


class ParamKind(StrEnum):
    POSITIONAL_ONLY = "positional-only"
    POSITIONAL = "positional"
    KEYWORD_ONLY = "keyword-only"


@dataclass(frozen=True)
class Param:
    name: str
    kind: ParamKind
    required: bool


@dataclass(frozen=True)
class Signature:
    """What a callable accepts; ``varargs`` / ``varkw`` stand for ``*args`` / ``**kwargs``."""

    params: tuple[Param, ...]
    varargs: bool = False
    varkw: bool = False

    def without_first(self) -> Signature | None:
        """The signature as bound to an instance or a class (``self`` / ``cls`` filled);
        None when there is no positional parameter to fill (then nothing is judged)."""
        first = next((p for p in self.params if p.kind is not ParamKind.KEYWORD_ONLY), None)
        if first is None:
            return None if not self.varargs else self
        return Signature(tuple(p for p in self.params if p is not first), self.varargs, self.varkw)


def function_signature(node: ast.FunctionDef | ast.AsyncFunctionDef) -> Signature:
    args = node.args
    positional = [*args.posonlyargs, *args.args]
    first_default = len(positional) - len(args.defaults)
    params = [
        Param(
            a.arg,
            ParamKind.POSITIONAL_ONLY if i < len(args.posonlyargs) else ParamKind.POSITIONAL,
            i < first_default,
        )
        for i, a in enumerate(positional)
    ]
    params += [
        Param(a.arg, ParamKind.KEYWORD_ONLY, default is None)
        for a, default in zip(args.kwonlyargs, args.kw_defaults, strict=True)
    ]
    return Signature(tuple(params), args.vararg is not None, args.kwarg is not None)


def call_word(node: ast.expr) -> str | None:
    """The last name of what a call, decorator or annotation names (``f``, ``mod.f``, ``f(...)``)."""
    target = node.func if isinstance(node, ast.Call) else node
    if isinstance(target, ast.Name):
        return target.id
    if isinstance(target, ast.Attribute):
        return target.attr
    return None


def _is_true(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is True


def _is_false(node: ast.expr | None) -> bool:
    return isinstance(node, ast.Constant) and node.value is False


def dataclass_options(decorator: ast.expr) -> dict[str, ast.expr] | None:
    """The keyword options of a ``@dataclass`` / ``@dataclasses.dataclass(...)`` decorator;
    None when the decorator is something else."""
    if call_word(decorator) != "dataclass":
        return None
    if isinstance(decorator, ast.Call):
        if decorator.args:
            return None
        return {kw.arg: kw.value for kw in decorator.keywords if kw.arg is not None}
    return {}


def _annotation_word(node: ast.expr) -> str | None:
    if isinstance(node, ast.Subscript):
        return _annotation_word(node.value)
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value.split("[")[0].split(".")[-1].strip()
    return call_word(node)


@dataclass(frozen=True)
class _Field:
    name: str
    required: bool
    kw_only: bool


def dataclass_fields(cls: ast.ClassDef, kw_only: bool) -> tuple[_Field, ...] | None:
    """The ``__init__`` fields a dataclass body declares, in order; None when a field is
    declared in a way not followed here (then nothing is judged)."""
    out: list[_Field] = []
    after_marker = kw_only
    for statement in cls.body:
        if not isinstance(statement, ast.AnnAssign):
            continue
        if not isinstance(statement.target, ast.Name):
            return None
        word = _annotation_word(statement.annotation)
        if word == "ClassVar":
            continue
        if word == "KW_ONLY":
            after_marker = True
            continue
        required, field_kw, init = statement.value is None, after_marker, True
        value = statement.value
        if isinstance(value, ast.Call) and call_word(value) == "field":
            if value.args or any(kw.arg is None for kw in value.keywords):
                return None
            options = {kw.arg: kw.value for kw in value.keywords}
            required = "default" not in options and "default_factory" not in options
            init = not _is_false(options.get("init"))
            if "kw_only" in options:
                field_kw = _is_true(options["kw_only"])
        if init:
            out.append(_Field(statement.target.id, required, field_kw))
    return tuple(out)


def dataclass_signature(fields: tuple[_Field, ...]) -> Signature:
    """The ``__init__`` a dataclass generates for its fields (base classes' fields first)."""
    merged: dict[str, _Field] = {}
    for f in fields:  # a redeclared field keeps its first place, as dataclasses does
        merged[f.name] = f
    positional = [f for f in merged.values() if not f.kw_only]
    keyword = [f for f in merged.values() if f.kw_only]
    params = [Param(f.name, ParamKind.POSITIONAL, f.required) for f in positional]
    params += [Param(f.name, ParamKind.KEYWORD_ONLY, f.required) for f in keyword]
    return Signature(tuple(params))


def _quoted(names: list[str]) -> str:
    return ", ".join(f"`{n}`" for n in names)


def is_placeholder(node: ast.expr) -> bool:
    """``...`` or ``Ellipsis`` as an argument: the page's "arguments here", not a value."""
    return (isinstance(node, ast.Constant) and node.value is Ellipsis) or (
        isinstance(node, ast.Name) and node.id == "Ellipsis"
    )


def bind(signature: Signature, call: ast.Call, callee: str) -> str | None:
    """Why ``call``'s arguments do not bind to ``signature`` (of ``callee``, as the reason names
    it); None when they do, or when the call spreads ``*args`` / ``**kwargs`` and so cannot be
    judged. Placeholders among the positional arguments: see the module's docstring."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(kw.arg is None for kw in call.keywords):
        return None
    positional = [p for p in signature.params if p.kind is not ParamKind.KEYWORD_ONLY]
    written = [a for a in call.args if not is_placeholder(a)]
    open_ended = len(written) < len(call.args)
    given = len(written)
    if given > len(positional) and not signature.varargs:
        most = len(positional)
        besides = " besides the placeholder" if open_ended else ""
        return f"too many positional arguments for {callee}: it takes at most {most}, {given} given{besides}"
    filled = {p.name for p in positional[:given]}
    reason = _keyword_problem(signature, call, callee, filled)
    if reason is not None or open_ended:
        return reason  # with a placeholder, what is missing may be what it stands for
    return _missing(signature, filled, callee)


def _keyword_problem(signature: Signature, call: ast.Call, callee: str, filled: set[str]) -> str | None:
    """A keyword that binds to nothing, or to a parameter already filled; adds the rest to ``filled``."""
    by_name = {p.name: p for p in signature.params}
    for kw in call.keywords:
        assert kw.arg is not None
        param = by_name.get(kw.arg)
        if param is None or param.kind is ParamKind.POSITIONAL_ONLY:
            if signature.varkw:
                continue  # **kwargs absorbs it (a positional-only name too)
            if param is not None:
                return f"positional-only argument `{kw.arg}` of {callee} passed by keyword"
            return f"unexpected keyword argument `{kw.arg}` of {callee}"
        if kw.arg in filled:
            return f"multiple values for argument `{kw.arg}` of {callee}"
        filled.add(kw.arg)
    return None


def _missing(signature: Signature, filled: set[str], callee: str) -> str | None:
    positional = [p.name for p in signature.params if p.kind is not ParamKind.KEYWORD_ONLY and p.required]
    missing = [n for n in positional if n not in filled]
    if missing:
        return f"missing required {plural(len(missing), 'argument')} {_quoted(missing)} of {callee}"
    keyword_only = [p.name for p in signature.params if p.kind is ParamKind.KEYWORD_ONLY and p.required]
    missing = [n for n in keyword_only if n not in filled]
    if missing:
        return f"missing required keyword-only {plural(len(missing), 'argument')} {_quoted(missing)} of {callee}"
    return None
