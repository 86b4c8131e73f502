"""A small bilingual repository as a pull request, for stage 1 and stage 2 end-to-end tests
that need no corpus: the base tree and its manifest, the PR's head files, the fake API's view.

``SmallPR.stage1()`` is the PR's own run (the head checked out); ``SmallPR.stage2()`` is the
``workflow_run`` follow-up from the default branch, reading the head through the fake API.
"""

from __future__ import annotations

import json
import shutil
from dataclasses import dataclass, field
from pathlib import Path

from tests.support.corpus import write
from tests.support.fake_github import FakeGitHub, changed
from tests.support.scenario import BASE_SHA, HEAD_SHA, MANIFEST, REPO, Scenario, manifest_of

SNIPPET = "```python\nasync def main():\n    await step()\n```\n"
BASE_FILES: dict[str, str | bytes] = {
    "docs/en/guide.md": "# Guide\n\nRun it:\n\n" + SNIPPET,
    "docs/zh/guide.md": "# 指南\n\n运行：\n\n" + SNIPPET,
}
FORK = "someone"
BRANCH = "topic"


@dataclass
class SmallPR:
    """PR #42 of REPO from the fork ``someone:topic``: ``head`` files added or replaced on top
    of BASE_FILES (a ``None`` value removes the file), ``manifest`` the head's manifest text
    (default: the base's, i.e. not updated)."""

    tmp: Path
    fake: FakeGitHub
    head: dict[str, str | bytes | None] = field(default_factory=dict)
    manifest: str | None = None
    base_manifest: str = ""

    def __post_init__(self) -> None:
        base = write(self.tmp / "base", dict(BASE_FILES))
        self.base_manifest = manifest_of(base, self.tmp)
        repo = self.fake.repos.get(REPO) or self.fake.add_repo(REPO)
        files = [
            changed(name, "removed" if data is None else ("modified" if name in BASE_FILES else "added"))
            for name, data in self.head.items()
        ]
        if self.manifest is not None:
            files.append(changed(MANIFEST))
        repo.add_pull(42, files, head_sha=HEAD_SHA, base_sha=BASE_SHA, head_label=f"{FORK}:{BRANCH}")
        repo.add_file(BASE_SHA, MANIFEST, self.base_manifest)
        for name, data in self.head_files().items():
            repo.add_file(HEAD_SHA, name, data)

    def head_files(self) -> dict[str, str | bytes]:
        files: dict[str, str | bytes] = {**BASE_FILES, MANIFEST: self.manifest or self.base_manifest}
        for name, data in self.head.items():
            if data is None:
                files.pop(name, None)
            else:
                files[name] = data
        return files

    def stage1(self, name: str = "stage1") -> Scenario:
        workspace = write(self.tmp / name / "workspace", self.head_files())
        runner = self.tmp / name / "runner"
        runner.mkdir(parents=True)
        return Scenario(workspace, runner, self.fake, head_repo=f"{FORK}/slime")

    def stage2(self, name: str = "stage2") -> Scenario:
        workspace = self.tmp / name / "workspace"
        shutil.copytree(self.tmp / "base", workspace)
        (workspace / MANIFEST).write_text(self.base_manifest, encoding="utf-8")
        runner = self.tmp / name / "runner"
        runner.mkdir(parents=True)
        event = {
            "action": "completed",
            "workflow_run": {
                "id": 777,
                "event": "pull_request",
                "conclusion": "failure",
                "head_sha": HEAD_SHA,
                "head_branch": BRANCH,
                "head_repository": {"full_name": f"{FORK}/slime", "owner": {"login": FORK}},
                "pull_requests": [],
            },
            "repository": {"full_name": REPO},
        }
        pr = Scenario(workspace, runner, self.fake, event_name="workflow_run", event=event)
        pr.inputs.update({"INPUT_STATUS-CONTEXT": "docsnippets", "GITHUB_RUN_ID": "777"})
        return pr

    def statuses(self) -> list[dict]:
        return self.fake.repos[REPO].statuses.get(HEAD_SHA, [])


def manifest_with(text: str, edit) -> str:
    """The manifest ``text`` after ``edit(data)`` changed its JSON (a hand-edited manifest)."""
    data = json.loads(text)
    edit(data)
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"
