"""A small pull request for stage 2 end-to-end tests: the default branch checked out, the PR's
head served by the fake API only, and the ``workflow_run`` event of its stage 1 run."""

from __future__ import annotations

import json
import shutil
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tests.support.corpus import write
from tests.support.fake_github import FakeGitHub, changed
from tests.support.scenario import BASE_SHA, HEAD_SHA, MANIFEST, REPO, Scenario, diff_files, manifest_of

FORK = "someone"
BRANCH = "fix-docs"

SNIPPET = """# Title

```python
async def main(n):
    await step({n})
```
"""
SNIPPET_ZH = """# 标题

```python
async def main(n):
    await step({n})
```
"""


def page(n: int, zh: bool = False) -> str:
    """A Markdown page holding one async snippet; ``n`` varies its code."""
    return (SNIPPET_ZH if zh else SNIPPET).format(n=n)


def workflow_run(head_sha: str = HEAD_SHA, owner: str = FORK, branch: str = BRANCH) -> dict[str, Any]:
    return {
        "action": "completed",
        "workflow_run": {
            "id": 777,
            "event": "pull_request",
            "head_sha": head_sha,
            "head_branch": branch,
            "head_repository": {"full_name": f"{owner}/repo", "owner": {"login": owner}},
            "pull_requests": [],
        },
        "repository": {"full_name": REPO},
    }


@dataclass
class SmallPR:
    scenario: Scenario
    fake: FakeGitHub
    base_manifest: str
    head_manifest: str

    @property
    def repo(self) -> Any:
        return self.fake.repos[REPO]

    def statuses(self, sha: str = HEAD_SHA) -> list[dict[str, Any]]:
        return self.repo.statuses.get(sha, [])


def small_pr(
    tmp: Path,
    fake: FakeGitHub,
    base: Mapping[str, str | bytes],
    head: Mapping[str, str | bytes],
    files: list[dict[str, Any]] | None = None,
    *,
    recorded: Mapping[str, str | bytes] | None = None,
) -> SmallPR:
    """PR #42 from ``someone:fix-docs``: ``base`` and ``head`` are the two trees; the manifest
    the PR commits is what ``update`` writes for ``recorded`` (default: the head's docs)."""
    base_dir = write(tmp / "base-tree", base)
    base_manifest = manifest_of(base_dir, tmp)
    if recorded is base:
        committed = base_manifest
    else:
        committed = manifest_of(write(tmp / "recorded-tree", head if recorded is None else recorded), tmp)
    repo = fake.repos.get(REPO) or fake.add_repo(REPO)
    if files is None:
        files = [changed(n, "added" if n not in base else "modified") for n in head if base.get(n) != head[n]]
        files += [changed(n, "removed") for n in base if n not in head]
        if committed != base_manifest:
            files.append(changed(MANIFEST))
    repo.add_pull(42, files, head_sha=HEAD_SHA, base_sha=BASE_SHA, head_label=f"{FORK}:{BRANCH}")
    for name, data in head.items():
        repo.add_file(HEAD_SHA, name, data)
    repo.add_file(HEAD_SHA, MANIFEST, committed)
    for name, data in base.items():
        repo.add_file(BASE_SHA, name, data)
    repo.add_file(BASE_SHA, MANIFEST, base_manifest)
    workspace = write(tmp / "workspace", {**base, MANIFEST: base_manifest})
    runner = tmp / "runner"
    runner.mkdir()
    scenario = Scenario(workspace, runner, fake, event_name="workflow_run", event=workflow_run())
    scenario.inputs.update({"INPUT_STATUS-CONTEXT": "docsnippets", "GITHUB_RUN_ID": "777"})
    return SmallPR(scenario, fake, base_manifest, committed)


def publish(fake: FakeGitHub, sha: str, tree: Path) -> None:
    repo = fake.repos.get(REPO) or fake.add_repo(REPO)
    for path in sorted(tree.rglob("*")):
        if path.is_file():
            repo.add_file(sha, path.relative_to(tree).as_posix(), path.read_bytes())


def fork_pr(tmp: Path, fake: FakeGitHub, base: Path, head: Path, fail_on: str) -> tuple[Scenario, Scenario]:
    """PR #42 from someone:fix-docs: stage 1 on a checkout of the head, and stage 2 on the
    default branch's checkout, with the trusted token."""
    publish(fake, BASE_SHA, base)
    publish(fake, HEAD_SHA, head)
    repo = fake.repos[REPO]
    repo.add_pull(42, diff_files(base, head), head_sha=HEAD_SHA, base_sha=BASE_SHA, head_label=f"{FORK}:{BRANCH}")
    inputs = {"INPUT_FAIL-ON": fail_on, "INPUT_STATUS-CONTEXT": "docsnippets", "GITHUB_RUN_ID": "777"}
    (tmp / "runner1").mkdir()
    stage1 = Scenario(head, tmp / "runner1", fake, head_repo=f"{FORK}/slime", inputs=dict(inputs))
    workspace = shutil.copytree(base, tmp / "default-branch")
    (tmp / "runner2").mkdir()
    stage2 = Scenario(workspace, tmp / "runner2", fake, event_name="workflow_run", event=workflow_run(), inputs=inputs)
    return stage1, stage2


def report(scenario: Scenario, result) -> dict:
    return json.loads(scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
