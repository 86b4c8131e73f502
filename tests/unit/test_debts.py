"""The rule of old debts (judge/debts.py), case by case: which out-of-sync pairs and broken
references a change found already at its base, and which it made worse."""

from __future__ import annotations

import pytest

from docsnippets.judge.compare import compare, match
from docsnippets.judge.debts import MAX_DIFF_CELLS, differing, settle, split_findings
from docsnippets.references.findings import BrokenReference, ReferenceKind
from docsnippets.snippets.pairs import Budget

EN, ZH = "docs/en/p.md", "docs/zh/p.md"
TWO = "async def main():\n    a = await f(1)\n    b = await g(2){note}\n"


def fence(body: str) -> str:
    return f"```python\n{body}```\n"


def pages(en: str, zh: str | None, *, lead: str = "") -> dict[str, str]:
    out = {EN: f"# P\n\n{lead}{fence(en)}"}
    if zh is not None:
        out[ZH] = f"# P\n\n{fence(zh)}" if zh else "# P\n\nno example\n"
    return out


BASE_EN = TWO.format(note="")
BASE_ZH = TWO.format(note="").replace("f(1)", "f(10)").replace("g(2)", "g(20)")

# (case, base pages, head pages, the head's out-of-sync entry is a debt)
DESYNC = [
    ("unchanged", pages(BASE_EN, BASE_ZH), pages(BASE_EN, BASE_ZH), True),
    ("a comment edited", pages(BASE_EN, BASE_ZH), pages(TWO.format(note="  # two"), BASE_ZH), True),
    ("moved down the page", pages(BASE_EN, BASE_ZH), pages(BASE_EN, BASE_ZH, lead="More prose.\n\n"), True),
    (
        "the same edit to both sides",
        pages(BASE_EN, BASE_ZH),
        pages(BASE_EN + "    await h()\n", BASE_ZH + "    await h()\n"),
        True,
    ),
    (
        "one differing line brought in line",
        pages(BASE_EN, BASE_ZH),
        pages(BASE_EN, BASE_ZH.replace("f(10)", "f(1)")),
        True,
    ),
    ("one side differs in a new way", pages(BASE_EN, BASE_ZH), pages(BASE_EN.replace("f(1)", "f(3)"), BASE_ZH), False),
    ("a new differing line", pages(BASE_EN, BASE_ZH), pages(BASE_EN + "    await h()\n", BASE_ZH), False),
    ("in sync at the base", pages(BASE_EN, BASE_EN), pages(BASE_EN, BASE_ZH), False),
    ("untranslated, unchanged", pages(BASE_EN, ""), pages(BASE_EN, "", lead="Prose.\n\n"), True),
    ("untranslated, code added", pages(BASE_EN, ""), pages(BASE_EN + "    await h()\n", ""), False),
    ("untranslated, a line removed", pages(BASE_EN + "    await h()\n", ""), pages(BASE_EN, ""), True),
]

# A pair with lines both sides share (``s``, ``t``, ``u``) and lines that differ (``c``/``C``,
# ``d``/``D``): a change can make its difference worse without writing a line the base did not have.
SHARED = "async def main():\n    if ok:\n        s = await f(0)\n    t = await g(0)\n{c}    u = await k(0)\n{d}"
C, D = "    c = await h(1)\n", "    d = await h(2)\n"
CZ, DZ = "    c = await h(10)\n", "    d = await h(20)\n"
SHARED_EN, SHARED_ZH = SHARED.format(c=C, d=D), SHARED.format(c=CZ, d=DZ)


def _en(text: str) -> dict[str, str]:
    return pages(text, SHARED_ZH)


WORSE_UNCHANGED_LINES = [
    (
        "lines both sides share, reordered on one side",
        SHARED_EN.replace("    t = await g(0)\n" + C, C + "    t = await g(0)\n"),
    ),
    ("a differing line moved elsewhere on one side", SHARED_EN.replace(D, "").replace("    t =", D + "    t =")),
    ("two differing lines swapped on one side", SHARED.format(c=D, d=C)),
    ("a shared line moved into a block on one side", SHARED_EN.replace("    t = await g(0)", "        t = await g(0)")),
    ("a shared line deleted on one side", SHARED_EN.replace("    u = await k(0)\n", "")),
]
DESYNC += [(case, _en(SHARED_EN), _en(head), False) for case, head in WORSE_UNCHANGED_LINES]
DESYNC += [
    (
        "the same line added to both sides, in different places",
        pages(SHARED_EN, SHARED_ZH),
        pages(SHARED_EN + "    await z()\n", SHARED_ZH.replace("    t =", "    await z()\n    t =")),
        False,
    ),
    (
        "both sides wrapped in a block alike",
        pages(SHARED_EN, SHARED_ZH),
        pages(
            *(
                b.replace("async def main():\n", "async def main():\n  for _ in r:\n").replace("\n    ", "\n      ")
                for b in (SHARED_EN, SHARED_ZH)
            )
        ),
        True,
    ),
    (
        "a differing line deleted on one side",
        pages(SHARED_EN, SHARED_ZH),
        pages(SHARED_EN.replace(C, ""), SHARED_ZH),
        True,
    ),
    (
        "untranslated, lines reordered",
        pages(SHARED_EN, ""),
        pages(SHARED_EN.replace("    t = await g(0)\n" + C, C + "    t = await g(0)\n"), ""),
        False,
    ),
]


