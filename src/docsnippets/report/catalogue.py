"""A schema-2 manifest as the bilingual catalogue people read (``docsnippets render``).

The layout is ``templates/catalogue.md.j2`` and the words ``templates/words.yaml``; this
module only numbers the snippets and counts them.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from docsnippets.report import templating
from docsnippets.words import forms


def _counts(items: Sequence[dict[str, Any]]) -> dict[str, int]:
    """The counts, computed here: the committed manifest holds none (they would make every change conflict)."""
    pairs = len({e["pair"]["id"] for e in items if e.get("pair")})
    return {
        "fences": len(items),
        "files": len({e["file"] for e in items}),
        "pairs": pairs,
        "examples": len(items) - pairs,
        "distinct": len({e["body_sha256"] for e in items}),
    }


def _numbers(items: Sequence[dict[str, Any]]) -> tuple[dict[str, str], dict[str, str]]:
    """``DOC-001``… and ``PAIR-01``… in document order: a view for people, the ids stay stable."""
    number = {e["id"]: f"DOC-{n + 1:03d}" for n, e in enumerate(items)}
    pair_number: dict[str, str] = {}
    for e in items:
        if e.get("pair") and e["pair"]["id"] not in pair_number:
            pair_number[e["pair"]["id"]] = f"PAIR-{len(pair_number) + 1:02d}"
    return number, pair_number


def context(data: dict[str, Any], lang: str) -> dict[str, Any]:
    from docsnippets.manifest.build import entries

    items = entries(data)
    number, pair_number = _numbers(items)
    source = data.get("source") or {}
    rows = [
        {"number": number[e["id"]], "pair": pair_number[e["pair"]["id"]] if e.get("pair") else None, "entry": e}
        for e in items
    ]
    pairs = [
        {
            "number": pair_number[p["id"]],
            "members": [number[p["en"]], number[p["zh"]]],
            "relation": p["relation"],
        }
        for p in (e["pair"] for e in items if e.get("pair") and e["pair"]["en"] == e["id"])
    ]
    w = templating.words()[lang]
    return {
        "w": w,
        "source": {
            "repo": source.get("repository"),
            "commit": source.get("commit"),
            "server": source.get("server_url") or "https://github.com",
        },
        "counts": {key: forms(n, w["counted"][key]) for key, n in _counts(items).items()},
        "rows": rows,
        "pairs": pairs,
    }


def catalogue(data: dict[str, Any], lang: str = "zh") -> str:
    """The catalogue of a schema-2 manifest in ``lang`` (a key of words.yaml)."""
    template, name = templating.load(None, "catalogue.md.j2", root=None)
    return templating.render(template, name, context(data, lang)).rstrip() + "\n"
