"""``documentation-snippets.json``: schema 2, built from an inventory, validated on load.

The layout is chosen for git. Snippets are grouped under their Markdown file (files sorted,
snippets in document order), ids come from what a snippet is (see
:func:`records.snippet_ids`), and nothing in the file depends on prose or on the whole tree
(no file hashes, no counts). So an edit that changes no snippet leaves the file
byte-identical, and two branches that change snippets of different Markdown files change
disjoint regions that ``git merge`` combines without a conflict. Pair data lives on both
members, i.e. inside the file pair's own regions.
"""

from __future__ import annotations

import json
from collections import Counter
from collections.abc import Callable, Collection
from types import ModuleType
from typing import Any

from docsnippets.config import Config
from docsnippets.constants import DEFAULT_MANIFEST, PAIR_RELATIONS, Relation, Status
from docsnippets.manifest import validate as manifest_validate
from docsnippets.manifest.io import (
    GROUPS_SCHEMA,
    MAX_MANIFEST_BYTES,
    SCHEMA,
    ManifestError,
    dumps,
    fail,
    permalink,
    permalink_of,
    validate_source,
)
from docsnippets.snippets.records import Inventory, Pair, Snippet, pair_id_of, recorded_fields, snippet_from
from docsnippets.sources import FileSource
from docsnippets.visible import quoted

__all__ = [
    "DEFAULT_MANIFEST",
    "MAX_MANIFEST_BYTES",
    "ManifestError",
    "dumps",
    "permalink",
    "permalink_of",
]

NEWEST = GROUPS_SCHEMA


def schema_for(config: Config) -> int:
    """The schema ``update`` writes under ``config``: a two-language tree keeps schema 2."""
    return SCHEMA if config.translations is None else GROUPS_SCHEMA


# (file, code_lines, body_sha256): an entry whose lines are known to hold that body at the
# source commit, and may therefore carry a permalink.
Linked = Collection[tuple[str, tuple[int, int], str]]


def summarize(inv: Inventory) -> dict[str, Any]:
    """The counts; part of reports and the catalogue, never of the committed file (every change would rewrite them).

    A missing twin counts once per page that lacks it (with two languages: once per snippet)."""
    statuses = Counter(s.status for s in inv.snippets)
    relations = Counter(p.relation for p in inv.pairs)
    return {
        "fences": len(inv.snippets),
        "files": len({s.file for s in inv.snippets}),
        "pairs": len(inv.pairs),
        "examples": len(inv.snippets) - len(inv.pairs),
        "distinct_bodies": len({s.body_sha256 for s in inv.snippets}),
        # pages with snippets and no counterpart file (under the translations setting: a source
        # page once per language with no page for it): informational, never a failure
        "untranslated": (
            sum(u.count for u in inv.untranslated)
            if inv.languages
            else sum(1 for _, other in inv.counterparts if other is None)
        ),
        "status": {k: statuses.get(k, 0) for k in Status},
        "relation": {**{k: relations.get(k, 0) for k in PAIR_RELATIONS}, Relation.MISSING: len(inv.missing_twins())},
        **(_by_language(inv) if inv.languages else {}),
    }


def _by_language(inv: Inventory) -> dict[str, Any]:
    """Under the translations setting: each language's source pages with snippets and no page
    in it (their count and the first of them), and the translation pages with snippets and no
    source page."""
    untranslated = {u.language: {"count": u.count, "pages": list(u.pages)} for u in inv.untranslated}
    source = inv.source_language
    orphans = sorted(
        {
            s.file
            for s in inv.snippets
            if inv.language_of(s.file) not in (None, source) and not inv.counterparts_of(s.file)
        }
    )
    return {"untranslated_by_language": untranslated, "without_source": orphans}


def _check_names(inv: Inventory) -> None:
    for s in inv.snippets:
        if not s.file.isascii():
            try:
                s.file.encode("utf-8")
            except UnicodeEncodeError:
                raise ManifestError(
                    f"{s.file.encode('utf-8', 'surrogateescape')!r}: file name is not valid UTF-8; "
                    "rename the file or exclude it in the config"
                ) from None


