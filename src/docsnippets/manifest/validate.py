"""Validation of a schema-2 or schema-3 manifest: the shipped JSON Schema, then what it cannot say.

The schema (``schema/documentation-snippets.schema.json``) gives every field's type and
form, and editors or other tools can use the same file; ``schema_validator`` is that schema
as generated code (see .ci/gen_validator.py), so no schema library is imported at run time.
The semantic pass checks what relates several values: ids derived from file and body, body
hashes, document order, the code inside its fence, permalinks against the source, and pair
members that name each other (schema 3's pages and twins: ``groups.check``). Either way the
first problem becomes one line naming the JSON path.
"""

from __future__ import annotations

from collections.abc import Callable
from pathlib import Path
from typing import Any

from docsnippets.constants import PAIR_RELATIONS
from docsnippets.manifest.io import GROUPS_SCHEMA, permalink_of, validate_source
from docsnippets.manifest.schema_validator import SchemaViolation
from docsnippets.manifest.schema_validator import validate as schema_validate
from docsnippets.snippets.fences import sha256_text
from docsnippets.snippets.records import Snippet, pair_id_of, snippet_ids
from docsnippets.visible import quoted, visible

SCHEMA_FILE = Path(__file__).resolve().parent / "schema" / "documentation-snippets.schema.json"
_SHOWN_VALUE = 60  # characters of an offending scalar quoted in a message

Bad = Callable[[str], Exception]


def json_path(path: list[str | int]) -> str:
    """``files['docs/a.md'].snippets[0].body``; a lone top-level key as ``'files'``."""
    if len(path) == 1 and isinstance(path[0], str):
        return quoted(path[0])
    out = ""
    for part in path:
        if isinstance(part, int):
            out += f"[{part}]"
        elif part.isidentifier():
            out += f".{part}" if out else part
        else:
            out += f"[{quoted(part)}]"
    return out or "the top level"


def describe(error: SchemaViolation) -> str:
    """One line for a schema violation: where, what was found (when short), what it must be."""
    path = list(error.path)
    if error.rule == "required":
        missing = next(k for k in error.required if k not in error.value)
        return f"{json_path([*path, missing])} is missing"
    value = error.value
    shown = quoted(value) if isinstance(value, (str, int, float, bool)) or value is None else ""
    if len(shown) > _SHOWN_VALUE:
        shown = shown[: _SHOWN_VALUE - 3] + "..."
    where = json_path(path)
    if error.rule == "propertyNames":
        where += " key"
    found = f" {shown}" if shown else ""
    if error.title is None:  # every node of the shipped schema has a title; this is a fallback
        return f"{where}{found} is not valid ({error.rule})"
    return f"{where}{found} must be {error.title}"


#: The fields ``build`` writes at each level: the schema's properties (a test keeps them equal).
#: The schema lets a file carry others, but docsnippets never writes them, so none is true.
WRITTEN_FIELDS = {
    "top": frozenset({"schema", "generator", "source", "selection", "files"}),
    "source": frozenset({"repository", "commit", "server_url"}),
    "file": frozenset({"counterpart", "snippets"}),
    "snippet": frozenset(
        {"id", "fence_lines", "code_lines", "info", "markers", "modules", "status", "status_message"}
        | {"status_line", "body", "body_sha256", "pair", "permalink"}
    ),
}
# Schema 3 (translation groups) ties pages and snippets by language instead.
GROUPS_FIELDS = {
    **WRITTEN_FIELDS,
    "file": frozenset({"language", "counterparts", "snippets"}),
    "snippet": WRITTEN_FIELDS["snippet"] - {"pair"} | {"twins"},
}
GENERATOR = "docsnippets"


def _unknown(
    record: dict[str, Any],
    level: str,
    where: str = "",
    prefix: str = "",
    fields: dict[str, frozenset[str]] = WRITTEN_FIELDS,
) -> list[str]:
    return [
        f"{where}recorded {prefix}{visible(key)} is no field docsnippets writes"
        for key in record
        if key not in fields[level]
    ]


