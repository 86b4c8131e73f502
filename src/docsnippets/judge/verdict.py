"""The one decision of a run: did the gate pass, and if not, why.

Exit code, comment headline, job summary, log line, outputs, annotations and the JSON report
are all rendered from one ``Verdict``, so they cannot contradict each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from docsnippets.constants import Cause, ExitCode, FailOn, parse_fail_on
from docsnippets.judge.compare import Report, all_lost
from docsnippets.words import counted, plural


@dataclass(frozen=True)
class Verdict:
    """The gate's answer for one report under one ``fail-on`` setting (normalized text).

    Unless the gate is off (``never``), a stale manifest always counts; ``desync`` and
    ``references`` add their findings to what fails the check.
    """

    fail_on: str
    fresh: bool
    reasons: tuple[str, ...]
    desync: int
    error: str | None = None
    manifest_missing: bool = False
    references: int = 0
    lost: int = 0  # pairs of pages one side of which was renamed or deleted: desynchronized too
    translated: bool = False  # the translations setting: any number of languages, none "bilingual"
    # Found already at the change's base (debts.py): said, never counted.
    desync_debts: int = 0
    reference_debts: int = 0

    @property
    def gate(self) -> frozenset[str]:
        return frozenset(self.fail_on.split(","))

    @property
    def cause(self) -> Cause | None:
        """Why the gate failed (stale, desync, references, error), None when it passed.

        A stale manifest outranks an error: a red check that is certainly right beats an
        undecidable one.
        """
        if not self.fresh and self.stale_enforced:
            return Cause.STALE
        if (self.desync or self.lost) and self.desync_enforced:
            return Cause.DESYNC
        if self.references and self.references_enforced:
            return Cause.REFERENCES
        if self.error is not None:
            return Cause.ERROR
        return None

    @property
    def passed(self) -> bool:
        return self.cause is None

    @property
    def exit_code(self) -> int:
        """A plain int, as ``sys.exit`` and the JSON report take it."""
        cause = self.cause
        if cause is None:
            return int(ExitCode.PASSED)
        return int(ExitCode.ERROR if cause == Cause.ERROR else ExitCode.FAILED)

    @property
    def stale_enforced(self) -> bool:
        return FailOn.NEVER not in self.gate

    @property
    def desync_enforced(self) -> bool:
        return FailOn.DESYNC in self.gate

    @property
    def references_enforced(self) -> bool:
        return FailOn.REFERENCES in self.gate

    @property
    def _desync_noun(self) -> str:
        """What one out-of-sync entry is: a translation when there may be many languages."""
        return "translation" if self.translated else "bilingual example"

    def desync_words(self) -> str:
        return f"{counted(self.desync, self._desync_noun)} out of sync"

    def lost_words(self) -> str:
        noun = "page" if self.translated else "bilingual page"
        return f"{counted(self.lost, noun)} lost {plural(self.lost, 'its', 'their')} counterpart"

    def pair_words(self) -> str:
        """The desynchronized examples and the pages that lost their counterpart, as counted."""
        words = [self.desync_words()] if self.desync else []
        return "; ".join([*words, self.lost_words()] if self.lost else words)

    def references_words(self) -> str:
        return f"{counted(self.references, 'broken reference')} to the code"

    def debts_words(self) -> str:
        """What the base already held, as counted: ``1 bilingual example out of sync, 2 broken references``."""
        words = [f"{counted(self.desync_debts, self._desync_noun)} out of sync"] if self.desync_debts else []
        if self.reference_debts:
            words.append(counted(self.reference_debts, "broken reference"))
        return ", ".join(words)

    def manifest_words(self) -> str:
        if self.manifest_missing:
            return "manifest missing"
        return "manifest fresh" if self.fresh else "manifest stale: " + "; ".join(self.reasons)

    def sentence(self) -> str:
        """One plain line: the gate's answer first, then what was found, then the setting."""
        head = "check passed" if self.passed else f"check failed ({self.cause})"
        found = [self.manifest_words()]
        if self.desync:
            found.append(self.desync_words() + ("" if self.desync_enforced else ", not enforced"))
        if self.lost:
            found.append(self.lost_words() + ("" if self.desync_enforced else ", not enforced"))
        if self.references:
            found.append(self.references_words() + ("" if self.references_enforced else ", not enforced"))
        if self.desync_debts or self.reference_debts:
            found.append(f"already before this change, not counted: {self.debts_words()}")
        if self.error is not None:
            found.append(f"error: {self.error}")
        return f"{head}: {'; '.join(found)} (fail-on {self.fail_on})"

    def as_json(self) -> dict[str, Any]:
        return {
            "passed": self.passed,
            "cause": self.cause,
            "exit_code": self.exit_code,
            "fail_on": self.fail_on,
            "fresh": self.fresh,
            "desynchronized": self.desync,
            "lost_pairs": self.lost,
            "broken_references": self.references,
            "debts": {"desynchronized": self.desync_debts, "broken_references": self.reference_debts},
            "error": self.error,
        }

    def outputs(self) -> dict[str, str]:
        return {"verdict": "passed" if self.passed else "failed", "failed-on": self.cause or ""}


def decide(
    freshness: Report,
    fail_on: str,
    *,
    error: str | None = None,
    manifest_missing: bool = False,
    changes: Report | None = None,
) -> Verdict:
    """``changes`` (the base manifest against the same tree) adds the pages that lost their
    counterpart since the base: the committed manifest may already have forgotten them."""
    return Verdict(
        fail_on=parse_fail_on(fail_on),
        fresh=freshness.fresh,
        reasons=freshness.reasons,
        desync=len(freshness.desynchronized),
        error=error,
        manifest_missing=manifest_missing,
        references=len(freshness.broken_references),
        lost=len(all_lost(freshness, changes)),
        translated=_translated(freshness),
        desync_debts=len(freshness.desync_debts),
        reference_debts=len(freshness.reference_debts),
    )


def _translated(freshness: Report) -> bool:
    """Whether the languages are configured (their counts are per language) or the entries say so."""
    entries = (*freshness.desynchronized, *freshness.desync_debts)
    return "untranslated_by_language" in freshness.summary or any(d.language is not None for d in entries)
