"""markdown-it's block parse as extraction uses it: its own answers, at a cost linear in the page.

What a hostile page costs is counted (characters a rule reads, bytes held, checks of the CPU
bound), never timed; what the parse answers is compared with markdown-it's own on random
block soup.
"""

from __future__ import annotations

import importlib
import itertools
import random
import tracemalloc

import pytest
from tests.support.memory import MemoryTree

from docsnippets.config import Config
from docsnippets.judge import Case, judge
from docsnippets.snippets.fences import extract_fences
from docsnippets.work import Limits, OverBudget

SNIPPET = "```python\nawait f()\n```\n\n"


def _plain():
    from markdown_it import MarkdownIt

    from docsnippets.snippets.markdown import MAX_NESTING

    return MarkdownIt("commonmark", {"maxNesting": MAX_NESTING}).disable(["inline", "text_join"], ignoreInvalid=True)


def _shape(tokens):
    return [(t.type, t.map, t.level, t.markup, t.info, t.content) for t in tokens]


def test_a_long_line_of_list_markers_is_not_read_again_at_every_level(monkeypatch):
    """``- - - ... x`` opens a list a level, a hundred levels deep, and markdown-it asks at each
    level whether the rest of the line is a thematic break. The characters that question
    reads are counted: at most a few readings of the line, not one a level."""
    hr_rule = importlib.import_module("markdown_it.rules_block.hr")
    read = 0
    real = hr_rule.isStrSpace

    def counting(ch):
        nonlocal read
        read += 1
        return real(ch)

    monkeypatch.setattr(hr_rule, "isStrSpace", counting)
    line = "- " * 10_000 + "x"
    fences = extract_fences(SNIPPET + line + "\n")
    assert [f.body for f in fences] == ["await f()\n"]
    assert read <= 3 * len(line), read
    # A line that is a break still is one, at whatever depth it stands.
    assert [f.body for f in extract_fences("- - - -\n\n```python\nawait f()\n```\n")] == ["await f()\n"]


@pytest.mark.parametrize("opener", ["[a]: /u '", '[a]: /u "', "[a]: /u (", "[", "[a\\"])
def test_a_reference_left_open_is_read_in_linear_work(monkeypatch, opener):
    """A definition's title (or label) left open over a page is gathered line by line into
    one growing text, which the title parser is handed whole each time: the characters
    handed over are counted. Over every line of the page that is quadratic."""
    helpers = importlib.import_module("markdown_it.helpers")
    reference = importlib.import_module("markdown_it.rules_block.reference")
    handed = 0
    real_title, real_next = helpers.parseLinkTitle, reference.getNextLine

    def title(string, *args):
        nonlocal handed
        handed += len(string)
        return real_title(string, *args)

    def next_line(state, line):
        nonlocal handed
        found = real_next(state, line)
        if found is not None:  # the text it extends: from the definition's first line (state.line) on
            handed += state.bMarks[line] - state.bMarks[state.line]
        return found

    monkeypatch.setattr(helpers, "parseLinkTitle", title)
    monkeypatch.setattr(reference, "getNextLine", next_line)
    text = SNIPPET + opener + "x\n" * 20_000
    assert [f.body for f in extract_fences(text)] == ["await f()\n"]
    assert handed <= 200 * len(text), handed


def test_nested_list_markers_are_parsed_in_memory_in_proportion_to_the_page():
    """Each line opens lists nine deep: markdown-it makes dozens of tokens a line, a few hundred
    bytes each. What the parse holds at its peak is measured against the page's size."""
    text = SNIPPET + "* * * * * * * * - \n" * 5_000 + SNIPPET
    extract_fences(text)  # the parser and its rules are built once, outside the measure
    tracemalloc.start()
    try:
        fences = extract_fences(text)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert len(fences) == 2
    assert peak < 40 * len(text), (peak, len(text))


def test_one_page_is_stopped_inside_its_parse():
    """The CPU bound is checked while one page is parsed: a clock that ticks once per check
    runs out on a page of many blocks holding one snippet (between files it is checked twice)."""
    ticks = itertools.count()
    clock = lambda: float(next(ticks))  # noqa: E731
    page = SNIPPET + "* * * * * * * * - \n" * 20_000
    with pytest.raises(OverBudget):
        judge(Case(MemoryTree({"docs/en/p.md": page}), Config(), None, limits=Limits(cpu_seconds=20, clock=clock)))


_PIECES = ["- ", "* ", "_ ", "  ", "\t", "-", "*", "_", "x", "> ", "1. ", "```", "~~~py", "\n", "\n\n", "    "]
_REFERENCES = ["[a]:", "[b]", " /u", " <u>", " 'q", "'", ' "', '"', " (", ")", "\\", "[", "]", "==="]


@pytest.mark.parametrize("seed", range(300))
def test_the_bounded_rules_answer_as_markdown_its_own(seed):
    from docsnippets.snippets.markdown import parser

    rng = random.Random(seed)
    pieces = _PIECES + (_REFERENCES if seed % 2 else [])
    text = "".join(rng.choice(pieces) for _ in range(rng.randint(0, 120)))
    assert _shape(parser().parse(text)) == _shape(_plain().parse(text))


@pytest.mark.parametrize("seed", range(300))
def test_the_tokens_kept_are_markdown_its_own(seed, monkeypatch):
    from docsnippets.snippets import markdown

    rng = random.Random(seed)
    text = "".join(rng.choice(_PIECES + _REFERENCES) for _ in range(rng.randint(0, 160)))
    limit = rng.choice((markdown.MAX_NESTING, 6))  # a low limit, so that some soups reach it
    monkeypatch.setattr(markdown, "MAX_NESTING", limit)
    markdown.parser.cache_clear()
    try:
        plain = _plain().parse(text)
        kept = markdown.block_tokens(text)
    finally:
        monkeypatch.undo()
        markdown.parser.cache_clear()
    deep = [t.nesting == 1 and t.level >= limit - 1 for t in plain]
    expected = [t for t, d in zip(plain, deep, strict=True) if d or t.type in markdown.KEPT]

    def read(tokens):  # of a quote's tokens below the limit, extraction reads only the type
        return [
            (t.type,) if t.type.startswith("blockquote") and not (t.nesting == 1 and t.level >= limit - 1) else shape
            for t, shape in zip(tokens, _shape(tokens), strict=True)
        ]

    assert read(kept) == read(expected)
