"""The declared Python: whose tokenizer and ``compile()`` decide what the manifest says of code.

Each release reads some bodies its own way: f-strings that reuse their quotes (PEP 701) and
type parameters (PEP 695) compile from 3.12 on, type parameter defaults (PEP 696) from 3.13,
the tokenizer gives up at other places, and the compiler words and places its errors
differently. A manifest of markers, imports, statuses and pair relations taken from whichever
interpreter runs would then change with the contributor's Python. So one version is declared
(the ``python`` setting, recorded in the manifest's selection) and every such fact comes from
it: from the running interpreter when it is that version, else from a child process of that
version running this same code (:mod:`docsnippets.interpreter` starts it). Same code on the
same Python version gives the same facts, byte for byte. A parser that takes the grammar
version as a parameter (parso, LibCST, tree-sitter's, ruff's) would spare the child, but none
accepts and refuses exactly what ``compile()`` does, nor words its errors the same way, and
the manifest records both.

This module is the port; the child is an edge, provided by the entry points through
:func:`provide`, so the pure core never starts a process itself.
"""

from __future__ import annotations

import sys
from collections.abc import Callable
from functools import lru_cache
from typing import Protocol

from docsnippets.config import DEFAULT_PYTHON, ConfigError
from docsnippets.snippets import classify
from docsnippets.snippets.classify import Comparable
from docsnippets.snippets.facts import Facts, facts_here

__all__ = ["Comparable", "Facts", "GrammarError", "Judge", "Running", "judge", "provide"]

RUNNING = f"{sys.version_info[0]}.{sys.version_info[1]}"


class GrammarError(ConfigError):
    """The declared Python cannot be had here; one line naming the setting and the fix."""


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
            why = f"this is Python {RUNNING}, with no way to start another here"
            raise GrammarError(unavailable(version, why, f"run docsnippets with Python {version}"))
        else:
            found = _provider(version)
        _judges[version] = found
    return found


def unavailable(version: str, why: str, fix: str) -> str:
    """The one line that says the declared Python cannot judge here, why, and what to do."""
    setting = "the `python` setting" + (", by default the Action's Python" if version == DEFAULT_PYTHON else "")
    return f"the snippets are judged by Python {version}'s grammar ({setting}) and {why}: {fix}"


@lru_cache(maxsize=4096)
def _comparable(judge: Judge, body: str) -> Comparable:
    return judge.comparable(body)


def comparable_tokens(judge: Judge, body: str) -> tuple[tuple[int, str], ...]:
    """:func:`classify.comparable_tokens` as the judge's Python reads the body."""
    return classify.tokens_of(_comparable(judge, body))


def block_shape(judge: Judge, body: str) -> tuple[tuple[int, bool], ...]:
    """:func:`classify.shape_of` as the judge's Python reads the body."""
    return classify.shape_of(_comparable(judge, body))


def comparable_lines(judge: Judge, body: str) -> tuple[str, ...]:
    return classify.lines_of(_comparable(judge, body))


def code_digest(judge: Judge, body: str) -> str:
    return classify.digest_of(_comparable(judge, body))


def code_rows(judge: Judge, body: str) -> tuple[tuple[int, int, str], ...]:
    """(row, block depth, code) of every code row (:func:`classify.rows_of`) as the judge's
    Python reads the body: what each code line is, where, and inside how many blocks (code
    moved into or out of a block is another line here, though its tokens are the same)."""
    return classify.rows_of(_comparable(judge, body))
