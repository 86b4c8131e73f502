"""The container run (.ci/container_e2e.py needs Docker, so CI runs it, not this suite) imports the
same scenario as tests/e2e/test_action.py; its imports must resolve from a plain `python` run."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def test_the_container_script_imports_the_shared_scenario(tmp_path):
    probe = (
        "import runpy, sys\n"
        f"names = runpy.run_path({str(ROOT / '.ci' / 'container_e2e.py')!r}, run_name='probe')\n"
        "assert callable(names['main']) and callable(names['slime_scenario']), sorted(names)\n"
        "assert names['FakeGitHub'].__module__ == 'tests.support.fake_github', names['FakeGitHub'].__module__\n"
        "assert 'pytest' not in sys.modules\n"
    )
    env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    done = subprocess.run(
        [sys.executable, "-c", probe], cwd=tmp_path, env=env, capture_output=True, text=True, check=False
    )
    assert done.returncode == 0, done.stdout + done.stderr
