"""Run `docsnippets check` in a fresh interpreter and report whether it imported a module:
what a cold start pays for is only visible in a process that has imported nothing yet."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def check_imports(root: Path, env: dict[str, str], module: str, *flags: str) -> tuple[bool, str]:
    """(whether `module` was imported, the check's exit code as text)."""
    code = (
        "import sys; from docsnippets.cli import main; "
        f"rc = main(['check', '--root', {str(root)!r}, *{list(flags)!r}]); "
        f"print({module!r} in sys.modules, rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], env=env, capture_output=True, text=True, check=False)
    assert len(done.stdout.split()) >= 2, done.stdout + done.stderr  # a crash names itself
    flag, rc = done.stdout.split()[-2:]
    return flag == "True", rc
