"""``docsnippets init``: the options, and what it says it did and what is left to do."""

from __future__ import annotations

import argparse
import shlex
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, TextIO

import docsnippets.cli.paths as paths
from docsnippets import interpreter
from docsnippets.cache import CacheSettings
from docsnippets.visible import quoted, visible

# The adoption code (templates, workflow texts) loads when init runs, not with every command.
if TYPE_CHECKING:
    from docsnippets.adopt.pending import Pending


def _action(value: str) -> str:
    from docsnippets.adopt.workflows import ACTION_REF

    if not ACTION_REF.fullmatch(value):
        raise argparse.ArgumentTypeError(
            f"{quoted(value)} is not OWNER/NAME@SHA with the full 40-hex commit of a release"
        )
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
        help="the Action the workflows use, pinned by commit (default: a placeholder, to replace)",
    )


def _and(items: list[str]) -> str:
    return items[0] if len(items) == 1 else ", ".join(items[:-1]) + " and " + items[-1]


def _them(names: list[str]) -> str:
    return "it" if len(names) == 1 else "them"


def _forced_step(todo: Pending, shown: Callable[[str], str]) -> str | None:
    """Why the commit below adds some files with -f: the rule that ignores each."""
    said = [f"{shown(rel)} is ignored by {rule}" for rel, rule in todo.forced.items()]
    if not said:
        return None
    why = (
        "no .gitignore line can bring back a file inside an ignored directory"
        if set(todo.forced) <= todo.in_ignored_directory
        else "git add refuses an ignored file"
    )
    return (
        f"{_and(said)}: {why}, so the commit below adds {_them(said)} with git add -f (once committed, git "
        f"tracks {_them(said)}); or change that rule"
    )


def _commit_step(todo: Pending, root: Path) -> str:
    """The commit of what is still to add, exact where the user stands: paths relative to the
    working directory inside the repository, else ``git -C`` the repository and its own paths."""
    inside = Path.cwd().is_relative_to(root)
    name = (lambda rel: str(paths.shown(root / rel))) if inside else (lambda rel: rel)
    git = "git" if inside else f"git -C {shlex.quote(str(paths.shown(root)))}"
    plain = [name(p) for p in todo.to_add if p not in todo.forced]
    forced = [name(p) for p in todo.to_add if p in todo.forced]
    adds = [f"{git} add {shlex.join(plain)}"] if plain else []
    adds += [f"{git} add -f {shlex.join(forced)}"] if forced else []
    return f"commit: {' && '.join(adds)} && {git} commit -m 'Adopt docsnippets'"


def _next_steps(todo: Pending, root: Path) -> list[str]:
    """The steps still pending, as the user can paste them where they stand."""
    shown = lambda rel: str(paths.shown(root / rel))  # noqa: E731
    steps = []
    if todo.unpinned:
        steps.append(
            f"pin the Action: in {_and([shown(p) for p in todo.unpinned])} replace OWNER/docsnippets@0000… with "
            "the commit of the release you use (RELEASING.md), or run init again with --force --action OWNER/NAME@SHA"
        )
    steps += [s for s in (_forced_step(todo, shown),) if s is not None]
    if todo.to_add:
        steps.append(_commit_step(todo, root))
    steps.append(
        "make it a merge gate, unless it is one (a clone cannot see branch protection): Settings → Branches → "
        "branch protection → require the `docsnippets` status (set by the comment workflow; docs/action.md: "
        "A merge gate)"
    )
    return steps


def cmd_init(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    from docsnippets.adopt.setup import PLANNED, init
    from docsnippets.adopt.workflows import PLACEHOLDER_USES

    root = paths.root(args)
    interpreter.install(avoid=(root,))  # it writes the first manifest: the tree never supplies its Python
    uses = args.action or PLACEHOLDER_USES
    result = init(root, uses=uses, force=args.force, dry_run=args.dry_run)
    for line in result.found:
        print(visible(line), file=out)
    print(f"layout: {visible(result.layout)}", file=out)
    for step in result.steps:
        verb = PLANNED.get(step.outcome, step.outcome) if args.dry_run else step.outcome
        target = step.target if step.target.startswith("git ") else str(paths.shown(root / step.target))
        print(f"{verb} {visible(target)}{f' ({visible(step.detail)})' if step.detail else ''}", file=out)
    if result.pending is None:
        print("nothing written (--dry-run)", file=out)
        return 0
    print("next steps:", file=out)
    for number, text in enumerate(_next_steps(result.pending, root), 1):
        print(f"  {number}. {visible(text)}", file=out)
    return 0
