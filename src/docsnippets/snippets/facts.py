"""What one Python makes of a body, and how that travels from a child process of another version.

A child of the declared version runs :func:`serve` of this installation and nothing else, so
this module imports only what reading a body needs: every module more is start-up time the
parent waits for. The answers travel as JSON lines; token types travel by name, since their
numbers differ between releases. An answer that does not have the shape of one is refused
(``ValueError``): whatever answers is only a program found under a Python's name.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from typing import IO, Any

from docsnippets.constants import Status
from docsnippets.snippets import classify
from docsnippets.snippets.classify import Comparable, SyntaxStatus


@dataclass(frozen=True)
class Facts:
    """What the declared Python makes of one body.

    ``status`` is taken only for a selected body (one with a marker or a module); ``code``, the
    tokens pairs compare, only for a body short enough to be tokenized once for all readers.
    """

    markers: tuple[str, ...]
    modules: tuple[str, ...]
    status: SyntaxStatus | None
    code: Comparable | None


def facts_here(body: str, modules: tuple[str, ...]) -> Facts:
    """The facts as the running Python gives them."""
    markers = tuple(classify.find_markers(body))
    found = tuple(classify.find_modules(body, modules))
    if not markers and not found:
        return Facts(markers, found, None, None)
    status = classify.syntax_status(body)
    code = classify.comparable(body) if len(body) <= classify.SHARED_TOKENS_CHARS else None
    return Facts(markers, found, status, code)


# --- the wire --------------------------------------------------------------------------------


def encode_code(code: Comparable | None) -> list[Any] | None:
    if code is None:
        return None
    return [[row, depth, classify.type_name(kind), text] for row, depth, kind, text in code]


def decode_code(raw: Any) -> Comparable | None:
    if raw is None:
        return None
    items = []
    for row, depth, name, text in _list(raw):
        if not (_int(row) and _int(depth) and isinstance(name, str) and isinstance(text, str)):
            raise ValueError("a token is not [row, depth, type, text]")
        items.append((row, depth, classify.type_number(name), text))
    return tuple(items)


def encode_facts(f: Facts) -> list[Any]:
    status = None if f.status is None else [f.status.status, f.status.message, f.status.line]
    return [list(f.markers), list(f.modules), status, encode_code(f.code)]


def decode_facts(raw: Any) -> Facts:
    markers, modules, status, code = _list(raw)
    found = None
    if status is not None:
        kind, message, line = _list(status)
        if not (message is None or isinstance(message, str)) or not (line is None or _int(line)):
            raise ValueError("a status is not [status, message, line]")
        found = SyntaxStatus(Status(kind), message, line)
    return Facts(_strings(markers), _strings(modules), found, decode_code(code))


def _list(raw: Any) -> list[Any]:
    if not isinstance(raw, list):
        raise ValueError(f"a list was expected, not {type(raw).__name__}")
    return raw


def _int(value: Any) -> bool:
    return isinstance(value, int) and not isinstance(value, bool)


def _strings(raw: Any) -> tuple[str, ...]:
    items = tuple(_list(raw))
    if not all(isinstance(item, str) for item in items):
        raise ValueError("a list of names holds something else")
    return items


def answer(request: list[Any]) -> Any:
    """The answer to one request: ``["facts", body, modules]`` or ``["comparable", body]``."""
    if request[0] == "facts":
        return encode_facts(facts_here(request[1], tuple(request[2])))
    return encode_code(classify.comparable(request[1]))


def serve(requests: Iterable[bytes], out: IO[bytes]) -> None:
    """The child's loop: its version first, then one answer line per request line, until EOF."""
    out.write(json.dumps([*sys.version_info[:2], sys.version]).encode() + b"\n")
    out.flush()
    for line in requests:
        out.write(json.dumps(answer(json.loads(line))).encode() + b"\n")
        out.flush()
