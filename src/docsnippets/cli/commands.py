"""``docsnippets update | check | render``: exit 0 fresh, 1 stale, 2 error — never a traceback."""

from __future__ import annotations

import argparse
import contextlib
import os
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import NoReturn, TextIO

import docsnippets.cli.init as init
import docsnippets.cli.paths as paths
from docsnippets import interpreter
from docsnippets.cache import CacheSettings, SnippetCache
from docsnippets.cli.output import update_summary, warn, warn_pairing, write_report
from docsnippets.cli.parser import UsageError, build_parser
from docsnippets.config import Config, ConfigError
from docsnippets.configfile import load as load_config
from docsnippets.fileio import SymlinkRefused, write_atomic
from docsnippets.judge import Case, Scope, judge
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.report.templating import TemplateError
from docsnippets.snippets import grammar
from docsnippets.sources import SourceError
from docsnippets.sources.worktree import WorkTree, origin_repository
from docsnippets.update import update
from docsnippets.visible import VisibleWriter, visible

EXIT_FRESH, EXIT_ERROR = 0, 2
EXIT_CONFLICT = 1  # what git expects of a merge driver that leaves a conflict


def _config(args: argparse.Namespace, root: Path) -> Config:
    interpreter.install(avoid=(root,))  # the tree being judged never supplies the Python that judges it
    return load_config(args.config, root)


def _memo(args: argparse.Namespace, config: Config, settings: CacheSettings) -> SnippetCache | None:
    directory = args.cache_dir if args.cache_dir is not None else settings.directory
    if args.no_cache or directory is None:
        # Every page will be judged: another declared Python starts now and boots while they
        # are read. With a cache it starts only if a page misses.
        grammar.judge(config.python).prepare()
        return None
    return SnippetCache(directory, config)


