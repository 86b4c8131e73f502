"""``documentation-snippets.json``: schema 1, built from an inventory, validated on load.

The dump is deterministic (sorted by file and line, fixed indentation, UTF-8, trailing
newline) so that the committed file only changes when the documentation does.
"""

from __future__ import annotations

import contextlib
import json
import os
import tempfile
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any

from .classify import STATUSES
from .config import Config
from .fences import sha256_text
from .records import MISSING, RELATIONS, Inventory, Pair, Snippet

SCHEMA = 1
DEFAULT_NAME = "documentation-snippets.json"


class ManifestError(ValueError):
    """The manifest cannot be used; one line naming the file and the fix."""


def snippet_id(index: int) -> str:
    return f"DOC-{index + 1:03d}"


def pair_id(index: int) -> str:
    return f"PAIR-{index + 1:02d}"


def permalink(server_url: str, repository: str, commit: str, snippet: Snippet) -> str:
    first, last = snippet.code_lines
    from urllib.parse import quote

    return f"{server_url}/{repository}/blob/{commit}/{quote(snippet.file)}#L{first}-L{last}"


def summarize(inv: Inventory) -> dict[str, Any]:
    statuses = Counter(s.status for s in inv.snippets)
    relations = Counter(p.relation for p in inv.pairs)
    n_missing = len(inv.missing())
    return {
        "fences": len(inv.snippets),
        "files": len({s.file for s in inv.snippets}),
        "pairs": len(inv.pairs),
        "examples": len(inv.snippets) - len(inv.pairs),
        "distinct_bodies": len({s.body_sha256 for s in inv.snippets}),
        "status": {k: statuses.get(k, 0) for k in STATUSES},
        "relation": {**{k: relations.get(k, 0) for k in RELATIONS}, MISSING: n_missing},
    }


def build(
    inv: Inventory,
    config: Config,
    repository: str | None = None,
    commit: str | None = None,
) -> dict[str, Any]:
    pair_of = inv.pair_of()
    snippets: list[dict[str, Any]] = []
    for index, s in enumerate(inv.snippets):
        entry: dict[str, Any] = {
            "id": snippet_id(index),
            "file": s.file,
            "fence_lines": list(s.fence_lines),
            "code_lines": list(s.code_lines),
            "info": s.info,
            "markers": list(s.markers),
            "modules": list(s.modules),
            "status": s.status,
        }
        if s.status_message is not None:
            entry["status_message"] = s.status_message
        if s.status_line is not None:
            entry["status_line"] = s.status_line
        entry["body"] = s.body
        entry["body_sha256"] = s.body_sha256
        entry["file_sha256"] = s.file_sha256
        if repository and commit:
            entry["permalink"] = permalink(config.server_url, repository, commit, s)
        entry["pair"] = pair_id(pair_of[index]) if index in pair_of else None
        entry["counterpart_file"] = inv.counterpart_of(s.file)
        snippets.append(entry)
    pairs = [
        {"id": pair_id(n), "relation": p.relation, "snippets": [snippet_id(p.en), snippet_id(p.zh)]}
        for n, p in enumerate(inv.pairs)
    ]
    return {
        "schema": SCHEMA,
        "generator": "docsnippets",
        "source": {"repository": repository, "commit": commit, "server_url": config.server_url},
        "selection": config.selection(),
        "summary": summarize(inv),
        "snippets": snippets,
        "pairs": pairs,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def write_atomic(path: Path, text: str) -> None:
    """Write beside the target, then rename over it: a reader sees the old or the new file."""
    path.parent.mkdir(parents=True, exist_ok=True)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "w", encoding="utf-8", newline="\n") as handle:
            handle.write(text)
            handle.flush()
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise


# --- loading -----------------------------------------------------------------------------

_SNIPPET_FIELDS: dict[str, type | tuple[type, ...]] = {
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
    "file_sha256": str,
}


def _fail(where: str, message: str) -> ManifestError:
    return ManifestError(f"{where}: {message}; run `docsnippets update` to regenerate it")


def _line_range(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    )


def _safe_path(value: str) -> bool:
    p = PurePosixPath(value)
    return bool(value) and not p.is_absolute() and ".." not in p.parts and "\\" not in value and "\0" not in value