@pytest.mark.parametrize(("base", "head", "debt"), [c[1:] for c in DESYNC], ids=[c[0] for c in DESYNC])
def test_an_out_of_sync_entry_is_a_debt_only_when_the_change_added_no_difference(inventory_of, base, head, debt):
    before, after = inventory_of(base), inventory_of(head)
    report = compare(after, after)
    assert len(report.desynchronized) == 1, report.desynchronized
    settled = settle(report, after, before, match(before, after), ())
    assert (len(settled.desync_debts), len(settled.desynchronized)) == ((1, 0) if debt else (0, 1))


def test_the_lines_that_differ_are_per_side_in_order_and_nested():
    assert differing([("a", "b", "c"), ("a", "x", "c")], Budget()) == ({1}, {1})
    assert differing([("a", "b"), ("b", "a")], Budget()) in (({0}, {1}), ({1}, {0}))  # order counts
    assert differing([("0|a", "0|b"), ("0|a", "1|b")], Budget()) == ({1}, {1})  # and the block depth
    assert differing([("a", "b")], Budget()) == ({0, 1},)  # a lone side: all of it


def _wrapped(body: str) -> str:
    """The same edit at both ends of a body: what is matched is all of it, not a common head or tail."""
    head, _, rest = body.partition("\n")
    return f"{head}\n    await h()\n{rest}    await h()\n"


@pytest.mark.parametrize(("lines", "debt"), [(10, True), (int(MAX_DIFF_CELLS**0.5) + 1, False)])
def test_past_the_bound_a_pair_whose_code_changed_is_the_changes(inventory_of, lines, debt):
    """The same edit to both sides keeps a debt old, unless the sides are too long to match
    in order; a change that left the code as it was keeps it old at any length."""
    en = "async def main():\n" + "".join(f"    await f({i})\n" for i in range(lines))
    zh = en.replace("f(0)", "f(-1)")
    before = inventory_of(pages(en, zh))
    for head, old in ((pages(_wrapped(en), _wrapped(zh)), debt), (pages(en, zh, lead="P.\n\n"), True)):
        after = inventory_of(head)
        settled = settle(compare(after, after), after, before, match(before, after), ())
        assert (len(settled.desync_debts), len(settled.desynchronized)) == ((1, 0) if old else (0, 1))


CALL = "from pkg import f\n\nasync def main():\n    await f({args})\n"


def _finding(snippet, reason: str, line: int = 4) -> BrokenReference:
    return BrokenReference(
        snippet.file, snippet.code_lines[0] + line - 1, "pkg", "f", reason, snippet, ReferenceKind.CALL
    )


MISSING_X = "missing required argument `x` of `f` (pkg/__init__.py:{n})"


def test_a_finding_the_base_had_is_a_debt_even_when_the_code_shifted(inventory_of):
    before = inventory_of({EN: fence(CALL.format(args=""))})
    after = inventory_of({EN: "Prose.\n\n" + fence(CALL.format(args=""))})
    head = ((after.ids[0], _finding(after.snippets[0], MISSING_X.format(n=9))),)
    base = ((before.ids[0], _finding(before.snippets[0], MISSING_X.format(n=1))),)
    back = {j: i for i, j in match(before, after).items()}
    assert split_findings(head, after, before, back, base) == ((), head)


def test_a_second_finding_of_the_same_kind_is_the_changes(inventory_of):
    before = inventory_of({EN: fence(CALL.format(args=""))})
    after = inventory_of({EN: fence(CALL.format(args="") + "    await f()\n")})
    s = after.snippets[0]
    head = ((after.ids[0], _finding(s, MISSING_X.format(n=1))), (after.ids[0], _finding(s, MISSING_X.format(n=1), 5)))
    base = ((before.ids[0], _finding(before.snippets[0], MISSING_X.format(n=1))),)
    back = {j: i for i, j in match(before, after).items()}
    mine, debts = split_findings(head, after, before, back, base)
    assert len(mine) == 1 and len(debts) == 1


def test_another_finding_or_another_snippet_is_the_changes(inventory_of):
    before = inventory_of({EN: fence(CALL.format(args=""))})
    after = inventory_of({EN: fence(CALL.format(args="")) + "\n" + fence(CALL.format(args="y=1"))})
    old, new = after.snippets
    head = (
        (after.ids[0], _finding(old, "unexpected keyword argument `y` of `f` (pkg/__init__.py:1)")),
        (after.ids[1], _finding(new, MISSING_X.format(n=1))),
    )
    base = ((before.ids[0], _finding(before.snippets[0], MISSING_X.format(n=1))),)
    back = {j: i for i, j in match(before, after).items()}
    assert split_findings(head, after, before, back, base) == (head, ())


