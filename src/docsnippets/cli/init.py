"""``docsnippets init``: the options, and what it says it did and what is left to do."""

from __future__ import annotations

import argparse
import shlex
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import docsnippets.cli.paths as paths
from docsnippets import interpreter
from docsnippets.cache import CacheSettings
from docsnippets.report.markup import visible

# The adoption code (templates, workflow texts) loads when init runs, not with every command.
if TYPE_CHECKING:
    from docsnippets.adopt.setup import InitResult


def _action(value: str) -> str:
    from docsnippets.adopt.workflows import ACTION_REF

    if not ACTION_REF.fullmatch(value):
        raise argparse.ArgumentTypeError(f"{value!r} is not OWNER/NAME@SHA with the full 40-hex commit of a release")
    return value


def add_parser(sub: argparse._SubParsersAction) -> None:
    p = sub.add_parser(
        "init",
        help="set up docsnippets in this git repository (config if needed, manifest, workflows, merge driver)",
        description="Write what adopting docsnippets takes: .docsnippets.yml when the default pair rules do not "
        "fit the file names, the manifest, both workflows, the .gitattributes line, and the merge driver in "
        "this clone's git config. An existing file is left alone unless --force.",
    )
    p.add_argument("--root", type=Path, help="the repository's top (default: found from the current directory)")
    p.add_argument("--force", action="store_true", help="replace existing files and settings with the recommended")
    p.add_argument("--dry-run", action="store_true", help="print what would be done; write nothing")
    p.add_argument(
        "--action",
        type=_action,
        metavar="OWNER/NAME@SHA",
        help="the Action the workflows use, pinned by commit (default: README's placeholder, to replace)",
    )


def _next_steps(result: InitResult, root: Path, uses: str) -> list[str]:
    from docsnippets.adopt.workflows import PLACEHOLDER_USES, WORKFLOWS

    steps = []
    if uses == PLACEHOLDER_USES and any(s.target in WORKFLOWS and s.changes for s in result.steps):
        steps.append(
            "pin the Action: in both workflows replace OWNER/docsnippets@0000… with the commit of the release "
            "you use (README: Releases), or run init again with --force --action OWNER/NAME@SHA"
        )
    files = [str(paths.shown(root / s.target)) for s in result.steps if s.changes and not s.target.startswith("git ")]
    if files:
        steps.append(f"commit: git add {shlex.join(files)} && git commit -m 'Adopt docsnippets'")
    steps.append(
        "make it a merge gate: Settings → Branches → branch protection → require the `docsnippets` status "
        "(set by the comment workflow; README: Use it in a workflow)"
    )
    return steps


def cmd_init(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    from docsnippets.adopt.setup import PLANNED, init
    from docsnippets.adopt.workflows import PLACEHOLDER_USES

    root = paths.root(args)
    interpreter.install(avoid=(root,))  # it writes the first manifest: the tree never supplies its Python
    uses = args.action or PLACEHOLDER_USES
    result = init(root, uses=uses, force=args.force, dry_run=args.dry_run)
    print(f"layout: {visible(result.layout)}", file=out)
    for step in result.steps:
        verb = PLANNED.get(step.outcome, step.outcome) if args.dry_run else step.outcome
        target = step.target if step.target.startswith("git ") else str(paths.shown(root / step.target))
        print(f"{verb} {visible(target)}{f' ({visible(step.detail)})' if step.detail else ''}", file=out)
    if args.dry_run:
        print("nothing written (--dry-run)", file=out)
        return 0
    print("next steps:", file=out)
    for number, text in enumerate(_next_steps(result, root, uses), 1):
        print(f"  {number}. {visible(text)}", file=out)
    return 0
