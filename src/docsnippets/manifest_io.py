"""What both manifest schemas share: entry checks, the source, the permalink and the dump."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from .constants import FIX_COMMAND, Status
from .fences import sha256_text
from .links import blob_lines
from .records import Snippet

REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")
# What may go into a Markdown link target unquoted: no space, control, bracket, quote or backslash.
_URL_PART = r"[^\s\x00-\x1f\x7f()<>\[\]\\\"'`]+"
SOURCE_PATTERNS = {
    "repository": REPOSITORY,
    "commit": COMMIT,
    "server_url": re.compile(r"https?://" + _URL_PART),
}
STATUSES = tuple(Status)
_DESCRIBED = {"repository": "an OWNER/NAME", "commit": "a 7-40 digit hex commit", "server_url": "an http(s) URL"}


class ManifestError(ValueError):
    """The manifest cannot be used; one line naming the file and the fix."""


def fail(where: str, message: str) -> ManifestError:
    return ManifestError(f"{where}: {message}; run `{FIX_COMMAND}` to regenerate it")


def permalink(server_url: str, repository: str, commit: str, snippet: Snippet) -> str:
    return blob_lines(server_url, repository, commit, snippet.file, snippet.code_lines)


def permalink_of(source: dict[str, Any] | None, entry: dict[str, Any]) -> str | None:
    """The permalink an entry with ``file`` and ``code_lines`` gets under ``source``, if any."""
    if not source or not (source.get("repository") and source.get("commit")):
        return None
    code = entry["code_lines"]
    server = source.get("server_url") or "https://github.com"
    return blob_lines(server, source["repository"], source["commit"], entry["file"], (code[0], code[1]))


def validate_source(source: Any, bad: Callable[[str], Exception]) -> dict[str, Any] | None:
    """The ``source`` object (links are built from it), or None when absent."""
    if source is None:
        return None
    if not isinstance(source, dict):
        raise bad("'source' is not an object")
    for key, pattern in SOURCE_PATTERNS.items():
        value = source.get(key)
        if value is not None and not (isinstance(value, str) and pattern.fullmatch(value)):
            raise bad(f"source.{key} {value!r} is not {_DESCRIBED[key]}")
    return source


def _line_range(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    )


def safe_path(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    p = PurePosixPath(value)
    return bool(value) and not p.is_absolute() and ".." not in p.parts and "\\" not in value and "\0" not in value


_FIELDS: dict[str, type] = {
    "id": str,
    "fence_lines": list,
    "code_lines": list,
    "info": str,
    "markers": list,
    "modules": list,
    "status": str,
    "body": str,
    "body_sha256": str,
}


def check_entry(at: str, entry: dict[str, Any], source: dict[str, Any] | None, bad: Callable[[str], Exception]) -> None:
    """One snippet entry (with its ``file``): types, a safe path, lines, hash, status, permalink."""
    for key, kind in _FIELDS.items():
        if not isinstance(entry.get(key), kind):
            raise bad(f"{at}.{key} is missing or mistyped")
    if not safe_path(entry["file"]):
        raise bad(f"{at}.file {entry['file']!r} must be a relative path without '..'")
    for key in ("fence_lines", "code_lines"):
        if not _line_range(entry[key]):
            raise bad(f"{at}.{key} must be two line numbers >= 1")
    (fence_first, fence_last), (code_first, code_last) = entry["fence_lines"], entry["code_lines"]
    if code_first != fence_first + 1 or not code_first - 1 <= code_last <= fence_last:
        raise bad(f"{at}.code_lines must lie just inside its fence_lines")
    for key, kind in (("status_message", str), ("status_line", int)):
        value = entry.get(key)
        if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
            raise bad(f"{at}.{key} must be null or a {kind.__name__}")
    if "permalink" in entry and entry["permalink"] != permalink_of(source, entry):
        raise bad(f"{at}.permalink is not the one its source and lines give")
    if sha256_text(entry["body"]) != entry["body_sha256"]:
        raise bad(f"{at}.body_sha256 does not match its body (edited by hand?)")
    if entry["status"] not in STATUSES:
        raise bad(f"{at}.status {entry['status']!r} is not one of {', '.join(STATUSES)}")
    if not all(isinstance(m, str) for m in entry["markers"] + entry["modules"]):
        raise bad(f"{at}: markers and modules must be strings")
    cf = entry.get("counterpart_file")
    if cf is not None and not safe_path(cf):
        raise bad(f"{at}.counterpart_file must be null or a relative path")


# --- the dump ------------------------------------------------------------------------------


def _dump(value: Any, pad: str) -> str:
    """Objects one key a line, lists of plain values on one line: short, stable diffs."""
    if isinstance(value, dict) and value:
        inner = pad + "  "
        items = (f"{inner}{json.dumps(k, ensure_ascii=False)}: {_dump(v, inner)}" for k, v in value.items())
        return "{\n" + ",\n".join(items) + "\n" + pad + "}"
    if isinstance(value, list) and any(isinstance(v, (dict, list)) for v in value):
        inner = pad + "  "
        return "[\n" + ",\n".join(inner + _dump(v, inner) for v in value) + "\n" + pad + "]"
    if isinstance(value, list):
        return "[" + ", ".join(json.dumps(v, ensure_ascii=False) for v in value) + "]"
    return json.dumps(value, ensure_ascii=False)


def dumps(data: dict[str, Any]) -> str:
    return _dump(data, "") + "\n"
