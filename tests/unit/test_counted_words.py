"""Every counted noun said right for 0, 1 and 2, in English and in Chinese (issue 27, finding 5):
no "1 pairs", no "(41, 4 pairs)", no "1 more among the other pages", no language prefixed to a
path that holds it, the ``fail-on`` setting named once in a headline. One helper says them all
(docsnippets.words); the source test below keeps a hand-made plural from coming back."""

from __future__ import annotations

import ast
import itertools
import re
from collections.abc import Callable
from dataclasses import replace
from pathlib import Path

import pytest

from docsnippets.adopt.setup import _config_text
from docsnippets.config import PairRule
from docsnippets.judge.compare import Change, Report, compare, move_reasons
from docsnippets.judge.lost import LostPair, pair_count_line, relation_changes
from docsnippets.judge.verdict import Verdict
from docsnippets.report import render
from docsnippets.report.guidance import headline
from docsnippets.report.templating import words
from docsnippets.report.text import report_text
from docsnippets.snippets.layouts import Layout, describe
from docsnippets.words import counted, forms, plural

SRC = Path(__file__).resolve().parents[2] / "src" / "docsnippets"
A = "async def alpha(x):\n    return await fetch(x, {n})\n"


def _verdict(**counts: int) -> Verdict:
    return Verdict(fail_on="stale", fresh=True, reasons=(), **{"desync": 0, **counts})


def _rule() -> PairRule:
    return PairRule(en="docs/en/{path}", zh="docs/zh/{path}")


# (what is said, the text for a count n, what it must say for 0, 1 and 2)
SAID: list[tuple[str, Callable[[int], str], tuple[str, str, str]]] = [
    ("snippet", lambda n: counted(n, "snippet"), ("0 snippets", "1 snippet", "2 snippets")),
    (
        "distinct body",
        lambda n: counted(n, "distinct body"),
        ("0 distinct bodies", "1 distinct body", "2 distinct bodies"),
    ),
    ("entry", lambda n: counted(n, "entry"), ("0 entries", "1 entry", "2 entries")),
    ("match", lambda n: counted(n, "match"), ("0 matches", "1 match", "2 matches")),
    ("key", lambda n: counted(n, "key"), ("0 keys", "1 key", "2 keys")),
    (
        "desync",
        lambda n: _verdict(desync=n).desync_words(),
        ("0 bilingual examples", "1 bilingual example ", "2 bilingual examples"),
    ),
    (
        "lost",
        lambda n: _verdict(lost=n).lost_words(),
        ("0 bilingual pages lost their", "1 bilingual page lost its", "2 bilingual pages lost their"),
    ),
    (
        "references",
        lambda n: _verdict(references=n).references_words(),
        ("0 broken references", "1 broken reference ", "2 broken references"),
    ),
    (
        "debts",
        lambda n: _verdict(desync_debts=n, reference_debts=n).debts_words() or "none",
        (
            "none",
            "1 bilingual example out of sync, 1 broken reference",
            "2 bilingual examples out of sync, 2 broken references",
        ),
    ),
    (
        "lost pair",
        lambda n: LostPair("a.md", "a_zh.md", None, n).sentence(),
        ("0 bilingual examples no", "1 bilingual example no", "2 bilingual examples no"),
    ),
    ("layout", lambda n: describe([Layout(_rule(), n)]), ("0 files pair up", "2 files pair up", "4 files pair up")),
    ("layout pairs", lambda n: describe([Layout(_rule(), n)]), ("(0 pairs)", "(1 pair)", "(2 pairs)")),
    (
        "init config",
        lambda n: _config_text((Layout(_rule(), n),)),
        ("(0 file pairs)", "(1 file pair)", "(2 file pairs)"),
    ),
    (
        "init config two",
        lambda n: _config_text((Layout(_rule(), n), Layout(_rule(), 1))),
        (
            "(0 file pairs and 1 file pair, in that order)",
            "(1 file pair and 1 file pair, in that order)",
            "(2 file pairs and 1 file pair, in that order)",
        ),
    ),
    (
        "reasons",
        lambda n: headline(Verdict("stale", False, tuple(f"r{k}" for k in range(n + 3)), 0), "m.json"),
        ("r0; r1; r2", "r0; r1; and 2 more reasons", "r0; r1; and 3 more reasons"),
    ),
]


@pytest.mark.parametrize(("what", "say", "expected"), SAID, ids=[row[0] for row in SAID])
def test_each_count_is_said_with_the_form_it_takes(what, say, expected):
    for n, fragment in zip((0, 1, 2), expected, strict=True):
        assert fragment in say(n), (what, n, say(n))


