"""The one decision of a run: did the gate pass, and if not, why.

Exit code, comment headline, job summary, log line, outputs, annotations and the JSON report
are all rendered from one ``Verdict``, so they cannot contradict each other.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .compare import Report
from .constants import Cause, ExitCode, FailOn


@dataclass(frozen=True)
class Verdict:
    """The gate's answer for one report under one ``fail-on`` setting."""

    fail_on: FailOn
    fresh: bool
    reasons: tuple[str, ...]
    desync: int
    error: str | None = None
    manifest_missing: bool = False

    @property
    def cause(self) -> Cause | None:
        """Why the gate failed (stale, desync, error), None when it passed.

        A stale manifest outranks an error: a red check that is certainly right beats an
        undecidable one.
        """
        if not self.fresh and self.fail_on in (FailOn.STALE, FailOn.DESYNC):
            return Cause.STALE
        if self.desync and self.fail_on == FailOn.DESYNC:
            return Cause.DESYNC
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
        return self.fail_on != FailOn.NEVER

    @property
    def desync_enforced(self) -> bool:
        return self.fail_on == FailOn.DESYNC

    def desync_words(self) -> str:
        n = self.desync
        return f"{n} bilingual example{'s' if n != 1 else ''} out of sync"

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
) -> Verdict:
    try:
        mode = FailOn(fail_on)
    except ValueError:
        raise ValueError(f"fail-on {fail_on!r} is not one of {', '.join(FailOn)}") from None
    return Verdict(
        fail_on=mode,
        fresh=freshness.fresh,
        reasons=freshness.reasons,
        desync=len(freshness.desynchronized),
        error=error,
        manifest_missing=manifest_missing,
    )
