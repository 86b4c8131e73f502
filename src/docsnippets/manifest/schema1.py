"""Manifests of schema 1 (positional ``DOC-001`` ids, ``file_sha256``, a ``summary`` block).

They are still read, never written: ``check`` reports one as stale (``update`` rewrites it),
and a base branch's schema-1 manifest still tells the Action what a pull request changes.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from pathlib import PurePosixPath
from typing import Any

from docsnippets.constants import PAIR_RELATIONS, Relation, Status
from docsnippets.manifest.io import permalink_of
from docsnippets.snippets.fences import sha256_text
from docsnippets.snippets.records import Inventory, Pair, Snippet, snippet_from
from docsnippets.visible import quoted

_FIELDS: dict[str, type] = {
    "id": str,
    "file": str,
    "fence_lines": list,
    "code_lines": list,
    "info": str,
    "markers": list,
    "modules": list,
    "status": str,
    "body": str,
    "body_sha256": str,
}
_STATUSES = tuple(Status)
_SNIPPET_ID = re.compile(r"DOC-[0-9]{3,}")
_PAIR_ID = re.compile(r"PAIR-[0-9]{2,}")


def validate(data: dict[str, Any], fail: Callable[[str], Exception], source: dict[str, Any] | None) -> None:
    """Check a schema-1 manifest well enough to rebuild its inventory; ``fail(msg)`` raises.

    ``source`` is the manifest's checked ``source`` object, which decides every permalink.
    """
    for key in ("snippets", "pairs"):
        if not isinstance(data.get(key), list):
            raise fail(f"'{key}' is missing or not a list")
    ids: set[str] = set()
    places: dict[tuple[str, int], str] = {}
    for n, entry in enumerate(data["snippets"]):
        at = f"snippets[{n}]"
        if not isinstance(entry, dict):
            raise fail(f"{at} is not an object")
        for key, kind in _FIELDS.items():
            if not isinstance(entry.get(key), kind):
                raise fail(f"{at}.{key} is missing or mistyped")
        if entry["id"] in ids or not _SNIPPET_ID.fullmatch(entry["id"]):
            raise fail(f"{at}.id {quoted(entry['id'])} is duplicated or not of the form DOC-001")
        ids.add(entry["id"])
        _check_entry(at, entry, source, fail)
        other = places.setdefault((entry["file"], entry["fence_lines"][0]), entry["id"])
        if other != entry["id"]:
            raise fail(f"{at}: {entry['id']} and {other} are the same fence of {entry['file']}")
    paired: set[str] = set()
    for n, entry in enumerate(data["pairs"]):
        members = entry.get("snippets") if isinstance(entry, dict) else None
        if not (
            isinstance(members, list)
            and len(members) == 2
            and all(isinstance(m, str) and m in ids and m not in paired for m in members)
            and members[0] != members[1]
            and isinstance(entry.get("id"), str)
            and _PAIR_ID.fullmatch(entry["id"])
            and entry.get("relation") in PAIR_RELATIONS
        ):
            raise fail(f"pairs[{n}] must name two snippet ids of this manifest and a relation")
        paired.update(members)


def _line_range(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    )


def _safe_path(value: Any) -> bool:
    if not isinstance(value, str):
        return False
    p = PurePosixPath(value)
    return bool(value) and not p.is_absolute() and ".." not in p.parts and "\\" not in value and "\0" not in value


def _check_entry(
    at: str, entry: dict[str, Any], source: dict[str, Any] | None, bad: Callable[[str], Exception]
) -> None:
    """One entry, its field types already checked: a safe path, lines, hash, status, permalink."""
    if not _safe_path(entry["file"]):
        raise bad(f"{at}.file {quoted(entry['file'])} must be a relative path without '..'")
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
    if entry["status"] not in _STATUSES:
        raise bad(f"{at}.status {quoted(entry['status'])} is not one of {', '.join(_STATUSES)}")
    if not all(isinstance(m, str) for m in entry["markers"] + entry["modules"]):
        raise bad(f"{at}: markers and modules must be strings")
    cf = entry.get("counterpart_file")
    if cf is not None and not _safe_path(cf):
        raise bad(f"{at}.counterpart_file must be null or a relative path")


def entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The snippet entries with their file, as schema 2 lays them out per file."""
    return list(data["snippets"])


def to_inventory(data: dict[str, Any]) -> Inventory:
    snippets: list[Snippet] = [snippet_from(entry["file"], entry) for entry in data["snippets"]]
    order = sorted(range(len(snippets)), key=lambda i: snippets[i].key)
    index_of = {data["snippets"][old]["id"]: new for new, old in enumerate(order)}
    pairs = [
        Pair(index_of[entry["snippets"][0]], index_of[entry["snippets"][1]], Relation(entry["relation"]))
        for entry in data["pairs"]
    ]
    pairs.sort(key=lambda p: (p.en, p.zh))
    counterparts: dict[str, str | None] = {}
    for entry in data["snippets"]:
        cf = entry.get("counterpart_file")
        counterparts.setdefault(entry["file"], cf if isinstance(cf, str) else None)
    return Inventory(tuple(snippets[i] for i in order), tuple(pairs), tuple(counterparts.items()))
