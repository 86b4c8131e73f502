"""The code check of a judgement: which snippets' imports and calls are read against the tree's
code, and the findings with their snippets' manifest ids.

A tree without code that an import could resolve to (a docs-only checkout) has nothing to
judge, and the reference check's modules are not even loaded for it.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from docsnippets.config import Config
from docsnippets.snippets.records import Inventory, Snippet
from docsnippets.sources import FileSource, ModuleFiles
from docsnippets.words import counted

if TYPE_CHECKING:  # the reference check loads when a tree holds code for it to judge
    from docsnippets.references.findings import BrokenReference

Findings = tuple[tuple[str, "BrokenReference"], ...]  # (snippet id, finding)


@dataclass(frozen=True)
class CodeCheck:
    """The code check's findings, and one-line notices of what it could not judge."""

    findings: Findings = ()
    notices: tuple[str, ...] = ()


def code_findings(
    source: FileSource,
    inventory: Inventory,
    config: Config,
    changed: Sequence[str] | None,
    touched: Sequence[str] | None,
) -> CodeCheck:
    """Every snippet's findings, or with ``changed`` those of the snippets a change can break:
    the touched pages' and those importing or calling into a changed ``.py`` file."""
    from docsnippets.references.packages import reaches_code

    code = source.code()
    if not reaches_code(code, config.packages):
        return CodeCheck()
    from docsnippets.references.broken import snippets_to_check

    every = inventory.snippets
    chosen = every if changed is None else snippets_to_check(every, touched or (), changed, code, config.packages)
    return findings_of(inventory, chosen, code, config)


def base_findings(
    base: Inventory, wanted: Sequence[int], code: Callable[[], ModuleFiles | None] | None, config: Config
) -> Findings | None:
    """The base's findings for its snippets ``wanted`` (indices), read against the base's code;
    None when that code is unknown (``code`` absent, or it answers None: it could not be read)."""
    if not wanted:
        return ()
    files = code() if code is not None else None
    if files is None:
        return None
    from docsnippets.references.packages import reaches_code

    if not reaches_code(files, config.packages):
        return ()
    return findings_of(base, [base.snippets[i] for i in wanted], files, config).findings


def findings_of(inventory: Inventory, snippets: Iterable[Snippet], code: ModuleFiles, config: Config) -> CodeCheck:
    """The reference check of ``snippets`` (members of ``inventory``), each finding with its snippet's id."""
    from docsnippets.references.broken import broken_references

    ids = {s.key: sid for sid, s in zip(inventory.ids, inventory.snippets, strict=True)}
    stopped: set[str] = set()
    found = broken_references(
        snippets, code, config.packages, config.ignore_calls, inventory.snippets, config.languages, stopped=stopped
    )
    return CodeCheck(tuple((ids[b.snippet.key], b) for b in found), _stopped_notice(stopped))


def _stopped_notice(stopped: set[str]) -> tuple[str, ...]:
    """One line naming a module whose star imports the check stopped following, if any."""
    if not stopped:
        return ()
    from docsnippets.references.resolve import MAX_STAR_STEPS

    first, *others = sorted(stopped)
    more = f" (and {counted(len(others), 'other module')})" if others else ""
    return (
        f"{first}{more}: the code check stopped following star imports after {MAX_STAR_STEPS}; "
        "the names they bring in are not judged",
    )
