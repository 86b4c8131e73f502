"""entrypoint.py as the container runs it: with arguments the CLI, without them the Action."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
SECRET = "ghs_neverShowThis0123456789"


def test_entrypoint_with_arguments_is_the_cli_without_them_the_action(tmp_path):
    (tmp_path / "a.md").write_text("# nothing\n", encoding="utf-8")
    run = [sys.executable, str(ROOT / "entrypoint.py")]
    env = {"PATH": "/usr/bin:/bin", "DOCSNIPPETS_NO_CACHE": "1"}
    cli = subprocess.run([*run, "update", "--root", str(tmp_path)], env=env, capture_output=True, text=True)
    assert cli.returncode == 0 and (tmp_path / "documentation-snippets.json").exists(), cli.stderr
    action_env = {**env, "GITHUB_EVENT_NAME": "push", "GITHUB_WORKSPACE": str(tmp_path), "INPUT_GITHUB-TOKEN": SECRET}
    action = subprocess.run(run, env=action_env, capture_output=True, text=True, cwd=tmp_path)
    assert action.returncode == 0, action.stdout + action.stderr
    first, *rest = action.stdout.splitlines()
    assert first == f"::add-mask::{SECRET}"
    assert rest[-1].startswith("docsnippets: check passed") and SECRET not in "\n".join(rest) + action.stderr
