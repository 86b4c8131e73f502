"""The benchmark still runs end to end (tiny tree, one round). Timing is never asserted here:
the goals are ratios that only mean something on a full-size run of bench/run.py."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

from conftest import HEAD

ROOT = Path(__file__).resolve().parents[1]


def test_bench_smoke_runs_and_prints_the_tables():
    done = subprocess.run(
        [sys.executable, str(ROOT / "bench" / "run.py"), "--smoke"],
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    lines = done.stdout.splitlines()
    modes = {line.split("  ")[0] for line in lines if line.startswith("mode ") and "median_s" not in line}
    expected = {
        "mode parse-all",
        "mode read-and-search",
        "mode update",
        "mode update cached",
        "mode check",
        "mode check --changed",
        "mode check in-process",
        "mode check --changed in-process",
    }
    if HEAD.is_dir():
        expected |= {"mode import markdown_it", "mode slime check cached", "mode slime check cold"}
        expected |= {"mode slime parse floor"}
    assert expected <= modes, done.stdout
    goals = [line for line in lines if line.startswith("goal ") and not line.endswith(" met")]
    assert len(goals) == 9, done.stdout
    # Every goal row ends with a verdict, whatever it is on a 40-file tree.
    assert all(line.split()[-1] in ("yes", "NO", "-") for line in goals), done.stdout
