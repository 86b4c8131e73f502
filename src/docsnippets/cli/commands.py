"""``docsnippets update | check | render``: exit 0 fresh, 1 stale, 2 error — never a traceback."""

from __future__ import annotations

import argparse
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any, NoReturn, TextIO

import docsnippets.cli.init as init
import docsnippets.cli.paths as paths
from docsnippets import __version__, engine
from docsnippets.cache import CacheSettings, SnippetCache
from docsnippets.cli.output import update_summary, warn, warn_pairing, write_report
from docsnippets.config import Config, ConfigError
from docsnippets.configfile import load as load_config
from docsnippets.constants import parse_fail_on
from docsnippets.fileio import write_atomic
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.manifest.io import COMMIT, REPOSITORY
from docsnippets.report import render
from docsnippets.report.compare import limit_desync
from docsnippets.report.verdict import decide
from docsnippets.tree import TreeError, origin_repository

EXIT_FRESH, EXIT_ERROR = 0, 2
EXIT_CONFLICT = 1  # what git expects of a merge driver that leaves a conflict


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
        raise argparse.ArgumentTypeError(f"{value!r} is not OWNER/NAME (letters, digits, '-', '_', '.')")
    return value


def _commit(value: str) -> str:
    if not COMMIT.fullmatch(value):
        raise argparse.ArgumentTypeError(f"{value!r} is not a commit; pass 7 to 40 hex digits")
    return value.lower()


def _fail_on(value: str) -> str:
    try:
        return parse_fail_on(value)
    except ValueError as exc:
        raise argparse.ArgumentTypeError(f"{value!r} {exc}") from None


class _Unbuilt:
    """Stands in for the parser of a subcommand that is not the one being run: every call on it
    does nothing. Building a subcommand's parser costs a few milliseconds of every start (argparse
    looks up translations for each), and a run needs only its own."""

    def __getattr__(self, name: str) -> Any:
        return lambda *args, **kwargs: self


