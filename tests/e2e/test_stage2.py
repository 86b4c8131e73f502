"""Stage 2 end to end: a fork PR's stage 1 cannot comment, then stage 2 on ``workflow_run``
reads the PR through the fake API as data, comments, and sets the commit status."""

from __future__ import annotations

import collections
import json
import math
import shutil
from pathlib import Path

import pytest
from tests.support.corpus import BASE, HEAD
from tests.support.fake_github import FORBIDDEN_INTEGRATION, FakeGitHub
from tests.support.scenario import (
    BASE_SHA,
    HEAD_SHA,
    MANIFEST,
    PAGE,
    REPO,
    TOKEN,
    Result,
    Scenario,
    slime_scenario,
)

FORK = "someone"
BRANCH = "fix-trace"
FIXED_SHA = "9" * 40


def pages(n: int) -> int:
    return max(1, math.ceil(n / PAGE))


def workflow_run(head_sha: str, owner: str = FORK, branch: str = BRANCH) -> dict:
    return {
        "action": "completed",
        "workflow_run": {
            "id": 777,
            "event": "pull_request",
            "conclusion": "failure",
            "head_sha": head_sha,
            "head_branch": branch,
            "head_repository": {"full_name": f"{owner}/slime", "owner": {"login": owner}},
            "pull_requests": [],  # empty for fork PRs: the Action must not rely on it
        },
        "repository": {"full_name": REPO},
    }


def publish_head(fake: FakeGitHub, sha: str, manifest: str) -> None:
    """The PR's head commit as the contents API serves it (the docs of the head corpus)."""
    repo = fake.repos[REPO]
    for path in HEAD.rglob("*"):
        if path.is_file():
            repo.add_file(sha, path.relative_to(HEAD).as_posix(), path.read_bytes())
    repo.add_file(sha, MANIFEST, manifest)


def stage2(tmp: Path, fake: FakeGitHub, manifests: dict, event: dict, name: str = "stage2") -> Scenario:
    """The default branch checked out (never the PR), the stage 2 step's inputs."""
    workspace = tmp / name / "workspace"
    shutil.copytree(BASE, workspace)
    for p in [workspace, *workspace.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    (workspace / MANIFEST).write_text(manifests["base"], encoding="utf-8")
    runner = tmp / name / "runner"
    runner.mkdir(parents=True)
    pr = Scenario(workspace, runner, fake, event_name="workflow_run", event=event)
    pr.inputs.update(
        {"INPUT_REPORT": ".docsnippets-stage1", "INPUT_STATUS-CONTEXT": "docsnippets", "GITHUB_RUN_ID": "777"}
    )
    return pr


def download_report(stage1: Scenario, result: Result, stage2: Scenario) -> Path:
    """What actions/download-artifact leaves in the stage 2 workspace."""
    target = stage2.workspace / ".docsnippets-stage1"
    target.mkdir(exist_ok=True)
    shutil.copy(stage1.host_path(result.outputs["report"]), target / "docsnippets-report.json")
    return target / "docsnippets-report.json"


def writes(fake: FakeGitHub) -> list:
    return [r for r in fake.requests() if r.method in ("POST", "PATCH", "DELETE")]


@pytest.fixture
def fork_pr(tmp_path, fake, manifests) -> Scenario:
    """A stale fork PR: docs changed, the old manifest committed; its token cannot comment."""
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["base"], base_manifest=manifests["base"])
    pr.head_repo = f"{FORK}/slime"
    files = fake.repos[REPO].pulls[42]["files"]
    fake.repos[REPO].add_pull(42, files, head_sha=HEAD_SHA, base_sha=BASE_SHA, head_label=f"{FORK}:{BRANCH}")
    publish_head(fake, HEAD_SHA, manifests["base"])
    return pr


