"""Run the CLI as an unprivileged user: root reads every file whatever its mode, so a test of
unreadable files run as root proves nothing. Tests skip when no such user can be switched to."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

SRC = Path(__file__).resolve().parents[2] / "src"
NOBODY = ("setpriv", "--reuid=nobody", "--regid=nogroup", "--clear-groups")


def _env() -> dict[str, str]:
    return {"PATH": os.environ.get("PATH", ""), "PYTHONPATH": str(SRC), "PYTHONIOENCODING": "utf-8", "LANG": "C.UTF-8"}


def can_switch() -> bool:
    """Whether the CLI can run as ``nobody`` here (root, setpriv, an interpreter nobody may run)."""
    if os.geteuid() != 0 or shutil.which("setpriv") is None:
        return False
    probe = [*NOBODY, sys.executable, "-c", "import docsnippets.cli, os; assert os.geteuid() != 0"]
    done = subprocess.run(probe, capture_output=True, env=_env(), cwd="/", timeout=60, check=False)
    return done.returncode == 0


def run_as_nobody(*argv: str) -> tuple[int, str, str]:
    """``docsnippets ARGV`` as user nobody: (exit code, stdout, stderr)."""
    code = "import sys; from docsnippets.cli import main; sys.exit(main(sys.argv[1:]))"
    done = subprocess.run(
        [*NOBODY, sys.executable, "-c", code, *argv],
        capture_output=True,
        text=True,
        env=_env(),
        cwd="/",
        timeout=120,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr
