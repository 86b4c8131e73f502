"""The manifest on disk: read its text and load it, with one error line for a path that cannot be read.

The rest of the manifest package works on text and data; this module is its file-system edge.
``root`` is the repository the manifest belongs to: inside it no symlink is followed (see
:mod:`docsnippets.fileio`).
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docsnippets.fileio import NotRegularFile, SymlinkRefused, read_regular
from docsnippets.manifest.build import SCHEMA, decoded, parse
from docsnippets.manifest.io import ManifestError, fail
from docsnippets.manifest.validate import GENERATOR


class ManifestAccessError(ManifestError):
    """The manifest path cannot be read at all (a directory, a FIFO, no permission)."""


def read(path: Path, *, root: Path | None) -> str | None:
    """The manifest's text, or None when the file does not exist."""
    try:
        raw = read_regular(path, root=root)
    except SymlinkRefused as exc:
        raise ManifestAccessError(str(exc)) from None
    except IsADirectoryError:
        raise ManifestAccessError(f"{path}: is a directory; pass the manifest file to --manifest") from None
    except NotRegularFile:
        raise ManifestAccessError(f"{path}: not a regular file; pass the manifest file to --manifest") from None
    except OSError as exc:
        raise ManifestAccessError(f"{path}: cannot read ({exc.strerror or exc}); fix its permissions") from None
    if raw is None:
        return None
    try:
        return raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise fail(str(path), "not UTF-8 text") from None


def load(path: Path, *, root: Path | None) -> dict[str, Any] | None:
    """The validated manifest (either schema), or None when the file does not exist."""
    text = read(path, root=root)
    return None if text is None else parse(text, str(path))


def previous(path: Path, *, root: Path | None) -> tuple[str | None, dict[str, Any] | None]:
    """What ``update`` replaces: the text, and the data when it is a valid manifest.

    A damaged manifest (a bad merge, a hand edit) is what ``update`` is for, so it gives no
    data and is rewritten. A manifest of a newer schema, or a JSON file another tool wrote,
    holds what this version cannot reproduce: overwriting it would lose data, so it is
    refused and the file stays as it is.
    """
    text = read(path, root=root)
    if text is None:
        return None, None
    try:
        data = decoded(text, str(path))
    except ManifestError:
        return text, None
    schema = data.get("schema") if isinstance(data, dict) else None
    if isinstance(schema, int) and not isinstance(schema, bool) and schema > SCHEMA:
        raise ManifestError(
            f"{path}: schema {schema} was written by a newer docsnippets (this one writes schema {SCHEMA}); "
            f"upgrade docsnippets to one that writes schema {schema}; the manifest was left unchanged"
        )
    generator = data.get("generator", GENERATOR) if isinstance(data, dict) else None
    ours = isinstance(data, dict) and ("generator" in data or "schema" in data)
    if not ours or not (isinstance(generator, str) and generator.startswith(GENERATOR)):
        raise ManifestError(
            f"{path}: not a docsnippets manifest; move it aside or pass another path to --manifest; "
            "it was left unchanged"
        )
    try:
        return text, parse(text, str(path))
    except ManifestError:
        return text, None
