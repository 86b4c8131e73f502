"""Old debts are not billed to the change (issue 27, finding 3): a base that already held a
diverged pair and a broken call, a change touching that page. Through ``diff BASE`` in a git
repository, stage 1 and stage 2 against the fake API, a push and a plain ``check``."""

from __future__ import annotations

import json
import os
import re
from pathlib import Path

import pytest
from tests.support.corpus import write
from tests.support.debts import (
    BASE,
    COPIED,
    REBROKEN,
    RENAMED_BOTH,
    RENAMED_ONE_SIDE,
    TOUCHED,
    WORSE_CALL,
    WORSE_DESYNC,
)
from tests.support.fake_github import FakeGitHub
from tests.support.gfm import assert_structure, visible_items
from tests.support.gitinit import commit_all, init_repo, run_git
from tests.support.scenario import BASE_SHA, MANIFEST, REPO, Scenario, manifest_of
from tests.support.stage2_pr import small_pr

from docsnippets.cli import main

GATE = "stale,desync,references"
EN, ZH = "docs/en/guide.md", "docs/zh/guide.md"


def _update(root: Path) -> None:
    with open(os.devnull, "w") as sink:
        assert main(["update", "--root", str(root), "--no-cache"], out=sink) == 0


def change(tmp: Path, head: dict[str, str | bytes]) -> Path:
    """A git repository: main holds BASE with its manifest, branch ``change`` holds ``head``
    (BASE's files it lacks removed) with its manifest updated, checked out."""
    root = init_repo(tmp / "repo", BASE)
    _update(root)
    commit_all(root, "manifest")
    run_git(root, "checkout", "-q", "-b", "change")
    for path in set(BASE) - set(head):
        (root / path).unlink()
    write(root, head)
    _update(root)
    return commit_all(root, "change")


