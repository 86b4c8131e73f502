"""Reports and manifests -> text for people (terminal, PR comment, catalogue) and JSON.

Everything that comes from a pull request (paths, info strings, code, compiler messages)
is untrusted. It only ever appears inside code spans or fenced blocks longer than any
backtick run it contains, so it cannot ping anyone, link an issue, inject HTML or close
its own fence; the links are built here, from the repository and commit we were given.
"""

from __future__ import annotations

import difflib
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

from .compare import Change, Desync, Report
from .guidance import desync_diff, fixes, headline
from .markup import Links, code_span, fenced, location, plain, visible, visible_block  # noqa: F401 (render.* API)
from .records import Snippet
from .verdict import Verdict, decide

COMMENT_LIMIT = 65_536
COMMENT_BUDGET = 60_000  # room for the marker and GitHub's own accounting
FIX_COMMAND = "docsnippets update"


# --- JSON -----------------------------------------------------------------------------------


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
    }
    if extra:
        out.update(extra)
    return out


# --- PR comment ------------------------------------------------------------------------------


@dataclass(frozen=True)
class CommentContext:
    """What the comment needs besides the report: names, links, the fix, the base comparison."""

    marker: str
    manifest_name: str = "documentation-snippets.json"
    manifest_path: str = "documentation-snippets.json"
    fix_command: str = FIX_COMMAND
    links: Links | None = None
    base_missing: bool = False
    head_manifest_missing: bool = False
    changes: Report | None = None  # what the PR changes, against the base manifest
    verdict: Verdict | None = None  # the gate's answer every output shares


def verdict_of(freshness: Report, ctx: CommentContext) -> Verdict:
    """The context's verdict; a caller without a gate setting gets the default one (stale)."""
    if ctx.verdict is not None:
        return ctx.verdict
    return decide(freshness, "stale", manifest_missing=ctx.head_manifest_missing)


def _counts(summary: dict[str, Any], changes: Report | None, desync: int) -> str:
    rows = [
        ("snippets", summary["fences"]),
        ("bilingual pairs", summary["pairs"]),
        ("examples", summary["examples"]),
    ]
    if changes is not None:
        rows += [
            ("added", len(changes.added)),
            ("removed", len(changes.removed)),
            ("changed", len(changes.changed)),
            ("moved", len(changes.moved)),
        ]
    rows.append(("desynchronized", desync))
    head = "| " + " | ".join(r[0] for r in rows) + " |"
    sep = "|" + "|".join(" ---: " for _ in rows) + "|"
    body = "| " + " | ".join(str(r[1]) for r in rows) + " |"
    return "\n".join((head, sep, body))


def _section(title: str, items: Sequence[str], cap: int | None) -> str:
    if not items:
        return ""
    shown = items if cap is None else items[:cap]
    out = [f"#### {title} ({len(items)})", "", *shown]
    if len(shown) < len(items):
        out.append(f"- … and {len(items) - len(shown)} more (see the job summary or the JSON report)")
    return "\n".join(out) + "\n"


def comment(freshness: Report, ctx: CommentContext, budget: int = COMMENT_BUDGET) -> str:
    """The sticky PR comment, sections shortened (with a count of what was left out) to fit."""
    for cap, diffs in ((None, True), (50, True), (20, False), (10, False), (3, False), (0, False)):
        text = _comment(freshness, ctx, cap, diffs)
        if len(text) <= budget:
            return text
    counts = _counts(freshness.summary, ctx.changes or freshness, len(freshness.desynchronized))
    title = headline(verdict_of(freshness, ctx), ctx.manifest_name)
    return f"{ctx.marker}\n{title}\n\n{counts}\n\nThe full report is in the job summary.\n"


def _was(before: Snippet, after: Snippet) -> str:
    if before.file == after.file and before.code_lines == after.code_lines:
        return ""
    if before.file == after.file:
        return f" (was lines {before.code_lines[0]}-{before.code_lines[1]})"
    return f" (was {location(before, None)})"


def _change_diff(c: Change) -> str:
    diff = difflib.unified_diff(
        c.before.body.splitlines(keepends=True), c.after.body.splitlines(keepends=True), "before", "after", n=1
    )
    text = "".join(line if line.endswith("\n") else line + "\n" for line in diff)
    return "<details><summary>What changed</summary>\n\n" + fenced(visible_block(text), "diff") + "\n\n</details>"


