"""What ``check`` and ``diff`` print: the report in the chosen format, warnings on standard error."""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any, TextIO

from docsnippets.config import Config
from docsnippets.judge import Judgement
from docsnippets.judge.compare import match
from docsnippets.judge.lost import lost_pairs, pair_count_line
from docsnippets.judge.verdict import Verdict
from docsnippets.manifest.build import summarize, to_inventory
from docsnippets.report.text import report_text
from docsnippets.snippets.pairs import pairing_hint
from docsnippets.snippets.records import Inventory
from docsnippets.sources import FileSource
from docsnippets.visible import visible, visible_json
from docsnippets.words import counted

if TYPE_CHECKING:
    from docsnippets.snippets.layouts import Layout


def warn(message: str) -> None:
    print(f"docsnippets: warning: {visible(message)}", file=sys.stderr)


def warn_pairing(inventory: Inventory, config: Config, source: FileSource, *, whole_tree: bool) -> None:
    """Say why nothing paired: a root one level off, or (``whole_tree``: the inventory is the
    whole tree) a layout the configured rules do not describe, with the rule to add."""
    hint = pairing_hint(inventory, config, lambda rel: config.selects(rel) and source.kind(rel) is not None)
    if hint:
        warn(hint)
    elif (
        whole_tree and config.translations is None and not any(other is not None for _, other in inventory.counterparts)
    ):
        from docsnippets.snippets.layouts import missing_rules, pairs_under, recognise  # only when nothing paired

        files = [p for p in source.entries() if config.selects(p)]
        if not pairs_under(config.pair_rules, files):
            missing = missing_rules(recognise(files), config.pair_rules)
            if missing:
                warn_layout(missing)


def warn_layout(layouts: Sequence[Layout]) -> None:
    """The finding on one line, then the YAML to paste; the YAML quotes every name in ASCII
    escapes, so it can go out as it is."""
    from docsnippets.snippets.layouts import describe, rules_yaml

    warn(f"no file pairs under the configured pair rules, but {describe(layouts)}; add this to .docsnippets.yml:")
    sys.stderr.write(rules_yaml(layout.rule for layout in layouts))


def write_report(
    out: TextIO,
    fmt: str,
    found: Judgement,
    verdict: Verdict,
    *,
    manifest: Path,
    comment: Mapping[str, Any] | None = None,
    extra: dict[str, Any] | None = None,
) -> None:
    """The judgement in the chosen format; markdown is the PR comment's body, without its marker.

    ``comment`` is the rest of the comment's context (render.CommentContext's fields); the
    rendering code loads only for the format that needs it."""
    report, changes = found.freshness, found.changes
    if fmt == "json":
        from docsnippets.report.data import report_json

        lost = [x.as_json() for x in found.lost]
        head = {"manifest": str(manifest), "verdict": verdict.as_json(), "lost_pairs": lost}
        data = report_json(report, {**head, **(extra or {})})
        out.write(visible_json(json.dumps(data, ensure_ascii=False, indent=2)) + "\n")
    elif fmt == "markdown":
        from docsnippets.report import render

        ctx = render.CommentContext(
            **{"manifest_name": manifest.name, **(comment or {})},
            marker="",
            head_manifest_missing=found.manifest_missing,
            verdict=verdict,
            changes=changes,
            inventory=found.inventory,
            translations=found.translations,
        )
        out.write(render.comment(report, ctx).lstrip())
    else:
        out.write(report_text(report, str(manifest), verdict, changes, found.inventory))


def update_summary(out: TextIO, shown: Path, written: bool, after: Inventory, before: dict[str, Any] | None) -> None:
    """What ``update`` did, in one line, then how the pairs changed when they did and why."""
    s = summarize(after)
    orphans = len(s.get("without_source", []))
    print(
        f"{'wrote' if written else 'unchanged'} {shown}: {counted(s['fences'], 'snippet')} in "
        f"{counted(s['files'], 'file')}, {counted(s['pairs'], 'pair')}, {counted(s['examples'], 'example')}, "
        f"{counted(s['distinct_bodies'], 'distinct body', 'distinct bodies')}"
        + (f", {counted(s['untranslated'], 'untranslated page')}" if s["untranslated"] else "")
        + (f", {counted(orphans, 'translation page')} with no source page" if orphans else ""),
        file=out,
    )
    old = to_inventory(before) if before is not None else None
    line = pair_count_line(old, after, lost_pairs(old, after, match(old, after)) if old is not None else ())
    if line:
        print(visible(line), file=out)
