"""The three rules for what a snippet does with a resolved callee: calls bind, awaits hit
coroutine functions, context managers and async iterators are of the kind the statement needs.

Pure: each rule takes a :class:`namespaces.Value` and the snippet's :mod:`ast` node and answers
with a reason, or None when the code is fine *or cannot be judged*. Precision comes first:
a decorator that is not known to keep a function's parameter list (or its sync/async kind)
makes the rule say nothing, and so does a class whose hierarchy leaves the repository.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

from docsnippets.references.namespaces import Definition, Instance, Member, Namespaces, Value
from docsnippets.references.signatures import (
    Signature,
    bind,
    call_word,
    dataclass_fields,
    dataclass_options,
    dataclass_signature,
    function_signature,
)

# Decorators that return the function itself or a wrapper with the same parameters.
KEEP_PARAMETERS = frozenset(
    {"staticmethod", "classmethod", "abstractmethod", "override", "contextmanager", "asynccontextmanager"}
)
# Decorators that keep a plain function plain (so ``await`` on its result fails).
KEEP_SYNC = frozenset({"staticmethod", "classmethod", "abstractmethod", "override"})
# Return annotations that say a plain function hands back something awaitable (or anything at all).
_AWAITABLE_WORDS = ("Awaitable", "Coroutine", "Future", "Task", "Deferred", "Any", "object")

FunctionNode = ast.FunctionDef | ast.AsyncFunctionDef
# The callee a finding is about, and the reason.
Problem = tuple[Definition, str]
# The parameters a class call binds to, and the definition they come from.
_Init = tuple[Signature, Definition]


def _words(node: FunctionNode | ast.ClassDef) -> list[str | None]:
    return [call_word(d) for d in node.decorator_list]


def _own_nodes(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of a function body, without those of nested functions, classes and lambdas."""
    for child in ast.iter_child_nodes(node):
        yield child
        if not isinstance(child, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef | ast.Lambda):
            yield from _own_nodes(child)


def _is_wraps_style(ns: Namespaces, owner: Definition, decorator: ast.expr) -> bool:
    """A repository decorator whose wrappers are ``@functools.wraps(fn)`` functions taking only
    ``*args, **kwargs``: the wrapped function's parameters are what a call must bind."""
    target = decorator.func if isinstance(decorator, ast.Call) else decorator
    found = ns.expression(owner.module, target)
    if not isinstance(found, Definition) or isinstance(found.node, ast.ClassDef):
        return False
    wrappers = [
        n
        for n in ast.walk(found.node)
        if isinstance(n, ast.FunctionDef | ast.AsyncFunctionDef) and "wraps" in _words(n) and n is not found.node
    ]

    def forwards(n: FunctionNode) -> bool:
        a = n.args
        return not (a.posonlyargs or a.args or a.kwonlyargs) and a.vararg is not None and a.kwarg is not None

    return bool(wrappers) and all(forwards(n) for n in wrappers)


def _keeps_parameters(ns: Namespaces, fn: Definition) -> bool:
    node = fn.node
    return all(
        word in KEEP_PARAMETERS or _is_wraps_style(ns, fn, d)
        for d, word in zip(node.decorator_list, _words(node), strict=True)
    )


def _function_signature(ns: Namespaces, fn: Definition, via_instance: bool | None) -> Signature | None:
    """``via_instance`` None: a module-level function; else a method reached on an instance or its class."""
    node = fn.node
    if isinstance(node, ast.ClassDef) or not _keeps_parameters(ns, fn):
        return None
    signature = function_signature(node)
    words = _words(node)
    if via_instance is None or "staticmethod" in words:
        return signature
    if "classmethod" in words or via_instance:
        return signature.without_first()
    return signature


def init_signature(ns: Namespaces, cls: Definition) -> _Init | None:
    """What calling the class takes: the nearest ``__init__`` of its hierarchy, or the one
    ``@dataclass`` generates; None when ``__new__`` or anything unfollowed is involved."""
    order = ns.mro(cls)
    if order is None or ns.member(cls, "__new__") is not False:
        return None
    for c in order:
        own = ns.fields_scope(c).get("__init__")
        if own:
            init = ns.member(c, "__init__")
            if not isinstance(init, Definition):
                return None
            signature = _function_signature(ns, init, via_instance=True)
            return None if signature is None else (signature, init)
        assert isinstance(c.node, ast.ClassDef)
        options = next((o for o in map(dataclass_options, c.node.decorator_list) if o is not None), None)
        if options is not None:
            if "init" in options:
                return None
            return _dataclass_init(ns, order[order.index(c) :], c)
    return Signature(()), cls  # object.__init__


