"""Stage 2 on ``workflow_run``: the PR found from the event, its report computed from its files
read through the API as data, the sticky comment and a commit status the PR cannot forge.

The workspace holds the default branch, never the PR: its config is the one used. Nothing the
PR run produced is believed (its report is only cross-checked), and no PR code is checked out
or run. Reading fails loudly (exit 2, nothing written) rather than comment on a guess.
"""

from __future__ import annotations

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from docsnippets import engine
from docsnippets.config import Config
from docsnippets.constants import GITHUB_FILES_CAP, Cause, ExitCode
from docsnippets.github.crosscheck import cross_check, facts_of, stage1_facts
from docsnippets.github.outcome import Outcome, finish, report_data
from docsnippets.github.settings import ActionError, Settings
from docsnippets.github.stage1 import (
    Checkout,
    ClientFactory,
    Problems,
    PullRequest,
    base_inventory,
    base_text,
    both_names,
    comment_context,
    post_comment,
    read_event,
    require_token,
)
from docsnippets.github.workflow import LogStream, one_line
from docsnippets.manifest import build as mf
from docsnippets.report.compare import Report, compare, limit_desync
from docsnippets.report.verdict import Verdict
from docsnippets.snippets.records import Inventory

# Stage 2 reads the PR through the API, file by file: the modules every snippet imports would
# cost a request each, beyond its budget, so the reference check is left to stage 1.
REFERENCES_SKIPPED = (
    "the snippets' imports were not checked against the code here: this run reads the PR through the API "
    "and leaves that check to the PR's own run"
)
_SHA = re.compile(r"[0-9a-f]{40}")
_OWNER = re.compile(r"[A-Za-z0-9](?:[A-Za-z0-9-]*[A-Za-z0-9])?")


@dataclass(frozen=True)
class RunEvent:
    """What the event says about the stage 1 run: the only source of which commit to judge."""

    head_sha: str
    owner: str  # of the head repository: the fork's owner on a fork PR
    branch: str


@dataclass(frozen=True)
class Fetched:
    """The PR's content as read through the API at its head commit."""

    changed: tuple[str, ...]
    head_manifest: dict[str, Any] | None
    base: Inventory | None  # None when the base manifest could not be used
    base_missing: bool
    touched: tuple[str, ...]
    read: Mapping[str, bytes | None]


def run_event(event: dict[str, Any], settings: Settings) -> RunEvent:
    run = event.get("workflow_run")
    try:
        found = RunEvent(str(run["head_sha"]), str(run["head_repository"]["owner"]["login"]), str(run["head_branch"]))
        from_pr = run.get("event") == "pull_request"
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
    try:
        pr = find_pull(client, run)
    except Superseded as exc:
        out.line(f"docsnippets: {exc}")
        return int(ExitCode.PASSED)
    problems = Problems(out)
    fetched = fetch(client, settings, checkout.config, pr, problems)
    outcome = judge(settings, checkout.config, fetched, problems.error)
    verdict = outcome.verdict(settings.fail_on)
    finding = cross_check(facts_of(report_data(outcome, verdict)), stage1_facts(checkout.root, settings.report))
    if finding is not None:
        problems.warn(finding.log)
    ctx = comment_context(settings, checkout, pr.head_sha, outcome, fetched.base_missing)
    extra = f"\n\n> ⚠️ {finding.comment}\n" if finding is not None and finding.comment else ""
    if checkout.config.references:
        out.annotate("notice", REFERENCES_SKIPPED)
        extra += f"\n\n> ℹ️ {REFERENCES_SKIPPED}\n"
    outcome = post_comment(client, settings, pr.number, outcome, ctx, out, extra=extra)
    outcome = set_status(client, settings, pr.head_sha, outcome, out)
    return finish(settings, outcome, ctx, out, delivered=True)


# --- reading the PR as data ---------------------------------------------------------------------


def fetch(client: Any, settings: Settings, config: Config, pr: PullRequest, problems: Problems) -> Fetched:
    from docsnippets.github.client import GitHubError

    try:
        files = client.changed_files(pr.number)
        head_manifest = _manifest_at(client, settings.manifest, pr.head_sha)
    except GitHubError as exc:
        raise ActionError(f"{exc}; stage 2 cannot judge the PR without it") from None
    if len(files) >= GITHUB_FILES_CAP:
        raise ActionError(f"{len(files)} changed files (GitHub's cap): stage 2 cannot see every change")
    # A copy keeps its source: only a rename or a removal takes a file away.
    gone = {f.previous_filename for f in files if f.previous_filename and f.status == "renamed"} | {
        f.filename for f in files if f.status == "removed"
    }
    changed = tuple(both_names(files))
    text, base_ok = base_text(client, settings, pr, problems)
    base = base_inventory(text, settings, problems) if base_ok else None
    recorded = mf.to_inventory(head_manifest) if head_manifest is not None else None
    wanted = _with_counterparts(changed, config) | _suspects(recorded, base, settings.manifest in changed)
    try:
        read = {path: None if path in gone else client.bytes_at(path, pr.head_sha) for path in sorted(wanted)}
    except GitHubError as exc:
        raise ActionError(f"{exc}; stage 2 cannot judge the PR without it") from None
    touched = _touched(changed, config, read, recorded)
    return Fetched(changed, head_manifest, base, base_ok and text is None, touched, read)


