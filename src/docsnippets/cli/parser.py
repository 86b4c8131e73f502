"""The command line's grammar: every subcommand, its options and how each value is checked."""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path
from typing import Any, NoReturn

import docsnippets.cli.init as init
import docsnippets.cli.paths as paths
from docsnippets import __version__
from docsnippets.constants import parse_fail_on
from docsnippets.manifest.io import COMMIT, REPOSITORY
from docsnippets.visible import quoted


class UsageError(Exception):
    pass


def _terminal_columns() -> int:
    try:
        return os.get_terminal_size(sys.__stdout__.fileno()).columns if sys.__stdout__ else 80
    except (OSError, ValueError):
        return 80


class _Formatter(argparse.HelpFormatter):
    # argparse builds a formatter for every add_argument, and without a width it imports
    # shutil (and compression modules) to ask for the terminal's: a few ms of every start.
    def __init__(self, prog: str) -> None:
        super().__init__(prog, width=max(_terminal_columns() - 2, 40))


class _Parser(argparse.ArgumentParser):
    def __init__(self, *args: Any, **kwargs: Any) -> None:
        kwargs.setdefault("formatter_class", _Formatter)
        super().__init__(*args, **kwargs)

    def error(self, message: str) -> NoReturn:
        raise UsageError(f"{message}; see `{self.prog} --help`")


def _directory(value: str) -> Path:
    if not value.strip():
        raise argparse.ArgumentTypeError("empty path; name a directory, or pass --no-cache")
    return Path(value)


def _repository(value: str) -> str:
    if not REPOSITORY.fullmatch(value):
        raise argparse.ArgumentTypeError(f"{quoted(value)} is not OWNER/NAME (letters, digits, '-', '_', '.')")
    return value


def _commit(value: str) -> str:
    if not COMMIT.fullmatch(value):
        raise argparse.ArgumentTypeError(f"{quoted(value)} is not a commit; pass 7 to 40 hex digits")
    return value.lower()


def _fail_on(value: str) -> str:
    try:
        return parse_fail_on(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{quoted(value)} {exc}") from None


def build_parser() -> argparse.ArgumentParser:
    """The parser of every subcommand."""
    parser = _Parser(prog="docsnippets", description="Keep documentation-snippets.json true to the docs.")
    parser.add_argument("--version", action="version", version=f"docsnippets {__version__}")
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)

    def common(p: argparse.ArgumentParser) -> None:
        p.add_argument("--root", type=Path, help=paths.ROOT_HELP)
        p.add_argument(
            "--manifest",
            type=Path,
            help="manifest path (default: <root>/documentation-snippets.json)",
        )
        p.add_argument("--config", type=Path, help="YAML config (default: <root>/.docsnippets.yml if present)")

    def cached(p: argparse.ArgumentParser) -> None:
        p.add_argument(
            "--cache-dir",
            type=_directory,
            help="where parsed files are remembered (default: $DOCSNIPPETS_CACHE_DIR, else ~/.cache/docsnippets)",
        )
        p.add_argument("--no-cache", action="store_true", help="parse every file, read and write no cache")

    def gated(p: argparse.ArgumentParser) -> None:
        p.add_argument("--strict-lines", action="store_true", help="moved snippets make the manifest stale too")
        p.add_argument(
            "--fail-on",
            type=_fail_on,
            metavar="LIST",
            default="stale",
            help="exit 1 when the manifest is stale (stale, the default), also when a bilingual pair is out of "
            "sync (desync) or an import or call of a snippet does not fit the code (references), as a "
            "comma-separated list; "
            "never alone turns the gate off; 2 on errors",
        )
        p.add_argument(
            "--no-references", action="store_true", help="do not check the snippets' imports and calls against the code"
        )
        p.add_argument(
            "--format",
            choices=("text", "markdown", "json"),
            default="text",
            help="text for a terminal, markdown for the PR comment's body, json for tools (default: text)",
        )
        p.add_argument(
            "--comment-template",
            type=Path,
            metavar="FILE",
            help="Jinja2 template for --format markdown (default: the packaged one; see docs/action.md)",
        )

    up = sub.add_parser("update", help="write the manifest from the tree")
    common(up)
    cached(up)
    up.add_argument(
        "--repository",
        type=_repository,
        metavar="OWNER/NAME",
        help="repository for permalinks (default: the config's, else the recorded one, else the origin remote)",
    )
    up.add_argument(
        "--commit",
        type=_commit,
        metavar="SHA",
        help="record that the Markdown is exactly at this commit and link every snippet to it "
        "(default: keep the recorded commit, linking only the snippets unchanged since)",
    )
    up.add_argument(
        "--force",
        action="store_true",
        help="forget the recorded source: drop its commit unless --commit is given, ask the origin remote again",
    )
    up.add_argument("files", nargs="*", help=argparse.SUPPRESS)  # pre-commit passes file names

    ck = sub.add_parser("check", help="compare the tree with the manifest (exit 1 when the gate fails)")
    common(ck)
    cached(ck)
    ck.add_argument(
        "--changed",
        nargs="+",
        metavar="FILE",
        help="only re-extract these files and their counterparts",
    )
    gated(ck)
    ck.add_argument("files", nargs="*", help=argparse.SUPPRESS)

    df = sub.add_parser(
        "diff",
        help="the pull-request report between two git refs, without a checkout",
        description="Compare BASE's manifest with HEAD's docs (what the change does) and HEAD's manifest with "
        "HEAD's docs (whether it is fresh), as the PR comment does. Files are read through git.",
    )
    df.add_argument("base", nargs="?", help="base ref (default: merge base of HEAD with origin/HEAD, main or master)")
    df.add_argument("head", nargs="?", help="head ref (default: the work tree, uncommitted edits included)")
    common(df)
    cached(df)
    gated(df)

    rd = sub.add_parser("render", help="print the human catalogue of the manifest")
    rd.add_argument("--root", type=Path, help=paths.ROOT_HELP)
    rd.add_argument("--manifest", type=Path, help="manifest path (default: <root>/documentation-snippets.json)")
    rd.add_argument(
        "--lang",
        default="zh",
        help="language of the catalogue: zh, en, or any language the translations setting names (default: zh)",
    )
    rd.add_argument("--output", type=Path, help="write to this file instead of standard output")

    init.add_parser(sub)
    md = sub.add_parser(
        "merge-driver",
        help="git merge driver for the manifest: docsnippets merge-driver %%O %%A %%B",
        description="Three-way merge of manifest entries by id; the result goes to CURRENT. "
        "Exit 0 when clean, 1 on a conflict (then fix the Markdown and run `docsnippets update`).",
    )
    md.add_argument("base", type=Path, metavar="BASE", help="the common ancestor's manifest (git's %%O)")
    md.add_argument("current", type=Path, metavar="CURRENT", help="this branch's manifest, overwritten (git's %%A)")
    md.add_argument("other", type=Path, metavar="OTHER", help="the other branch's manifest (git's %%B)")
    return parser
