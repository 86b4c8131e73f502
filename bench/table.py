"""The one results table of bench/README.md, written by ``python bench/run.py --write-readme``.

The table lives between two marker lines, so a run replaces the figures of the last one and
nothing else: the page keeps one table, from one run, and never a history of earlier ones.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

BEGIN = "<!-- bench:table (written by python bench/run.py --write-readme; do not edit by hand) -->"
END = "<!-- bench:end -->"


@dataclass(frozen=True)
class Row:
    """One goal as measured: what was compared, the value, the limit and whether it was met."""

    goal: str
    measured: str  # "0.121 s / 0.088 s", "17.8 MB", or "skipped"
    ratio: str  # "1.38 ×"; empty for a memory goal, "-" when not measured
    limit: str  # "≤ 1.6 ×", "≤ 20 MB"
    met: bool | None  # None: not measured in this run


def _cell(text: str) -> str:
    return text.replace("|", "\\|")


def markdown(heading: str, rows: Sequence[Row]) -> str:
    """The table with a line above it saying how it was measured."""
    lines = [heading, "", "| goal | measured | ratio | limit | met |", "| --- | --- | --- | --- | --- |"]
    for row in rows:
        met = "—" if row.met is None else ("✅" if row.met else "❌")
        lines.append(f"| {_cell(row.goal)} | {row.measured} | {row.ratio} | {row.limit} | {met} |")
    return "\n".join(lines) + "\n"


def into_readme(text: str, table: str, where: str = "bench/README.md") -> str:
    """``text`` with what stands between the markers replaced by ``table``."""
    pattern = re.compile(re.escape(BEGIN) + r"\n.*?" + re.escape(END), re.S)
    if len(pattern.findall(text)) != 1:
        raise SystemExit(f"{where}: needs exactly one table between {BEGIN!r} and {END!r}")
    return pattern.sub(lambda _: f"{BEGIN}\n{table}{END}", text, count=1)
