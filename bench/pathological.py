"""How extraction time grows on hostile Markdown: files built to make a search rescan.

For each shape it prints the CPU time of the prefilter and of the whole extraction of one
file at several sizes, up to the 5 MiB ``max_file_bytes`` cap, and the ratio of each time to
the previous size's. Linear work gives ratios near the size ratio (4 here); quadratic work
gives its square (16).

    python bench/pathological.py [--max-bytes 5242880] [--shape NAME ...]
"""

from __future__ import annotations

import argparse
import sys
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))

from docsnippets.config import Config
from docsnippets.snippets.extract import may_contain_snippet, snippets_from_bytes

FIVE_MIB = 5 * 1024 * 1024


def _repeat(unit: bytes, head: bytes = b"", tail: bytes = b"") -> Callable[[int], bytes]:
    return lambda n: head + unit * max(1, n // len(unit)) + tail


SHAPES: dict[str, Callable[[int], bytes]] = {
    "word-then-openers": _repeat(b"```python\n", head=b"async\n"),
    "openers-then-word": _repeat(b"```python\n", tail=b"async\n"),
    "one-long-backtick-line": lambda n: b"`" * n + b"\nasync\n",
    "tilde-openers-backtick-closers": _repeat(b"~~~python\n```\n", head=b"async\n"),
    "closers-that-are-too-short": _repeat(b"```\n", head=b"````python\n", tail=b"await\n"),
    "quoted-openers": _repeat(b"> ```python\n", tail=b"> async\n"),
    "list-openers": _repeat(b"- ```python\n", tail=b"  async\n"),
    "words-everywhere": _repeat(b"await async ```python threading\n"),
}


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-bytes", type=int, default=FIVE_MIB, help="largest file size (default: 5 MiB)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="only these shapes")
    args = parser.parse_args(argv)
    config = Config(max_file_bytes=max(args.max_bytes + 64, Config().max_file_bytes))
    sizes = []
    size = args.max_bytes
    while size >= 16 * 1024 and len(sizes) < 4:
        sizes.insert(0, size)
        size //= 4
    print(f"{'shape':32} {'bytes':>9} {'prefilter s':>12} {'ratio':>6} {'extract s':>10} {'ratio':>6}")
    for name in args.shape or sorted(SHAPES):
        before: tuple[float, float] | None = None
        for size in sizes:
            data = SHAPES[name](size)
            pre = cpu(lambda d=data: may_contain_snippet(d, config))
            full = cpu(lambda d=data: snippets_from_bytes("docs/en/x.md", d, config))
            ratios = ("", "") if before is None else (_ratio(pre, before[0]), _ratio(full, before[1]))
            print(f"{name:32} {len(data):>9} {pre:>12.4f} {ratios[0]:>6} {full:>10.4f} {ratios[1]:>6}")
            before = (pre, full)
    return 0


def _ratio(now: float, then: float) -> str:
    return f"{now / then:.1f}" if then > 0.0005 else "-"


if __name__ == "__main__":
    sys.exit(main())
