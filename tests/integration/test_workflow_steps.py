"""CI's runner stand-in (.ci/run_workflow_steps.py): the repository's workflows run as written."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / ".ci" / "run_workflow_steps.py"

# The workflow as it stood before the fix: it pointed at files that never existed.
BROKEN = """\
name: docsnippets
on: [push]
jobs:
  snippets:
    runs-on: ubuntu-latest
    steps:
      - uses: actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2
      - uses: ./
        with:
          manifest: examples/docs/documentation-snippets.json
"""


steps_mod = load_script(".ci/run_workflow_steps.py", "run_workflow_steps")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False)


def _workflow(tmp_path: Path, with_: dict[str, object] | None, **step: object) -> Path:
    directory = tmp_path / "workflows"
    directory.mkdir(exist_ok=True)
    body = {"uses": "./", **step}
    if with_ is not None:
        body["with"] = with_
    data = {"name": "t", "on": ["push"], "jobs": {"j": {"runs-on": "ubuntu-latest", "steps": [body]}}}
    (directory / "t.yml").write_text(yaml.safe_dump(data, sort_keys=False))
    return directory


def _copy_repo(tmp_path: Path) -> Path:
    root = tmp_path / "repo"
    root.mkdir()
    for name in ("action.yml", "entrypoint.py", "documentation-snippets.json"):
        shutil.copy2(REPO / name, root / name)
    shutil.copytree(REPO / "src", root / "src", ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    shutil.copytree(REPO / "examples", root / "examples")
    return root


def test_the_repositorys_own_workflows_pass() -> None:
    expected = sum(len(steps_mod.action_steps(w)) for w in sorted((REPO / ".github" / "workflows").glob("*.yml")))
    assert expected >= 2  # stage 1 and stage 2 both run the Action
    done = _run()
    assert done.returncode == 0, done.stdout + done.stderr
    assert "FAIL" not in done.stdout
    assert f"{expected} of {expected} steps passed" in done.stdout


def test_a_missing_manifest_path_fails(tmp_path: Path) -> None:
    directory = tmp_path / "workflows"
    directory.mkdir()
    (directory / "docsnippets.yml").write_text(BROKEN)
    done = _run("--workflows", str(directory))
    assert done.returncode == 1
    assert "FAIL docsnippets.yml job snippets step 2" in done.stdout
    assert "examples/docs/documentation-snippets.json does not exist" in done.stdout


def test_an_action_error_fails_and_hyphenated_inputs_reach_the_action(tmp_path: Path) -> None:
    # The Action reads INPUT_FAIL-ON; had the name been mangled (INPUT_FAIL_ON), the default
    # would apply and the step would pass.
    done = _run("--workflows", str(_workflow(tmp_path, {"fail-on": "sometimes"})))
    assert done.returncode == 1
    assert "the Action exited 2" in done.stdout
    assert "fail-on='sometimes' is not one of" in done.stdout


def test_an_undeclared_input_fails(tmp_path: Path) -> None:
    done = _run("--workflows", str(_workflow(tmp_path, {"fail_on": "never"})))
    assert done.returncode == 1
    assert "input 'fail_on' is not declared in action.yml" in done.stdout


def test_a_stale_manifest_fails_unless_the_step_may_fail(tmp_path: Path) -> None:
    root = _copy_repo(tmp_path)
    doc = root / "examples" / "custom-reward.md"
    doc.write_text(doc.read_text(encoding="utf-8").replace("await judge(", "await judge_v2(", 1), encoding="utf-8")
    done = _run("--repo", str(root), "--workflows", str(_workflow(tmp_path, None)))
    assert done.returncode == 1
    assert "the Action exited 1" in done.stdout
    tolerant = _run("--repo", str(root), "--workflows", str(_workflow(tmp_path, None, **{"continue-on-error": True})))
    assert tolerant.returncode == 0, tolerant.stdout


def test_a_directory_without_action_steps_fails(tmp_path: Path) -> None:
    (tmp_path / "other.yml").write_text("on: [push]\njobs:\n  j:\n    runs-on: x\n    steps:\n      - run: 'true'\n")
    done = _run("--workflows", str(tmp_path))
    assert done.returncode == 1
    assert "no step uses ./" in done.stderr


def test_inputs_become_runner_variables() -> None:
    defaults = steps_mod.action_defaults(REPO / "action.yml")
    assert defaults["github-token"] == ""  # ${{ github.token }} has no value outside a runner
    step = steps_mod.Step("w.yml", "j", 0, (("strict-lines", "true"), ("config", "")), False)
    env = steps_mod.step_environment(step, defaults, {"PATH": "/bin", "INPUT_STALE": "x", "GITHUB_TOKEN": "t"})
    assert env["INPUT_STRICT-LINES"] == "true"
    assert env["INPUT_FAIL-ON"] == defaults["fail-on"] == "stale"
    assert env["INPUT_GITHUB-TOKEN"] == ""
    assert "INPUT_STALE" not in env and "GITHUB_TOKEN" not in env and env["PATH"] == "/bin"


@pytest.mark.parametrize(
    ("value", "expected"),
    [(True, "true"), (False, "false"), (None, ""), (3, "3"), ("a ${{ x.y }} b", "a  b"), ("${{\n x }}", "")],
)
def test_runner_value(value: object, expected: str) -> None:
    assert steps_mod.runner_value(value) == expected


def test_self_repository_spellings_are_found(tmp_path: Path) -> None:
    for uses in ("./", "$/", "actions/checkout@v4"):
        (tmp_path / "w.yml").write_text(yaml.safe_dump({"jobs": {"j": {"steps": [{"uses": uses}]}}}))
        assert len(steps_mod.action_steps(tmp_path / "w.yml")) == (0 if "@" in uses else 1)
