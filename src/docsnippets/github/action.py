"""The GitHub Action: the settings read once, the event decides the flow, one exit code.

``pull_request`` runs stage 1 (``pr_flow``), ``workflow_run`` stage 2 (``stage2``), push-like
events check the whole checked-out tree. Every failure is one line and exit 2.
"""

from __future__ import annotations

import sys
from collections.abc import Mapping
from typing import TextIO

from docsnippets import interpreter, work
from docsnippets.config import ConfigError
from docsnippets.configfile import load as load_config
from docsnippets.constants import ExitCode
from docsnippets.github.outcome import Outcome, finish, links
from docsnippets.github.settings import ActionError, Settings, bound_hit
from docsnippets.github.stage1 import Checkout, ClientFactory, default_client, run_pr, template_path
from docsnippets.github.workflow import LogStream, add_mask
from docsnippets.judge import Case, judge
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.report import render
from docsnippets.sources import SourceError
from docsnippets.sources.worktree import WorkTree, check_root
from docsnippets.visible import quoted
from docsnippets.work import OverBudget

PR_EVENTS = ("pull_request", "pull_request_target")
TREE_EVENTS = ("push", "workflow_dispatch", "schedule", "merge_group")


def checkout_of(settings: Settings) -> Checkout:
    root = check_root(settings.workspace)
    # Another declared Python is looked for only on PATH and beside the image's own, never in
    # the workspace nor the home directory (shared with the job's earlier steps, which may have
    # run PR code).
    interpreter.install(home=False, avoid=(root,))
    config = load_config(root / settings.config if settings.config else None, root)
    return Checkout(root, config, root / settings.manifest, WorkTree(root))


def run(settings: Settings, out: LogStream, client_factory: ClientFactory = default_client) -> int:
    # The run's CPU bound holds to its end: judging, and rendering what it found (work.py).
    with work.bounded(settings.limits()):
        return _run(settings, out, client_factory)


def _run(settings: Settings, out: LogStream, client_factory: ClientFactory) -> int:
    checkout = checkout_of(settings)
    if settings.event_name in PR_EVENTS:
        return run_pr(settings, checkout, out, client_factory)
    if settings.event_name == "workflow_run":
        from docsnippets.github.stage2 import run_stage2

        return run_stage2(settings, checkout, out, client_factory)
    if settings.event_name in TREE_EVENTS or not settings.event_name:
        return run_tree(settings, checkout, out)
    raise ActionError(
        f"event {quoted(settings.event_name)} is not supported; "
        "use pull_request, workflow_run, push or workflow_dispatch"
    )


def run_tree(settings: Settings, checkout: Checkout, out: LogStream) -> int:
    """The committed manifest against the whole tree; no API, no token."""
    case = Case(
        checkout.source,
        checkout.config,
        store.load(checkout.manifest_path, root=checkout.root),
        strict_lines=settings.strict_lines,
        limits=settings.limits(),
    )
    try:
        outcome = Outcome(judge(case))
    except OverBudget as exc:
        raise ActionError(f"the tree is too large to judge: {bound_hit(exc)}") from None
    ctx = render.CommentContext(
        marker="",
        manifest_name=checkout.manifest_path.name,
        manifest_path=settings.manifest,
        links=links(settings, settings.sha),
        head_manifest_missing=outcome.judgement.manifest_missing,
        template=template_path(settings),
        root=checkout.root,
        inventory=outcome.judgement.inventory,
        translations=outcome.judgement.translations,
    )
    return finish(settings, outcome, ctx, out)


def main(environ: Mapping[str, str] | None = None, out: TextIO | None = None, err: TextIO | None = None) -> int:
    """The Action, configured by the runner's environment (``entrypoint.py`` without arguments)."""
    import os

    env = os.environ if environ is None else environ
    log = LogStream(sys.stdout if out is None else out)
    errors = LogStream(sys.stderr if err is None else err)
    mask = add_mask(env.get("INPUT_GITHUB-TOKEN", "").strip())
    if mask is not None:
        log.command(mask)
    try:
        return run(Settings.from_environ(env), log)
    except (ActionError, ConfigError, mf.ManifestError, SourceError, render.TemplateError) as exc:
        message = str(exc)
        log.annotate("error", message)
        errors.line(f"docsnippets: error: {message}")
    except Exception as exc:  # the gate answers with a code, never a traceback
        errors.line(f"docsnippets: error: internal error ({type(exc).__name__}: {exc}); please report it")
    return int(ExitCode.ERROR)
