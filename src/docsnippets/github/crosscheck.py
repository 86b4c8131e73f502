"""Stage 1's uploaded report against the one stage 2 computed: a cross-check, never a source.

Stage 1 runs in the PR's own workflow, which a fork can rewrite, so its report is untrusted
input: only a few typed facts are taken from it (booleans, counts, the failure cause), and a
disagreement is reported with those facts alone, never with text from the file.
"""

from __future__ import annotations

import json
import os
from dataclasses import dataclass, fields
from pathlib import Path
from typing import Any

from docsnippets.constants import Cause
from docsnippets.sources.disk import read_file

MAX_REPORT_BYTES = 20 * 1024 * 1024


@dataclass(frozen=True)
class Facts:
    """What two reports of the same commit must agree on."""

    passed: bool
    cause: str | None
    fresh: bool
    added: int
    removed: int
    changed: int
    moved: int
    desynchronized: int

    def differences(self, other: Facts) -> list[str]:
        return [f.name for f in fields(self) if getattr(self, f.name) != getattr(other, f.name)]

    def shown(self, names: list[str]) -> str:
        return ", ".join(f"{name} {_word(getattr(self, name))}" for name in names)


def _word(value: object) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    return "none" if value is None else str(value)


def facts_of(report: Any) -> Facts | None:
    """The facts of a JSON report as the Action writes it; None when it is not one."""
    try:
        verdict, changes = report["verdict"], report["changes"] or report
        values = {
            "passed": verdict["passed"],
            "cause": verdict["cause"],
            "fresh": report["fresh"],
            **{k: len(changes[k]) for k in ("added", "removed", "changed", "moved")},
            "desynchronized": len(report["desynchronized"]),
        }
    except (TypeError, KeyError):
        return None
    typed = all(isinstance(values[k], bool) for k in ("passed", "fresh"))
    if not typed or values["cause"] not in (None, *Cause):
        return None
    return Facts(**values)


@dataclass(frozen=True)
class Unread:
    """Why there is no report to cross-check; ``absent``: nothing was there at all (the
    artifact may simply not exist), as opposed to a file that is not a report."""

    reason: str
    absent: bool


def stage1_facts(workspace: Path, name: str) -> Facts | Unread | None:
    """Facts from the report at ``name`` (a JSON file, or a directory holding exactly one);
    None when no report was named."""
    if not name:
        return None
    rel = name.strip("/")
    path = workspace / rel
    if path.is_dir() and not path.is_symlink():
        entries = os.scandir(path)
        found = sorted(e.name for e in entries if e.name.endswith(".json") and e.is_file(follow_symlinks=False))
        if len(found) != 1:
            return Unread(f"{len(found)} JSON files in {rel}; expected stage 1's one report", absent=not found)
        rel = f"{rel}/{found[0]}"
    data = read_file(workspace, rel, MAX_REPORT_BYTES)
    if not isinstance(data, bytes):
        return Unread(f"no stage 1 report at {rel}", absent=True)
    try:
        facts = facts_of(json.loads(data.decode("utf-8")))
    except (UnicodeDecodeError, ValueError, RecursionError):
        facts = None
    return facts if facts is not None else Unread(f"{rel} is not a docsnippets report", absent=False)


@dataclass(frozen=True)
class Finding:
    log: str  # for the log and a warning (may name the file)
    comment: str | None  # for the PR comment: typed facts and fixed words only


def cross_check(mine: Facts, theirs: Facts | Unread | None) -> Finding | None:
    """What to say when stage 1's report is missing, unreadable or says something else."""
    if theirs is None:
        return None
    if isinstance(theirs, Unread):
        said = None if theirs.absent else "stage 1's report could not be read, so it was not cross-checked"
        return Finding(f"stage 1's report was not cross-checked: {theirs.reason}", said)
    names = mine.differences(theirs)
    if not names:
        return None
    line = (
        f"stage 1's report disagrees with the one computed here (stage 1: {theirs.shown(names)}; "
        f"here: {mine.shown(names)}); the verdict is the one computed here"
    )
    return Finding(line, line)
