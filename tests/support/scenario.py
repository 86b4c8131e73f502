"""A pull request as the Actions runner presents it: workspace, event file, env, file commands.

The same scenario drives the entrypoint as a plain subprocess (tests/test_action.py) and
inside the built container image (.ci/container_e2e.py), so both prove the same outcome.
"""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from tests.support.fake_github import FakeGitHub, changed
from tests.support.runner_log import output_file

ROOT = Path(__file__).resolve().parents[2]
TOKEN = "ghs_secretTOKENvalue1234567890"
PAGE = 3  # the fake API's page size in the end-to-end tests: small, so that paging is exercised
REPO = "THUDM/slime"
BASE_SHA = "44d29ee59dfa1489c369937779cbbdb1798ce701"
HEAD_SHA = "624b824a898ab0ec1fcb4d373004c7f3852bf515"
MANIFEST = "documentation-snippets.json"
MASK = "::add-mask::"


@dataclass
class Result:
    code: int
    stdout: str
    stderr: str
    outputs: dict[str, str]
    summary: str

    @property
    def annotations(self) -> list[str]:
        return [line for line in self.stdout.splitlines() if line.startswith("::") and not line.startswith(MASK)]

    @property
    def shown(self) -> str:
        """The log as the runner shows it: the one ``::add-mask::`` command, which must come
        first (so the runner hides the token in every later line), is not shown."""
        lines = self.stdout.splitlines(keepends=True)
        masks = [i for i, line in enumerate(lines) if line.startswith(MASK)]
        assert masks in ([], [0]), masks
        return "".join(lines[len(masks) :])


# Runs the entrypoint; gets (env, workspace dir, runner dir) and returns (code, out, err).
Runner = Callable[[dict[str, str], Path, Path], tuple[int, str, str]]