def test_fork_pr_gets_its_comment_and_status_from_stage_2(tmp_path, fake, manifests, fork_pr):
    forbidden = fake.fail("POST", r"/issues/42/comments$", 403, times=None, body=FORBIDDEN_INTEGRATION)
    first = fork_pr.run()
    assert first.code == 1 and fork_pr.comments() == []
    notes = [a for a in first.annotations if a.startswith("::warning") and "second workflow" in a]
    assert len(notes) == 1 and "fork" in notes[0]
    fake.faults.remove(forbidden)

    # Another open PR from the same fork branch name but another commit must not be picked.
    fake.repos[REPO].add_pull(43, [], head_sha="c" * 40, head_label=f"{FORK}:other")
    second = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA))
    download_report(fork_pr, first, second)
    fake.reset_log()
    result = second.run()
    # Stage 2 delivered its verdict (the failure status is the gate): its own run is green.
    assert result.code == 0, result.stdout + result.stderr
    assert result.stdout.rstrip().endswith("(fail-on stale); exit 0")
    [comment] = fake.comments(REPO, 42)
    assert fake.comments(REPO, 43) == []
    assert "is stale" in comment.body and "docsnippets update" in comment.body
    assert "Changed (4)" in comment.body and "Moved (5)" in comment.body
    assert f"blob/{HEAD_SHA}/docs/en/developer_guide/trace.md#L60-L74" in comment.body
    assert "disagrees" not in comment.body + result.stdout  # stage 1's honest report agrees
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert (status["state"], status["context"]) == ("failure", "docsnippets")
    assert status["description"].startswith("check failed (stale)")
    assert status["target_url"] == f"https://github.com/{REPO}/actions/runs/777"
    assert (result.outputs["changed"], result.outputs["moved"], result.outputs["verdict"]) == ("4", "5", "failed")
    assert TOKEN not in result.shown + result.stderr + result.summary + comment.body
    assert result.stdout.startswith(f"::add-mask::{TOKEN}\n")

    # The cost: the PR lookup, the files, the head's listing, its archive (one API request; the
    # download itself is GitHub's archive host's), the base manifest, the PR read again, the
    # comments, the two writes. No file is read by itself.
    assert fake.requests("GET", r"/git/blobs/") == [] and len(fake.requests("GET", r"/git/trees/")) == 1
    assert len(fake.requests("GET", r"/tarball/")) == 1 and len(fake.requests("GET", r"/contents/")) == 1
    n_files = len(fake.repos[REPO].pulls[42]["files"])
    cost = pages(1) + pages(n_files) + 1 + 1 + 1 + 1 + pages(1) + 2
    first_budget = cost + pages(1)  # + the comments listed again after creating one (a racing duplicate)
    api = [r for r in fake.requests() if not r.path.startswith("/_codeload/")]
    assert len(api) == first_budget, sorted(collections.Counter((r.method, r.path) for r in api).items())

    # The same verdict, report and comment as stage 1 computes from a checkout of the head.
    assert json.loads(second.host_path(result.outputs["report"]).read_text(encoding="utf-8")) == json.loads(
        fork_pr.host_path(first.outputs["report"]).read_text(encoding="utf-8")
    )
    assert "not checked against the code" not in comment.body + result.stdout
    stage2_body = comment.body
    fork_pr.head_repo = REPO  # as if the PR came from a branch of the repository
    same = fork_pr.run()
    assert "PR comment unchanged" in same.stdout or "PR comment updated" in same.stdout, same.stdout
    [own] = fake.comments(REPO, 42)
    assert own.id == comment.id and stage2_body == own.body

    # A rerun on the same commit: the comment stays, in place, and costs the budget.
    fake.reset_log()
    again = second.run()
    assert again.code == 0 and [c.id for c in fake.comments(REPO, 42)] == [comment.id]
    assert len([r for r in fake.requests() if not r.path.startswith("/_codeload/")]) <= cost

    # The author runs `docsnippets update` and pushes: the same comment is edited, the new
    # head commit gets a green status.
    fake.repos[REPO].pulls[42]["head_sha"] = FIXED_SHA
    publish_head(fake, FIXED_SHA, manifests["head"])
    fake.repos[REPO].pulls[42]["files"].append({"filename": MANIFEST, "status": "modified", "sha": "1" * 40})
    fixed = stage2(tmp_path, fake, manifests, workflow_run(FIXED_SHA), name="fixed")
    done = fixed.run()
    assert done.code == 0, done.stdout + done.stderr
    [edited] = fake.comments(REPO, 42)
    assert edited.id == comment.id and "is up to date" in edited.body and "Changed (4)" in edited.body
    assert fake.repos[REPO].statuses[FIXED_SHA][-1]["state"] == "success"
    assert len(fake.repos[REPO].statuses[HEAD_SHA]) == 2  # the two runs on the stale commit


def test_an_event_matching_no_open_pr_writes_nothing(tmp_path, fake, manifests, fork_pr):
    pr = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA, branch="elsewhere"), name="elsewhere")
    fake.reset_log()
    result = pr.run()
    assert result.code == 2
    assert "no open pull request" in result.stderr and result.stderr.count("\n") == 1
    assert writes(fake) == [] and fake.repos[REPO].statuses == {}
    assert result.outputs == {} and result.summary == ""
    assert [r.path for r in fake.requests()] == [f"/repos/{REPO}/pulls"]


def test_a_run_for_a_superseded_head_says_so_and_exits_0(tmp_path, fake, manifests, fork_pr):
    """The branch's PR has moved on to a newer push: that push's run gives the verdict."""
    pr = stage2(tmp_path, fake, manifests, workflow_run("d" * 40), name="old")
    fake.reset_log()
    result = pr.run()
    assert result.code == 0, result.stdout + result.stderr
    [line] = result.shown.splitlines()
    assert "moved on from dddddddddddd" in line and "nothing was written" in line
    assert writes(fake) == [] and fake.repos[REPO].statuses == {} and result.outputs == {}