def _manifest_at(client: Any, name: str, sha: str) -> dict[str, Any] | None:
    raw = client.bytes_at(name, sha)
    if raw is None:
        return None
    where = f"{name} at the PR's head {sha[:12]}"
    try:
        return mf.parse(raw.decode("utf-8-sig"), where)
    except UnicodeDecodeError:
        raise mf.ManifestError(f"{where}: not UTF-8 text; run `docsnippets update` on the branch") from None


def _selected(path: str, config: Config) -> bool:
    return config.is_markdown(path) and not config.is_excluded(path)


def _with_counterparts(changed: Sequence[str], config: Config) -> set[str]:
    out: set[str] = set()
    for path in changed:
        if _selected(path, config):
            out.add(path)
            out.update(other for _, other in config.counterparts(path))
    return out


def _records(inventory: Inventory | None) -> dict[str, tuple[Any, ...]]:
    """Per file: its recorded snippets, counterpart and pair relations, to compare two manifests."""
    if inventory is None:
        return {}
    out: dict[str, list[Any]] = {}
    for snippet in inventory.snippets:
        out.setdefault(snippet.file, []).append(snippet)
    for file, other in inventory.counterparts:
        out.setdefault(file, []).append(("counterpart", other))
    for pair in inventory.pairs:
        en, zh = inventory.snippets[pair.en], inventory.snippets[pair.zh]
        for file in {en.file, zh.file}:
            out.setdefault(file, []).append(("pair", en.key, zh.key, pair.relation))
    return {file: tuple(items) for file, items in out.items()}


def _suspects(recorded: Inventory | None, base: Inventory | None, manifest_changed: bool) -> set[str]:
    """Files the PR did not change whose records in its own manifest are not the base's.

    The PR's manifest is PR content: when the PR edits it, an entry for a file the PR did not
    change could claim anything. Those files are read too, so every record the verdict
    relies on is either the base branch's or checked against the file itself.
    """
    if recorded is None or not manifest_changed:
        return set()
    mine, theirs = _records(recorded), _records(base)
    return {file for file in set(mine) | set(theirs) if mine.get(file) != theirs.get(file)}


def _touched(
    changed: Sequence[str], config: Config, read: Mapping[str, bytes | None], recorded: Inventory | None
) -> tuple[str, ...]:
    """As on stage 1: the changed Markdown and those of its counterparts that exist."""
    known = {s.file for s in recorded.snippets} if recorded is not None else set()
    out: set[str] = set()
    for path in changed:
        if _selected(path, config):
            out.add(path)
            out.update(o for _, o in config.counterparts(path) if read.get(o) is not None or o in known)
    return tuple(sorted(out))


# --- the report -------------------------------------------------------------------------------


def judge(settings: Settings, config: Config, fetched: Fetched, error: str | None) -> Outcome:
    """The head manifest against the PR's files (the verdict), the base manifest against them."""
    data = fetched.head_manifest
    recorded = mf.to_inventory(data) if data is not None else Inventory((), (), ())
    # Without its own manifest the PR's other files are known only from the base's records.
    source = recorded if data is not None else (fetched.base or recorded)
    current = engine.inventory_with(source, config, fetched.read)
    settings_changed = data is not None and data.get("selection") != config.selection()
    freshness = compare(recorded, current, strict_lines=settings.strict_lines, settings_changed=settings_changed)
    freshness = limit_desync(engine.with_manifest_reasons(freshness, data), fetched.touched)
    changes: Report | None = None
    if fetched.base is not None:
        after = engine.inventory_with(fetched.base, config, fetched.read)
        changes = compare(fetched.base, after, strict_lines=settings.strict_lines, touched=fetched.touched)
    return Outcome(freshness, changes, error, data is None, current)


# --- the commit status --------------------------------------------------------------------------


def status_state(verdict: Verdict) -> str:
    if verdict.passed:
        return "success"
    return "error" if verdict.cause == Cause.ERROR else "failure"


def _description(verdict: Verdict) -> str:
    from docsnippets.github.client import STATUS_DESCRIPTION_LIMIT

    return one_line(verdict.sentence(), STATUS_DESCRIPTION_LIMIT)


def set_status(client: Any, settings: Settings, sha: str, outcome: Outcome, out: LogStream) -> Outcome:
    """The commit status branch protection can require: set here, where the PR cannot reach."""
    from docsnippets.github.client import GitHubError

    if not settings.status_context:
        return outcome
    verdict = outcome.verdict(settings.fail_on)
    target = f"{settings.server_url}/{settings.repository}/actions/runs/{settings.run_id}" if settings.run_id else None
    state = status_state(verdict)
    try:
        client.set_status(
            sha, state, context=settings.status_context, description=_description(verdict), target_url=target
        )
    except GitHubError as exc:
        out.annotate("warning", f"{exc}; branch protection will not see this verdict")
        return outcome.failed(str(exc))
    out.line(f"docsnippets: commit status {settings.status_context} set to {state} on {sha[:12]}")
    return outcome
