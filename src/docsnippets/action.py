"""The GitHub Actions runtime: settings from the environment, the PR flow, outputs, exit code.

Only ``Settings.from_environ`` reads the environment. PyGithub is imported lazily (through
``github_pr``) and only on the pull-request path, so the CLI and push checks stay light.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any, TextIO

from . import engine, render
from . import manifest as mf
from .compare import Report, compare
from .config import Config, ConfigError
from .config import load as load_config
from .records import Inventory
from .tree import TreeError, check_root
from .verdict import EXIT_ERROR, FAIL_ON, Verdict, decide

COMMENT_MODES = ("on-change", "always", "never")
PR_EVENTS = ("pull_request", "pull_request_target")
TREE_EVENTS = ("push", "workflow_dispatch", "schedule", "merge_group")
MAX_ANNOTATIONS = 10  # GitHub shows at most 10 of each level per step
GITHUB_FILES_CAP = 3000  # the pull request files API stops listing here


class ActionError(Exception):
    """A one-line, token-free reason the run cannot decide; exit 2."""


def _truthy(value: str, name: str) -> bool:
    low = value.strip().lower()
    if low in ("true", "yes", "1", "on"):
        return True
    if low in ("", "false", "no", "0", "off"):
        return False
    raise ActionError(f"input {name}={value!r} is not a boolean; use true or false")


@dataclass(frozen=True)
class Settings:
    event_name: str
    event_path: Path | None
    repository: str
    api_url: str
    server_url: str
    workspace: Path
    step_summary: Path | None
    output: Path | None
    runner_temp: Path | None
    sha: str
    token: str
    manifest: str
    config: str
    fail_on: str
    comment: str
    strict_lines: bool
    comment_template: str = ""  # a template file in the workspace, else the packaged one
    http_timeout: float = 20.0
    http_retries: int = 4
    http_backoff: float = 1.0
    per_page: int = 100
    http_pace: float = 0.25  # PyGithub's spacing between requests (GitHub's secondary-limit advice)

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Settings:
        def inp(name: str, default: str = "") -> str:
            # The runner passes inputs as INPUT_<NAME>, upper-cased, hyphens kept.
            return env.get(f"INPUT_{name.upper()}", default).strip() or default

        def path(name: str) -> Path | None:
            value = env.get(name, "")
            return Path(value) if value else None

        def number(name: str, default: float) -> float:
            raw = env.get(name, "")
            try:
                return float(raw) if raw else default
            except ValueError:
                raise ActionError(f"{name}={raw!r} is not a number") from None

        fail_on = inp("fail-on", "stale").lower()
        if fail_on not in FAIL_ON:
            raise ActionError(f"input fail-on={fail_on!r} is not one of {', '.join(FAIL_ON)}")
        comment = inp("comment", "on-change").lower()
        if comment not in COMMENT_MODES:
            raise ActionError(f"input comment={comment!r} is not one of {', '.join(COMMENT_MODES)}")
        return cls(
            event_name=env.get("GITHUB_EVENT_NAME", ""),
            event_path=path("GITHUB_EVENT_PATH"),
            repository=env.get("GITHUB_REPOSITORY", ""),
            api_url=env.get("GITHUB_API_URL", "https://api.github.com").rstrip("/"),
            server_url=env.get("GITHUB_SERVER_URL", "https://github.com").rstrip("/"),
            workspace=Path(env.get("GITHUB_WORKSPACE") or "."),
            step_summary=path("GITHUB_STEP_SUMMARY"),
            output=path("GITHUB_OUTPUT"),
            runner_temp=path("RUNNER_TEMP"),
            sha=env.get("GITHUB_SHA", ""),
            token=inp("github-token"),
            manifest=inp("manifest", mf.DEFAULT_NAME),
            config=inp("config"),
            fail_on=fail_on,
            comment=comment,
            strict_lines=_truthy(inp("strict-lines", "false"), "strict-lines"),
            comment_template=inp("comment-template"),
            http_timeout=number("DOCSNIPPETS_HTTP_TIMEOUT", 20.0),
            http_retries=int(number("DOCSNIPPETS_HTTP_RETRIES", 4)),
            http_backoff=number("DOCSNIPPETS_HTTP_BACKOFF", 1.0),
            per_page=int(number("DOCSNIPPETS_PER_PAGE", 100)),
            http_pace=number("DOCSNIPPETS_HTTP_PACE", 0.25),
        )


@dataclass(frozen=True)
class PullRequest:
    number: int
    base_sha: str
    head_sha: str
    head_repository: str
    fork: bool


def read_event(settings: Settings) -> dict[str, Any]:
    if settings.event_path is None:
        raise ActionError("GITHUB_EVENT_PATH is not set; run docsnippets as a GitHub Action step")
    try:
        data = json.loads(settings.event_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ActionError(f"{settings.event_path}: event file not found") from None
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ActionError(f"{settings.event_path}: unreadable event file ({type(exc).__name__})") from None
    if not isinstance(data, dict):
        raise ActionError(f"{settings.event_path}: the event is not a JSON object")
    return data


def pull_request(event: dict[str, Any], settings: Settings) -> PullRequest:
    pr = event.get("pull_request")
    try:
        head_repo = pr["head"].get("repo") or {}
        return PullRequest(
            number=int(pr["number"]),
            base_sha=str(pr["base"]["sha"]),
            head_sha=str(pr["head"]["sha"]),
            head_repository=str(head_repo.get("full_name") or settings.repository),
            fork=bool(head_repo.get("full_name")) and head_repo.get("full_name") != settings.repository,
        )
    except (TypeError, KeyError, ValueError):
        raise ActionError(
            f"{settings.event_path}: no pull_request number/base/head in the event; "
            "run this action on pull_request events"
        ) from None


# --- runner file commands ---------------------------------------------------------------------


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str,
    message: str,
    file: str | None = None,
    lines: tuple[int, int] | None = None,
    title: str = "",
) -> str:
    props = []
    if file:
        props.append(f"file={_escape_prop(file)}")
    if lines:
        props.append(f"line={lines[0]}")
        props.append(f"endLine={lines[1]}")
    if title:
        props.append(f"title={_escape_prop(title)}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{_escape_data(message)}"


def annotations(freshness: Report, verdict: Verdict, manifest_name: str) -> list[str]:
    """Most important first, within GitHub's per-step limit; the rest summarised.

    A finding is an error exactly when the verdict counts it against the check, so a green
    check never carries error annotations and a red one always names why.
    """
    stale_level = "error" if verdict.stale_enforced else "warning"
    desync_level = "error" if verdict.desync_enforced else "warning"
    stale = _stale_annotations(freshness, stale_level, manifest_name)
    desync = _desync_annotations(freshness, desync_level)
    errors = [a for a in (*stale, *desync) if a.startswith("::error")]
    warnings = [a for a in (*stale, *desync) if not a.startswith("::error")]
    out = errors[:MAX_ANNOTATIONS] + warnings[:MAX_ANNOTATIONS]
    hidden = len(errors) + len(warnings) - len(out)
    if verdict.cause == "error":
        out.insert(0, annotation("error", f"could not decide: {verdict.error}"))
    if hidden:
        out.append(annotation("notice", f"{hidden} more finding(s) are listed in the job summary"))
    return out


def _stale_annotations(freshness: Report, level: str, manifest_name: str) -> list[str]:
    fix = f"run `docsnippets update` and commit {manifest_name}"
    title = "Snippet manifest is stale"
    out = [
        annotation(level, f"snippet changed; {fix}", c.after.file, c.after.code_lines, title) for c in freshness.changed
    ]
    out += [
        annotation(level, f"new async snippet is not in the manifest; {fix}", s.file, s.code_lines, title)
        for _, s in freshness.added
    ]
    out += [
        annotation(level, f"snippet at {s.file}:{s.code_lines[0]} was removed; {fix}", title=title)
        for _, s in freshness.removed
    ]
    out += [
        annotation(level, f"status is now {c.after.status}; {fix}", c.after.file, c.after.code_lines, title)
        for c in freshness.metadata
    ]
    return out


def _desync_annotations(freshness: Report, level: str) -> list[str]:
    out: list[str] = []
    for d in freshness.desynchronized:
        for s in d.sides:
            if d.relation == "missing":
                msg = f"no matching example in {d.counterpart_file}; translate it or remove it"
            else:
                other = next(o for o in d.sides if o is not s)
                msg = f"code differs from its translation {other.file}:{other.code_lines[0]}; make them match"
            out.append(annotation(level, msg, s.file, s.code_lines, "Bilingual example out of sync"))
    return out


def write_outputs(path: Path | None, values: Mapping[str, str]) -> None:
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        for key, value in values.items():
            if "\n" in value:
                delimiter = "docsnippets_EOF"
                handle.write(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")
            else:
                handle.write(f"{key}={value}\n")


def append_summary(path: Path | None, text: str) -> None:
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)
        if not text.endswith("\n"):
            handle.write("\n")


# --- the run ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Outcome:
    freshness: Report
    changes: Report | None
    error: str | None = None
    manifest_missing: bool = False

    def verdict(self, fail_on: str) -> Verdict:
        return decide(self.freshness, fail_on, error=self.error, manifest_missing=self.manifest_missing)


ClientFactory = Callable[[Settings], Any]


def _default_client(settings: Settings) -> Any:
    from .github_pr import PullRequestClient

    return PullRequestClient(
        token=settings.token,
        api_url=settings.api_url,
        repository=settings.repository,
        timeout=settings.http_timeout,
        retries=settings.http_retries,
        backoff=settings.http_backoff,
        per_page=settings.per_page,
        seconds_between_requests=settings.http_pace or None,
        seconds_between_writes=settings.http_pace * 4 or None,
    )


def _fix_command(settings: Settings) -> str:
    return "docsnippets update" + ("" if settings.manifest == mf.DEFAULT_NAME else f" --manifest {settings.manifest}")


def run(settings: Settings, out: TextIO, client_factory: ClientFactory = _default_client) -> int:
    root = check_root(settings.workspace)
    config = load_config(root / settings.config if settings.config else None, root)
    manifest_path = root / settings.manifest
    if settings.event_name in PR_EVENTS:
        return _run_pr(settings, root, config, manifest_path, out, client_factory)
    if settings.event_name in TREE_EVENTS or not settings.event_name:
        result = engine.check(root, config, manifest_path, strict_lines=settings.strict_lines)
        outcome = Outcome(result.report, None, manifest_missing=result.manifest_missing)
        ctx = render.CommentContext(
            marker="",
            manifest_name=manifest_path.name,
            manifest_path=settings.manifest,
            links=_links(settings, settings.sha),
            head_manifest_missing=result.manifest_missing,
            template=_template(settings),
            inventory=result.inventory,
        )
        return _finish(settings, outcome, ctx, out)
    raise ActionError(f"event {settings.event_name!r} is not supported; use pull_request, push or workflow_dispatch")


def _template(settings: Settings) -> Path | None:
    return settings.workspace / settings.comment_template if settings.comment_template else None


def _links(settings: Settings, sha: str) -> render.Links | None:
    if settings.repository and sha:
        return render.Links(settings.server_url, settings.repository, sha)
    return None


def _run_pr(
    settings: Settings,
    root: Path,
    config: Config,
    manifest_path: Path,
    out: TextIO,
    client_factory: ClientFactory,
) -> int:
    from .github_pr import COMMENT_MARKER, GitHubError

    pr = pull_request(read_event(settings), settings)
    if not settings.token:
        raise ActionError("no GitHub token: set the github-token input (default: ${{ github.token }})")
    client = client_factory(settings)
    errors: list[str] = []
    changed: list[str] | None
    try:
        files = client.changed_files(pr.number)
        changed = sorted({n for f in files for n in (f.filename, f.previous_filename) if n})
        if len(files) >= GITHUB_FILES_CAP:
            # GitHub lists at most 3,000 files of a PR: a longer list may hide changed Markdown.
            print(annotation("notice", f"{len(files)} changed files (GitHub's cap); checking the whole tree"), file=out)
            changed = None
    except GitHubError as exc:
        errors.append(str(exc))
        print(annotation("warning", f"{exc}; checking the whole tree instead"), file=out)
        changed = None
    whole_tree = (
        changed is None
        or settings.manifest in changed
        or (settings.config and settings.config in changed)
        or any(name in (changed or []) for name in (".docsnippets.yml", ".docsnippets.yaml"))
    )
    result = engine.check(
        root,
        config,
        manifest_path,
        changed=None if whole_tree else changed,
        strict_lines=settings.strict_lines,
    )
    touched = result.touched or (tuple(engine.touched_files(root, changed, config)) if changed is not None else None)
    freshness = _limit_desync(result.report, touched)
    changes: Report | None = None
    base_missing = False
    try:
        base_text = client.file_at(settings.manifest, pr.base_sha)
    except GitHubError as exc:
        errors.append(str(exc))
        print(
            annotation("warning", f"{exc}; the comment will not show what this PR changes"),
            file=out,
        )
        base_text = None
    else:
        if base_text is None:
            base_missing = True
    if base_text is not None or base_missing:
        base_inv = _base_inventory(base_text, settings, out)
        if base_inv is not None:
            current = (
                engine.partial_inventory(root, config, base_inv, list(touched), result.scanned)
                if touched is not None and not base_missing and not whole_tree
                else result.inventory
            )
            changes = compare(base_inv, current, strict_lines=settings.strict_lines, touched=touched)
    outcome = Outcome(freshness, changes, "; ".join(errors) or None, result.manifest_missing)
    ctx = render.CommentContext(
        marker=COMMENT_MARKER,
        manifest_name=manifest_path.name,
        manifest_path=settings.manifest,
        links=_links(settings, pr.head_sha),
        base_missing=base_missing,
        head_manifest_missing=result.manifest_missing,
        changes=changes,
        fix_command=_fix_command(settings),
        verdict=outcome.verdict(settings.fail_on),
        template=_template(settings),
        inventory=result.inventory,
    )
    body = render.comment(freshness, ctx)
    if settings.comment != "never":
        noteworthy = freshness.stale or bool(freshness.desynchronized) or _has_changes(changes)
        create = settings.comment == "always" or noteworthy
        try:
            try:
                done = client.upsert_comment(pr.number, body, create=create)
            except GitHubError as exc:
                if exc.kind != "too_large":
                    raise
                done = client.upsert_comment(pr.number, render.comment(freshness, ctx, budget=8000), create=create)
            print(
                f"docsnippets: PR comment {done.action}" + (f": {done.url}" if done.url else ""),
                file=out,
            )
        except GitHubError as exc:
            if exc.kind == "forbidden":
                print(
                    annotation(
                        "warning",
                        f"{exc}. The token cannot comment (fork PRs get a read-only token); the job summary "
                        "has the report. To comment on fork PRs, see 'Fork pull requests' in the docsnippets README.",
                    ),
                    file=out,
                )
            else:
                # The comment could not be posted, so nothing shows its verdict; the summary,
                # the log and the exit code below all carry the error.
                errors.append(str(exc))
                outcome = replace(outcome, error="; ".join(errors))
    return _finish(settings, outcome, replace(ctx, marker=""), out)


def _has_changes(changes: Report | None) -> bool:
    return changes is not None and any(
        (changes.added, changes.removed, changes.changed, changes.moved, changes.resynchronized)
    )


def _limit_desync(report: Report, touched: Sequence[str] | None) -> Report:
    if touched is None:
        return report
    keep = set(touched)
    desync = tuple(
        d for d in report.desynchronized if any(s.file in keep for s in d.sides) or (d.counterpart_file or "") in keep
    )
    return replace(report, desynchronized=desync)


def _base_inventory(text: str | None, settings: Settings, out: TextIO) -> Inventory | None:
    if text is None:
        return Inventory((), (), ())
    try:
        return mf.to_inventory(mf.parse(text, f"{settings.manifest} at the base commit"))
    except mf.ManifestError as exc:
        print(
            annotation("warning", f"{exc}; the comment will not show what this PR changes"),
            file=out,
        )
        return None


def _finish(settings: Settings, outcome: Outcome, ctx: render.CommentContext, out: TextIO) -> int:
    """Every output of the run, each rendered from the same verdict."""
    freshness = outcome.freshness
    verdict = outcome.verdict(settings.fail_on)
    for line in annotations(freshness, verdict, ctx.manifest_name):
        print(line, file=out)
    report_path = _report_path(settings)
    data = render.report_json(
        freshness,
        {
            "verdict": verdict.as_json(),
            "changes": render.report_json(outcome.changes) if outcome.changes is not None else None,
            "error": outcome.error,
        },
    )
    try:
        mf.write_atomic(report_path, json.dumps(data, ensure_ascii=False, indent=2) + "\n")
    except OSError as exc:
        print(
            annotation("warning", f"cannot write the JSON report to {report_path}: {exc.strerror}"),
            file=out,
        )
    append_summary(settings.step_summary, render.comment(freshness, replace(ctx, verdict=verdict)))
    counts = outcome.changes if outcome.changes is not None else freshness
    write_outputs(
        settings.output,
        {
            "fresh": "true" if freshness.fresh else "false",
            **verdict.outputs(),
            "added": str(len(counts.added)),
            "removed": str(len(counts.removed)),
            "changed": str(len(counts.changed)),
            "moved": str(len(counts.moved)),
            "desynchronized": str(len(freshness.desynchronized)),
            "report": _shown_path(report_path, settings.workspace),
        },
    )
    print(f"docsnippets: {verdict.sentence()}; exit {verdict.exit_code}", file=out)
    return verdict.exit_code


def _shown_path(path: Path, workspace: Path) -> str:
    """Relative to the workspace when inside it: the container's /github/workspace is the
    runner's $GITHUB_WORKSPACE, so later steps open the same relative path."""
    try:
        return path.relative_to(workspace).as_posix()
    except ValueError:
        return str(path)


def _report_path(settings: Settings) -> Path:
    if settings.runner_temp is not None and settings.runner_temp.is_dir():
        return settings.runner_temp / "docsnippets-report.json"
    return settings.workspace / ".docsnippets-report.json"


def main(argv: Sequence[str] | None = None, environ: Mapping[str, str] | None = None) -> int:
    """With arguments: the CLI. Without: the Action, configured by the runner's environment."""
    if argv:
        from .cli import main as cli_main

        return cli_main(list(argv), environ=environ)
    import os

    env = os.environ if environ is None else environ
    out, err = sys.stdout, sys.stderr
    try:
        settings = Settings.from_environ(env)
        return run(settings, out)
    except (ActionError, ConfigError, mf.ManifestError, TreeError, render.TemplateError) as exc:
        message = str(exc)
        print(annotation("error", message), file=out)
        print(f"docsnippets: error: {message}", file=err)
    except Exception as exc:  # the gate answers with a code, never a traceback
        print(
            f"docsnippets: error: internal error ({type(exc).__name__}: {exc}); please report it",
            file=err,
        )
    return EXIT_ERROR