def test_without_the_bases_findings_no_finding_is_a_debt(inventory_of):
    tree = inventory_of({EN: fence(CALL.format(args=""))})
    found = ((tree.ids[0], _finding(tree.snippets[0], MISSING_X.format(n=1))),)
    report = compare(tree, tree)
    from dataclasses import replace

    settled = settle(replace(report, broken_references=found), tree, tree, match(tree, tree), None)
    assert settled.broken_references == found and settled.reference_debts == ()


def test_a_finding_written_anew_while_the_old_one_is_fixed_is_the_changes(inventory_of):
    """The same kind, module, name and reason on another line of code: the base's broken line
    was fixed and the change wrote a broken one (the count alone would call it the old debt)."""
    old = CALL.format(args="")
    new = CALL.format(args="x=1") + "    r = await f()\n"
    before, after = inventory_of({EN: fence(old)}), inventory_of({EN: fence(new)})
    head = ((after.ids[0], _finding(after.snippets[0], MISSING_X.format(n=1), 5)),)
    base = ((before.ids[0], _finding(before.snippets[0], MISSING_X.format(n=1))),)
    back = {j: i for i, j in match(before, after).items()}
    assert split_findings(head, after, before, back, base) == (head, ())


def test_a_comment_or_spacing_on_the_broken_line_keeps_it_the_old_debt(inventory_of):
    before = inventory_of({EN: fence(CALL.format(args=""))})
    after = inventory_of({EN: fence(CALL.format(args="").replace("await f()", "await  f( )  # still"))})
    head = ((after.ids[0], _finding(after.snippets[0], MISSING_X.format(n=1))),)
    base = ((before.ids[0], _finding(before.snippets[0], MISSING_X.format(n=1))),)
    back = {j: i for i, j in match(before, after).items()}
    assert split_findings(head, after, before, back, base) == ((), head)


def test_the_runs_allowance_of_matching_leaves_the_rest_to_the_change(inventory_of, monkeypatch):
    """A hostile change cannot make the rule match long sides for ever: once the run's
    allowance is spent (here: on the first pair), a pair whose code changed is the change's."""
    from docsnippets.judge import debts

    body = "async def main():\n" + "".join(f"    await f({i})\n" for i in range(8))
    en = [body.replace("f(7)", "f(77)"), body]
    zh = [body.replace("f(7)", "f(-7)"), body.replace("f(0)", "f(-1)")]

    def tree(edit) -> dict[str, str]:
        return {EN: "\n".join(fence(edit(b)) for b in en), ZH: "\n".join(fence(edit(b)) for b in zh)}

    before, after = inventory_of(tree(lambda b: b)), inventory_of(tree(_wrapped))
    report = compare(after, after)
    back = {j: i for i, j in match(before, after).items()}
    earlier = {(d.relation, d.indices): d for d in compare(before, before).desynchronized}
    budget = Budget(10**9)
    assert debts.desync_debt(report.desynchronized[0], back, earlier, budget)
    for allowance, owed in ((debts.MAX_RUN_CELLS, 2), (10**9 - budget.cells, 1)):
        monkeypatch.setattr(debts, "MAX_RUN_CELLS", allowance)
        settled = settle(report, after, before, match(before, after), ())
        assert (len(settled.desync_debts), len(settled.desynchronized)) == (owed, 2 - owed)


OTHER = "async def other():\n    c = await h(3)\n    d = await k(4)\n"
TWO_EXAMPLES = {EN: fence(BASE_EN) + "\n" + fence(OTHER), ZH: fence(BASE_ZH) + "\n" + fence(OTHER)}
REARRANGED = {
    "one side split in two": fence(BASE_EN.replace("    b = await g(2)\n", ""))
    + "\n"
    + fence("async def more():\n    b = await g(2)\n")
    + "\n"
    + fence(OTHER),
    "one side's two examples merged": fence(BASE_EN + OTHER.partition("\n")[2]),
    "one side's examples swapped": fence(OTHER) + "\n" + fence(BASE_EN),
    "a line moved from one example to the other": fence(BASE_EN + "    c = await h(3)\n")
    + "\n"
    + fence(OTHER.replace("    c = await h(3)\n", "")),
}


@pytest.mark.parametrize("english", REARRANGED.values(), ids=REARRANGED.keys())
def test_examples_split_merged_swapped_or_mixed_on_one_side_are_the_changes(inventory_of, english):
    """Each leaves the change something out of sync to settle. A split keeps the old pair an
    old debt (one of its differing lines left it) and bills the new half-example, which has no
    counterpart; the others leave no old debt at all."""
    before, after = inventory_of(TWO_EXAMPLES), inventory_of({**TWO_EXAMPLES, EN: english})
    settled = settle(compare(after, after), after, before, match(before, after), ())
    assert settled.desynchronized, settled
    if english != REARRANGED["one side split in two"]:
        assert settled.desync_debts == ()
    else:
        assert [d.relation for d in settled.desynchronized] == ["missing"]
