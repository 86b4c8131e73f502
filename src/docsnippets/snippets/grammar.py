"""The declared Python: whose tokenizer and ``compile()`` decide what the manifest says of code.

Each release reads some bodies its own way: f-strings that reuse their quotes (PEP 701) and
type parameters (PEP 695) compile from 3.12 on, type parameter defaults (PEP 696) from 3.13,
the tokenizer gives up at other places, and the compiler words and places its errors
differently. A manifest of markers, imports, statuses and pair relations taken from whichever
interpreter runs would then change with the contributor's Python. So one version is declared
(the ``python`` setting, recorded in the manifest's selection) and every such fact comes from
it: from the running interpreter when it is that version, else from a child process of that
version running this same code (:mod:`docsnippets.interpreter` starts it). Same code on the
same Python version gives the same facts, byte for byte.

This module is the port; the child is an edge, provided by the entry points through
:func:`provide`, so the pure core never starts a process itself.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from functools import lru_cache
from typing import IO, Any, Protocol

from docsnippets.config import ConfigError
from docsnippets.constants import Status
from docsnippets.snippets import classify
from docsnippets.snippets.classify import Comparable, SyntaxStatus

__all__ = ["Comparable", "Facts", "GrammarError", "Judge", "Running", "judge", "provide"]

RUNNING = f"{sys.version_info[0]}.{sys.version_info[1]}"


class GrammarError(ConfigError):
    """The declared Python cannot be had here; one line naming the setting and the fix."""


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


class Judge(Protocol):
    """A Python of the declared version, asked about bodies."""

    version: str

    @property
    def identity(self) -> str:
        """Which interpreter it is, down to the release (a cache key)."""
        ...

    def prepare(self) -> None:
        """Get ready to answer (start what must be started) without waiting for it."""
        ...

    def facts(self, body: str, modules: tuple[str, ...]) -> Facts: ...

    def comparable(self, body: str) -> Comparable: ...


def facts_here(body: str, modules: tuple[str, ...]) -> Facts:
    """The facts as the running Python gives them."""
    markers = tuple(classify.find_markers(body))
    found = tuple(classify.find_modules(body, modules))
    if not markers and not found:
        return Facts(markers, found, None, None)
    status = classify.syntax_status(body)
    code = classify.comparable(body) if len(body) <= classify.SHARED_TOKENS_CHARS else None
    return Facts(markers, found, status, code)


class Running:
    """The running interpreter, when it is the declared version."""

    version = RUNNING

    @property
    def identity(self) -> str:
        return sys.version

    def prepare(self) -> None:
        pass

    def facts(self, body: str, modules: tuple[str, ...]) -> Facts:
        return facts_here(body, modules)

    def comparable(self, body: str) -> Comparable:
        return classify.comparable(body)


# --- the declared version's judge ------------------------------------------------------------

_provider: Callable[[str], Judge] | None = None
_judges: dict[str, Judge] = {}


def provide(provider: Callable[[str], Judge]) -> None:
    """Set how a judge of another version than the running one is made (an entry point does)."""
    global _provider
    _provider = provider
    _judges.clear()


def judge(version: str) -> Judge:
    """The judge of ``version``: the running interpreter, or the provided one of that version."""
    found = _judges.get(version)
    if found is None:
        if version == RUNNING:
            found = Running()
        elif _provider is None:
            raise GrammarError(unavailable(version, "no other Python may be started here"))
        else:
            found = _provider(version)
        _judges[version] = found
    return found


def unavailable(version: str, why: str) -> str:
    return (
        f"the snippets are judged by Python {version}'s grammar (the `python` setting) and this is "
        f"Python {RUNNING}; {why}: install Python {version} (pyenv, uv or python{version} on PATH) "
        f'or run docsnippets with it, or set python: "{RUNNING}" in .docsnippets.yml'
    )


@lru_cache(maxsize=4096)
def _comparable(judge: Judge, body: str) -> Comparable:
    return judge.comparable(body)


def comparable_tokens(judge: Judge, body: str) -> tuple[tuple[int, str], ...]:
    """:func:`classify.comparable_tokens` as the judge's Python reads the body."""
    return classify.tokens_of(_comparable(judge, body))


def comparable_lines(judge: Judge, body: str) -> tuple[str, ...]:
    return classify.lines_of(_comparable(judge, body))


def code_digest(judge: Judge, body: str) -> str:
    return classify.digest_of(_comparable(judge, body))


# --- the child's side: requests and answers as JSON lines -------------------------------------
# Token types travel by name: their numbers differ between releases.


def encode_code(code: Comparable | None) -> list[Any] | None:
    return None if code is None else [[row, classify.type_name(kind), text] for row, kind, text in code]


def decode_code(raw: list[Any] | None) -> Comparable | None:
    return None if raw is None else tuple((row, classify.type_number(name), text) for row, name, text in raw)


def encode_facts(f: Facts) -> list[Any]:
    status = None if f.status is None else [f.status.status, f.status.message, f.status.line]
    return [list(f.markers), list(f.modules), status, encode_code(f.code)]


def decode_facts(raw: list[Any]) -> Facts:
    markers, modules, status, code = raw
    found = None if status is None else SyntaxStatus(Status(status[0]), status[1], status[2])
    return Facts(tuple(markers), tuple(modules), found, decode_code(code))


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
