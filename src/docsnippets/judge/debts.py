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

* **An out-of-sync entry** (a ``diverged`` pair, an example with no counterpart: ``missing``)
  is a debt when the base already held the same snippets as such an entry and the change
  made the difference no other. Each side's code is read line by line, comments, docstrings
  and layout left out but each line's block depth kept (:func:`grammar.code_rows`, as the
  declared Python reads it, like every reading of code that decides a verdict). The two
  sides are matched in order (difflib); a line no line of the other side matches *differs*
  (every line of a ``missing`` example does). Each side is matched in order with the base's
  same side, so each of its lines *follows back* to a base line or, written, moved or
  reordered by the change, to none. The difference is no other when (1) every line that
  differs follows back to a line that differed at the base, and (2) no line the change wrote
  on one side is matched by a line of the other side that follows back to one that agreed
  at the base. (1) catches a new or edited line, and a line that agreed and now differs (its
  counterpart deleted, moved into or out of a block); (2) a line moved on one side past
  lines both sides share, whichever of the two difflib takes for the moved one. So a change
  that edited a comment, moved the example, made the same edit to both sides in the same
  place, or brought a differing line in line leaves a debt a debt; any other edit that
  leaves the pair out of sync is the change's to settle. Matching is quadratic at worst: a
  pair past ``MAX_DIFF_CELLS``, or met once the run's ``MAX_RUN_CELLS`` are spent, is the
  change's when its code changed at all.
* **A broken reference** is a debt when the base's version of the same snippet had the same
  finding: the same kind, module, name and reason, the code places in the reason compared
  without their line numbers (code that merely shifted is the same code), on the same code
  line (its tokens, comments and spacing left out). Findings are counted as a multiset, so a
  second broken call alike added to a snippet is new, and so is the old mistake written on
  another line while the old line was fixed.
* Everything else is the change's: a pair or finding in a snippet the base did not have, a
  pair that was in sync at the base, a finding the base did not have.

The base's pairs come from its manifest (its records hold every body and pair); its findings
from its code, read only when the head has a finding in a snippet the base also had.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Mapping, Sequence
from dataclasses import replace
from difflib import SequenceMatcher
from typing import TYPE_CHECKING

from docsnippets.config import DEFAULT_PYTHON
from docsnippets.judge.code import Findings
from docsnippets.judge.compare import Report
from docsnippets.judge.desyncs import Desync, desync_of
from docsnippets.snippets import grammar
from docsnippets.snippets.alignment import common_ends
from docsnippets.snippets.pairs import Budget
from docsnippets.snippets.records import Inventory

if TYPE_CHECKING:  # a finding's type only: the reference check loads when a tree has code to judge
    from docsnippets.references.findings import BrokenReference

# An out-of-sync entry at the base: its relation, its snippets and, under the translations
# setting, the translation it concerns (a source example may be out of step with one
# translation and not with another).
Earlier = tuple[str, tuple[int, ...]] | tuple[str, tuple[int, ...], str]
Identity = tuple[str, str, str | None, str, str]  # kind, module, name, reason, code line
# Line matchings (len(a) * len(b) cells): a pair's bound and the run's allowance.
MAX_DIFF_CELLS = 250_000
MAX_RUN_CELLS = 2_000_000
_PLACE = re.compile(r"\(([^()\s`]+):\d+\)")  # ``(pkg/mod.py:12)`` in a call finding's reason


def _earlier(relation: str, indices: tuple[int, ...], language: str | None) -> Earlier:
    return (relation, indices) if language is None else (relation, indices, language)


def _lines(body: str, python: str) -> tuple[str, ...]:
    """A body's code lines, each with its block depth (what a difference is made of)."""
    return tuple(f"{depth}|{code}" for _, depth, code in grammar.code_rows(grammar.judge(python), body))


def _loose(lines: Sequence[str]) -> tuple[str, ...]:
    """The lines without their depth: a side is followed through a change by its code, so
    that both sides wrapped in one more block alike still follow back."""
    return tuple(line.partition("|")[2] for line in lines)


def _matched(a: Sequence[str], b: Sequence[str], budget: Budget) -> dict[int, int] | None:
    """Index in ``a`` -> index in ``b`` of the lines matched in order: the common head and
    tail, then difflib between them; None past the bounds (this pair's, what is left of the
    run's), which only the part between the head and tail spends."""
    head, tail = common_ends(a, b)
    out = {k: k for k in range(head)}
    out.update((len(a) - 1 - k, len(b) - 1 - k) for k in range(tail))
    mid_a, mid_b = a[head : len(a) - tail], b[head : len(b) - tail]
    cells = len(mid_a) * len(mid_b)
    if cells > min(MAX_DIFF_CELLS, budget.cells):
        return None
    budget.cells -= cells
    for i, j, n in SequenceMatcher(None, mid_a, mid_b, autojunk=False).get_matching_blocks():
        out.update((head + i + k, head + j + k) for k in range(n))
    return out


def differing(sides: Sequence[Sequence[str]], budget: Budget) -> tuple[frozenset[int], ...] | None:
    """Per side, the indices of its lines the other side does not match (all of a lone side's)."""
    paired = _pairing(sides, budget)
    return None if paired is None else _unpaired(sides, paired)


def _pairing(sides: Sequence[Sequence[str]], budget: Budget) -> dict[int, int] | None:
    """The first side's lines matched to the second's ({} for a lone side); None past the bounds."""
    return _matched(sides[0], sides[1], budget) if len(sides) == 2 else {}