def subprocess_runner(
    env: dict[str, str], workspace: Path, runner_dir: Path, *, timeout: float = 300
) -> tuple[int, str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
    done = subprocess.run(
        [sys.executable, str(ROOT / "entrypoint.py")],
        env={**base, **env},
        cwd=workspace,
        capture_output=True,
        text=True,
        timeout=timeout,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


DEFAULT_CPU_SECONDS = 90.0  # DOCSNIPPETS_MAX_CPU_SECONDS when unset (docs/security.md)


def in_process_runner(env: dict[str, str], workspace: Path, runner_dir: Path) -> tuple[int, str, str]:
    """The entrypoint in this process, so a test can replace a piece of it (a clock, say)."""
    import io

    from docsnippets import interpreter
    from docsnippets.github.action import main

    environ = {**os.environ, **env}
    if "DOCSNIPPETS_MAX_CPU_SECONDS" not in environ:
        # The bound counts the CPU of the run's process, which the Action starts for the run;
        # this process has run other tests first, so the run's own default bound starts now.
        environ["DOCSNIPPETS_MAX_CPU_SECONDS"] = str(interpreter.cpu_seconds() + DEFAULT_CPU_SECONDS)
    out, err = io.StringIO(), io.StringIO()
    here = os.getcwd()
    os.chdir(workspace)
    try:
        code = main(environ=environ, out=out, err=err)
    finally:
        os.chdir(here)
    return code, out.getvalue(), err.getvalue()


@dataclass
class Scenario:
    """A workspace (the PR head checkout) plus runner files; paths are seen by the entrypoint as
    ``workspace_seen`` / ``runner_seen`` (the container mounts them elsewhere)."""

    workspace: Path
    runner_dir: Path
    fake: FakeGitHub
    number: int = 42
    workspace_seen: str | None = None
    runner_seen: str | None = None
    inputs: dict[str, str] = field(default_factory=dict)
    head_repo: str = REPO
    event_name: str = "pull_request"
    api_url: str | None = None
    event: dict[str, Any] | None = None  # written as is instead of the pull_request event

    def seen(self, kind: str, name: str = "") -> str:
        host = self.workspace if kind == "workspace" else self.runner_dir
        mapped = self.workspace_seen if kind == "workspace" else self.runner_seen
        base = mapped if mapped is not None else str(host)
        return f"{base}/{name}" if name else base

    def write_event(self) -> None:
        event: dict[str, Any] = {
            "action": "synchronize",
            "number": self.number,
            "pull_request": {
                "number": self.number,
                "base": {"sha": BASE_SHA, "repo": {"full_name": REPO}},
                "head": {"sha": HEAD_SHA, "repo": {"full_name": self.head_repo}},
            },
            "repository": {"full_name": REPO},
        }
        if self.event_name == "push":
            event = {"ref": "refs/heads/main", "after": HEAD_SHA, "repository": {"full_name": REPO}}
        if self.event is not None:
            event = self.event
        (self.runner_dir / "workflow").mkdir(exist_ok=True)
        (self.runner_dir / "workflow" / "event.json").write_text(json.dumps(event), encoding="utf-8")

    def env(self) -> dict[str, str]:
        self.write_event()
        (self.runner_dir / "file_commands").mkdir(exist_ok=True)
        for name in ("output", "summary"):
            (self.runner_dir / "file_commands" / name).write_text("", encoding="utf-8")
        env = {
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": self.event_name,
            "GITHUB_EVENT_PATH": self.seen("runner", "workflow/event.json"),
            "GITHUB_REPOSITORY": REPO,
            "GITHUB_API_URL": self.api_url or self.fake.api_url,
            "GITHUB_SERVER_URL": "https://github.com",
            "GITHUB_WORKSPACE": self.seen("workspace"),
            "GITHUB_OUTPUT": self.seen("runner", "file_commands/output"),
            "GITHUB_STEP_SUMMARY": self.seen("runner", "file_commands/summary"),
            "GITHUB_SHA": HEAD_SHA,
            "DOCSNIPPETS_HTTP_BACKOFF": "0.01",
            "DOCSNIPPETS_HTTP_TIMEOUT": "5",
            "DOCSNIPPETS_HTTP_PACE": "0",
            "INPUT_GITHUB-TOKEN": TOKEN,
            "INPUT_MANIFEST": MANIFEST,
            "INPUT_FAIL-ON": "stale",
            "INPUT_COMMENT": "on-change",
            "INPUT_STRICT-LINES": "false",
            "INPUT_CONFIG": "",
        }
        env.update(self.inputs)
        return env

    def run(self, runner: Runner = subprocess_runner) -> Result:
        code, out, err = runner(self.env(), self.workspace, self.runner_dir)
        outputs = output_file((self.runner_dir / "file_commands" / "output").read_text(encoding="utf-8"))
        summary = (self.runner_dir / "file_commands" / "summary").read_text(encoding="utf-8")
        return Result(code, out, err, outputs, summary)

    def host_path(self, seen: str) -> Path:
        """A path the entrypoint printed, as this process can open it."""
        if not seen.startswith("/"):
            return self.workspace / seen
        for kind, host in (("workspace", self.workspace), ("runner", self.runner_dir)):
            prefix = self.seen(kind)
            if seen == prefix or seen.startswith(prefix + "/"):
                return host / seen[len(prefix) :].lstrip("/")
        return Path(seen)

    def comments(self) -> list[str]:
        return [c.body for c in self.fake.comments(REPO, self.number)]


def diff_files(base: Path, head: Path) -> list[dict[str, Any]]:
    """The PR's file list, as GitHub would give it, from two checkouts."""

    def files(root: Path) -> dict[str, bytes]:
        return {p.relative_to(root).as_posix(): p.read_bytes() for p in root.rglob("*") if p.is_file()}

    old, new = files(base), files(head)
    out = []
    for name in sorted(set(old) | set(new)):
        if name not in old:
            out.append(changed(name, "added"))
        elif name not in new:
            out.append(changed(name, "removed"))
        elif old[name] != new[name]:
            out.append(changed(name, "modified"))
    return out


def slime_scenario(
    tmp: Path,
    fake: FakeGitHub,
    base_corpus: Path,
    head_corpus: Path,
    *,
    head_manifest: str | None,
    base_manifest: str | None,
    extra_files: Sequence[dict[str, Any]] = (),
) -> Scenario:
    """The real Slime change 44d29ee59 -> 624b824a8 as PR #42 of THUDM/slime."""
    workspace = tmp / "workspace"
    shutil.copytree(head_corpus, workspace)
    for p in [workspace, *workspace.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    if head_manifest is not None:
        (workspace / MANIFEST).write_text(head_manifest, encoding="utf-8")
    runner_dir = tmp / "runner"
    runner_dir.mkdir()
    repo = fake.repos.get(REPO) or fake.add_repo(REPO)
    repo.add_pull(42, [*diff_files(base_corpus, head_corpus), *extra_files])
    for path in base_corpus.rglob("*"):  # the base commit, as its tree and blobs serve it
        if path.is_file():
            repo.add_file(BASE_SHA, path.relative_to(base_corpus).as_posix(), path.read_bytes())
    if base_manifest is not None:
        repo.add_file(BASE_SHA, MANIFEST, base_manifest)
    return Scenario(workspace, runner_dir, fake)


def manifest_of(tree: Path, tmp: Path) -> str:
    """What `docsnippets update` writes for a tree (run in a scratch copy)."""
    scratch = tmp / f"scratch-{tree.name}"
    if scratch.exists():
        shutil.rmtree(scratch)
    shutil.copytree(tree, scratch)
    for p in [scratch, *scratch.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    from docsnippets.cli import main

    assert main(["update", "--root", str(scratch)], out=open(os.devnull, "w")) == 0  # noqa: SIM115
    return (scratch / MANIFEST).read_text(encoding="utf-8")


def check_stale_outcome(pr: Scenario, result: Result) -> None:
    """What a stale Slime PR must produce, wherever the entrypoint ran."""
    assert result.code == 1, (result.code, result.stdout, result.stderr)
    assert result.outputs["fresh"] == "false"
    assert (result.outputs["changed"], result.outputs["moved"]) == ("4", "5"), result.outputs
    assert (result.outputs["added"], result.outputs["removed"], result.outputs["desynchronized"]) == ("0", "0", "0")
    report = json.loads(pr.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    assert report["fresh"] is False and len(report["changes"]["changed"]) == 4
    comments = pr.comments()
    assert len(comments) == 1, comments
    assert "is stale" in comments[0] and "docsnippets update" in comments[0]
    assert f"blob/{HEAD_SHA}/docs/en/developer_guide/trace.md#L60-L74" in comments[0]
    errors = [a for a in result.annotations if a.startswith("::error ")]
    assert errors and all("file=docs/" in a and "line=" in a and "endLine=" in a for a in errors)
    assert "is stale" in result.summary
    assert TOKEN not in result.shown + result.stderr + result.summary + comments[0]
    assert result.stdout.startswith(f"{MASK}{TOKEN}\n")


def check_fixed_outcome(pr: Scenario, result: Result) -> None:
    assert result.code == 0, (result.code, result.stdout, result.stderr)
    assert result.outputs["fresh"] == "true"
    comments = pr.comments()
    assert len(comments) == 1 and "is up to date" in comments[0]
    assert "Changed (4)" in comments[0] and "Moved (5)" in comments[0]