class _Subcommands(argparse._SubParsersAction):  # type: ignore[type-arg]
    only: str | None = None  # the subcommand to build, None for all (help, errors)

    def add_parser(self, name: str, **kwargs: Any) -> Any:
        if self.only is not None and name != self.only:
            return _Unbuilt()
        return super().add_parser(name, **kwargs)


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser of every subcommand, or with ``command`` of that one only (enough to run it)."""
    parser = _Parser(prog="docsnippets", description="Keep documentation-snippets.json true to the docs.")
    parser.add_argument("--version", action="version", version=f"docsnippets {__version__}")
    parser.register("action", "parsers", _Subcommands)
    sub = parser.add_subparsers(dest="command", required=True, parser_class=_Parser)
    sub.only = command

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
            "sync (desync) or an import of a snippet is broken (references), as a comma-separated list; "
            "never alone turns the gate off; 2 on errors",
        )
        p.add_argument("--no-references", action="store_true", help="do not check the snippets' imports")
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
            help="Jinja2 template for --format markdown instead of the packaged one (README lists its variables)",
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
    rd.add_argument("--lang", choices=("zh", "en"), default="zh", help="language of the catalogue (default: zh)")
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


def _config(args: argparse.Namespace, root: Path) -> Config:
    return load_config(args.config, root)


def _memo(args: argparse.Namespace, config: Config, settings: CacheSettings) -> SnippetCache | None:
    directory = args.cache_dir if args.cache_dir is not None else settings.directory
    if args.no_cache or directory is None:
        return None
    return SnippetCache(directory, config)


def cmd_update(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    config = _config(args, root)
    path = paths.manifest(args, root)
    if config.is_markdown(path.name):
        raise UsageError(f"{path}: the manifest would overwrite a Markdown file; pass a .json path to --manifest")
    memo = _memo(args, config, settings)
    before = store.previous(path)[1]  # to say what the update did to the pairs
    result = engine.update(
        root,
        config,
        path,
        repository=args.repository,
        commit=args.commit,
        force=args.force,
        memo=memo,
        detect=lambda: origin_repository(root),
    )
    for notice in result.inventory.notices:
        print(f"docsnippets: warning: {render.visible(str(notice))}", file=sys.stderr)
    for note in result.notes:
        print(f"docsnippets: note: {render.visible(note)}", file=sys.stderr)
    warn_pairing(result.inventory, config, root, whole_tree=True)
    update_summary(out, paths.shown(path), result.written, result.inventory, before)
    return EXIT_FRESH


def cmd_check(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    config = _config(args, root)
    path = paths.manifest(args, root)
    changed = None
    if args.changed is not None or args.files:
        changed = engine.normalize_changed(root, paths.changed(args, root, [*(args.changed or []), *args.files]))
        for rel in changed:
            if not (root / rel).exists():
                warn(f"{rel}: --changed file does not exist under {root}; checked as deleted")
    memo = _memo(args, config, settings)
    result = engine.check(
        root,
        config,
        path,
        changed=changed,
        strict_lines=args.strict_lines,
        memo=memo,
        references=not args.no_references,
    )
    report = limit_desync(result.report, result.touched)
    for notice in report.notices:
        warn(notice)
    warn_pairing(result.inventory, config, root, whole_tree=changed is None)
    verdict = decide(report, args.fail_on, manifest_missing=result.manifest_missing)
    ctx = render.CommentContext(
        marker="", manifest_name=path.name, template=args.comment_template, inventory=result.inventory
    )
    paths.note_root(out, args, root)
    shown = paths.shown(path)
    write_report(out, args.format, report, verdict, manifest=shown, manifest_missing=result.manifest_missing, ctx=ctx)
    return verdict.exit_code


def cmd_render(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    path = paths.manifest(args, root)
    data = store.load(path)
    if data is None:
        raise mf.ManifestError(f"{path}: manifest not found; run `docsnippets update` first")
    if data["schema"] != mf.SCHEMA:
        print(
            f"docsnippets: warning: {path} was written by an older docsnippets (schema {data['schema']}); "
            "`docsnippets update` rewrites it",
            file=sys.stderr,
        )
    text = render.catalogue(mf.upgrade(data, Config()), args.lang)
    if args.output is not None and args.output.resolve() == path.resolve():
        raise UsageError(f"{args.output}: --output is the manifest itself; write the catalogue to another file")
    if args.output is not None:
        write_atomic(args.output, text)
    else:
        out.write(text)
    return EXIT_FRESH


def cmd_merge_driver(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    from docsnippets.git.merge_driver import merge_files

    result = merge_files(args.base, args.current, args.other)
    for line in result.messages:
        print(f"docsnippets: {render.visible(line)}", file=sys.stderr)
    return EXIT_FRESH if result.clean else EXIT_CONFLICT


def cmd_diff(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    from docsnippets.git.diff import run_diff  # git is needed only here

    root = paths.root(args)
    config = _config(args, root)
    path = paths.manifest(args, root)
    memo = _memo(args, config, settings)
    found = run_diff(
        root,
        config,
        path,
        base=args.base,
        head=args.head,
        strict_lines=args.strict_lines,
        memo=memo,
        references=not args.no_references,
    )
    for notice in found.result.freshness.notices:
        warn(notice)
    if found.hint:
        warn(found.hint)
    result = found.result
    verdict = decide(
        result.freshness, args.fail_on, manifest_missing=result.head_manifest_missing, changes=result.changes
    )
    ctx = render.CommentContext(
        marker="",
        manifest_name=path.name,
        manifest_path=found.manifest_rel,
        base_missing=result.base_missing,
        changes=result.changes,
        template=args.comment_template,
        inventory=result.inventory,
    )
    extra = {
        "base": found.base,
        "head": found.head,
        "changes": render.report_json(result.changes) if result.changes is not None else None,
    }
    paths.note_root(out, args, root)
    write_report(
        out,
        args.format,
        result.freshness,
        verdict,
        manifest=paths.shown(path),
        manifest_missing=result.head_manifest_missing,
        ctx=ctx,
        extra=extra,
    )
    return verdict.exit_code


COMMANDS = {
    "update": cmd_update,
    "check": cmd_check,
    "diff": cmd_diff,
    "render": cmd_render,
    "merge-driver": cmd_merge_driver,
    "init": init.cmd_init,
}


def main(argv: Sequence[str] | None = None, out: TextIO | None = None, environ: Mapping[str, str] | None = None) -> int:
    out = out if out is not None else sys.stdout
    try:
        settings = CacheSettings.from_environ(os.environ if environ is None else environ)
        argv = sys.argv[1:] if argv is None else list(argv)
        args = build_parser(argv[0] if argv and argv[0] in COMMANDS else None).parse_args(argv)
        return COMMANDS[args.command](args, out, settings)
    except UsageError as exc:
        print(f"docsnippets: error: {exc}", file=sys.stderr)
    except (ConfigError, mf.ManifestError, TreeError, render.TemplateError) as exc:
        print(f"docsnippets: error: {render.visible(str(exc))}", file=sys.stderr)
    except KeyboardInterrupt:
        print("docsnippets: error: interrupted", file=sys.stderr)
    except BrokenPipeError:
        return EXIT_ERROR
    except OSError as exc:
        where = f"{exc.filename}: " if exc.filename else ""
        print(
            f"docsnippets: error: {where}{exc.strerror or exc}; check the path and permissions",
            file=sys.stderr,
        )
    except Exception as exc:  # the gate must answer with a code, not a traceback
        print(
            f"docsnippets: error: internal error ({type(exc).__name__}: {exc}); please report it",
            file=sys.stderr,
        )
    return EXIT_ERROR


def run() -> NoReturn:
    sys.exit(main())