def test_the_regular_plural_and_a_given_one():
    assert [plural(n, "pair") for n in (0, 1, 2)] == ["pairs", "pair", "pairs"]
    assert plural(2, "its", "their") == "their" and plural(1, "its", "their") == "its"
    assert counted(3, "snippet status/marker record") == "3 snippet status/marker records"


CATALOGUE_KEYS = ("fences", "files", "pairs", "examples", "distinct")
SINGULAR = {"fences": "fenced block", "files": "file", "pairs": "pair", "examples": "example", "distinct": "body"}


@pytest.mark.parametrize(("lang", "n"), list(itertools.product(("en", "zh"), (0, 1, 2))))
def test_the_catalogue_says_its_counts_in_each_language(lang, n):
    w = words()[lang]
    assert set(re.findall(r"\{(\w+)\}", w["counts"])) == set(CATALOGUE_KEYS) == set(w["counted"])
    line = w["counts"].format(**{key: forms(n, w["counted"][key]) for key in CATALOGUE_KEYS})
    assert "{" not in line and str(n) in line
    if lang == "zh":  # no plural: one pattern for every count, its measure word included
        assert all(isinstance(w["counted"][key], str) for key in CATALOGUE_KEYS)
        assert f"{n} 个文件" in line and f"{n} 对中英文示例" in line
        return
    for key, noun in SINGULAR.items():
        said = forms(n, w["counted"][key])
        assert said.startswith(f"{n} ") and said.endswith(noun if n == 1 else plural(2, noun)), said


def test_the_catalogue_of_one_snippet_says_one(inventory_of, config):
    from docsnippets.manifest.build import build

    data = build(inventory_of({"a.md": "```python\nawait a()\n```\n"}), config)
    text = render.catalogue(data, "en")
    assert "1 fenced block from 1 file; 0 English/Chinese pairs; 1 example once" in text
    assert "共 1 段，来自 1 个文件；0 对中英文示例" in render.catalogue(data, "zh")


def _pages(n: int, *, zh: bool = True, lines: int = 0) -> dict[str, str]:
    body = "".join(f"```python\n{A.format(n=k)}```\n\n" for k in range(n))
    out = {"docs/en/p.md": "\n" * lines + "# P\n\n" + body}
    if zh:
        out["docs/zh/p.md"] = "# P\n\n" + body
    return out


def test_the_pair_count_line_says_what_changed_without_a_bare_more(inventory_of):
    one, four = inventory_of(_pages(3)), inventory_of(_pages(4))
    assert pair_count_line(one, four, ()) == "3 → 4 pairs"
    assert pair_count_line(four, inventory_of(_pages(1)), ()) == "4 → 1 pair"
    kept = inventory_of({**_pages(2, zh=False), "docs/zh/other.md": "# O\n"})
    lost = (LostPair("docs/en/p.md", "docs/zh/p.md", None, 2),)
    line = pair_count_line(inventory_of(_pages(2)), kept, lost)
    assert line.startswith("2 → 0 pairs: 2 lost (") and "more among" not in line


def test_moves_are_counted_in_every_output(inventory_of):
    before, after = inventory_of(_pages(1)), inventory_of(_pages(1, lines=3))
    report = compare(before, after, strict_lines=True)
    assert "1 snippet moved (--strict-lines)" in report.reasons
    s = before.snippets[0]
    moved = Change(s, replace(s, file="docs/en/q.md"), "a", "b")
    assert move_reasons([moved]) == ["1 snippet moved to another file: docs/en/p.md → docs/en/q.md"]
    tree = [Change(replace(s, file=f"docs/en-us/{n}.md"), replace(s, file=f"docs/en/{n}.md"), "a", "b") for n in "ab"]
    assert move_reasons(tree) == ["2 snippets moved to 2 other files: docs/en-us/ → docs/en/"]
    shifted = Report(True, (), report.summary, (), (), (), tuple([report.moved[0]] * 6), (), (), ())
    text = report_text(shifted)
    assert "moved: 6 snippets, code unchanged" in text and "docs/en/p.md: 6 snippets on other lines" in text
    body = render.comment(replace(report, fresh=True, reasons=()), render.CommentContext(marker=""))
    assert "Code unchanged, only the place: 1 file with lines shifted." in body
    assert "Where 1 snippet moved" in body


