"""A pull request of Markdown built to make extraction rescan the file cannot stall a run.

Each file below once cost minutes (hours at the 5 MiB cap) in the prefilter, which searched
to the end of the file for every fence opener, and for every character of a backtick run.
Both stages must finish well within the cut-off; tests/unit/test_linear_time.py measures
the growth itself.
"""

from __future__ import annotations

import subprocess
import sys
from functools import partial
from pathlib import Path

from tests.support.scenario import subprocess_runner
from tests.support.small_pr import SmallPR

SIZE = 300_000
HOSTILE = {
    "docs/en/openers.md": b"async\n" + b"```python\n" * (SIZE // 10),
    "docs/en/run.md": b"`" * SIZE + b"\nasync\n",
    "docs/en/closers.md": b"await\n" + b"~~~python\n```\n" * (SIZE // 14),
}
# Generous: each run takes about a second; before the fix stage 1 alone took over ten minutes.
CUT_OFF = 120


def test_both_stages_read_hostile_markdown_in_linear_time(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head=dict(HOSTILE))
    runner = partial(subprocess_runner, timeout=CUT_OFF)
    first = pr.stage1().run(runner)
    assert first.code == 0, first.stdout + first.stderr  # none of them holds a selected snippet
    second = pr.stage2().run(runner)
    assert second.code == 0, second.stdout + second.stderr
    assert [s["state"] for s in pr.statuses()] == ["success"]


BENCH = Path(__file__).resolve().parents[2] / "bench" / "pathological.py"


def _bench(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(BENCH), *args], capture_output=True, text=True, timeout=CUT_OFF, check=False
    )


def test_the_pathological_bench_prints_a_ratio_per_size():
    done = _bench("--max-bytes", "262144", "--shape", "one-long-backtick-line")
    assert done.returncode == 0, done.stderr
    rows = [line.split() for line in done.stdout.splitlines()[1:]]
    assert [int(r[1]) for r in rows] == [16384 + 7, 65536 + 7, 262144 + 7]
    assert len(rows[0]) == 4 and all(len(r) in (4, 6) for r in rows[1:])


def test_the_growth_table_runs_under_any_python_on_shapes_that_hold_snippets():
    """The shapes that reach the grammar are judged by the running Python, whichever it is."""
    done = _bench("--max-bytes", "65536", "--shape", "words-everywhere")
    assert done.returncode == 0, done.stderr
    assert [line.split()[0] for line in done.stdout.splitlines()[1:]] == ["words-everywhere"] * 2


def test_the_pathological_bench_runs_hostile_prs_against_the_bounds():
    runs = ["stars-300", "stars-150", "merge-8000", "dashes-5mib"]
    done = _bench("--quick", *(a for run in runs for a in ("--run", run)))
    assert done.returncode == 0, done.stdout + done.stderr
    rows = [line.split() for line in done.stdout.splitlines() if line.split()[:1] and line.split()[0] in runs]
    assert [r[0] for r in rows] == runs
    assert all(r[4] == "yes" for r in rows), done.stdout