def build(
    inv: Inventory,
    config: Config,
    repository: str | None = None,
    commit: str | None = None,
    linked: Linked | None = None,
) -> dict[str, Any]:
    """The manifest of ``inv``. Entries get a permalink only when repository and commit are
    known and the entry is in ``linked`` (None: every entry, the commit was given for this tree)."""
    source = {"repository": repository, "commit": commit, "server_url": config.server_url}
    validate_source(source, lambda m: ManifestError(f"{m}; pass a plain owner/name and a hex commit"))
    _check_names(inv)
    ids = inv.ids
    if len(set(ids)) != len(ids):  # 48 bits of SHA-256 colliding within one tree: say so, do not guess
        raise ManifestError("two snippets got the same id; please report this to docsnippets")
    schema = schema_for(config)
    key, pair_field, header = _links(inv, ids, schema)
    linked_set = None if linked is None else set(linked)
    files: dict[str, dict[str, Any]] = {}
    for index, s in enumerate(inv.snippets):
        if s.file not in files:
            files[s.file] = {**header(s.file), "snippets": []}
        group = files[s.file]
        entry: dict[str, Any] = {"id": ids[index], **recorded_fields(s)}
        entry["body"] = s.body
        entry["body_sha256"] = s.body_sha256
        entry[key] = pair_field.get(index, None if schema == SCHEMA else {})
        if repository and commit and (linked_set is None or (s.file, s.code_lines, s.body_sha256) in linked_set):
            entry["permalink"] = permalink(config.server_url, repository, commit, s)
        group["snippets"].append(entry)
    return {
        "schema": schema,
        "generator": manifest_validate.GENERATOR,
        "source": source,
        "selection": config.selection(),
        "files": files,
    }


def _links(
    inv: Inventory, ids: tuple[str, ...], schema: int
) -> tuple[str, dict[int, Any], Callable[[str], dict[str, Any]]]:
    """What ties entries and pages together: (the entry's key, its value by snippet, a page's
    header): schema 2's one pair and one counterpart, or schema 3's twins and counterparts."""
    if schema == GROUPS_SCHEMA:
        from docsnippets.manifest import groups  # only a manifest of several languages needs it

        return "twins", groups.twins(inv, ids), lambda file: groups.header(inv, file)
    pair_field: dict[int, Any] = {}
    for p in inv.pairs:
        value = {
            "id": pair_id_of(ids[p.source], ids[p.translation]),
            "relation": p.relation,
            "en": ids[p.source],
            "zh": ids[p.translation],
        }
        pair_field[p.source] = pair_field[p.translation] = value
    return "pair", pair_field, lambda file: {"counterpart": inv.counterpart_of(file)}