@pytest.mark.parametrize(("pairs", "rest"), [(4, "1 more pair"), (5, "2 more pairs")])
def test_relation_changes_count_the_rest_in_pairs(inventory_of, pairs, rest):
    from docsnippets.judge.compare import match

    before = inventory_of(_pages(pairs))
    zh = "# P\n\n" + "".join(
        f"```python\n{A.format(n=k)}  # {k}\n```\n\n".replace(f"{k})  #", f"{k}, 1)  #") for k in range(pairs)
    )
    after = inventory_of({**_pages(pairs), "docs/zh/p.md": zh})
    said = relation_changes(before, after, match(before, after))
    assert len(said) == 4 and said[-1] == rest, said


def test_a_desynchronized_pair_names_each_file_once_in_its_diff(inventory_of):
    files = {
        "docs/en/index.md": f"```python\n{A.format(n=1)}```\n",
        "docs/zh/index.md": f"```python\n{A.format(n=2)}```\n",
    }
    tree = inventory_of(files)
    report = compare(tree, tree)
    body = render.comment(report, render.CommentContext(marker="", inventory=tree))
    assert "--- docs/en/index.md\n" in body and "+++ docs/zh/index.md\n" in body
    assert "en/docs/en" not in body and "zh/docs/zh" not in body


VERDICTS = [
    Verdict(fail_on, fresh, ("r",) if not fresh else (), desync, references=refs, lost=lost, desync_debts=debts)
    for fail_on in ("stale", "stale,desync", "stale,references", "stale,desync,references", "never")
    for fresh in (True, False)
    for desync, refs, lost, debts in (
        (0, 0, 0, 0),
        (1, 0, 0, 0),
        (0, 2, 0, 0),
        (1, 2, 0, 0),
        (1, 2, 1, 1),
        (0, 0, 1, 0),
    )
]


@pytest.mark.parametrize("verdict", VERDICTS, ids=lambda v: f"{v.fail_on}-{v.fresh}-{v.desync}{v.references}{v.lost}")
def test_a_headline_names_the_setting_at_most_once(verdict):
    line = headline(verdict, "m.json")
    assert line.count("fail-on") <= 1, line
    if (verdict.desync and not verdict.desync_enforced) or (verdict.references and not verdict.references_enforced):
        assert "not enforced" in line and "(fail-on" in line, line


def test_what_is_not_enforced_is_told_apart_from_what_is():
    """Under ``fail-on stale,desync`` the pairs gate and the references do not: "not enforced"
    must not read as said of the pairs too, nor the old debts as part of either."""
    verdict = Verdict("stale,desync", False, ("r",), 1, references=1, lost=1, desync_debts=1)
    groups = headline(verdict, "m.json").split(" · ⚠️ ")[1].split(" · ")
    assert groups == [
        "1 bilingual example out of sync; 1 bilingual page lost its counterpart",
        "1 broken reference to the code, not enforced (fail-on stale,desync)",
        "already before this PR, not counted: 1 bilingual example out of sync",
    ]


@pytest.mark.parametrize(
    ("false", "said"),
    [(6, "1 more snippet record differs from its page"), (7, "2 more snippet records differ from their pages")],
)
def test_false_records_past_those_named_are_counted_right(inventory_of, false, said):
    from docsnippets.judge.compare import RECORD_REASONS, _record_reasons

    tree = inventory_of({"docs/a.md": "".join(f"```python\n{A.format(n=n)}```\n\n" for n in range(8))})
    records = [Change(s, s, sid, sid, ("status",)) for sid, s in zip(tree.ids, tree.snippets, strict=True)]
    reasons = _record_reasons(tree, records[:false])
    assert len(reasons) == RECORD_REASONS + 1 and reasons[-1] == said


def _hand_made(tree: ast.AST) -> list[int]:
    """Lines choosing a plural by hand: ``'s' if n != 1 else ''`` or words like ``record(s)``."""
    out = []
    for node in ast.walk(tree):
        if (
            isinstance(node, ast.IfExp)
            and any(isinstance(b, ast.Constant) and b.value in ("s", "es") for b in (node.body, node.orelse))
        ) or (
            isinstance(node, ast.Constant)
            and isinstance(node.value, str)
            and re.search(r"(?<!http)(?<=[a-z])\(s\)", node.value)
        ):
            out.append(node.lineno)
    return out


def test_no_plural_is_made_by_hand_in_the_source():
    found = [
        f"{path.relative_to(SRC)}:{line}"
        for path in sorted(SRC.rglob("*.py"))
        for line in _hand_made(ast.parse(path.read_text(encoding="utf-8")))
    ]
    for path in sorted(SRC.rglob("*.j2")):
        text = path.read_text(encoding="utf-8")
        found += [f"{path.relative_to(SRC)}: {m.group()}" for m in re.finditer(r"[^\n]*== 1 else[^\n]*", text)]
    assert found == []