def diff(capsys, root: Path, *extra: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["diff", "main", "--root", str(root), "--no-cache", "--fail-on", GATE, "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


def test_a_change_touching_a_page_with_old_debts_passes_and_shows_them_apart(tmp_path, capsys):
    root = change(tmp_path, TOUCHED)
    code, data = diff(capsys, root)
    assert code == 0, data["verdict"]
    assert data["desynchronized"] == [] and data["broken_references"] == []
    [pair] = data["debts"]["desynchronized"]
    assert pair["relation"] == "diverged" and {s["file"] for s in pair["sides"]} == {EN, ZH}
    assert sorted(b["file"] for b in data["debts"]["broken_references"]) == [EN, ZH]
    assert data["verdict"]["debts"] == {"desynchronized": 1, "broken_references": 2}
    capsys.readouterr()
    assert main(["diff", "main", "--root", str(root), "--no-cache", "--fail-on", GATE]) == 0
    text = capsys.readouterr().out
    assert "already out of sync before this change" in text and "already broken before this change" in text
    assert "not counted: 1 bilingual example out of sync, 2 broken references" in text
    assert "fix: give each out-of-sync pair" not in text and "fix: make each flagged call" not in text


def test_the_comment_shows_old_debts_collapsed_and_asks_nothing_for_them(tmp_path, capsys):
    root = change(tmp_path, TOUCHED)
    capsys.readouterr()
    assert main(["diff", "main", "--root", str(root), "--no-cache", "--fail-on", GATE, "--format", "markdown"]) == 0
    body = capsys.readouterr().out
    assert "<details><summary>Already out of sync before this PR (1)</summary>" in body
    assert "<details><summary>Already broken before this PR (2)</summary>" in body
    assert "this PR edited" not in body and "edited in this change" not in body
    assert "**To fix" not in body and "bring each counterpart in line" not in body
    assert "#### Desynchronized" not in body and "#### Broken references" not in body
    assert body.startswith("### ✅") and "already before this PR, not counted" in body.splitlines()[0]
    # As GitHub shows it: each debt list is inside its collapsed block; open is only what
    # the PR changed (the edited comment).
    root = assert_structure(body)
    assert [li.text().strip().split(" · ")[0] for li in visible_items(root)] == [
        "docs/en/guide.md:10-13 (was lines 6-9)"
    ]
    debts = [d for d in root.walk() if d.tag == "details" and d.elements()[0].text().startswith("Already")]
    assert [len([li for li in d.walk() if li.tag == "li"]) for d in debts] == [1, 2]


@pytest.mark.parametrize(
    ("head", "cause", "where"),
    [(WORSE_DESYNC, "desync", "desynchronized"), (WORSE_CALL, "references", "broken_references")],
    ids=["diverged-differently", "new-broken-call"],
)
def test_a_change_that_makes_a_debt_worse_fails(tmp_path, capsys, head, cause, where):
    root = change(tmp_path, head)
    code, data = diff(capsys, root)
    assert code == 1 and data["verdict"]["cause"] == cause, data["verdict"]
    assert data[where], data
    if cause == "references":  # the old finding stays a debt; the new call is the change's
        assert {b["reason"].split(" of ")[0] for b in data["broken_references"]} == {
            "unexpected keyword argument `retry`"
        }
        assert len(data["debts"]["broken_references"]) == 2 and len(data["debts"]["desynchronized"]) == 1


@pytest.mark.parametrize(
    ("head", "cause", "owned"),
    [(REBROKEN, "references", 2), (COPIED, "references", 2), (RENAMED_ONE_SIDE, "desync", 0)],
    ids=["fixed-and-broken-again-elsewhere", "broken-example-copied", "one-page-renamed"],
)
def test_a_change_cannot_pass_off_its_own_damage_as_an_old_debt(tmp_path, capsys, head, cause, owned):
    """The same finding written on another line, an old broken example copied as a new one,
    a page holding debts renamed on one side only: each is the change's."""
    code, data = diff(capsys, change(tmp_path, head))
    assert code == 1 and data["verdict"]["cause"] == cause, data["verdict"]
    assert len(data["broken_references"]) == owned, data["broken_references"]


def test_pages_renamed_together_keep_their_debts_old(tmp_path, capsys):
    code, data = diff(capsys, change(tmp_path, RENAMED_BOTH))
    assert code == 0, data["verdict"]
    assert len(data["debts"]["desynchronized"]) == 1 and len(data["debts"]["broken_references"]) == 2


def test_the_change_owns_a_divergence_it_altered_and_is_told_which_side_it_edited(tmp_path, capsys):
    root = change(tmp_path, WORSE_DESYNC)
    capsys.readouterr()
    assert main(["diff", "main", "--root", str(root), "--no-cache", "--fail-on", GATE, "--format", "markdown"]) == 1
    body = capsys.readouterr().out
    assert "this PR edited the English side" in body and f"to match `{EN}" in body
    assert "Already out of sync before this PR" not in body


def test_without_a_base_there_is_no_before_and_every_debt_counts(tmp_path, capsys):
    root = change(tmp_path, TOUCHED)
    capsys.readouterr()
    code = main(["check", "--root", str(root), "--no-cache", "--fail-on", GATE, "--format", "json"])
    data = json.loads(capsys.readouterr().out)
    assert code == 1 and data["verdict"]["cause"] == "desync"
    assert len(data["desynchronized"]) == 1 and len(data["broken_references"]) == 2
    assert data["verdict"]["debts"] == {"desynchronized": 0, "broken_references": 0}


def test_code_that_only_shifted_keeps_a_debt_a_debt(tmp_path, capsys):
    moved = {**TOUCHED, "pkg/api.py": '"""The API."""\n\n\n' + str(BASE["pkg/api.py"])}
    code, data = diff(capsys, change(tmp_path, moved))
    assert code == 0, data["verdict"]
    reasons = {b["reason"] for b in data["debts"]["broken_references"]}
    assert reasons == {"missing required keyword-only argument `retries` of `fetch` (pkg/api.py:4)"}


# --- the Action: stage 1 on the PR, stage 2 on workflow_run, a push -------------------------------


def _report(scenario: Scenario, result) -> dict:
    return json.loads(scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8"))


def _stage1(tmp: Path, fake: FakeGitHub, head: dict[str, str | bytes], manifest: str) -> Scenario:
    workspace = write(tmp / "stage1" / "workspace", {**head, MANIFEST: manifest})
    (tmp / "stage1" / "runner").mkdir(parents=True)
    return Scenario(workspace, tmp / "stage1" / "runner", fake, inputs={"INPUT_FAIL-ON": GATE})


def test_stage_1_and_stage_2_pass_a_pr_that_only_touches_old_debts(tmp_path, fake):
    pr = small_pr(tmp_path, fake, BASE, TOUCHED)
    first = _stage1(tmp_path, fake, TOUCHED, pr.head_manifest).run()
    assert first.code == 0, first.stdout + first.stderr
    [comment] = pr.scenario.comments()
    assert "Already out of sync before this PR (1)" in comment and "Already broken before this PR (2)" in comment
    assert "this PR edited" not in comment and "**To fix" not in comment
    pr.scenario.inputs["INPUT_FAIL-ON"] = GATE
    fake.reset_log()
    second = pr.scenario.run()
    assert second.code == 0, second.stdout + second.stderr
    [status] = pr.statuses()
    assert status["state"] == "success", status
    data = _report(pr.scenario, second)
    assert data["debts"]["desynchronized"] and len(data["debts"]["broken_references"]) == 2
    assert data["verdict"]["passed"] is True
    # The base's code cost two requests: its listing and its archive, once each.
    assert len(fake.requests("GET", rf"/tarball/{BASE_SHA}")) == 1
    assert len(fake.requests("GET", rf"/git/trees/{BASE_SHA}")) == 1
    assert "stage 1's report disagrees" not in second.stdout


@pytest.mark.parametrize(("head", "cause"), [(WORSE_DESYNC, "desync"), (WORSE_CALL, "references")])
def test_stage_1_and_stage_2_fail_a_pr_that_makes_a_debt_worse(tmp_path, fake, head, cause):
    pr = small_pr(tmp_path, fake, BASE, head)
    first = _stage1(tmp_path, fake, head, pr.head_manifest).run()
    assert first.code == 1 and first.outputs["failed-on"] == cause, first.stdout + first.stderr
    pr.scenario.inputs["INPUT_FAIL-ON"] = GATE
    second = pr.scenario.run()
    assert second.code == 0, second.stdout + second.stderr  # delivered: the status is the gate
    status = pr.statuses()[-1]
    assert status["state"] == "failure" and status["description"].startswith(f"check failed ({cause})")


def test_a_push_of_the_same_tree_counts_every_debt(tmp_path, fake):
    workspace = write(
        tmp_path / "push" / "workspace", {**TOUCHED, MANIFEST: manifest_of(write(tmp_path / "t", TOUCHED), tmp_path)}
    )
    (tmp_path / "push" / "runner").mkdir(parents=True)
    fake.add_repo(REPO)
    push = Scenario(workspace, tmp_path / "push" / "runner", fake, event_name="push", inputs={"INPUT_FAIL-ON": GATE})
    result = push.run()
    assert result.code == 1 and result.outputs["failed-on"] == "desync", result.stdout + result.stderr
    assert re.search(r"1 bilingual example out of sync; 2 broken references", result.stdout)


def test_a_base_too_large_to_read_leaves_every_finding_the_prs_and_says_so(tmp_path, fake):
    pr = small_pr(tmp_path, fake, BASE, TOUCHED)
    stage1 = _stage1(tmp_path, fake, TOUCHED, pr.head_manifest)
    stage1.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1000"
    result = stage1.run()
    assert result.code == 1 and result.outputs["failed-on"] == "references", result.stdout + result.stderr
    assert "larger than the archive bounds, so its code was not read" in result.stdout
    assert not fake.requests("GET", r"/tarball/")
    data = _report(stage1, result)
    assert len(data["broken_references"]) == 2 and data["debts"]["broken_references"] == []
    assert len(data["debts"]["desynchronized"]) == 1  # the base manifest alone tells that one


# --- what the base cannot tell is never taken for an old debt --------------------------------------


def _without_base_manifest(pr, how: str) -> None:
    if how == "absent":
        del pr.repo.contents[(BASE_SHA, MANIFEST)]
    elif how == "unparsable":
        pr.repo.add_file(BASE_SHA, MANIFEST, "{not json")
    else:
        pr.fake.fail("GET", rf"/contents/{MANIFEST}", 502, times=None)


@pytest.mark.parametrize("how", ["absent", "unparsable", "refused"])
@pytest.mark.parametrize("stage", ["stage 1", "stage 2 archive", "stage 2 file by file"])
def test_without_a_usable_base_manifest_every_debt_is_the_prs(tmp_path, fake, how, stage):
    pr = small_pr(tmp_path, fake, BASE, TOUCHED)
    _without_base_manifest(pr, how)
    if stage == "stage 1":
        run = _stage1(tmp_path, fake, TOUCHED, pr.head_manifest)
        result = run.run()
        assert result.code == 1 and result.outputs["failed-on"] == "desync", result.stdout + result.stderr
        data = _report(run, result)
    else:
        pr.scenario.inputs["INPUT_FAIL-ON"] = GATE
        if stage.endswith("file by file"):
            pr.scenario.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1"
        result = pr.scenario.run()
        assert pr.statuses()[-1]["state"] == "failure", result.stdout + result.stderr
        data = _report(pr.scenario, result)
    assert data["debts"] == {"desynchronized": [], "broken_references": []}
    assert len(data["desynchronized"]) == 1


def test_a_base_whose_code_github_refuses_leaves_every_finding_the_prs_and_says_so(tmp_path, fake):
    pr = small_pr(tmp_path, fake, BASE, TOUCHED)
    fake.fail("GET", rf"/tarball/{BASE_SHA}", 502, times=None)
    pr.scenario.inputs["INPUT_FAIL-ON"] = GATE
    result = pr.scenario.run()
    assert pr.statuses()[-1]["state"] == "failure", result.stdout + result.stderr
    assert "the base commit's code could not be read" in result.stdout
    data = _report(pr.scenario, result)
    assert len(data["broken_references"]) == 2 and data["debts"]["broken_references"] == []
