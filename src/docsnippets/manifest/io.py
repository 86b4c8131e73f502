"""What both manifest schemas share: their numbers, the source, the permalink and the dump."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

from docsnippets.constants import FIX_COMMAND
from docsnippets.links import blob_lines
from docsnippets.snippets.records import Snippet
from docsnippets.visible import quoted, visible_json

SCHEMA = 2  # two languages, English and Chinese (the pair_rules setting)
GROUPS_SCHEMA = 3  # any number of languages (the translations setting): manifest/groups.py
# A manifest read from a commit is refused past this size: no tree docsnippets checks makes one.
MAX_MANIFEST_BYTES = 64 * 1024 * 1024
REPOSITORY = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+")
COMMIT = re.compile(r"[0-9a-fA-F]{7,40}")
# What may go into a Markdown link target unquoted: no space, control, bracket, quote or backslash.
_URL_PART = r"[^\s\x00-\x1f\x7f()<>\[\]\\\"'`]+"
SOURCE_PATTERNS = {
    "repository": REPOSITORY,
    "commit": COMMIT,
    "server_url": re.compile(r"https?://" + _URL_PART),
}
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
            raise bad(f"source.{key} {quoted(value)} is not {_DESCRIBED[key]}")
    return source


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
    """The manifest's text; a hidden character in a name or a body is written as its JSON
    escape, so a review of the committed file shows it (``docsnippets.visible``)."""
    return visible_json(_dump(data, "") + "\n")