def test_a_closed_pr_or_two_prs_of_one_commit_are_refused(tmp_path, fake, manifests, fork_pr):
    fake.repos[REPO].pulls[42]["state"] = "closed"
    closed = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA), name="closed").run()
    assert closed.code == 2 and "no open pull request" in closed.stderr
    fake.repos[REPO].pulls[42]["state"] = "open"
    fake.repos[REPO].add_pull(44, [], head_sha=HEAD_SHA, base_sha=BASE_SHA, head_label=f"{FORK}:{BRANCH}")
    twice = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA), name="twice").run()
    assert twice.code == 2 and "2 open pull requests" in twice.stderr
    assert writes(fake) == []


def test_a_forged_stage_1_report_is_reported_not_believed(tmp_path, fake, manifests, fork_pr):
    fake.fail("POST", r"/issues/42/comments$", 403, times=1, body=FORBIDDEN_INTEGRATION)
    first = fork_pr.run()
    second = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA))
    path = download_report(fork_pr, first, second)
    forged = json.loads(path.read_text(encoding="utf-8"))
    forged["fresh"] = True
    forged["verdict"].update(passed=True, cause=None, exit_code=0)
    forged["changes"]["changed"] = []
    path.write_text(json.dumps(forged), encoding="utf-8")
    result = second.run()
    assert result.code == 0  # the verdict computed here was delivered
    [comment] = fake.comments(REPO, 42)
    assert "disagrees" in comment.body and "stage 1: passed true, cause none, fresh true, changed 0" in comment.body
    assert "here: passed false, cause stale, fresh false, changed 4" in comment.body
    assert any(a.startswith("::warning") and "disagrees" in a for a in result.annotations)
    assert fake.repos[REPO].statuses[HEAD_SHA][-1]["state"] == "failure"


def test_a_pr_manifest_cannot_vouch_for_files_the_pr_did_not_change(tmp_path, fake, manifests, fork_pr):
    """The PR edits only the manifest, to claim the docs changed on base are recorded: the
    untouched files whose records it rewrote are read and judged, not believed."""
    repo = fake.repos[REPO]
    repo.add_pull(
        42,
        [{"filename": MANIFEST, "status": "modified", "sha": "1" * 40}],
        head_sha=FIXED_SHA,
        base_sha=BASE_SHA,
        head_label=f"{FORK}:{BRANCH}",
    )
    for path in BASE.rglob("*"):  # the PR's docs are the base's
        if path.is_file():
            repo.add_file(FIXED_SHA, path.relative_to(BASE).as_posix(), path.read_bytes())
    repo.add_file(FIXED_SHA, MANIFEST, manifests["head"])  # records of docs it does not have
    result = stage2(tmp_path, fake, manifests, workflow_run(FIXED_SHA)).run()
    assert result.code == 0, result.stdout
    assert repo.statuses[FIXED_SHA][-1]["state"] == "failure"
    assert result.outputs["fresh"] == "false"


def test_transient_faults_are_retried_as_in_stage_1(tmp_path, fake, manifests, fork_pr):
    fake.fail("GET", r"/pulls$", 502, times=1)
    fake.fail("GET", r"/contents/docs/en/developer_guide/trace\.md$", 503, times=1)
    fake.fail("POST", r"/statuses/", 502, times=1)
    result = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA)).run()
    assert result.code == 0, result.stdout + result.stderr
    assert len(fake.comments(REPO, 42)) == 1
    assert [s["state"] for s in fake.repos[REPO].statuses[HEAD_SHA]] == ["failure"]


def test_a_persistent_lookup_failure_writes_nothing(tmp_path, fake, manifests, fork_pr):
    limited = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": "1", "retry-after": "3600"}
    fake.fail("GET", r"/pulls$", 403, times=None, headers=limited, body={"message": "API rate limit exceeded"})
    result = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA)).run()
    assert result.code == 2 and "rate limit" in result.stderr and result.stderr.count("\n") == 1
    assert writes(fake) == [] and TOKEN not in result.shown + result.stderr


def test_a_refused_status_is_an_error_of_the_run(tmp_path, fake, manifests, fork_pr):
    """A fresh PR whose status cannot be set must not end green: branch protection waits on it."""
    repo = fake.repos[REPO]
    repo.pulls[42]["files"].append({"filename": MANIFEST, "status": "modified", "sha": "1" * 40})
    repo.add_file(HEAD_SHA, MANIFEST, manifests["head"])
    fake.fail("POST", r"/statuses/", 403, times=None, body=FORBIDDEN_INTEGRATION)
    result = stage2(tmp_path, fake, manifests, workflow_run(HEAD_SHA)).run()
    assert result.code == 2, result.stdout
    assert result.outputs["fresh"] == "true" and result.outputs["failed-on"] == "error"
    assert any(a.startswith("::warning") and "branch protection" in a for a in result.annotations)
    assert "is up to date" in fake.comments(REPO, 42)[0].body