def _comment(freshness: Report, ctx: CommentContext, cap: int | None, diffs: bool) -> str:
    changes = ctx.changes
    listed = changes if changes is not None else freshness
    desync = freshness.desynchronized
    new_keys = (
        {tuple(x.key for x in d.sides) for d in changes.desynchronized if d.new} if changes is not None else set()
    )
    verdict = verdict_of(freshness, ctx)
    parts: list[str] = [ctx.marker, headline(verdict, ctx.manifest_name), ""]
    if not freshness.fresh:
        parts.append("The manifest committed on this branch does not match its Markdown; the fix is at the bottom.\n")
    if ctx.base_missing:
        parts.append("There is no manifest on the base branch: this PR adopts docsnippets, so every snippet is new.\n")
    parts.append(_counts(freshness.summary, listed, len(desync)) + "\n")
    if changes is not None:
        parts.append("Compared with the manifest on the base branch:\n")
    elif not freshness.fresh:
        parts.append("Compared with the committed manifest:\n")
    loc: Callable[[Snippet], str] = lambda s: location(s, ctx.links)  # noqa: E731
    parts.append(_section("Added", [f"- {loc(s)} · {code_span(s.status)}" for _, s in listed.added], cap))
    parts.append(_section("Removed", [f"- {location(s, None)}" for _, s in listed.removed], cap))
    changed: list[str] = []
    for n, c in enumerate(listed.changed):
        line = f"- {loc(c.after)}{_was(c.before, c.after)} · {code_span(c.after.status)}"
        if diffs and (cap is None or n < cap):
            line += "\n\n" + _change_diff(c) + "\n"
        changed.append(line)
    parts.append(_section("Changed", changed, cap))
    parts.append(_section("Moved", [f"- {loc(c.after)}{_was(c.before, c.after)}" for c in listed.moved], cap))
    parts.append(
        _section(
            "Back in sync",
            [f"- {' ↔ '.join(location(s, None) for s in d.sides)}" for d in listed.resynchronized],
            cap,
        )
    )
    entries: list[str] = []
    for n, d in enumerate(desync):
        tag = " · new in this PR" if tuple(x.key for x in d.sides) in new_keys else ""
        if d.relation == "missing":
            where = code_span(d.counterpart_file or "?")
            entries.append(f"- {loc(d.sides[0])}: no matching example in {where}{tag}")
        else:
            line = f"- {' ↔ '.join(loc(s) for s in d.sides)}: the code differs{tag}"
            if diffs and (cap is None or n < cap):
                line += "\n\n" + desync_diff(d) + "\n"
            entries.append(line)
    parts.append(_section("Desynchronized bilingual examples", entries, cap))
    if freshness.notices:
        parts.append(_section("Warnings", [f"- {code_span(n)}" for n in freshness.notices], cap))
    parts += fixes(
        freshness,
        verdict,
        changes=changes,
        fix_command=ctx.fix_command,
        manifest_path=ctx.manifest_path,
        links=ctx.links,
        cap=cap,
    )
    return "\n".join(p for p in parts if p).rstrip() + "\n"


# --- catalogue (manifest -> document) -------------------------------------------------------

_WORDS = {
    "en": {
        "title": "Async Python examples in the documentation",
        "source": "Source",
        "unknown": "not recorded",
        "no_repo": "repository not recorded",
        "no_commit": "commit not recorded",
        "counts": "{fences} fenced blocks from {files} files; {pairs} English/Chinese pairs; "
        "{examples} examples once twins are merged; {distinct} distinct bodies by SHA-256.",
        "index": "Index",
        "pairs": "Bilingual pairs",
        "snippets": "Snippets",
        "cols": ("Id", "File and code lines", "Async syntax", "Modules", "Status", "Pair"),
        "pcols": ("Pair", "Snippets", "Relation"),
        "statuses": {
            "parses": "parses",
            "needs-async-wrapper": "needs an async wrapper",
            "incomplete-signature": "incomplete signature",
            "syntax-error": "syntax error",
        },
        "relations": {
            "identical": "identical bodies",
            "indentation": "list indentation only",
            "comments": "comments/docstrings only",
            "diverged": "diverged",
        },
        "status_line": "Status: ",
        "note": "Code is quoted verbatim and was never run; the syntax check removes only the common indentation.",
    },
    "zh": {
        "title": "文档中的 Python 异步示例",
        "source": "源码版本",
        "unknown": "未记录",
        "no_repo": "未记录仓库",
        "no_commit": "未记录提交",
        "counts": "共 {fences} 段，来自 {files} 个文件；{pairs} 对中英文示例；合并双语对应项后为 {examples} 个示例；"
        "按正文 SHA-256 去重为 {distinct} 段。",
        "index": "出处索引",
        "pairs": "中英文对应关系",
        "snippets": "原文片段",
        "cols": ("编号", "原文件与代码行", "原生语法", "并发模块", "语法状态", "双语对应"),
        "pcols": ("对应组", "片段", "关系"),
        "statuses": {
            "parses": "AST 可解析",
            "needs-async-wrapper": "需异步外层",
            "incomplete-signature": "不完整签名",
            "syntax-error": "语法错误",
        },
        "relations": {
            "identical": "正文逐字相同",
            "indentation": "列表缩进不同",
            "comments": "注释/docstring 本地化",
            "diverged": "代码不一致",
        },
        "status_line": "语法状态：",
        "note": "代码逐字摘录，从未执行；语法检查只去掉共同缩进。",
    },
}


