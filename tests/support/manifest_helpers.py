"""Reaching into a schema-2 manifest from tests: its entry objects, its pairs, a schema-1 twin."""

from __future__ import annotations

from typing import Any

from docsnippets.config import Config
from docsnippets.snippets.records import Inventory


def entry_objects(data: dict[str, Any]) -> list[dict[str, Any]]:
    """The snippet entries themselves (mutating one mutates ``data``), in document order."""
    return [e for group in data["files"].values() for e in group["snippets"]]


def pairs(data: dict[str, Any]) -> list[dict[str, Any]]:
    """Each pair once, as stored on its English member."""
    return [e["pair"] for e in entry_objects(data) if e.get("pair") and e["pair"]["en"] == e["id"]]


def rename_file(data: dict[str, Any], old: str, new: str) -> None:
    data["files"] = {new if k == old else k: v for k, v in data["files"].items()}


def schema1(inv: Inventory, config: Config | None = None) -> dict[str, Any]:
    """What docsnippets wrote before schema 2 (positional ids, file_sha256, summary), for these snippets."""
    config = config or Config()
    pair_of = inv.pair_of()
    ids = [f"DOC-{n + 1:03d}" for n in range(len(inv.snippets))]
    snippets = []
    for n, s in enumerate(inv.snippets):
        snippets.append(
            {
                "id": ids[n],
                "file": s.file,
                "fence_lines": list(s.fence_lines),
                "code_lines": list(s.code_lines),
                "info": s.info,
                "markers": list(s.markers),
                "modules": list(s.modules),
                "status": s.status,
                "body": s.body,
                "body_sha256": s.body_sha256,
                "file_sha256": s.file_sha256 or "0" * 64,
                "pair": f"PAIR-{pair_of[n] + 1:02d}" if n in pair_of else None,
                "counterpart_file": inv.counterpart_of(s.file),
            }
        )
    return {
        "schema": 1,
        "generator": "docsnippets",
        "source": {"repository": None, "commit": None, "server_url": config.server_url},
        "selection": config.selection(),
        "summary": {"fences": len(snippets), "files": 1, "pairs": 0, "examples": 0, "distinct_bodies": 0},
        "snippets": snippets,
        "pairs": [
            {
                "id": f"PAIR-{n + 1:02d}",
                "relation": p.relation,
                "snippets": [ids[p.source], ids[p.translation]],
            }
            for n, p in enumerate(inv.pairs)
        ],
    }
