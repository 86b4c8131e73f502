"""A judging within its limits, or stopped with the bound it hit named: never a partial verdict."""

from __future__ import annotations

import itertools

import pytest
from tests.support.memory import MemoryTree

from docsnippets import work
from docsnippets.config import Config
from docsnippets.judge import Case, judge
from docsnippets.snippets import grammar
from docsnippets.work import Bound, Limits, OverBudget

PAGE = "```python\nawait step(1)\n```\n"  # bytes that pass the prefilter
PROSE = "# Notes\n\n" + "Nothing to run here, only words.\n" * 300


def _judge(files: dict[str, str], limits: Limits):
    return judge(Case(MemoryTree(files), Config(), None, limits=limits))


def test_pages_within_the_bound_are_judged_and_prose_does_not_count():
    found = _judge({"docs/en/a.md": PAGE, "docs/en/b.md": PROSE}, Limits(parsed_bytes=len(PAGE)))
    assert len(found.inventory.snippets) == 1


def test_pages_past_the_bound_stop_the_judging_and_name_the_page():
    with pytest.raises(OverBudget) as caught:
        _judge({"docs/en/a.md": PAGE, "docs/en/b.md": PAGE + "\n"}, Limits(parsed_bytes=len(PAGE) + 5))
    assert caught.value.bound == Bound.PARSED_BYTES
    assert f"more than {len(PAGE) + 5} bytes" in str(caught.value) and "docs/en/b.md" in str(caught.value)


def test_every_copy_of_a_page_counts_though_it_is_parsed_once():
    files = {f"docs/en/copy{k}.md": PAGE for k in range(3)}
    assert len(_judge(files, Limits(parsed_bytes=3 * len(PAGE))).inventory.snippets) == 3
    with pytest.raises(OverBudget):
        _judge(files, Limits(parsed_bytes=3 * len(PAGE) - 1))


def test_a_judging_past_its_cpu_bound_stops():
    with pytest.raises(OverBudget) as caught:
        _judge({"docs/en/a.md": PAGE}, Limits(cpu_seconds=0.0))
    assert caught.value.bound == Bound.CPU_SECONDS


def test_one_long_file_pair_is_stopped_inside_its_alignment():
    """The CPU bound is checked between the rows of an alignment, not only between files: a
    clock that ticks once per check runs out within one file pair of 2,000 snippets a side."""
    ticks = itertools.count()
    clock = lambda: float(next(ticks))  # noqa: E731
    en = "".join(f"```python\nawait e{i}()\n```\n\n" for i in range(2000))
    zh = "".join(f"```python\nawait z{i}()\n```\n\n" for i in range(2000))
    files = {"docs/en/p.md": en, "docs/zh/p.md": zh}
    with pytest.raises(OverBudget):
        _judge(files, Limits(cpu_seconds=500, clock=clock))


def test_outside_a_judging_nothing_is_bounded():
    work.check()
    work.parse(10**12, "anywhere")


MODULE = "".join(f"async def f{i}(a, b=1):\n    return a + b\n\n\n" for i in range(200))
IMPORTING = "```python\nfrom pkg.big import f1, absent\nawait f1(1)\n```\n"


def test_the_code_read_counts_against_its_bound_and_names_the_module():
    files = {"pkg/__init__.py": "", "pkg/big.py": MODULE, "docs/en/a.md": IMPORTING}
    found = _judge(files, Limits(code_bytes=len(MODULE)))
    assert [b.name for _, b in found.freshness.broken_references] == ["absent"]
    with pytest.raises(OverBudget) as caught:
        _judge(files, Limits(code_bytes=len(MODULE) - 1))
    assert caught.value.bound == Bound.CODE_BYTES
    assert f"more than {len(MODULE) - 1} bytes" in str(caught.value) and "pkg/big.py" in str(caught.value)


def test_each_module_is_checked_against_the_cpu_bound_before_it_is_parsed():
    """A snippet importing from many modules is one piece of the code check: the bound is
    checked before each module it reads, not only between snippets."""
    ticks = itertools.count()
    clock = lambda: float(next(ticks))  # noqa: E731
    files = {
        "pkg/__init__.py": "",
        "docs/en/a.md": "```python\n" + "".join(f"from pkg.m{i} import f\n" for i in range(100)) + "await f()\n```\n",
    }
    files.update({f"pkg/m{i}.py": "async def f():\n    pass\n" for i in range(100)})
    with pytest.raises(OverBudget):
        _judge(files, Limits(cpu_seconds=60, clock=clock))


def test_one_long_body_is_stopped_inside_its_tokens():
    """The CPU bound is checked while a body is tokenized: one body of 200,000 tokens runs
    out a clock that ticks once per check (between files it is checked a few times)."""
    ticks = itertools.count()
    clock = lambda: float(next(ticks))  # noqa: E731
    page = "```python\nawait f(" + "+".join("a" for _ in range(100_000)) + ")\n```\n"
    config = Config(python=grammar.RUNNING)
    with pytest.raises(OverBudget):
        judge(Case(MemoryTree({"docs/en/a.md": page}), config, None, limits=Limits(cpu_seconds=30, clock=clock)))
