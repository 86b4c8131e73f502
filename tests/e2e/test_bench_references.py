"""bench/run.py --references: goal 5 alone, on Slime's docs and code (skipped without them).

Timing verdicts are never asserted (one round on a shared machine means nothing); what must
hold is that both modes run and the goal row is the ratio of the medians printed above it.
"""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from tests.support.corpus import CODE, HEAD, need

ROOT = Path(__file__).resolve().parents[2]


def test_references_only_run_reports_goal_5_from_its_medians(tmp_path: Path) -> None:
    need(HEAD), need(CODE)
    argv = [sys.executable, str(ROOT / "bench" / "run.py"), "--references", "--repeat", "1", "--out", str(tmp_path)]
    run = subprocess.run(argv, capture_output=True, text=True, timeout=600, check=False)
    assert run.returncode in (0, 1), run.stdout + run.stderr
    medians = {
        m[1]: float(m[2]) for m in re.finditer(r"^mode (slime\+code [\w-]+(?: [\w-]+)?)\s+([\d.]+)", run.stdout, re.M)
    }
    assert set(medians) == {"slime+code check", "slime+code --no-references"}, run.stdout
    goal = re.search(
        r"^goal 5 slime\+code check / --no-references <= 1.5\s+([\d.]+)\s+1.5\s+x\s+(yes|NO)$", run.stdout, re.M
    )
    assert goal is not None, run.stdout
    ratio = medians["slime+code check"] / medians["slime+code --no-references"]
    assert abs(float(goal[1]) - ratio) < 0.01 * ratio + 0.002
    assert (goal[2] == "yes") == (float(goal[1]) <= 1.5) and run.returncode == (0 if goal[2] == "yes" else 1)
