"""What setting old debts apart costs a change on big pages, against what the change costs anyway.

A page pair of N bilingual examples, every pair diverged at the base; the change edits every
example on both sides alike (so every pair stays an old debt, the most the rule is asked to
do). It prints the CPU time and the peak memory of comparing the base with the head (which
every change pays for: ``compare``) and of setting the debts apart afterwards (``match`` then
``settle``, as the judge does), and their ratio. The goal: the debts cost at most a quarter
of the comparison at every size (``compare.match`` aligns a page's changed snippets once).

    python bench/debts.py [--sizes 50 200 800] [--lines 10]
"""

from __future__ import annotations

import argparse
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from docsnippets.config import Config
from docsnippets.judge.compare import _aligned, compare, match
from docsnippets.judge.debts import settle
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up
from docsnippets.snippets.records import Inventory

GOAL = 0.25
CONFIG = Config()


def cold() -> None:
    _aligned.cache_clear()


def inventory(files: dict[str, str]) -> Inventory:
    found = [s for path, text in files.items() for s in snippets_from_text(path, text, CONFIG)]
    return pair_up(found, set(files), CONFIG)


def page(n: int, lines: int, *, zh: bool, edited: bool) -> str:
    out = []
    for i in range(n):
        calls = "".join(f"    await step_{i}({j}{'0' if zh and j == 0 else ''})\n" for j in range(lines))
        extra = f"    await done_{i}()\n" if edited else ""
        out.append(f"Example {i}.\n\n```python\nasync def main():\n{calls}{extra}```\n")
    return "\n".join(out)


def tree(n: int, lines: int, *, edited: bool) -> Inventory:
    return inventory(
        {
            "docs/en/big.md": page(n, lines, zh=False, edited=edited),
            "docs/zh/big.md": page(n, lines, zh=True, edited=edited),
        }
    )


def measured(fn: Callable[[], object], first: Callable[[], object]) -> tuple[float, float, object]:
    """CPU seconds (untraced) and peak MiB (traced, a second run) of ``fn``, each run after ``first``."""
    first()
    start = time.process_time()
    result = fn()
    seconds = time.process_time() - start
    first()
    tracemalloc.start()
    fn()
    peak = tracemalloc.get_traced_memory()[1] / 2**20
    tracemalloc.stop()
    return seconds, peak, result


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--sizes", type=int, nargs="+", default=[50, 200, 800], help="examples per page")
    parser.add_argument("--lines", type=int, default=10, help="code lines per example")
    args = parser.parse_args(argv)
    print(f"{'examples':>8} {'compare s':>10} {'MiB':>6} {'debts s':>8} {'MiB':>6} {'ratio':>6} {'debts':>6}")
    met = True
    for n in args.sizes:
        base, head = tree(n, args.lines, edited=False), tree(n, args.lines, edited=True)
        found = compare(head, head)
        # The comparison from cold; the debts after it, as the judge runs them.
        seconds, peak, _ = measured(lambda b=base, h=head: compare(b, h), cold)
        debt_s, debt_peak, settled = measured(
            lambda b=base, h=head, f=found: settle(f, h, b, match(b, h), ()), lambda b=base, h=head: compare(b, h)
        )
        ratio = debt_s / seconds if seconds else 0.0
        met &= ratio <= GOAL and len(settled.desync_debts) == n  # type: ignore[attr-defined]
        owed = len(settled.desync_debts)  # type: ignore[attr-defined]
        print(f"{n:>8} {seconds:>10.2f} {peak:>6.1f} {debt_s:>8.2f} {debt_peak:>6.1f} {ratio:>6.2f} {owed:>6}")
    print(f"goal: debts at most {GOAL:.2f} of the comparison, every pair an old debt: {'met' if met else 'NOT met'}")
    return 0 if met else 1


if __name__ == "__main__":
    sys.exit(main())