def cmd_update(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    config = _config(args, root)
    path = paths.manifest(args, root)
    if config.is_markdown(path.name):
        raise UsageError(f"{path}: the manifest would overwrite a Markdown file; pass a .json path to --manifest")
    memo = _memo(args, config, settings)
    before = store.previous(path, root=root)[1]  # to say what the update did to the pairs
    source = WorkTree(root)
    result = update(
        source,
        config,
        path,
        repository=args.repository,
        commit=args.commit,
        force=args.force,
        memo=memo,
        detect=lambda: origin_repository(root, config.server_url),
    )
    for notice in result.inventory.notices:
        print(f"docsnippets: warning: {visible(str(notice))}", file=sys.stderr)
    for note in result.notes:
        print(f"docsnippets: note: {visible(note)}", file=sys.stderr)
    warn_pairing(result.inventory, config, source, whole_tree=True)
    update_summary(out, paths.shown(path), result.written, result.inventory, before)
    return EXIT_FRESH


def cmd_check(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    config = _config(args, root)
    path = paths.manifest(args, root)
    changed = None
    if args.changed is not None or args.files:
        changed = paths.normalize_changed(root, paths.changed(args, root, [*(args.changed or []), *args.files]))
        for rel in changed:
            if not (root / rel).exists():
                warn(f"{rel}: --changed file does not exist under {root}; checked as deleted")
    case = Case(
        WorkTree(root),
        config,
        store.load(path, root=root),
        changed=tuple(changed) if changed is not None else None,
        scope=Scope.CHANGED,
        strict_lines=args.strict_lines,
        references=not args.no_references,
        memo=_memo(args, config, settings),
    )
    found = judge(case)
    for notice in found.freshness.notices:
        warn(notice)
    warn_pairing(found.inventory, config, case.source, whole_tree=changed is None)
    verdict = found.verdict(args.fail_on)
    paths.note_root(out, args, root)
    write_report(
        out,
        args.format,
        found,
        verdict,
        manifest=paths.shown(path),
        comment={"manifest_name": path.name, "template": args.comment_template, "root": root},
    )
    return verdict.exit_code


def cmd_render(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    root = paths.root(args)
    path = paths.manifest(args, root)
    data = store.load(path, root=root)
    if data is None:
        raise mf.ManifestError(f"{path}: manifest not found; run `docsnippets update` first")
    if data["schema"] == 1:
        print(
            f"docsnippets: warning: {path} was written by an older docsnippets (schema {data['schema']}); "
            "`docsnippets update` rewrites it",
            file=sys.stderr,
        )
    from docsnippets.report.catalogue import languages_of
    from docsnippets.report.render import catalogue

    languages = languages_of(data)
    if args.lang not in languages:
        raise UsageError(f"--lang {visible(args.lang)}: choose one of {', '.join(languages)}")
    text = catalogue(mf.upgrade(data, Config()), args.lang)
    if args.output is not None and args.output.resolve() == path.resolve():
        raise UsageError(f"{args.output}: --output is the manifest itself; write the catalogue to another file")
    if args.output is not None:
        write_atomic(args.output, text, root=root)
    else:
        out.write(text)
    return EXIT_FRESH


def cmd_merge_driver(args: argparse.Namespace, out: TextIO, settings: CacheSettings) -> int:
    from docsnippets.git.merge_driver import merge_files

    result = merge_files(args.base, args.current, args.other, root=Path.cwd())  # where git runs it
    for line in result.messages:
        print(f"docsnippets: {visible(line)}", file=sys.stderr)
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
    result = found.judgement
    for notice in result.freshness.notices:
        warn(notice)
    if found.hint:
        warn(found.hint)
    verdict = result.verdict(args.fail_on)
    comment = {
        "manifest_name": path.name,
        "manifest_path": found.manifest_rel,
        "base_missing": result.base_missing,
        "template": args.comment_template,
        "root": root,
    }
    extra = None
    if args.format == "json":
        from docsnippets.report.data import report_json

        changes = report_json(result.changes) if result.changes is not None else None
        extra = {"base": found.base, "head": found.head, "changes": changes}
    paths.note_root(out, args, root)
    write_report(out, args.format, result, verdict, manifest=paths.shown(path), comment=comment, extra=extra)
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
    """The CLI; everything it prints, on either stream, shows hidden characters visible
    (``docsnippets.visible``): names and code from the tree cannot drive the terminal."""
    shown = VisibleWriter(out if out is not None else sys.stdout)
    with contextlib.redirect_stderr(VisibleWriter(sys.stderr)):  # type: ignore[type-var]
        return _main(argv, shown, environ)  # type: ignore[arg-type]


def _main(argv: Sequence[str] | None, out: TextIO, environ: Mapping[str, str] | None) -> int:
    try:
        settings = CacheSettings.from_environ(os.environ if environ is None else environ)
        argv = sys.argv[1:] if argv is None else list(argv)
        args = build_parser().parse_args(argv)
        return COMMANDS[args.command](args, out, settings)
    except UsageError as exc:
        print(f"docsnippets: error: {exc}", file=sys.stderr)
    except (ConfigError, mf.ManifestError, SourceError, TemplateError, SymlinkRefused) as exc:
        print(f"docsnippets: error: {visible(str(exc))}", file=sys.stderr)
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
    """The console script: :func:`main`, its output flushed, then exit with its code.

    A flush that fails (a closed pipe, a full disk) turns a success into an error exit, and a
    full disk is named on standard error; what could not be written then goes to the null
    device, so the interpreter's own last flush has nothing left to complain about. A stream
    closed before the start is a sink, not a crash: the exit code still carries the verdict.
    """
    for name in ("stdout", "stderr"):
        if getattr(sys, name) is None:  # started with that descriptor closed: what goes there is dropped
            setattr(sys, name, open(os.devnull, "w", encoding="utf-8"))  # noqa: SIM115 (lives until exit)
    code = main()
    for stream in (sys.stdout, sys.stderr):
        try:
            stream.flush()
        except (OSError, ValueError) as exc:
            code = code or EXIT_ERROR
            if stream is sys.stdout and not isinstance(exc, BrokenPipeError):  # a reader that left: no news
                reason = exc.strerror if isinstance(exc, OSError) and exc.strerror else str(exc)
                with contextlib.suppress(OSError):
                    os.write(2, f"docsnippets: error: the output could not be written ({reason})\n".encode())
            _sink(stream)
    sys.exit(code)


def _sink(stream: TextIO) -> None:
    """Point the stream's descriptor at the null device: its unwritten buffer goes nowhere."""
    with contextlib.suppress(OSError, ValueError):
        null = os.open(os.devnull, os.O_WRONLY)
        os.dup2(null, stream.fileno())
        os.close(null)
