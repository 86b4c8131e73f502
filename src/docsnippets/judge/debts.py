"""Old debts: what a change finds already wrong at its base is shown apart and does not gate.

A change is asked for what it made worse, not for what the branch it is merged into already
held (reviewdog's "added" filter does the same for linters). With a base to compare with (a
pull request, ``diff BASE``), each out-of-sync pair and each broken reference the head tree
shows is either the change's (it gates under ``fail-on desync`` / ``fail-on references`` and
its fix is asked for) or a *debt* (listed apart, never counted). Without a base (a push to
the default branch, a plain ``check``) there is no "before": everything counts.

The rule
--------
Snippets are followed from the base to the head by :func:`compare.match` (the same body,
then a similar body in the same file, then the same body in another file), so a snippet that
moved, or whose page was edited around it, is still the same snippet.

* **An out-of-sync pair** (``diverged``) is a debt when the base already held the same two
  snippets as a ``diverged`` pair *and* the change added no difference: the difference is
  what each side's code lines have that the other's lack, with comments, docstrings and
  layout left out (:func:`difference`), and every line of the head's difference was already
  in the base's. So a change that edited a comment, moved the example, made the same edit to
  both sides, or brought one differing line in line leaves a debt a debt (the same, or
  smaller); a change that wrote a differing line of its own (edited one side's code so that
  it differs in a new way) made the pair worse, and the pair is its to settle.
* **An example with no counterpart** (``missing``) is a debt when the base already lacked a
  counterpart for the same snippet and the change added no code line to it.
* **A broken reference** is a debt when the base's version of the same snippet had the same
  finding: the same kind, module, name and reason, the code places in the reason compared
  without their line numbers (code that merely shifted is the same code). Findings are
  counted as a multiset, so a second broken call of the same kind added to a snippet is new.
* Everything else is the change's: a pair or finding in a snippet the base did not have, a
  pair that was in sync at the base, a finding the base did not have.

The base's pairs come from its manifest (its records hold every body and pair); its findings
from its code, read only when the head has a finding in a snippet the base also had.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping
from dataclasses import replace
from typing import TYPE_CHECKING

from docsnippets.judge.compare import Desync, Report, desync_of
from docsnippets.snippets import classify
from docsnippets.snippets.records import Inventory

if TYPE_CHECKING:  # a finding's type only: the reference check loads when a tree has code to judge
    from docsnippets.references.findings import BrokenReference

Findings = tuple[tuple[str, "BrokenReference"], ...]  # (snippet id, finding)
Difference = tuple[tuple[str, ...], ...]
_PLACE = re.compile(r"\(([^()\s`]+):\d+\)")  # ``(pkg/mod.py:12)`` in a call finding's reason


def difference(*bodies: str) -> Difference:
    """What each body's code lines have that the others' lack (comments, docstrings and
    layout left out), as sorted multisets; one body: its code lines, which its absent
    counterpart lacks."""
    lines = [Counter(classify.comparable_lines(body)) for body in bodies]
    if len(lines) == 1:
        return (tuple(sorted(lines[0].elements())),)
    out = []
    for n, mine in enumerate(lines):
        others: Counter[str] = Counter()
        for m, theirs in enumerate(lines):
            if m != n:
                others |= theirs
        out.append(tuple(sorted((mine - others).elements())))
    return tuple(out)


def _earlier(base: Inventory) -> dict[tuple[str, tuple[int, ...]], Difference]:
    """The base's out-of-sync entries by relation and snippet indices, with their difference."""
    return {(d.relation, d.indices): difference(*(s.body for s in d.sides)) for d in desync_of(base)}


def within(now: Difference, before: Difference) -> bool:
    """Whether every differing line of ``now`` was already differing, on the same side, ``before``."""
    return len(now) == len(before) and all(
        not Counter(lines) - Counter(old) for lines, old in zip(now, before, strict=True)
    )


def desync_debt(d: Desync, back: Mapping[int, int], earlier: Mapping[tuple[str, tuple[int, ...]], Difference]) -> bool:
    """Whether ``d`` (a head entry) was out of sync at the base and the change added no
    difference to it; ``back`` maps head snippet indices to the base's."""
    was = tuple(back.get(j, -1) for j in d.indices)
    old = earlier.get((d.relation, was))
    return old is not None and within(difference(*(s.body for s in d.sides)), old)


def finding_identity(b: BrokenReference) -> tuple[str, str, str | None, str]:
    """What makes two findings the same across a change: not the line, nor the code's lines."""
    return (str(b.kind), b.module, b.name, _PLACE.sub(r"(\1)", b.reason))


def wanted_at_base(found: Findings, head: Inventory, back: Mapping[int, int]) -> tuple[int, ...]:
    """The base snippets (indices) whose findings could make a head finding a debt."""
    index = {s.key: j for j, s in enumerate(head.snippets)}
    return tuple(sorted({back[index[b.snippet.key]] for _, b in found if index.get(b.snippet.key) in back}))


def split_findings(
    found: Findings, head: Inventory, base: Inventory, back: Mapping[int, int], at_base: Findings
) -> tuple[Findings, Findings]:
    """(the change's findings, the debts): a head finding is a debt while its base snippet
    still has an unmatched finding of the same identity."""
    head_index = {s.key: j for j, s in enumerate(head.snippets)}
    base_index = {s.key: i for i, s in enumerate(base.snippets)}
    left: Counter[tuple[int, tuple[str, str, str | None, str]]] = Counter(
        (base_index[b.snippet.key], finding_identity(b)) for _, b in at_base if b.snippet.key in base_index
    )
    mine: list[tuple[str, BrokenReference]] = []
    debts: list[tuple[str, BrokenReference]] = []
    for sid, b in found:
        key = (back.get(head_index.get(b.snippet.key, -1), -1), finding_identity(b))
        if left[key] > 0:
            left[key] -= 1
            debts.append((sid, b))
        else:
            mine.append((sid, b))
    return tuple(mine), tuple(debts)


def settle(
    report: Report, head: Inventory, base: Inventory, mapping: Mapping[int, int], at_base: Findings | None
) -> Report:
    """``report`` (the head judged) with its debts moved apart: ``desynchronized`` and
    ``broken_references`` keep what the change made worse, ``desync_debts`` and
    ``reference_debts`` hold the rest. ``mapping``: base index -> head index (compare.match);
    ``at_base``: the base's findings for :func:`wanted_at_base`, None when its code could not
    be read (then no finding is taken for a debt)."""
    back = {j: i for i, j in mapping.items()}
    earlier = _earlier(base)
    mine: list[Desync] = []
    owed: list[Desync] = []
    for d in report.desynchronized:
        (owed if desync_debt(d, back, earlier) else mine).append(d)
    refs, ref_debts = report.broken_references, ()
    if at_base is not None:
        refs, ref_debts = split_findings(report.broken_references, head, base, back, at_base)
    return replace(
        report,
        desynchronized=tuple(mine),
        desync_debts=tuple(owed),
        broken_references=refs,
        reference_debts=ref_debts,
    )
