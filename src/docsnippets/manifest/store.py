"""The manifest on disk: read its text and load it, with one error line for a path that cannot be read.

The rest of the manifest package works on text and data; this module is its file-system edge.
"""

from __future__ import annotations

from pathlib import Path
from typing import Any

from docsnippets.fileio import NotRegularFile, read_regular
from docsnippets.manifest.build import parse
from docsnippets.manifest.io import ManifestError, fail


class ManifestAccessError(ManifestError):
    """The manifest path cannot be read at all (a directory, a FIFO, no permission)."""


def read(path: Path) -> str | None:
    """The manifest's text, or None when the file does not exist."""
    try:
        raw = read_regular(path)
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


def load(path: Path) -> dict[str, Any] | None:
    """The validated manifest (either schema), or None when the file does not exist."""
    text = read(path)
    return None if text is None else parse(text, str(path))
