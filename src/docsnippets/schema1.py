"""Manifests of schema 1 (positional ``DOC-001`` ids, ``file_sha256``, a ``summary`` block).

They are still read, never written: ``check`` reports one as stale (``update`` rewrites it),
and a base branch's schema-1 manifest still tells the Action what a pull request changes.
"""

from __future__ import annotations

import re
from typing import Any

from .constants import PAIR_RELATIONS, Relation, Status
from .fences import sha256_text
from .records import Inventory, Pair, Snippet, snippet_from

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
_SNIPPET_ID = re.compile(r"DOC-[0-9]{3,}")
_PAIR_ID = re.compile(r"PAIR-[0-9]{2,}")


def validate(data: dict[str, Any], fail: Any, common: Any) -> None:
    """Check a schema-1 manifest well enough to rebuild its inventory; ``fail(msg)`` raises.

    ``common(at, entry)`` checks what both schemas share (paths, lines, status, hashes).
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
            raise fail(f"{at}.id {entry['id']!r} is duplicated or not of the form DOC-001")
        ids.add(entry["id"])
        common(at, entry)
        other = places.setdefault((entry["file"], entry["fence_lines"][0]), entry["id"])
        if other != entry["id"]:
            raise fail(f"{at}: {entry['id']} and {other} are the same fence of {entry['file']}")
        if sha256_text(entry["body"]) != entry["body_sha256"] or entry["status"] not in tuple(Status):
            raise fail(f"{at}: body_sha256 or status is not valid")
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