def unwritten(data: dict[str, Any]) -> list[str]:
    """What a schema-2 or schema-3 manifest records that docsnippets would not write, one reason each: a
    field it has no such field for, a generator other than itself."""
    out = _unknown(data, "top")
    if isinstance(data.get("source"), dict):
        out += _unknown(data["source"], "source", prefix="source.")
    if data.get("generator", GENERATOR) != GENERATOR:
        out.append(f"recorded generator differs from the one that writes it ({GENERATOR})")
    fields = GROUPS_FIELDS if data["schema"] == GROUPS_SCHEMA else WRITTEN_FIELDS
    for file, group in data["files"].items():
        out += _unknown(group, "file", f"{file}: ", fields=fields)
        for n, entry in enumerate(group["snippets"], 1):
            out += _unknown(entry, "snippet", f"{file} snippet {n}: ", fields=fields)
    return out


def validate(data: dict[str, Any], bad: Bad) -> None:
    """Raise ``bad(message)`` for the first problem of a schema-2 or schema-3 manifest."""
    try:
        schema_validate(data)
    except SchemaViolation as error:
        raise bad(describe(error)) from None
    source = validate_source(data.get("source"), bad)
    files = data["files"]
    by_id: dict[str, tuple[str, dict[str, Any]]] = {}
    for file, group in files.items():
        _check_group(file, group, source, bad)
        for entry in group["snippets"]:  # each id checked against its file and body just now
            by_id[entry["id"]] = (file, entry)
    if data["schema"] == GROUPS_SCHEMA:  # translation groups (manifest/groups.py)
        from docsnippets.manifest import groups

        groups.check(data, by_id, bad)
        return
    for sid, (file, entry) in by_id.items():
        _check_pair(sid, file, entry, files, by_id, bad)


def _check_group(file: str, group: dict[str, Any], source: dict[str, Any] | None, bad: Bad) -> None:
    at = f"files[{quoted(file)}]"
    if group.get("counterpart") == file:
        raise bad(f"{at}.counterpart must be null or another file")
    last = 0
    for n, entry in enumerate(group["snippets"]):
        where = f"{at}.snippets[{n}]"
        (fence_first, fence_last), (code_first, code_last) = entry["fence_lines"], entry["code_lines"]
        if fence_first <= last:
            raise bad(f"{where}: snippets must be in document order, one per fence")
        last = fence_first
        if code_first != fence_first + 1 or not code_first - 1 <= code_last <= fence_last:
            raise bad(f"{where}.code_lines must lie just inside its fence_lines")
        if "permalink" in entry and entry["permalink"] != permalink_of(source, {**entry, "file": file}):
            raise bad(f"{where}.permalink is not the one its source and lines give")
        if sha256_text(entry["body"]) != entry["body_sha256"]:
            raise bad(f"{where}.body_sha256 does not match its body (edited by hand?)")
    for n, (entry, sid) in enumerate(zip(group["snippets"], _ids(file, group["snippets"]), strict=True)):
        if entry["id"] != sid:
            raise bad(f"{at}.snippets[{n}].id {quoted(entry['id'])} is not the one its file and body give ({sid})")


def _ids(file: str, entries: list[dict[str, Any]]) -> tuple[str, ...]:
    return snippet_ids([_stub(file, e) for e in entries])


def _stub(file: str, entry: dict[str, Any]) -> Snippet:
    lines = (entry["code_lines"][0], entry["code_lines"][1])
    return Snippet(file, lines, lines, "", (), (), "", "", entry["body_sha256"], "")


def _check_pair(
    sid: str,
    file: str,
    entry: dict[str, Any],
    files: dict[str, Any],
    by_id: dict[str, tuple[str, dict[str, Any]]],
    bad: Bad,
) -> None:
    pair = entry.get("pair")
    if pair is None:
        return
    at = f"files[{quoted(file)}] snippet {sid}.pair"
    if sid not in (pair["en"], pair["zh"]):
        raise bad(f"{at} must be null or {{id, relation, en, zh}} naming this snippet")
    other = pair["zh"] if pair["en"] == sid else pair["en"]
    partner = by_id.get(other)
    if partner is None or partner[1].get("pair") != pair or other == sid:
        raise bad(f"{at}: its pair partner {quoted(other)} is absent or does not name the same pair")
    if files[file].get("counterpart") != partner[0] or files[partner[0]].get("counterpart") != file:
        raise bad(f"{at}: its pair partner is not in its counterpart file")
    if pair["relation"] not in PAIR_RELATIONS or pair["id"] != pair_id_of(pair["en"], pair["zh"]):
        raise bad(f"{at}: pair relation or id is not valid")
