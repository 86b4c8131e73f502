"""Run every workflow step that uses this repository's own Action, the way the runner would.

    python .ci/run_workflow_steps.py [--repo DIR] [--workflows DIR]

For each step with ``uses: ./`` (or GitHub's ``$/`` spelling of the same) in
``.github/workflows/*.y*ml``, the step's ``with:`` becomes ``INPUT_<NAME>`` variables (the
runner upper-cases the name and keeps its hyphens), ``action.yml``'s defaults fill in the
rest, and ``python entrypoint.py`` runs on a ``push`` event with ``GITHUB_WORKSPACE`` = the
repository and fresh ``GITHUB_OUTPUT`` / ``GITHUB_STEP_SUMMARY`` / ``RUNNER_TEMP``. GitHub
expressions (``${{ ... }}``) have no value here and become empty strings, as an unset
context would. A step fails when it names an input action.yml does not declare (the runner
only warns, but it is always a typo), when a repository path it names (``manifest``,
``config``) does not exist, or when the Action exits non-zero (exit 1 is tolerated only
with ``continue-on-error: true``). Exit 0 when every step passes, 1 otherwise.
"""

from __future__ import annotations

import argparse
import json
import os
import re
import subprocess
import sys
import tempfile
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml

REPO = Path(__file__).resolve().parents[1]
SELF_USES = ("./", ".", "$/")
# Inputs that name a file of the checked-out repository; other inputs (such as `report`,
# which an earlier step downloads at run time) are not checked for existence.
REPO_PATH_INPUTS = ("manifest", "config")
EXPRESSION = re.compile(r"\$\{\{.*?\}\}", re.DOTALL)


@dataclass(frozen=True)
class Step:
    workflow: str
    job: str
    index: int
    inputs: tuple[tuple[str, str], ...]
    continue_on_error: bool

    @property
    def label(self) -> str:
        return f"{self.workflow} job {self.job} step {self.index + 1}"


def runner_value(value: object) -> str:
    """A `with:` value as the runner passes it: a string, expressions evaluated to empty."""
    if isinstance(value, bool):
        text = "true" if value else "false"
    elif value is None:
        text = ""
    else:
        text = str(value)
    return EXPRESSION.sub("", text)


def action_steps(workflow: Path) -> list[Step]:
    data = yaml.safe_load(workflow.read_text(encoding="utf-8"))
    jobs = data.get("jobs") if isinstance(data, dict) else None
    found: list[Step] = []
    for job_id, job in (jobs or {}).items():
        steps = job.get("steps") if isinstance(job, dict) else None
        for index, step in enumerate(steps or []):
            if not isinstance(step, dict) or str(step.get("uses", "")).strip() not in SELF_USES:
                continue
            inputs = tuple((str(k), runner_value(v)) for k, v in (step.get("with") or {}).items())
            found.append(Step(workflow.name, str(job_id), index, inputs, step.get("continue-on-error") is True))
    return found


def action_defaults(action_yml: Path) -> dict[str, str]:
    inputs = yaml.safe_load(action_yml.read_text(encoding="utf-8")).get("inputs") or {}
    return {str(name): runner_value((spec or {}).get("default", "")) for name, spec in inputs.items()}


def step_environment(step: Step, defaults: Mapping[str, str], base: Mapping[str, str]) -> dict[str, str]:
    """The step's environment: the caller's minus any runner variables, then the runner's."""
    env = {k: v for k, v in base.items() if not k.startswith(("INPUT_", "GITHUB_", "RUNNER_"))}
    values = dict(defaults)
    values.update(step.inputs)
    for name, value in values.items():
        env[f"INPUT_{name.upper()}"] = value
    return env


def problems_before_running(step: Step, defaults: Mapping[str, str], repo: Path) -> list[str]:
    out = [f"input {name!r} is not declared in action.yml" for name, _ in step.inputs if name not in defaults]
    values = dict(defaults)
    values.update(step.inputs)
    for name in REPO_PATH_INPUTS:
        value = values.get(name, "")
        if value and not (repo / value).exists():
            out.append(f"input {name}: {value} does not exist in {repo}")
    return out


def _head_sha(repo: Path) -> str:
    done = subprocess.run(["git", "-C", str(repo), "rev-parse", "HEAD"], capture_output=True, text=True, check=False)
    sha = done.stdout.strip()
    return sha if re.fullmatch(r"[0-9a-f]{40}", sha) else "0" * 40


def run_step(step: Step, defaults: Mapping[str, str], repo: Path) -> tuple[int, str]:
    """(exit code, combined output) of the Action run for one step."""
    sha = _head_sha(repo)
    with tempfile.TemporaryDirectory(prefix="docsnippets-step-") as tmp:
        temp = Path(tmp)
        event = temp / "event.json"
        event.write_text(
            json.dumps({"ref": "refs/heads/main", "before": "0" * 40, "after": sha, "head_commit": {"id": sha}}),
            encoding="utf-8",
        )
        (temp / "runner_temp").mkdir()
        env = step_environment(step, defaults, os.environ)
        env.update(
            {
                "GITHUB_ACTIONS": "true",
                "GITHUB_EVENT_NAME": "push",
                "GITHUB_EVENT_PATH": str(event),
                "GITHUB_WORKSPACE": str(repo),
                "GITHUB_REPOSITORY": "local/docsnippets",
                "GITHUB_SHA": sha,
                "GITHUB_REF": "refs/heads/main",
                "GITHUB_OUTPUT": str(temp / "output"),
                "GITHUB_STEP_SUMMARY": str(temp / "summary"),
                "RUNNER_TEMP": str(temp / "runner_temp"),
                "DOCSNIPPETS_NO_CACHE": "1",  # as in the image
            }
        )
        done = subprocess.run(
            [sys.executable, str(repo / "entrypoint.py")],
            cwd=repo,
            env=env,
            capture_output=True,
            text=True,
            check=False,
        )
        return done.returncode, done.stdout + done.stderr


def check_step(step: Step, defaults: Mapping[str, str], repo: Path) -> list[str]:
    problems = problems_before_running(step, defaults, repo)
    if problems:
        return problems
    code, output = run_step(step, defaults, repo)
    tolerated = code == 0 or (code == 1 and step.continue_on_error)
    if tolerated:
        return []
    tail = "\n".join(output.strip().splitlines()[-5:])
    return [f"the Action exited {code}:\n{tail}"]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="repository root (the workspace)")
    parser.add_argument("--workflows", type=Path, help="workflow directory (default REPO/.github/workflows)")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    directory = args.workflows or repo / ".github" / "workflows"
    workflows = sorted(p for p in directory.glob("*.y*ml") if p.suffix in (".yml", ".yaml"))
    defaults = action_defaults(repo / "action.yml")
    steps = [s for w in workflows for s in action_steps(w)]
    if not steps:
        print(f"run_workflow_steps: no step uses ./ in {directory}", file=sys.stderr)
        return 1
    failed = 0
    for step in steps:
        problems = check_step(step, defaults, repo)
        shown = " ".join(f"{k}={v!r}" for k, v in step.inputs) or "(no inputs)"
        print(f"{'FAIL' if problems else 'ok  '} {step.label}: {shown}")
        for problem in problems:
            print(f"     {problem}")
        failed += bool(problems)
    print(f"run_workflow_steps: {len(steps) - failed} of {len(steps)} steps passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
