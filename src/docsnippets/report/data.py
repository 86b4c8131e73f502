"""A report as the JSON that ``--format json`` prints and the Action writes for tools."""

from __future__ import annotations

from typing import Any

from docsnippets.judge.compare import Change, Desync, Report
from docsnippets.references.broken import BrokenReference
from docsnippets.snippets.records import Snippet


def ref(snippet: Snippet, sid: str | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "file": snippet.file,
        "code_lines": list(snippet.code_lines),
        "fence_lines": list(snippet.fence_lines),
        "body_sha256": snippet.body_sha256,
        "status": snippet.status,
    }
    if sid is not None:
        out = {"id": sid, **out}
    return out


def _change(c: Change) -> dict[str, Any]:
    return {"before": ref(c.before, c.before_id), "after": ref(c.after, c.after_id)}


def _desync(d: Desync) -> dict[str, Any]:
    out: dict[str, Any] = {
        "relation": d.relation,
        "sides": [ref(s, i) for s, i in zip(d.sides, d.ids, strict=True)],
    }
    if d.counterpart_file is not None:
        out["counterpart_file"] = d.counterpart_file
    out["new"] = d.new
    return out


def _broken(sid: str, b: BrokenReference) -> dict[str, Any]:
    return {
        "file": b.file,
        "line": b.line,
        "kind": str(b.kind),
        "module": b.module,
        "name": b.name,
        "snippet": sid,
        "reason": b.reason,
    }


def report_json(report: Report, extra: dict[str, Any] | None = None) -> dict[str, Any]:
    out: dict[str, Any] = {
        "fresh": report.fresh,
        "reasons": list(report.reasons),
        "summary": report.summary,
        "added": [ref(s, i) for i, s in report.added],
        "removed": [ref(s, i) for i, s in report.removed],
        "changed": [_change(c) for c in report.changed],
        "moved": [_change(c) for c in report.moved],
        "desynchronized": [_desync(d) for d in report.desynchronized],
        "resynchronized": [_desync(d) for d in report.resynchronized],
        "notices": list(report.notices),
        "broken_references": [_broken(sid, b) for sid, b in report.broken_references],
        "lost_pairs": [x.as_json() for x in report.lost],
        # What the change's base already held (judge/debts.py): shown, never counted.
        "debts": {
            "desynchronized": [_desync(d) for d in report.desync_debts],
            "broken_references": [_broken(sid, b) for sid, b in report.reference_debts],
        },
    }
    if extra:
        out.update(extra)
    return out