def _unpaired(sides: Sequence[Sequence[str]], paired: Mapping[int, int]) -> tuple[frozenset[int], ...]:
    matched = (set(paired), set(paired.values()))
    return tuple(frozenset(range(len(lines))) - matched[n] for n, lines in enumerate(sides))


def desync_debt(
    d: Desync,
    back: Mapping[int, int],
    earlier: Mapping[Earlier, Desync],
    budget: Budget,
    python: str = DEFAULT_PYTHON,
) -> bool:
    """Whether ``d`` (a head entry) was out of sync at the base and the change made its
    difference no other; ``back`` maps head snippet indices to the base's."""
    old = earlier.get(_earlier(d.relation, tuple(back.get(j, -1) for j in d.indices), d.language))
    if old is None:
        return False
    now, was = [_lines(s.body, python) for s in d.sides], [_lines(s.body, python) for s in old.sides]
    return now == was or _no_other_difference(now, was, budget)


def _no_other_difference(now: Sequence[Sequence[str]], was: Sequence[Sequence[str]], budget: Budget) -> bool:
    """(1) Every line that differs now followed back to one that differed at the base, and
    (2) no line the change wrote on one side is matched by a line of the other that already
    agreed there (a line moved on one side only: the lines around it now disagree where
    they agreed)."""
    pairing, differed = _pairing(now, budget), differing(was, budget)
    followed = [_matched(_loose(lines), _loose(old), budget) for lines, old in zip(now, was, strict=True)]
    if pairing is None or differed is None or None in followed:
        return False
    back = [f for f in followed if f is not None]
    differs = _unpaired(now, pairing)
    old = all(back[side].get(k, -1) in differed[side] for side, lines in enumerate(differs) for k in lines)
    return old and not _moved_on_one_side(pairing, back, differed)


def _moved_on_one_side(
    pairing: Mapping[int, int], back: Sequence[Mapping[int, int]], differed: Sequence[frozenset[int]]
) -> bool:
    """Whether a line the change wrote on one side (it follows back to nothing) is matched by
    a line of the other side that follows back to one that agreed at the base."""
    for a, b in pairing.items():
        for (side, k), (other, o) in (((0, a), (1, b)), ((1, b), (0, a))):
            if k not in back[side] and o in back[other] and back[other][o] not in differed[other]:
                return True
    return False


def finding_identity(b: BrokenReference, python: str = DEFAULT_PYTHON) -> Identity:
    """What makes two findings the same across a change: what is wrong and the code line it
    is on, not where that line or the code it calls is."""
    row = b.line - b.snippet.code_lines[0] + 1
    rows = grammar.code_rows(grammar.judge(python), b.snippet.body)
    code = next((text for r, _, text in rows if r == row), "")
    return (str(b.kind), b.module, b.name, _PLACE.sub(r"(\1)", b.reason), code)


def wanted_at_base(found: Findings, head: Inventory, back: Mapping[int, int]) -> tuple[int, ...]:
    """The base snippets (indices) whose findings could make a head finding a debt."""
    index = {s.key: j for j, s in enumerate(head.snippets)}
    return tuple(sorted({back[index[b.snippet.key]] for _, b in found if index.get(b.snippet.key) in back}))


def split_findings(
    found: Findings,
    head: Inventory,
    base: Inventory,
    back: Mapping[int, int],
    at_base: Findings,
    python: str = DEFAULT_PYTHON,
) -> tuple[Findings, Findings]:
    """(the change's findings, the debts): a head finding is a debt while its base snippet
    still has an unmatched finding of the same identity."""
    head_index = {s.key: j for j, s in enumerate(head.snippets)}
    base_index = {s.key: i for i, s in enumerate(base.snippets)}
    left: Counter[tuple[int, Identity]] = Counter(
        (base_index[b.snippet.key], finding_identity(b, python)) for _, b in at_base if b.snippet.key in base_index
    )
    mine: list[tuple[str, BrokenReference]] = []
    debts: list[tuple[str, BrokenReference]] = []
    for sid, b in found:
        key = (back.get(head_index.get(b.snippet.key, -1), -1), finding_identity(b, python))
        if left[key] > 0:
            left[key] -= 1
            debts.append((sid, b))
        else:
            mine.append((sid, b))
    return tuple(mine), tuple(debts)


def settle(
    report: Report,
    head: Inventory,
    base: Inventory,
    mapping: Mapping[int, int],
    at_base: Findings | None,
    python: str = DEFAULT_PYTHON,
) -> Report:
    """``report`` (the head judged) with its debts moved apart: ``desynchronized`` and
    ``broken_references`` keep what the change made worse, ``desync_debts`` and
    ``reference_debts`` hold the rest. ``mapping``: base index -> head index (compare.match);
    ``at_base``: the base's findings for :func:`wanted_at_base`, None when its code could not
    be read (then no finding is taken for a debt); ``python``: the declared version, whose
    reading of the code lines decides."""
    back = {j: i for i, j in mapping.items()}
    earlier = {_earlier(d.relation, d.indices, d.language): d for d in desync_of(base)}
    budget = Budget(MAX_RUN_CELLS)
    mine: list[Desync] = []
    owed: list[Desync] = []
    for d in report.desynchronized:
        (owed if desync_debt(d, back, earlier, budget, python) else mine).append(d)
    refs, ref_debts = report.broken_references, ()
    if at_base is not None:
        refs, ref_debts = split_findings(report.broken_references, head, base, back, at_base, python)
    return replace(
        report,
        desynchronized=tuple(mine),
        desync_debts=tuple(owed),
        broken_references=refs,
        reference_debts=ref_debts,
    )
