"""The benchmark runs end to end on a tiny tree and its report is consistent with itself.

Timing verdicts are never asserted: the goals are ratios that only mean something on a
full-size run of bench/run.py. What a 40-file run must still show: every mode timed, every
goal row computed from the medians printed above it, its verdict agreeing with its limit, and
the memory goals met (a 40-file tree is far under 150 MB). The children's exit codes are
checked by the bench itself: a mode that exits with a code it does not allow aborts the run.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.corpus import CODE, HEAD
from tests.support.scripts import load_script

from docsnippets.config import DEFAULT_PYTHON
from docsnippets.snippets.grammar import RUNNING

ROOT = Path(__file__).resolve().parents[2]
HALF = 0.0005  # the printed values are rounded to three decimals

TREE_MODES = [
    "parse-all",
    "parse-all-block",
    "read-and-search",
    "update",
    "update cached",
    "check",
    "check --changed",
    "check --changed, small tree",
    "check in-process",
    "check --changed in-process",
]
SLIME_MODES = ["import markdown_it", "slime check cached", "slime check cold", "slime parse floor"]
# Information when the tests run under another Python than the declared one: that Python with a child.
CHILD_MODES = [] if RUNNING == DEFAULT_PYTHON else ["slime cold, a child judges", "slime floor, this Python"]
REFERENCE_MODES = ["slime+code check", "slime+code --no-references"]
# goal label -> (mode, reference mode or None for peak memory, limit)
GOALS = {
    "20.1 slime check, cold / floor <= 1.6": ("slime check cold", "slime parse floor", 1.6),
    "20.2 slime check, cold, peak RSS <= 20 MB": ("slime check cold", None, 20),
    "20.3 --changed 3 files: big / small tree <= 1.3": (
        "check --changed",
        "check --changed, small tree",
        1.3,
    ),
    "20.4 update / parse-all <= 0.15": ("update", "parse-all", 0.15),
    "1 update / read-and-search <= 2.5": ("update", "read-and-search", 2.5),
    "2 --changed / check <= 0.1, in-process": ("check --changed in-process", "check in-process", 0.1),
    "2' same, whole processes": ("check --changed", "check", 0.1),
    "3 slime check, cached / import markdown_it <= 1.5": ("slime check cached", "import markdown_it", 1.5),
    "3' slime check, cold (no cache)": ("slime check cold", "import markdown_it", 1.5),
    "3'' floor: import + parse those files only": ("slime parse floor", "import markdown_it", 1.5),
    "5 slime+code check / --no-references <= 1.5": (*REFERENCE_MODES, 1.5),
    "4 update peak RSS <= 150 MB": ("update", None, 150),
    "4 check peak RSS <= 150 MB": ("check", None, 150),
}


def cells(line: str, prefix: str) -> list[str]:
    return re.split(r"\s{2,}", line[len(prefix) :].strip())


def parse(stdout: str) -> tuple[dict[str, list[float]], dict[str, list[str]]]:
    modes: dict[str, list[float]] = {}
    goals: dict[str, list[str]] = {}
    for line in stdout.splitlines():
        if line.startswith("mode ") and "median_s" not in line:
            name, *numbers = cells(line, "mode ")
            modes[name] = [float(n) for n in numbers]
        elif line.startswith("goal ") and not line.endswith(" met"):
            label, *rest = cells(line, "goal ")
            goals[label] = rest
    return modes, goals


def ratio_bounds(top: float, bottom: float) -> tuple[float, float]:
    return (top - HALF) / (bottom + HALF), (top + HALF) / max(bottom - HALF, 1e-9)


@pytest.mark.slow
def test_bench_smoke_reports_every_mode_and_goal_consistently(tmp_path: Path):
    page = tmp_path / "README.md"
    page.write_text((ROOT / "bench" / "README.md").read_text(encoding="utf-8"), encoding="utf-8")
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--smoke", "--write-readme", str(page)],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    modes, goals = parse(done.stdout)
    expected_modes = TREE_MODES + (SLIME_MODES + CHILD_MODES if HEAD.is_dir() else [])
    expected_modes += REFERENCE_MODES if HEAD.is_dir() and CODE.is_dir() else []
    assert sorted(modes) == sorted(expected_modes), done.stdout
    for name, (median, low, high, peak_mb) in modes.items():
        assert 0 < low <= median <= high and peak_mb > 0, (name, done.stdout)
    assert sorted(goals) == sorted(GOALS), done.stdout
    assert bool(CHILD_MODES and HEAD.is_dir()) == ("child of Python" in done.stdout), done.stdout
    for label, (mode, reference, limit) in GOALS.items():
        value, shown_limit, _unit, verdict = goals[label]
        assert float(shown_limit) == limit, label
        if mode not in modes:  # the Slime goals, without ../shared
            assert (value, verdict) == ("skipped", "-"), label
            continue
        number = float(value)
        if reference is None:
            assert abs(number - modes[mode][3]) <= 0.05 + HALF, (label, done.stdout)
            if limit >= 100:  # a tiny tree is far under the generous limits; 20 MB is a real claim
                assert verdict == "yes", (label, done.stdout)
        else:
            low, high = ratio_bounds(modes[mode][0], modes[reference][0])
            assert low - HALF <= number <= high + HALF, (label, done.stdout)
        assert verdict == ("yes" if number <= limit else "NO"), (label, done.stdout)

    # The page's one table is this run's goals, and nothing else of the page changed.
    table = load_script("bench/table.py", "bench_table")
    before = (ROOT / "bench" / "README.md").read_text(encoding="utf-8")
    after = page.read_text(encoding="utf-8")
    head, rest = after.split(table.BEGIN + "\n", 1)
    rows, tail = rest.split(table.END, 1)
    assert before.startswith(head) and before.endswith(tail) and after.count(table.BEGIN) == 1
    lines = [line for line in rows.splitlines() if line.startswith("| ") and "---" not in line][1:]
    assert [line.split(" | ")[0].removeprefix("| ") for line in lines] == [g.split(" <= ")[0] for g in GOALS]
    assert ("Information, not a goal" in rows) == bool(CHILD_MODES and HEAD.is_dir()), rows
    for line, (label, (mode, _reference, _limit)) in zip(lines, GOALS.items(), strict=True):
        verdict = goals[label][3]
        assert line.endswith({"yes": "| ✅ |", "NO": "| ❌ |", "-": "| — |"}[verdict]), (line, verdict)
        assert ("skipped" in line) == (mode not in modes), line