def _catalogue_source(data: dict[str, Any], w: dict[str, Any]) -> str:
    source = data.get("source") or {}
    repo, commit = source.get("repository"), source.get("commit")
    server = source.get("server_url") or "https://github.com"
    if repo and commit:
        return f"{w['source']}: [{code_span(commit[:12])}]({server}/{repo}/tree/{commit}) ({code_span(repo)})"
    if commit:
        return f"{w['source']}: {code_span(commit[:12])} ({w['no_repo']})"
    if repo:
        return f"{w['source']}: {code_span(repo)} ({w['no_commit']})"
    return f"{w['source']}: {w['unknown']}"


def _catalogue_counts(items: Sequence[dict[str, Any]]) -> dict[str, int]:
    """The counts, computed here: the committed manifest holds none (they would make every change conflict)."""
    pairs = len({e["pair"]["id"] for e in items if e.get("pair")})
    return {
        "fences": len(items),
        "files": len({e["file"] for e in items}),
        "pairs": pairs,
        "examples": len(items) - pairs,
        "distinct": len({e["body_sha256"] for e in items}),
    }


def catalogue(data: dict[str, Any], lang: str = "zh") -> str:
    """The catalogue of a schema-2 manifest. ``DOC-001``… and ``PAIR-01``… number the
    snippets in document order for people; they are a view, the manifest's ids are stable."""
    from .manifest import entries

    w = _WORDS[lang]
    sep = "、" if lang == "zh" else ", "
    items = entries(data)
    number = {e["id"]: f"DOC-{n + 1:03d}" for n, e in enumerate(items)}
    pair_number: dict[str, str] = {}
    for e in items:
        if e.get("pair") and e["pair"]["id"] not in pair_number:
            pair_number[e["pair"]["id"]] = f"PAIR-{len(pair_number) + 1:02d}"
    out: list[str] = [f"# {w['title']}", "", _catalogue_source(data, w), ""]
    out += [
        w["counts"].format(**_catalogue_counts(items)),
        "",
        w["note"],
        "",
        f"## {w['index']}",
        "",
        "| " + " | ".join(w["cols"]) + " |",
        "|" + "|".join(" --- " for _ in w["cols"]) + "|",
    ]
    for s in items:
        doc = number[s["id"]]
        cells = [
            f"[{doc}](#{doc.lower()})",
            _catalogue_where(s, in_table=True),
            sep.join(code_span(m) for m in s["markers"]),
            ", ".join(code_span(m, in_table=True) for m in s["modules"]) or "—",
            w["statuses"].get(s["status"], s["status"]),
            pair_number[s["pair"]["id"]] if s.get("pair") else "—",
        ]
        out.append("| " + " | ".join(c or "—" for c in cells) + " |")
    out += [
        "",
        f"## {w['pairs']}",
        "",
        "| " + " | ".join(w["pcols"]) + " |",
        "|" + "|".join(" --- " for _ in w["pcols"]) + "|",
    ]
    for s in items:
        p = s.get("pair")
        if p and p["en"] == s["id"]:
            members = sep.join(f"[{number[m]}](#{number[m].lower()})" for m in (p["en"], p["zh"]))
            rel = w["relations"].get(p["relation"], p["relation"])
            out.append(f"| {pair_number[p['id']]} | {members} | {rel} |")
    out += ["", f"## {w['snippets']}", ""]
    for s in items:
        status = w["statuses"].get(s["status"], s["status"])
        out += [
            f"### {number[s['id']]}",
            "",
            _catalogue_where(s),
            "",
            f"{w['status_line']}{status}",
            "",
            fenced(s["body"]),
            "",
        ]
    return "\n".join(out).rstrip() + "\n"


def _catalogue_where(s: dict[str, Any], *, in_table: bool = False) -> str:
    first, last = s["code_lines"]
    where = code_span(f"{s['file']}:{first}–{last}", in_table=in_table)
    return f"[{where}]({s['permalink']})" if s.get("permalink") else where
