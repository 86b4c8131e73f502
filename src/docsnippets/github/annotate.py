"""The findings of a run as workflow annotations, most important first, within GitHub's limit."""

from __future__ import annotations

from collections.abc import Sequence

from docsnippets.constants import FIX_COMMAND, MAX_ANNOTATIONS, Cause, Relation
from docsnippets.github.workflow import annotation
from docsnippets.judge.compare import Report
from docsnippets.judge.lost import LostPair
from docsnippets.judge.verdict import Verdict
from docsnippets.references.findings import ReferenceKind, fixes_for
from docsnippets.words import plural

LOST_TITLE = "Bilingual page lost its counterpart"


def annotations(freshness: Report, verdict: Verdict, manifest_name: str, lost: Sequence[LostPair] = ()) -> list[str]:
    """Errors first, then warnings, each within GitHub's per-step limit; the rest summarised.

    A finding is an error exactly when the verdict counts it against the check, so a green
    check never carries error annotations and a red one always names why.
    """
    stale_level = "error" if verdict.stale_enforced else "warning"
    desync_level = "error" if verdict.desync_enforced else "warning"
    references_level = "error" if verdict.references_enforced else "warning"
    found = [
        *_stale(freshness, stale_level, manifest_name),
        *_desync(freshness, desync_level),
        *(annotation(desync_level, f"{x.sentence()}; {x.fix()}", x.kept, title=LOST_TITLE) for x in lost),
        *_references(freshness, references_level),
    ]
    errors = [a for a in found if a.startswith("::error")]
    warnings = [a for a in found if not a.startswith("::error")]
    out = errors[:MAX_ANNOTATIONS] + warnings[:MAX_ANNOTATIONS]
    hidden = len(found) - len(out)
    if verdict.cause == Cause.ERROR:
        out.insert(0, annotation("error", f"could not decide: {verdict.error}"))
    if hidden:
        out.append(
            annotation(
                "notice", f"{hidden} more {plural(hidden, 'finding is', 'findings are')} listed in the job summary"
            )
        )
    return out


def _stale(freshness: Report, level: str, manifest_name: str) -> list[str]:
    fix = f"run `{FIX_COMMAND}` and commit {manifest_name}"
    title = "Snippet manifest is stale"
    out = [
        annotation(level, f"snippet changed; {fix}", c.after.file, c.after.code_lines, title) for c in freshness.changed
    ]
    out += [
        annotation(level, f"new async snippet is not in the manifest; {fix}", s.file, s.code_lines, title)
        for _, s in freshness.added
    ]
    out += [
        annotation(level, f"snippet at {s.file}:{s.code_lines[0]} was removed; {fix}", title=title)
        for _, s in freshness.removed
    ]
    out += [
        annotation(level, f"{c.false_record()}; {fix}", c.after.file, c.after.code_lines, title)
        for c in freshness.metadata
    ]
    out += [  # a snippet whose file changed: its entry names a file that no longer holds it
        annotation(level, f"snippet moved here from {c.before.file}; {fix}", c.after.file, c.after.code_lines, title)
        for c in freshness.moved
        if c.before.file != c.after.file
    ]
    return out


def _desync(freshness: Report, level: str) -> list[str]:
    out: list[str] = []
    for d in freshness.desynchronized:
        for s in d.sides:
            if d.relation == Relation.MISSING:
                msg = f"no matching example in {d.counterpart_file}; translate it or remove it"
            else:
                other = next(o for o in d.sides if o is not s)
                msg = f"code differs from its translation {other.file}:{other.code_lines[0]}; make them match"
            out.append(annotation(level, msg, s.file, s.code_lines, "Bilingual example out of sync"))
    return out


_TITLES = {
    ReferenceKind.MODULE: "Snippet imports missing code",
    ReferenceKind.NAME: "Snippet imports missing code",
    ReferenceKind.CALL: "Snippet call does not fit the code",
    ReferenceKind.AWAIT: "Snippet awaits a plain function",
    ReferenceKind.CONTEXT: "Snippet uses a context manager or iterator of the wrong kind",
}


def _references(freshness: Report, level: str) -> list[str]:
    return [
        annotation(level, f"{b.reason}; {fixes_for([b])[0]}", b.file, (b.line, b.line), _TITLES[b.kind])
        for _, b in freshness.broken_references
    ]
