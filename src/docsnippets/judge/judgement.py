"""The one place a verdict is built: a tree, its committed manifest and, on a change, the
base's manifest and the paths it touched, judged in one pure function.

``check``, ``diff``, the push check and both stages of the Action only make the source of
files (a work tree, a git commit, a GitHub commit), read the manifests and call
:func:`judge`; what they print or post is rendered from the one :class:`Judgement`. So the
inventory, freshness and its reasons, the desync limit, the base comparison, the lost pairs
and the code check are decided here, once, the same for every caller.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, replace
from enum import StrEnum
from typing import Any

from docsnippets import work
from docsnippets.config import Config
from docsnippets.judge.code import base_findings, code_findings
from docsnippets.judge.compare import Report, all_lost, compare, limit_desync, match
from docsnippets.judge.inventory import EMPTY, keep_records, overlay, partial, touched_files, unreadable, whole
from docsnippets.judge.lost import LostPair
from docsnippets.judge.verdict import Verdict, decide
from docsnippets.manifest import build as mf
from docsnippets.manifest.validate import unwritten
from docsnippets.pagerules import Translations
from docsnippets.snippets.extract import Memo
from docsnippets.snippets.records import Inventory
from docsnippets.sources import FileSource, ModuleFiles, Refusal


class Scope(StrEnum):
    """How much of the tree is read: all of it, or the changed pages on top of the manifest."""

    WHOLE = "whole"
    CHANGED = "changed"


@dataclass(frozen=True)
class Base:
    """The base's manifest as records, for "what does this change do"; ``missing``: the base
    has none (the change adopts docsnippets), so every snippet is new.

    ``code`` reads the base tree's code, called only when a broken reference of the head lies
    in a snippet the base had (to tell an old finding from the change's, debts.py); it answers
    None when that code cannot be read, and without it no finding is taken for an old one.
    """

    inventory: Inventory
    missing: bool = False
    code: Callable[[], ModuleFiles | None] | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Case:
    """What is judged.

    ``changed``: the paths the change touched (a PR's files, ``--changed``, a git diff), None
    when unknown; it scopes the desynchronized pairs, the base comparison and the code check,
    never the freshness of a whole reading. ``reread``: pages a CHANGED reading reads besides
    the touched ones (pages whose records cannot be trusted).
    """

    source: FileSource
    config: Config
    manifest: dict[str, Any] | None
    changed: tuple[str, ...] | None = None
    base: Base | None = None
    scope: Scope = Scope.WHOLE
    reread: frozenset[str] = frozenset()
    strict_lines: bool = False
    references: bool = True
    memo: Memo | None = field(default=None, compare=False)
    limits: work.Limits = field(default_factory=work.Limits)  # bounds on the run's work (the Action's)


@dataclass(frozen=True)
class Judgement:
    """The committed manifest against the tree (``freshness``, which decides) and, on a change,
    the base manifest against it (``changes``: what the change does)."""

    freshness: Report
    changes: Report | None
    inventory: Inventory
    touched: tuple[str, ...] | None
    manifest_missing: bool
    base_missing: bool = False
    refused: tuple[Refusal, ...] = ()
    translations: Translations | None = None  # the languages' setting, for their names in reports

    @property
    def lost(self) -> tuple[LostPair, ...]:
        return all_lost(self.freshness, self.changes)

    def verdict(self, fail_on: str, error: str | None = None) -> Verdict:
        """The gate's answer under ``fail_on``; ``error`` is what kept the run from seeing
        everything (an API failure); a refused path is one too."""
        errors = [error] if error else []
        errors += [str(r) for r in self.refused]
        return decide(
            self.freshness,
            fail_on,
            error="; ".join(errors) or None,
            manifest_missing=self.manifest_missing,
            changes=self.changes,
        )


def manifest_reasons(report: Report, data: dict[str, Any] | None, config: Config) -> Report:
    """Stale, whatever the snippets say, when the manifest is missing, of an older schema or of
    the schema of another configuration (two languages against translation groups), or records
    what docsnippets does not write (a field of its own, another generator)."""
    wanted = mf.schema_for(config)
    if data is None:
        reasons = ["the manifest does not exist yet"]
    elif data["schema"] == 1:
        reasons = [
            f"it was written by an older docsnippets (schema {data['schema']}); `docsnippets update` rewrites it"
        ]
    elif data["schema"] != wanted:
        reasons = [
            f"it has schema {data['schema']} and this configuration's manifest schema {wanted} "
            f"({'translation groups' if config.translations else 'two languages'}); `docsnippets update` rewrites it"
        ]
    else:
        reasons = unwritten(data)
    if not reasons:
        return report
    return replace(report, fresh=False, reasons=(*reasons, *report.reasons))


def old_debts(freshness: Report, current: Inventory, base: Base, config: Config) -> Report:
    """``freshness`` with what the base already held out of sync or broken set apart (debts.py)."""
    if not freshness.desynchronized and not freshness.broken_references:
        return freshness
    from docsnippets.judge.debts import settle, wanted_at_base  # only a change with findings needs it

    mapping = match(base.inventory, current)
    back = {j: i for i, j in mapping.items()}
    wanted = wanted_at_base(freshness.broken_references, current, back)
    at_base = base_findings(base.inventory, wanted, base.code, config)
    return settle(freshness, current, base.inventory, mapping, at_base, config.python)


def judge(case: Case) -> Judgement:
    """The case judged; raises work.OverBudget when it needs more work than its limits allow."""
    with work.bounded(case.limits):
        return _judge(case)


def _judge(case: Case) -> Judgement:
    config, source, data = case.config, case.source, case.manifest
    recorded = mf.to_inventory(data) if data is not None else EMPTY
    known = {s.file for s in recorded.snippets}
    touched = touched_files(source, case.changed, config, known) if case.changed is not None else None
    if case.scope == Scope.CHANGED and data is not None and touched is not None:
        current, fresh = partial(source, recorded, {*touched, *case.reread}, config, case.memo)
    else:
        current, fresh = whole(source, config, case.memo, also=touched or ())
    refusals = (*fresh.refused, *unreadable(fresh.notices, known))
    refused = {r.path for r in refusals}
    current = keep_records(current, recorded, refused, config)
    settings_changed = data is not None and not config.same_selection(data.get("selection"))
    freshness = compare(
        recorded, current, strict_lines=case.strict_lines, settings_changed=settings_changed, python=config.python
    )
    if case.references and config.references:
        checked = code_findings(source, current, config, case.changed, touched)
        freshness = replace(
            freshness, broken_references=checked.findings, notices=(*freshness.notices, *checked.notices)
        )
    edited = [p for p in case.changed if config.selects(p)] if case.changed is not None else None
    freshness = limit_desync(manifest_reasons(freshness, data, config), touched, edited)
    changes = None
    if case.base is not None:
        before = case.base.inventory
        # Pages the change did not touch keep the base's records: a base branch that moved on
        # since the change forked from it must not read as this change undoing its commits.
        # Against no manifest at all, every snippet of the tree is new.
        whole_tree = touched is None or case.base.missing
        read = [t for t in touched or () if t not in refused]
        after = current if whole_tree else overlay(before, fresh, read, config, source, aligned=current)
        changes = compare(
            before, after, strict_lines=case.strict_lines, touched=touched, edited=edited, python=config.python
        )
        if not case.base.missing:
            freshness = old_debts(freshness, current, case.base, config)
    return Judgement(
        freshness=freshness,
        changes=changes,
        inventory=current,
        touched=tuple(touched) if touched is not None else None,
        manifest_missing=data is None,
        base_missing=case.base is not None and case.base.missing,
        refused=refusals,
        translations=config.translations,
    )
