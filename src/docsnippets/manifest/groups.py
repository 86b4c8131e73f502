"""Schema 3: the manifest of any number of languages (the ``translations`` setting).

Schema 2 records one counterpart per page and one pair per snippet, English and Chinese; a
repository whose configuration says ``pair_rules`` keeps it byte for byte. Under
``translations`` a source page has a translation page per language, so each page records its
``language`` and its ``counterparts`` by language (a source page: every translation page that
exists; a translation page: its source page), and each snippet its ``twins`` by language: the
aligned snippet of the counterpart page, the pair's id and relation. As in schema 2 a pair is
recorded on both members, inside the regions of its own two pages, so two branches that touch
different pages still change disjoint parts of the file.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docsnippets.constants import PAIR_RELATIONS, Relation
from docsnippets.snippets.records import Inventory, pair_id_of

Bad = Callable[[str], Exception]


def header(inv: Inventory, file: str) -> dict[str, Any]:
    """A page's language and its counterpart pages by language, codes sorted."""
    others = {inv.language_of(other) or "": other for other in inv.counterparts_of(file)}
    return {"language": inv.language_of(file), "counterparts": dict(sorted(others.items()))}


def twins(inv: Inventory, ids: tuple[str, ...]) -> dict[int, dict[str, dict[str, str]]]:
    """Snippet index -> its twins by the twin's language: {id, relation, snippet}."""
    out: dict[int, dict[str, dict[str, str]]] = {}
    for p in inv.pairs:
        pair_id = pair_id_of(ids[p.source], ids[p.translation])
        for this, other in ((p.source, p.translation), (p.translation, p.source)):
            language = inv.language_of(inv.snippets[other].file) or ""
            twin = {"id": pair_id, "relation": p.relation, "snippet": ids[other]}
            out.setdefault(this, {})[language] = twin
    return {index: dict(sorted(found.items())) for index, found in out.items()}


def source_language(data: dict[str, Any]) -> str:
    return data["selection"]["translations"]["source"]


def pairs_of(data: dict[str, Any], index_of: dict[str, int]) -> set[tuple[int, int, Relation]]:
    """(source snippet, translation snippet, relation) of every recorded twin, from the source side."""
    source = source_language(data)
    out: set[tuple[int, int, Relation]] = set()
    for group in data["files"].values():
        if group.get("language") != source:
            continue
        for entry in group["snippets"]:
            for twin in (entry.get("twins") or {}).values():
                out.add((index_of[entry["id"]], index_of[twin["snippet"]], Relation(twin["relation"])))
    return out


def counterparts(group: dict[str, Any]) -> list[str | None]:
    found = list((group.get("counterparts") or {}).values())
    return found or [None]


def languages(data: dict[str, Any]) -> tuple[tuple[str, str], ...]:
    """Each page's recorded language: its own entry's, else the one its counterparts give it
    (a page without snippets has no entry; :func:`check` holds the two to agree)."""
    files = data["files"]
    named: dict[str, str] = {}
    for group in files.values():
        named.update({other: code for code, other in (group.get("counterparts") or {}).items()})
    named.update({file: g["language"] for file, g in files.items() if g.get("language")})
    return tuple(sorted(named.items()))


# --- validation: what the JSON Schema cannot say -----------------------------------------


def check(data: dict[str, Any], by_id: dict[str, tuple[str, dict[str, Any]]], bad: Bad) -> None:
    """Pages and twins that name each other, each pair's id from its members, source first."""
    translations = data["selection"].get("translations")
    if not isinstance(translations, dict) or not isinstance(translations.get("source"), str):
        raise bad("selection.translations.source is missing: a schema 3 manifest records its languages")
    source = translations["source"]
    files = data["files"]
    for file, group in files.items():
        for code, other in (group.get("counterparts") or {}).items():
            if other == file:
                raise bad(f"files[{file!r}].counterparts[{code!r}] must be another file")
            if other in files and files[other].get("language") != code:
                said = files[other].get("language")
                raise bad(
                    f"files[{file!r}].counterparts[{code!r}] names {other!r}, which is recorded in language {said!r}"
                )

    def twin_problem(sid: str, file: str, code: str, twin: dict[str, Any]) -> str | None:
        partner = by_id.get(twin["snippet"])
        language = files[file].get("language")
        if partner is None or twin["snippet"] == sid:
            return f"its twin {twin['snippet']!r} is absent"
        other_file, other = partner
        if (files[file].get("counterparts") or {}).get(code) != other_file or files[other_file].get("language") != code:
            return f"its twin is not in the {code} counterpart file"
        if (other.get("twins") or {}).get(language or "") != {**twin, "snippet": sid}:
            return f"its twin {twin['snippet']!r} does not name the same pair"
        if source not in (language, code):
            return f"a twin pairs a page with its source page ({source})"
        first, second = (sid, twin["snippet"]) if language == source else (twin["snippet"], sid)
        if twin["relation"] not in PAIR_RELATIONS or twin["id"] != pair_id_of(first, second):
            return "pair relation or id is not valid"
        return None

    for sid, (file, entry) in by_id.items():
        for code, twin in (entry.get("twins") or {}).items():
            problem = twin_problem(sid, file, code, twin)
            if problem is not None:
                raise bad(f"files[{file!r}] snippet {sid}.twins[{code!r}]: {problem}")
