"""What the comment says first and last: the verdict's headline, and what to do about it.

Both are rendered from the run's one ``Verdict``, so the headline can never be green over a
red check, and the fix names every cause the gate counted.
"""

from __future__ import annotations

from docsnippets.constants import Cause
from docsnippets.judge.compare import Desync, Report, all_lost
from docsnippets.judge.verdict import Verdict
from docsnippets.references.findings import fixes_for
from docsnippets.report.context import Links
from docsnippets.report.markup import code_span, fenced, location, plain
from docsnippets.visible import visible
from docsnippets.words import plural

Key = tuple[str, int]
HEADLINE_REASONS = 3


def headline(verdict: Verdict, manifest_name: str) -> str:
    """The comment's first line: the gate's answer, then what it was about; the ``fail-on``
    setting is named once, where the line first depends on it."""
    name = code_span(manifest_name)
    mark = "✅" if verdict.passed else "❌"
    setting = f"(fail-on {verdict.fail_on})"
    if verdict.manifest_missing:
        about = f"{name} is missing from this branch"
    elif not verdict.fresh:
        about = f"{name} is stale — {plain(_reasons(verdict.reasons))}"
    elif verdict.cause in (Cause.DESYNC, Cause.REFERENCES):
        found = verdict.pair_words() if verdict.cause == Cause.DESYNC else verdict.references_words()
        about, setting = f"{found} {setting}; the manifest {name} itself is fresh", ""
    else:
        about = f"{name} is up to date"
    if verdict.cause == Cause.ERROR:
        about = f"could not decide — {plain(verdict.error or '')}; {about}"
    shown, relaxed = [], []
    if (verdict.desync or verdict.lost) and verdict.cause != Cause.DESYNC:
        (shown if verdict.desync_enforced else relaxed).append(verdict.pair_words())
    if verdict.references and verdict.cause != Cause.REFERENCES:
        (shown if verdict.references_enforced else relaxed).append(verdict.references_words())
    if verdict.passed and not verdict.fresh:  # fail-on never: nothing is enforced
        mark = "⚠️"
        shown.append(f"not enforced {setting}" + (f": {'; '.join(relaxed)}" if relaxed else ""))
    elif relaxed:
        shown.append(f"{'; '.join(relaxed)}, not enforced {setting}".rstrip())
    if verdict.desync_debts or verdict.reference_debts:
        shown.append(f"already before this PR, not counted: {verdict.debts_words()}")
    extra = f" · ⚠️ {' · '.join(shown)}" if shown else ""
    return f"### {mark} docsnippets: {about}{extra}"


def _reasons(reasons: tuple[str, ...]) -> str:
    """The first few reasons; the comment lists them all when there are more."""
    if len(reasons) <= HEADLINE_REASONS:
        return "; ".join(reasons)
    shown = "; ".join(reasons[: HEADLINE_REASONS - 1])
    rest = len(reasons) - HEADLINE_REASONS + 1
    return f"{shown}; and {rest} more {plural(rest, 'reason')} (listed below)"


def fixes(
    freshness: Report,
    verdict: Verdict,
    *,
    changes: Report | None,
    fix_command: str,
    manifest_path: str,
    links: Links | None,
    cap: int | None,
) -> list[str]:
    """What to do, in the order the gate weighs it: the manifest first, then the translations."""
    parts: list[str] = []
    if not freshness.fresh:
        lead = "**To fix:**" if verdict.cause == Cause.STALE else "**To update the manifest** (not enforced):"
        commit = f"git commit -m 'Update snippet manifest' {visible(manifest_path)}"
        parts.append(
            f"{lead} run this at the root of the branch and push the result:\n\n"
            + fenced(f"{visible(fix_command)}\n{commit}\n", "sh")
        )
    if freshness.desynchronized:
        edited = _edited(changes if changes is not None else freshness)
        steps = [_resync_step(d, edited, links, changes is not None) for d in freshness.desynchronized]
        shown = _capped(steps, cap)
        note = (
            "The code is compared with comments, docstrings and translated string literals left out: "
            "a translation is never the cause."
        )
        parts.append(f"{_resync_lead(verdict)}:\n\n" + "\n".join(shown) + f"\n\n{note}\n")
    lost = all_lost(freshness, changes)
    if lost:
        steps = list(dict.fromkeys(f"- {plain(x.fix())}" for x in lost))  # a page lost in every language: one fix
        parts.append(f"{_lost_lead(verdict)}:\n\n" + "\n".join(_capped(steps, cap)) + "\n")
    if freshness.broken_references:
        lead = (
            "**To fix:**"
            if verdict.references_enforced
            else f"**To fix the references** (not enforced: fail-on {verdict.fail_on}):"
        )
        advice = "; ".join(plain(fix) for fix in fixes_for(b for _, b in freshness.broken_references))
        parts.append(f"{lead} {advice}; the *Broken references* above list each one.")
    return parts


def _capped(steps: list[str], cap: int | None) -> list[str]:
    """The first ``cap`` steps (at least one) and how many more: a fix naming a page in every
    language grows with the languages, so every list of steps shortens with the comment."""
    shown = steps if cap is None else steps[: max(cap, 1)]
    if len(shown) < len(steps):
        shown = [*shown, f"- … and {len(steps) - len(shown)} more (see the job summary or the JSON report)"]
    return shown


def _lost_lead(verdict: Verdict) -> str:
    if verdict.cause == Cause.DESYNC and not verdict.desync:
        return "**To fix:** give each page its counterpart again"
    if verdict.desync_enforced:
        return "**Then** give each page its counterpart again"
    return f"**To give each page its counterpart again** (not enforced: fail-on {verdict.fail_on})"


def _resync_lead(verdict: Verdict) -> str:
    if verdict.cause == Cause.DESYNC:
        return "**To fix:** bring each counterpart in line"
    if verdict.desync_enforced:
        return "**Then** bring each counterpart in line"
    return f"**To bring the translations in line** (not enforced: fail-on {verdict.fail_on})"


def _edited(report: Report) -> set[Key]:
    """Where the snippets this change edited or added now are."""
    return {c.after.key for c in report.changed} | {s.key for _, s in report.added}


def _resync_step(d: Desync, edited: set[Key], links: Links | None, in_change: bool) -> str:
    """What to do about one pair; under the translations setting it starts with the language."""
    step = _step(d, edited, links, in_change)
    return step if d.language is None else f"- {code_span(d.language)}: {step[2:]}"


def _step(d: Desync, edited: set[Key], links: Links | None, in_change: bool) -> str:
    if d.relation == "missing" or len(d.sides) != 2:
        s = d.sides[0]
        return f"- translate {location(s, links)} into {code_span(d.counterpart_file or '?')}, or remove it"
    en, zh = d.sides
    if not in_change:  # a local check: no change to tell an edited side from the other
        return f"- make {location(en, links)} and {location(zh, links)} the same code; edit the one that is wrong"
    behind = [s for _, s in d.others if s.key not in edited]
    if zh.key in edited and en.key not in edited and behind:  # one translation edited, the rest not
        rest = ", ".join(location(s, links) for s in behind)
        return (
            f"- undo the edit of {location(zh, links)}, or make the same change in {location(en, links)} "
            f"and in every other translation: {rest}"
        )
    if (en.key in edited) != (zh.key in edited):
        changed, other = (en, zh) if en.key in edited else (zh, en)
        return f"- edit {location(other, links)} to match {location(changed, links)} (edited in this change)"
    why = "both sides were edited" if en.key in edited else "neither side was edited in this change"
    return f"- make {location(en, links)} and {location(zh, links)} the same code; {why}, so edit the one that is wrong"