def entries(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Every snippet entry with its ``file``, in document order, for either schema."""
    if data.get("schema") == 1:
        from docsnippets.manifest import schema1  # an old manifest: read once, until the next update

        return schema1.entries(data)
    return [{"file": file, **e} for file, group in data["files"].items() for e in group["snippets"]]


def linked_entries(data: dict[str, Any]) -> set[tuple[str, tuple[int, int], str]]:
    """The entries that carry a permalink: valid at the recorded commit, so a rebuild may keep theirs."""
    return {
        (e["file"], (e["code_lines"][0], e["code_lines"][1]), e["body_sha256"])
        for e in entries(data)
        if e.get("permalink")
    }


# --- loading -----------------------------------------------------------------------------


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


class _Twice(Exception):
    """A key written twice in one JSON object (its key in ``args[0]``)."""


def _once(pairs: list[tuple[str, Any]]) -> dict[str, Any]:
    """An object whose keys are each written once. Of a key written twice a reader of the file
    sees the first value and a JSON reader keeps the last: the text claims two things at once."""
    out: dict[str, Any] = {}
    for key, value in pairs:
        if key in out:
            raise _Twice(key)
        out[key] = value
    return out


def _encodable(data: Any) -> bool:
    """No lone surrogate (a ``\\ud800`` escape) hides in the strings: they cannot be printed or written."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


def parse(text: str, where: str) -> dict[str, Any]:
    """Parse and validate (schema 2, or the older schema 1); every problem becomes one ManifestError line."""
    data = decoded(text, where)
    validate(data, where)
    return data


def read_from(source: FileSource, rel: str, where: str) -> dict[str, Any] | None:
    """The validated manifest at ``rel`` of a tree read as data (a commit), None when it has none."""
    raw = source.read(rel, MAX_MANIFEST_BYTES)
    if raw is None:
        return None
    if not isinstance(raw, bytes):
        raise ManifestError(f"{where}: {raw}; it cannot be a manifest docsnippets wrote")
    try:
        return parse(raw.decode("utf-8-sig"), where)
    except UnicodeDecodeError:
        raise ManifestError(f"{where}: not UTF-8 text; run `docsnippets update` on that branch") from None


def decoded(text: str, where: str) -> Any:
    try:
        data = json.loads(text, parse_constant=_reject_constant, object_pairs_hook=_once)
    except _Twice as exc:
        raise fail(where, f"an object holds the key {quoted(exc.args[0])} twice") from None
    except json.JSONDecodeError as exc:
        raise fail(where, f"not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise fail(where, "not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # NaN/Infinity, or an integer with more digits than Python converts
        raise fail(where, f"not valid JSON ({str(exc).split(';')[0]})") from None
    if not _encodable(data):
        raise fail(where, "a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff)")
    return data


def validate(data: Any, where: str) -> None:
    """Raise one ManifestError line for the first problem."""
    if not isinstance(data, dict):
        raise fail(where, "the top level is not a JSON object")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise fail(where, f"'schema' is {schema!r}, expected a schema number from 1 to {NEWEST}")
    if schema > NEWEST:
        raise ManifestError(
            f"{where}: schema {schema} is newer than this docsnippets understands ({NEWEST}); upgrade docsnippets"
        )
    if schema not in (1, SCHEMA, GROUPS_SCHEMA):
        raise fail(where, f"unknown schema {schema}, expected a schema number from 1 to {NEWEST}")

    def bad(message: str) -> ManifestError:
        return fail(where, message)

    if schema in (SCHEMA, GROUPS_SCHEMA):
        manifest_validate.validate(data, bad)
        return
    if not isinstance(data.get("selection"), dict):
        raise bad("'selection' is missing or not a dict")
    from docsnippets.manifest import schema1

    schema1.validate(data, bad, validate_source(data.get("source"), bad))


def to_inventory(data: dict[str, Any]) -> Inventory:
    """Rebuild the records from a validated manifest of either schema (for --changed and base comparisons)."""
    if data.get("schema") == 1:
        from docsnippets.manifest import schema1

        return schema1.to_inventory(data)
    grouping = _grouping(data)
    snippets: list[Snippet] = []
    index_of: dict[str, int] = {}
    counterparts: list[tuple[str, str | None]] = []
    for file in sorted(data["files"]):
        group = data["files"][file]
        others = grouping.counterparts(group) if grouping else [group.get("counterpart")]
        counterparts.extend((file, other) for other in others)
        for entry in group["snippets"]:
            index_of[entry["id"]] = len(snippets)
            snippets.append(snippet_from(file, entry))
    if grouping:
        pairs = grouping.pairs_of(data, index_of)
    else:
        pairs = {
            (index_of[e["pair"]["en"]], index_of[e["pair"]["zh"]], Relation(e["pair"]["relation"]))
            for e in entries(data)
            if e.get("pair")
        }
    ordered = sorted(range(len(snippets)), key=lambda i: snippets[i].key)
    if ordered != list(range(len(snippets))):  # only a file hand-sorted differently; keep indices valid
        remap = {old: new for new, old in enumerate(ordered)}
        snippets = [snippets[i] for i in ordered]
        pairs = {(remap[a], remap[b], r) for a, b, r in pairs}
    out = tuple(Pair(a, b, r) for a, b, r in sorted(pairs))
    if not grouping:
        return Inventory(tuple(snippets), out, tuple(counterparts))
    languages, source = grouping.languages(data), grouping.source_language(data)
    return Inventory(tuple(snippets), out, tuple(counterparts), languages=languages, source_language=source)


def _grouping(data: dict[str, Any]) -> ModuleType | None:
    """manifest/groups.py for a schema 3 manifest, else None: a two-language one never loads it."""
    if data["schema"] != GROUPS_SCHEMA:
        return None
    from docsnippets.manifest import groups

    return groups


def upgrade(data: dict[str, Any], config: Config) -> dict[str, Any]:
    """A schema-1 manifest as schema 2, in memory (for ``render``); its links are kept."""
    if data.get("schema") != 1:
        return data
    from dataclasses import replace

    source = data.get("source") or {}
    cfg = replace(config, server_url=source.get("server_url") or config.server_url)
    out = build(to_inventory(data), cfg, source.get("repository"), source.get("commit"), linked_entries(data))
    return {**out, "selection": data["selection"]}
