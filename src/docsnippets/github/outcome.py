"""What every Action run ends with: one verdict rendered as annotations, the JSON report, the
job summary, the step outputs and the last log line, so none can contradict another."""

from __future__ import annotations

import json
from dataclasses import dataclass, replace
from itertools import chain
from pathlib import Path
from typing import Any

from docsnippets.constants import DEFAULT_MANIFEST, FIX_COMMAND, Cause, ExitCode
from docsnippets.fileio import write_atomic
from docsnippets.github.annotate import annotations
from docsnippets.github.settings import Settings, bound_hit
from docsnippets.github.workflow import LogStream, append_summary, write_outputs
from docsnippets.judge import Judgement
from docsnippets.judge.compare import Report
from docsnippets.judge.verdict import Verdict
from docsnippets.report import render
from docsnippets.visible import visible_json
from docsnippets.work import OverBudget

REPORT_NAME = "docsnippets-report.json"


@dataclass(frozen=True)
class Outcome:
    """A run's judgement, and what kept the run from seeing everything (an API failure)."""

    judgement: Judgement
    error: str | None = None

    @property
    def freshness(self) -> Report:
        return self.judgement.freshness

    @property
    def changes(self) -> Report | None:
        return self.judgement.changes

    def verdict(self, fail_on: str) -> Verdict:
        return self.judgement.verdict(fail_on, self.error)

    def failed(self, error: str) -> Outcome:
        """The same findings with one more reason the run could not decide."""
        return replace(self, error="; ".join(e for e in (self.error, error) if e))


def fix_command(settings: Settings) -> str:
    return FIX_COMMAND + ("" if settings.manifest == DEFAULT_MANIFEST else f" --manifest {settings.manifest}")


def links(settings: Settings, sha: str) -> render.Links | None:
    if settings.repository and sha:
        return render.Links(settings.server_url, settings.repository, sha)
    return None


def has_changes(changes: Report | None) -> bool:
    return changes is not None and any(
        (changes.added, changes.removed, changes.changed, changes.moved, changes.resynchronized)
    )


def report_data(outcome: Outcome, verdict: Verdict) -> dict[str, Any]:
    """The JSON report: ``docsnippets check --format json`` plus the verdict and the changes."""
    return render.report_json(
        outcome.freshness,
        {
            "verdict": verdict.as_json(),
            "changes": render.report_json(outcome.changes) if outcome.changes is not None else None,
            "error": verdict.error,
            "lost_pairs": [x.as_json() for x in outcome.judgement.lost],
        },
    )


def finish(
    settings: Settings, outcome: Outcome, ctx: render.CommentContext, out: LogStream, *, delivered: bool = False
) -> int:
    """Every output of the run, each rendered from the same verdict; returns the exit code.

    ``delivered``: the run's job was to hand the verdict on (stage 2 sets the commit status the
    gate is), so a failing verdict it delivered is exit 0; only an error is not.
    """
    freshness = outcome.freshness
    verdict = outcome.verdict(settings.fail_on)
    for line in annotations(freshness, verdict, ctx.manifest_name, outcome.judgement.lost):
        out.command(line)
    report_path = _report_path(settings)
    try:
        # Written as it is encoded: a report of many thousand snippets is never held as one text
        # (each piece shown as visible_json shows the whole: it reads one character at a time).
        encoder = json.JSONEncoder(ensure_ascii=False, indent=2)
        pieces = map(visible_json, encoder.iterencode(report_data(outcome, verdict)))
        write_atomic(report_path, chain(pieces, "\n"), root=None)
    except OSError as exc:
        out.annotate("warning", f"cannot write the JSON report to {report_path}: {exc.strerror}")
    try:
        summary = render.comment(freshness, replace(ctx, marker="", verdict=verdict))
    except OverBudget as exc:  # the verdict stands; only its long form is not written out
        summary = f"### {verdict.sentence()}\n\nThe full report is in the JSON report: {bound_hit(exc)}.\n"
    append_summary(settings.step_summary, summary)
    write_outputs(settings.output, _outputs(outcome, verdict, _shown_path(report_path, settings.workspace)))
    code = verdict.exit_code
    if delivered and verdict.cause != Cause.ERROR:
        code = int(ExitCode.PASSED)
    out.line(f"docsnippets: {verdict.sentence()}; exit {code}")
    return code


def _outputs(outcome: Outcome, verdict: Verdict, report: str) -> dict[str, str]:
    counts = outcome.changes if outcome.changes is not None else outcome.freshness
    return {
        "fresh": "true" if outcome.freshness.fresh else "false",
        **verdict.outputs(),
        "added": str(len(counts.added)),
        "removed": str(len(counts.removed)),
        "changed": str(len(counts.changed)),
        "moved": str(len(counts.moved)),
        "desynchronized": str(len(outcome.freshness.desynchronized)),
        "report": report,
    }


def _shown_path(path: Path, workspace: Path) -> str:
    """Relative to the workspace when inside it: the container's /github/workspace is the
    runner's $GITHUB_WORKSPACE, so later steps open the same relative path."""
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return str(path)


def _report_path(settings: Settings) -> Path:
    if settings.runner_temp is not None and settings.runner_temp.is_dir():
        return settings.runner_temp / REPORT_NAME
    return settings.workspace / ("." + REPORT_NAME)
