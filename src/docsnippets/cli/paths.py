"""Where a command works: its root, its manifest, and paths shown as the user can paste them."""

from __future__ import annotations

import argparse
import os
from collections.abc import Iterable
from pathlib import Path, PurePosixPath
from typing import TextIO

from docsnippets.manifest import build as mf
from docsnippets.sources import SourceError
from docsnippets.sources.worktree import check_root, find_root

ROOT_HELP = (
    "the repository (default: the nearest directory above holding the manifest or .docsnippets.yml, "
    "else the git top level)"
)


def root(args: argparse.Namespace) -> Path:
    """``--root`` when given, else the root found from the working directory."""
    return check_root(args.root) if args.root is not None else find_root(Path.cwd())


def manifest(args: argparse.Namespace, root: Path) -> Path:
    """The manifest path; its directory must exist, because no command creates directories."""
    path = args.manifest if args.manifest is not None else root / mf.DEFAULT_MANIFEST
    if args.manifest is not None and not path.parent.is_dir():
        raise SourceError(
            f"{path}: the manifest's directory {path.parent} does not exist; "
            "create it or pass a path in an existing directory to --manifest"
        )
    return path


def shown(path: Path) -> Path:
    """``path`` relative to the working directory when it is under it or under the root above
    it (``../../documentation-snippets.json`` from ``docs/zh``); else as it is."""
    if not path.is_absolute():
        return path
    here = Path.cwd()
    try:
        return path.relative_to(here)
    except ValueError:
        pass
    top = find_root(here)
    if path.is_relative_to(top):
        return Path(os.path.relpath(path, here))
    return path


def changed(args: argparse.Namespace, root: Path, raw: Iterable[str]) -> list[str]:
    """``--changed`` names: relative to the working directory when the root was found above it
    (as git takes them), relative to ``--root`` when that was given."""
    here = Path.cwd()
    if args.root is not None or here == root:
        return list(raw)
    # Lexically, without resolving: a symlink among the names stays the tree's business.
    return [name if Path(name).is_absolute() else os.path.relpath(here / name, root) for name in raw]


def note_root(out: TextIO, args: argparse.Namespace, root: Path) -> None:
    """In a terminal report run from below the root it found, say where the root is: the report
    names files from the root, as the manifest and the PR comment do."""
    if args.format == "text" and args.root is None and root != Path.cwd().resolve():
        print(f"root: {os.path.relpath(root)} (file paths below are relative to it)", file=out)


def normalize_changed(root: Path, names: Iterable[str]) -> list[str]:
    """'/'-separated paths relative to the root; anything outside it is an error."""
    out: list[str] = []
    for raw in names:
        p = Path(raw)
        if p.is_absolute():
            try:
                p = p.resolve().relative_to(root)
            except ValueError:
                raise SourceError(f"{raw}: --changed path is outside the root {root}; pass paths inside it") from None
        rel = PurePosixPath(p.as_posix())
        if ".." in rel.parts:
            raise SourceError(f"{raw}: --changed path leaves the root; pass paths relative to {root}")
        text = rel.as_posix()
        if text.startswith("./"):
            text = text[2:]
        if text and text != "." and text not in out:
            out.append(text)
    return out
