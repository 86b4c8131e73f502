"""A schema-2 manifest as the bilingual catalogue people read (``docsnippets render``).

The layout is ``templates/catalogue.md.j2`` and the words ``templates/words.yaml``; this
module only numbers the snippets and counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsnippets.report import templating
from docsnippets.words import forms


def _pairs_of(e: dict[str, Any]) -> list[dict[str, Any]]:
    """The pairs an entry is in, as {id, relation, members (ids, source first)}: schema 2's one
    pair, or schema 3's twins."""
    if e.get("pair"):
        p = e["pair"]
        return [{"id": p["id"], "relation": p["relation"], "members": [p["en"], p["zh"]]}]
    out = []
    for twin in (e.get("twins") or {}).values():
        members = [e["id"], twin["snippet"]] if e.get("source") else [twin["snippet"], e["id"]]
        out.append({"id": twin["id"], "relation": twin["relation"], "members": members})
    return out


def _counts(items: Sequence[dict[str, Any]], pairs: int) -> dict[str, int]:
    """The counts, computed here: the committed manifest holds none (they would make every change conflict)."""
    return {
        "fences": len(items),
        "files": len({e["file"] for e in items}),
        "pairs": pairs,
        "examples": len(items) - pairs,
        "distinct": len({e["body_sha256"] for e in items}),
    }


def _grouped_items(data: dict[str, Any], lang: str) -> list[dict[str, Any]]:
    """Schema 3's entries, each marked whether its page is the source; when ``lang`` is a
    translation, only the source's and that translation's, and twins between them."""
    source = data["selection"]["translations"]["source"]
    narrow = lang != source and lang in _languages(data)
    out = []
    for file, group in data["files"].items():
        language = group.get("language")
        if narrow and language not in (source, lang):
            continue
        for e in group["snippets"]:
            twins = e.get("twins") or {}
            if narrow:
                twins = {c: t for c, t in twins.items() if lang in (c, language)}
            out.append({"file": file, **e, "twins": twins, "source": language == source})
    return out


def _languages(data: dict[str, Any]) -> set[str]:
    translations = data.get("selection", {}).get("translations") or {}
    return {code for rule in translations.get("pages", []) for code in rule}


def languages_of(data: dict[str, Any]) -> list[str]:
    """The languages ``render --lang`` takes for this manifest: the words' and the configured ones."""
    return sorted({*templating.words(), *_languages(data)})


def context(data: dict[str, Any], lang: str) -> dict[str, Any]:
    from docsnippets.manifest.build import entries

    grouped = data.get("schema") == 3
    items = _grouped_items(data, lang) if grouped else entries(data)
    number = {e["id"]: f"DOC-{n + 1:03d}" for n, e in enumerate(items)}
    # ``DOC-001``… and ``PAIR-01``… in document order: a view for people, the ids stay stable.
    pair_number: dict[str, str] = {}
    of: dict[str, list[str]] = {}
    table: list[dict[str, Any]] = []
    for e in items:
        for p in _pairs_of(e):
            pair_number.setdefault(p["id"], f"PAIR-{len(pair_number) + 1:02d}")
            of.setdefault(e["id"], []).append(pair_number[p["id"]])
            if p["members"][0] == e["id"]:
                members = [number[m] for m in p["members"]]
                table.append({"number": pair_number[p["id"]], "members": members, "relation": p["relation"]})
    source = data.get("source") or {}
    rows = [{"number": number[e["id"]], "pair": ", ".join(of.get(e["id"], [])) or None, "entry": e} for e in items]
    words = templating.words()
    w = words.get(lang, words["en"])
    if grouped:  # a source and its translations, not English and Chinese
        said = w["groups"]
        w = {**w, **said, "counted": {**w["counted"], "pairs": said["counted_pairs"]}}
    return {
        "w": w,
        "source": {
            "repo": source.get("repository"),
            "commit": source.get("commit"),
            "server": source.get("server_url") or "https://github.com",
        },
        "counts": {key: forms(n, w["counted"][key]) for key, n in _counts(items, len(pair_number)).items()},
        "rows": rows,
        "pairs": table,
    }


def catalogue(data: dict[str, Any], lang: str = "zh") -> str:
    """The catalogue of a schema-2 or schema-3 manifest in ``lang``: words.yaml's words for it
    (English for a language it has none for); under schema 3 a translation's catalogue pairs
    the source with that translation only."""
    template, name = templating.load(None, "catalogue.md.j2", root=None)
    return templating.render(template, name, context(data, lang)).rstrip() + "\n"