def _dataclass_init(ns: Namespaces, order: tuple[Definition, ...], cls: Definition) -> _Init | None:
    fields = []
    for c in reversed(order):
        assert isinstance(c.node, ast.ClassDef)
        options = next((o for o in map(dataclass_options, c.node.decorator_list) if o is not None), None)
        if options is None:
            continue
        kw_only = options.get("kw_only")
        own = dataclass_fields(c.node, isinstance(kw_only, ast.Constant) and kw_only.value is True)
        if own is None or (kw_only is not None and not isinstance(kw_only, ast.Constant)):
            return None
        fields.extend(own)
    return dataclass_signature(tuple(fields)), cls


def call_problem(ns: Namespaces, callee: Value, call: ast.Call) -> Problem | None:
    """Rule 1: the arguments of ``call`` do not bind to the resolved callee's parameters."""
    if isinstance(callee, Definition) and isinstance(callee.node, ast.ClassDef):
        found = init_signature(ns, callee)
        if found is None:
            return None
        signature, where = found
    elif isinstance(callee, Definition | Member):
        where = callee if isinstance(callee, Definition) else callee.function
        via = None if isinstance(callee, Definition) else callee.via_instance
        maybe = _function_signature(ns, where, via)
        if maybe is None:
            return None
        signature = maybe
    else:
        return None
    reason = bind(signature, call, where.where)
    return None if reason is None else (where, reason)


def _awaitable_annotation(node: ast.expr | None) -> bool:
    if node is None:
        return False
    text = ast.unparse(node)
    return any(word in text for word in _AWAITABLE_WORDS)


def _function_of(callee: Value) -> Definition | None:
    if isinstance(callee, Member):
        return callee.function
    if isinstance(callee, Definition) and not isinstance(callee.node, ast.ClassDef):
        return callee
    return None


def await_problem(callee: Value) -> Problem | None:
    """Rule 2: ``await f(...)`` where ``f`` is a plain ``def`` that nothing makes awaitable."""
    fn = _function_of(callee)
    if fn is None or not isinstance(fn.node, ast.FunctionDef):
        return None
    if not all(word in KEEP_SYNC for word in _words(fn.node)) or _awaitable_annotation(fn.node.returns):
        return None
    if any(isinstance(n, ast.Yield | ast.YieldFrom) for n in _own_nodes(fn.node)):
        return None  # a generator: old-style coroutines are generators too
    return fn, f"{fn.where} is a plain function, not a coroutine function: `await` fails"


def _class_of(ns: Namespaces, value: Value) -> Definition | None:
    if isinstance(value, Instance):
        return value.cls
    return None


def context_problem(ns: Namespaces, made_by: Value | None, value: Value | None, is_async: bool) -> Problem | None:
    """Rule 3: ``with`` / ``async with`` on a context manager of the other kind. ``made_by`` is
    the callee when the item is a call, ``value`` what the item evaluates to when known."""
    fn = _function_of(made_by) if made_by is not None else None
    if fn is not None:
        words = _words(fn.node)
        if len(words) != 1 or not isinstance(fn.node, ast.FunctionDef | ast.AsyncFunctionDef):
            return None
        if words[0] == "asynccontextmanager" and not is_async:
            return fn, f"{fn.where} is an async context manager (@asynccontextmanager): `with` fails, use `async with`"
        if words[0] == "contextmanager" and is_async:
            return fn, f"{fn.where} is a @contextmanager, not an async context manager: `async with` fails, use `with`"
        return None
    cls = _class_of(ns, value) if value is not None else None
    if cls is None:
        return None
    have = {name: ns.member(cls, name) for name in ("__enter__", "__exit__", "__aenter__", "__aexit__")}
    if any(found is None for found in have.values()):
        return None
    if is_async and (have["__aenter__"] is False or have["__aexit__"] is False):
        return cls, f"{cls.where} has no `__aenter__`/`__aexit__`: `async with` fails"
    if not is_async and have["__enter__"] is False and have["__aenter__"] is not False:
        return cls, f"{cls.where} is an async context manager (only `__aenter__`): `with` fails, use `async with`"
    return None


def iteration_problem(ns: Namespaces, made_by: Value | None, value: Value | None) -> Problem | None:
    """Rule 3 for ``async for``: over a class without ``__aiter__`` or a plain generator function."""
    fn = _function_of(made_by) if made_by is not None else None
    if fn is not None:
        node = fn.node
        plain = isinstance(node, ast.FunctionDef) and not node.decorator_list
        if plain and any(isinstance(n, ast.Yield | ast.YieldFrom) for n in _own_nodes(node)):
            return fn, f"{fn.where} is a plain generator, not an async iterator: `async for` fails, use `for`"
        return None
    cls = _class_of(ns, value) if value is not None else None
    if cls is not None and ns.member(cls, "__aiter__") is False:
        return cls, f"{cls.where} has no `__aiter__`: `async for` fails"
    return None