def parse(text: str, where: str) -> dict[str, Any]:
    """Parse and validate; every problem becomes one ManifestError line."""
    try:
        data = json.loads(text)
    except json.JSONDecodeError as exc:
        raise _fail(where, f"not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise _fail(where, "not valid JSON (nested too deeply)") from None
    validate(data, where)
    return data


def validate(data: Any, where: str) -> None:
    if not isinstance(data, dict):
        raise _fail(where, "the top level is not a JSON object")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise _fail(where, f"'schema' is {schema!r}, expected {SCHEMA}")
    if schema > SCHEMA:
        raise ManifestError(
            f"{where}: schema {schema} is newer than this docsnippets understands ({SCHEMA}); upgrade docsnippets"
        )
    if schema != SCHEMA:
        raise _fail(where, f"unknown schema {schema}, expected {SCHEMA}")
    for key, kind in (("snippets", list), ("pairs", list), ("summary", dict), ("selection", dict)):
        if not isinstance(data.get(key), kind):
            raise _fail(where, f"'{key}' is missing or not a {kind.__name__}")
    ids: set[str] = set()
    for n, entry in enumerate(data["snippets"]):
        at = f"snippets[{n}]"
        if not isinstance(entry, dict):
            raise _fail(where, f"{at} is not an object")
        for key, kind in _SNIPPET_FIELDS.items():
            if not isinstance(entry.get(key), kind):
                raise _fail(where, f"{at}.{key} is missing or mistyped")
        if entry["id"] in ids:
            raise _fail(where, f"{at}: duplicated id {entry['id']}")
        ids.add(entry["id"])
        if not _safe_path(entry["file"]):
            raise _fail(where, f"{at}.file {entry['file']!r} must be a relative path without '..'")
        for key in ("fence_lines", "code_lines"):
            if not _line_range(entry[key]):
                raise _fail(where, f"{at}.{key} must be two line numbers >= 1")
        if sha256_text(entry["body"]) != entry["body_sha256"]:
            raise _fail(where, f"{at}.body_sha256 does not match its body (edited by hand?)")
        if entry["status"] not in STATUSES:
            raise _fail(where, f"{at}.status {entry['status']!r} is not one of {', '.join(STATUSES)}")
        if not all(isinstance(m, str) for m in entry["markers"] + entry["modules"]):
            raise _fail(where, f"{at}: markers and modules must be strings")
        cf = entry.get("counterpart_file")
        if cf is not None and not (isinstance(cf, str) and _safe_path(cf)):
            raise _fail(where, f"{at}.counterpart_file must be null or a relative path")
    pair_ids: set[str] = set()
    for n, entry in enumerate(data["pairs"]):
        at = f"pairs[{n}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise _fail(where, f"{at} is not an object with an 'id'")
        if entry["id"] in pair_ids:
            raise _fail(where, f"{at}: duplicated id {entry['id']}")
        pair_ids.add(entry["id"])
        members = entry.get("snippets")
        if not (isinstance(members, list) and len(members) == 2 and all(m in ids for m in members)):
            raise _fail(where, f"{at}.snippets must name two snippet ids of this manifest")
        if entry.get("relation") not in RELATIONS:
            raise _fail(where, f"{at}.relation must be one of {', '.join(RELATIONS)}")


def load(path: Path) -> dict[str, Any] | None:
    """The validated manifest, or None when the file does not exist."""
    try:
        raw = path.read_bytes()
    except FileNotFoundError:
        return None
    except IsADirectoryError:
        raise ManifestError(f"{path}: is a directory; pass the manifest file to --manifest") from None
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read ({exc.strerror or exc}); fix its permissions") from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _fail(str(path), "not UTF-8 text") from None
    return parse(text, str(path))


def to_inventory(data: dict[str, Any]) -> Inventory:
    """Rebuild the records from a validated manifest (for --changed and base comparisons)."""
    snippets: list[Snippet] = []
    index_of: dict[str, int] = {}
    for entry in data["snippets"]:
        snippets.append(
            Snippet(
                file=entry["file"],
                fence_lines=(entry["fence_lines"][0], entry["fence_lines"][1]),
                code_lines=(entry["code_lines"][0], entry["code_lines"][1]),
                info=entry["info"],
                markers=tuple(entry["markers"]),
                modules=tuple(entry["modules"]),
                status=entry["status"],
                body=entry["body"],
                body_sha256=entry["body_sha256"],
                file_sha256=entry["file_sha256"],
                status_message=entry.get("status_message"),
                status_line=entry.get("status_line"),
            )
        )
    order = sorted(range(len(snippets)), key=lambda i: snippets[i].key)
    for new, old in enumerate(order):
        index_of[data["snippets"][old]["id"]] = new
    ordered = tuple(snippets[i] for i in order)
    pairs = []
    for entry in data["pairs"]:
        a, b = (index_of[m] for m in entry["snippets"])
        pairs.append(Pair(a, b, entry["relation"]))
    pairs.sort(key=lambda p: (p.en, p.zh))
    counterparts: dict[str, str | None] = {}
    for entry in data["snippets"]:
        counterparts.setdefault(entry["file"], entry.get("counterpart_file"))
    return Inventory(ordered, tuple(pairs), tuple(counterparts.items()))
