"""Stage 2 on ``workflow_run``: the PR found from the event, its head commit read through the
API as data and judged whole (code check included) by the same judge as every other run, the
sticky comment and a commit status the PR cannot forge.

The workspace holds the default branch, never the PR: its config is the one used. Nothing the
PR run produced is believed (its report is only cross-checked), and no PR code is checked out
or run. Reading fails loudly (exit 2, nothing written) rather than comment on a guess.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, replace
from typing import Any

from docsnippets.constants import Cause, ExitCode
from docsnippets.github.crosscheck import cross_check, facts_of, stage1_facts
from docsnippets.github.outcome import Outcome, finish, report_data
from docsnippets.github.prfiles import Undecided, read_and_judge
from docsnippets.github.settings import ActionError, Settings, bound_hit
from docsnippets.github.stage1 import (
    Checkout,
    ClientFactory,
    Problems,
    PullRequest,
    comment_context,
    comment_undecided,
    post_comment,
    read_event,
    require_token,
)
from docsnippets.github.transport import DELIVERY_REQUESTS
from docsnippets.github.workflow import LogStream, one_line
from docsnippets.judge import Judgement
from docsnippets.judge.verdict import Verdict
from docsnippets.report.markup import code_span, plain
from docsnippets.work import OverBudget

_SHA = re.compile(r"[0-9a-f]{40}")
_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")
_REPOSITORY = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?/[A-Za-z0-9_.-]+")


@dataclass(frozen=True)
class RunEvent:
    """What the event says about the stage 1 run: the only source of which commit to judge."""

    head_sha: str
    owner: str  # of the head repository: the fork's owner on a fork PR
    branch: str
    repository: str | None = None  # the head repository's owner/name, where it names one


def run_event(event: dict[str, Any], settings: Settings) -> RunEvent:
    run = event.get("workflow_run")
    try:
        found = RunEvent(str(run["head_sha"]), str(run["head_repository"]["owner"]["login"]), str(run["head_branch"]))
        from_pr = run.get("event") == "pull_request"
        name = run["head_repository"].get("full_name")
        if isinstance(name, str) and _REPOSITORY.fullmatch(name):
            found = replace(found, repository=name)
    except (TypeError, KeyError, AttributeError):
        found, from_pr = None, False
    if found is None or not _SHA.fullmatch(found.head_sha) or not _OWNER.fullmatch(found.owner) or not found.branch:
        raise ActionError(
            f"{settings.event_path}: no workflow_run head_sha/head_branch/head_repository in the event; "
            "run stage 2 on: workflow_run of the stage 1 workflow"
        )
    if not from_pr:
        raise ActionError(f"the run of {found.head_sha[:12]} was not for a pull request; nothing to comment on")
    return found


class Superseded(Exception):
    """The run's commit is no longer its PR's head: a newer push has its own run, and this one
    has no verdict to give (one line, nothing written, exit 0)."""


def find_pull(client: Any, run: RunEvent) -> PullRequest:
    """The one open PR whose head is the run's commit, or a refusal: a newer push on the branch
    is Superseded; a closed PR or two PRs from one commit leave no PR this run may speak for."""
    from docsnippets.github.client import GitHubError

    try:
        open_pulls = client.open_pulls(run.owner, run.branch)
    except GitHubError as exc:
        raise ActionError(f"{exc}; cannot tell which pull request the run was for") from None
    pulls = [p for p in open_pulls if p.head_sha == run.head_sha]
    if not pulls and open_pulls:
        raise Superseded(
            f"{run.owner}:{run.branch} has moved on from {run.head_sha[:12]} (a newer push, judged by its own run); "
            "nothing was written"
        )
    if len(pulls) != 1:
        which = "no open pull request" if not pulls else f"{len(pulls)} open pull requests"
        raise ActionError(
            f"{which} from {run.owner}:{run.branch} has head {run.head_sha[:12]} (a closed PR?); nothing was written"
        )
    pull = pulls[0]
    return PullRequest(pull.number, pull.base_sha, pull.head_sha)


def run_stage2(settings: Settings, checkout: Checkout, out: LogStream, client_factory: ClientFactory) -> int:
    run = run_event(read_event(settings), settings)
    require_token(settings)
    client = client_factory(settings)
    problems = Problems(out)
    try:
        pr = find_pull(client, run)
        try:
            read: tuple[Judgement, str | None] | Undecided = read_and_judge(
                client, settings, checkout.config, pr, problems, run.repository
            )
        except Undecided as exc:
            read = exc
        # Reading is over, within its budget; the PR read again and the verdict's delivery
        # (comments, comment, status) have an allowance of their own.
        client.budget.grant(DELIVERY_REQUESTS)
        still_head(client, pr)
    except Superseded as exc:
        out.line(f"docsnippets: {exc}")
        return int(ExitCode.PASSED)
    if isinstance(read, Undecided):
        return undecided(client, settings, pr, str(read), out)
    found, code_skipped = read
    for refusal in found.refused:
        problems.warn(f"{refusal}; its snippets were not judged")
    outcome = Outcome(found, problems.error)
    verdict = outcome.verdict(settings.fail_on)
    finding = cross_check(facts_of(report_data(outcome, verdict)), stage1_facts(checkout.root, settings.report))
    if finding is not None:
        problems.warn(finding.log)
    ctx = comment_context(settings, checkout, pr.head_sha, outcome)
    extra = "".join(f"\n\n> ⛔ {code_span(r.path)}: {plain(r.reason)}\n" for r in found.refused)
    extra += f"\n\n> ⚠️ {finding.comment}\n" if finding is not None and finding.comment else ""
    if code_skipped is not None and checkout.config.references:
        out.annotate("notice", code_skipped)
        extra += f"\n\n> ℹ️ {plain(code_skipped)}\n"
    try:
        outcome = post_comment(client, settings, pr.number, outcome, ctx, out, extra=extra)
    except OverBudget as exc:  # rendering what was found took the rest of the run's CPU
        return undecided(client, settings, pr, f"PR too large for stage 2: {bound_hit(exc)}", out)
    outcome = set_status(client, settings, pr.head_sha, outcome, out)
    return finish(settings, outcome, ctx, out, delivered=True)


def still_head(client: Any, pr: PullRequest) -> None:
    """Everything read so far was the run's head; a verdict for it is worth giving only while
    it is still the PR's head, else the newer push's own run speaks for the PR."""
    from docsnippets.github.client import GitHubError

    try:
        now = client.pull(pr.number)
    except GitHubError as exc:
        raise ActionError(f"{exc}; cannot tell whether {pr.head_sha[:12]} is still the PR's head") from None
    if now.head_sha != pr.head_sha:
        raise Superseded(
            f"pull request #{pr.number} has moved on from {pr.head_sha[:12]} to {now.head_sha[:12]} while it was "
            "read (a newer push, judged by its own run); nothing was written"
        )


def undecided(client: Any, settings: Settings, pr: PullRequest, reason: str, out: LogStream) -> int:
    """A PR stage 2 cannot judge at all: an ``error`` status and a comment that say why."""
    from docsnippets.github.client import GitHubError

    out.annotate("error", reason)
    if settings.status_context:
        try:  # first: the gate's answer is never crowded out by the comment
            client.set_status(
                pr.head_sha,
                "error",
                context=settings.status_context,
                description=_short(reason),
                target_url=_target(settings),
            )
            out.line(f"docsnippets: commit status {settings.status_context} set to error on {pr.head_sha[:12]}")
        except GitHubError as exc:
            out.annotate("warning", f"{exc}; branch protection will not see this verdict")
    comment_undecided(client, settings, pr.number, reason, out)
    out.line(f"docsnippets: could not decide: {reason}; exit 2")
    return int(ExitCode.ERROR)


# --- the commit status --------------------------------------------------------------------------


def status_state(verdict: Verdict) -> str:
    if verdict.passed:
        return "success"
    return "error" if verdict.cause == Cause.ERROR else "failure"


def _short(text: str) -> str:
    from docsnippets.github.client import STATUS_DESCRIPTION_LIMIT

    return one_line(text, STATUS_DESCRIPTION_LIMIT)


def _target(settings: Settings) -> str | None:
    return f"{settings.server_url}/{settings.repository}/actions/runs/{settings.run_id}" if settings.run_id else None


def set_status(client: Any, settings: Settings, sha: str, outcome: Outcome, out: LogStream) -> Outcome:
    """The commit status branch protection can require: set here, where the PR cannot reach."""
    from docsnippets.github.client import GitHubError

    if not settings.status_context:
        return outcome
    verdict = outcome.verdict(settings.fail_on)
    state = status_state(verdict)
    client.budget.grant(1)  # however many comments the PR has, its status can be set
    try:
        client.set_status(
            sha,
            state,
            context=settings.status_context,
            description=_short(verdict.sentence()),
            target_url=_target(settings),
        )
    except GitHubError as exc:
        out.annotate("warning", f"{exc}; branch protection will not see this verdict")
        return outcome.failed(str(exc))
    out.line(f"docsnippets: commit status {settings.status_context} set to {state} on {sha[:12]}")
    return outcome
