"""Stage 2 is the whole gate: the trusted status of a fork PR runs the same judge as every other
run, code check included, reading the head commit in one archive (../shared/corpus: Slime's docs
and code; skipped without it)."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from tests.support.corpus import BASE, CODE, copy_tree, docs_with_code, need
from tests.support.fake_github import FakeGitHub
from tests.support.scenario import HEAD_SHA, MANIFEST, REPO, TOKEN
from tests.support.stage2_pr import fork_pr, report

from docsnippets.cli import main

COMMON = "slime/agent/adapters/common.py"
AGENT = ("docs/en/get_started/agent.md", "docs/zh/get_started/agent.md")
CAVEAT = "not checked against the code here"


def _update(root: Path) -> str:
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    return (root / MANIFEST).read_text(encoding="utf-8")


def _edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert old in text, old
    file.write_text(text.replace(old, new), encoding="utf-8")


@pytest.fixture
def base(tmp_path: Path) -> Path:
    root = docs_with_code(tmp_path / "base")
    _update(root)
    return root


def test_a_code_only_fork_pr_that_breaks_a_documented_call_fails_in_stage_2(tmp_path, fake, base):
    head = Path(shutil.copytree(base, tmp_path / "head"))
    _edit(head, COMMON, "        sampling_defaults: dict | None = None,\n", "        defaults: dict | None = None,\n")
    _edit(head, COMMON, "sampling_defaults=dict(sampling_defaults or {})", "sampling_defaults=dict(defaults or {})")
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "stale,references")
    assert [f["filename"] for f in fake.repos[REPO].pulls[42]["files"]] == [COMMON]
    first = stage1.run()
    fake.reset_log()
    result = stage2.run()
    assert result.code == 0, result.stdout + result.stderr  # delivered: the status is the gate
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] == "failure" and status["description"].startswith("check failed (references)")
    [comment] = fake.comments(REPO, 42)
    for page in AGENT:
        assert f"{page}:50" in comment.body or f"{page}#L50" in comment.body, page
    assert "open_session" in comment.body and "sampling_defaults" in comment.body
    assert CAVEAT not in comment.body
    found = {(b["file"], b["line"], b["name"]) for b in report(stage2, result)["broken_references"]}
    assert {(page, 50, "BaseAdapter.open_session") for page in AGENT} <= found
    # One judge: stage 2's report is stage 1's, code check included.
    assert report(stage2, result) == report(stage1, first)
    assert TOKEN not in result.shown + result.stderr + comment.body


def test_a_fork_pr_editing_agent_md_gets_the_real_finish_session_finding(tmp_path, fake, base):
    head = Path(shutil.copytree(base, tmp_path / "head"))
    for page in AGENT:
        _edit(
            head,
            page,
            "segments = await adapter.finish_session(session_id)",
            "segments = await adapter.finish_session(session_id)  # done",
        )
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "stale")
    first = stage1.run()
    result = stage2.run()
    assert result.code == 0, result.stdout + result.stderr
    [comment] = fake.comments(REPO, 42)
    assert "finish_session" in comment.body and "base_sample" in comment.body
    assert CAVEAT not in comment.body + result.stdout
    assert report(stage2, result) == report(stage1, first)
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] == "success"  # under fail-on stale a finding is shown, not enforced


def test_past_the_archive_bounds_the_comment_says_why_the_code_was_not_checked(tmp_path, fake, base):
    head = Path(shutil.copytree(base, tmp_path / "head"))
    for page in AGENT:
        _edit(
            head,
            page,
            "segments = await adapter.finish_session(session_id)",
            "segments = await adapter.finish_session(session_id)  # done",
        )
    _update(head)
    _, stage2 = fork_pr(tmp_path, fake, base, head, "stale")
    stage2.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1000"
    result = stage2.run()
    assert result.code == 0, result.stdout + result.stderr
    [comment] = fake.comments(REPO, 42)
    assert CAVEAT in comment.body and "larger than the archive bounds" in comment.body
    assert "base_sample" not in comment.body
    assert not fake.requests("GET", r"/tarball/")  # the listing said so: nothing was downloaded


@pytest.fixture
def wide_fake():
    """The fake API with GitHub's own page size, to count what a real PR costs."""
    with FakeGitHub(token=TOKEN, max_page_size=100) as server:
        yield server


def test_the_real_53_file_change_with_the_code_costs_at_most_12_requests(tmp_path, wide_fake):
    fake = wide_fake
    base = copy_tree(need(BASE), tmp_path / "base")
    shutil.copytree(need(CODE), base, dirs_exist_ok=True)
    _update(base)
    head = docs_with_code(tmp_path / "head")
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "stale,references")
    assert len(fake.repos[REPO].pulls[42]["files"]) == 53
    first = stage1.run()
    fake.reset_log()
    result = stage2.run()
    assert result.code == 0, result.stdout + result.stderr
    api = [(r.method, r.path) for r in fake.requests() if not r.path.startswith("/_codeload/")]
    assert len(api) <= 12, api
    assert not fake.requests("GET", r"/git/blobs/") and len(fake.requests("GET", r"/tarball/")) == 1
    assert report(stage2, result) == report(stage1, first)
    # The code check ran over the head's code: no page the change touches calls into code it changed.
    assert report(stage2, result)["broken_references"] == [] and CAVEAT not in result.stdout
