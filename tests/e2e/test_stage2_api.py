"""Stage 2 against a hostile PR, end to end through ``entrypoint.py`` and the fake API: every
fact comes from the run's head commit, read exactly as listed, within a request budget."""

from __future__ import annotations

import hashlib

import pytest
from tests.support.fake_github import changed
from tests.support.scenario import HEAD_SHA, MANIFEST, REPO
from tests.support.stage2_pr import page, small_pr

from docsnippets.github.comments import COMMENT_MARKER
from docsnippets.github.transport import DELIVERY_REQUESTS

BASE = {"docs/en/a.md": page(1), "docs/zh/a.md": page(1, zh=True)}


def test_a_copied_file_keeps_its_source(tmp_path, fake):
    head = {**BASE, "docs/en/b.md": page(1), "docs/zh/b.md": page(1, zh=True)}
    files = [
        changed("docs/en/b.md", "copied", previous="docs/en/a.md"),
        changed("docs/zh/b.md", "copied", previous="docs/zh/a.md"),
        changed(MANIFEST),
    ]
    pr = small_pr(tmp_path, fake, BASE, head, files)
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["success"]
    assert result.outputs["fresh"] == "true"


def test_a_failure_status_delivered_is_exit_0(tmp_path, fake):
    """Stage 2 on a stale PR: the failure status is the gate, the run itself is green."""
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head, recorded=BASE)  # the PR did not update its manifest
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["failure"]
    assert len(fake.comments(REPO, 42)) == 1
    assert result.stdout.rstrip().endswith("exit 0")


def blob_reads(fake) -> list:
    return fake.requests("GET", r"/git/blobs/")


def writes(fake) -> list:
    return [r for r in fake.requests() if r.method in ("POST", "PATCH", "DELETE")]


# -- 1. paths read exactly as listed -------------------------------------------------------------


def test_a_file_name_with_a_leading_space_is_read_as_named(tmp_path, fake):
    """`" docs/new.md"` holds an unrecorded snippet: it is that file, not a missing `docs/new.md`."""
    head = {**BASE, " docs/new.md": page(7)}
    pr = small_pr(tmp_path, fake, BASE, head, recorded=BASE)
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["failure"]
    assert result.outputs["fresh"] == "false" and result.outputs["added"] == "1"
    assert not fake.requests("GET", r"/contents/ ?docs/new\.md")


def test_a_listed_file_missing_at_the_head_is_an_error_not_a_deletion(tmp_path, fake):
    head = {**BASE, "docs/en/b.md": page(3)}
    pr = small_pr(tmp_path, fake, BASE, head)
    del pr.repo.contents[(HEAD_SHA, "docs/en/b.md")]  # listed as added, not in the head's tree
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and "docs/en/b.md" in status["description"]
    [comment] = fake.comments(REPO, 42)
    assert "`docs/en/b.md`: listed as changed by the PR but not in its head" in comment.body


# -- 2. one head, from lookup to status ----------------------------------------------------------


def test_a_push_while_the_pr_is_read_leaves_no_verdict(tmp_path, fake):
    """The head moves on after the files were listed: nothing is written for either commit."""
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head)

    def push(method: str, path: str) -> None:
        if "/tarball/" in path:
            pr.repo.pulls[42]["head_sha"] = "e" * 40

    fake.on_request = push
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    [line] = result.shown.splitlines()
    assert f"has moved on from {HEAD_SHA[:12]} to eeeeeeeeeeee" in line and "nothing was written" in line
    assert writes(fake) == [] and pr.repo.statuses == {} and result.outputs == {}


# -- 4. the sticky comment is the bot's own ------------------------------------------------------


def test_a_marker_comment_by_someone_else_is_never_adopted(tmp_path, fake):
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head, recorded=BASE)
    forged = f"### ✅ docsnippets: all good\n\n{COMMENT_MARKER}\n"
    theirs = fake.add_comment(REPO, 42, forged, user="mallory")
    first = pr.scenario.run()
    assert first.code == 0, first.stdout + first.stderr
    comments = fake.comments(REPO, 42)
    assert [(c.id, c.user, c.body) for c in comments if c.user == "mallory"] == [(theirs, "mallory", forged)]
    [ours] = [c for c in comments if c.user == "github-actions[bot]"]
    assert "is stale" in ours.body
    # Again with the bot's comment present: its own is updated, the other left alone.
    fake.add_comment(REPO, 42, forged, user="mallory")
    again = pr.scenario.run()
    assert again.code == 0
    after = fake.comments(REPO, 42)
    assert len(after) == 3 and [c.id for c in after if c.user == "github-actions[bot]"] == [ours.id]
    assert all(c.body == forged for c in after if c.user == "mallory")
    assert not fake.requests("DELETE")


# -- 5. a budget for the API ---------------------------------------------------------------------


@pytest.mark.parametrize("archive", [True, False], ids=["archive", "file-by-file"])
def test_a_manifest_listing_2000_untouched_files_costs_no_request_for_them(tmp_path, fake, archive):
    """The PR changes only its manifest, recording 2,000 files its head does not hold."""
    ghosts = {f"docs/en/ghost{i}.md": page(i) for i in range(2000)}
    pr = small_pr(tmp_path, fake, BASE, BASE, [changed(MANIFEST)], recorded={**BASE, **ghosts})
    if not archive:
        pr.scenario.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1"
    fake.reset_log()
    result = pr.scenario.run()
    api = [r for r in fake.requests() if not r.path.startswith("/_codeload/")]
    assert len(api) <= 12, [(r.method, r.path) for r in api]
    assert len(blob_reads(fake)) == (0 if archive else 1)  # the manifest, when it is not in the archive
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["failure"]  # records of files that are not there


def test_past_the_request_budget_the_pr_is_too_large_for_stage_2(tmp_path, fake):
    """Untouched files the PR's manifest re-records must be read; 60 of them exceed a budget of 40."""
    many = {f"docs/en/p{i}.md": page(i) for i in range(60)}
    lies = {f"docs/en/p{i}.md": page(i + 1000) for i in range(60)}
    pr = small_pr(tmp_path, fake, {**BASE, **many}, {**BASE, **many}, [changed(MANIFEST)], recorded={**BASE, **lies})
    pr.scenario.inputs["DOCSNIPPETS_REQUEST_BUDGET"] = "40"
    pr.scenario.inputs["DOCSNIPPETS_ARCHIVE_MAX_BYTES"] = "1"  # past the archive's bounds: file by file
    fake.reset_log()
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and status["description"].startswith("PR too large for stage 2")
    [comment] = fake.comments(REPO, 42)
    assert "PR too large for stage 2" in comment.body and "40 API requests" in comment.body
    assert len(fake.requests()) <= 40 + DELIVERY_REQUESTS
    assert len(blob_reads(fake)) < 40


def test_a_truncated_head_tree_is_an_error(tmp_path, fake):
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head)
    pr.repo.truncated.add(HEAD_SHA)
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and "part of the tree" in status["description"]
    assert blob_reads(fake) == []


# -- 7. bounded memory ---------------------------------------------------------------------------


def test_a_file_over_max_file_bytes_is_skipped_unread_with_a_warning(tmp_path, fake):
    config = {".docsnippets.yml": "max_file_bytes: 4096\n"}
    big = page(5) + ("filler line\n" * 1000)
    base = {**BASE, **config}
    head = {**base, "docs/en/big.md": big}
    pr = small_pr(tmp_path, fake, base, head)
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    big_sha = hashlib.sha1(b"blob %d\0" % len(big) + big.encode()).hexdigest()
    assert not fake.requests("GET", rf"/git/blobs/{big_sha}$") and not fake.requests("GET", r"/contents/docs")
    # The warning a local run gives for the same file.
    assert "docs/en/big.md: larger than max_file_bytes (4096 bytes); skipped" in result.summary
    assert [s["state"] for s in pr.statuses()] == ["success"]  # as `check` on the head: skipped


# -- 8. say why ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("add", "reason"),
    [
        (lambda repo: repo.add_symlink(HEAD_SHA, "docs/en/link.md", "../../README.md"), "a symbolic link"),
        (lambda repo: repo.add_submodule(HEAD_SHA, "docs/en/link.md"), "a submodule"),
    ],
    ids=["symlink", "submodule"],
)
def test_a_symlinked_or_submodule_markdown_file_is_named_with_the_reason(tmp_path, fake, add, reason):
    files = [changed("docs/en/link.md", "added")]
    pr = small_pr(tmp_path, fake, BASE, BASE, files)
    add(pr.repo)
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and "docs/en/link.md" in status["description"]
    [comment] = fake.comments(REPO, 42)
    assert f"`docs/en/link.md`: {reason}" in comment.body
    assert any(a.startswith("::warning") and "docs/en/link.md" in a and reason in a for a in result.annotations)


def test_an_unreadable_head_manifest_gets_an_error_status_that_says_why(tmp_path, fake):
    pr = small_pr(tmp_path, fake, BASE, BASE, [changed(MANIFEST)])
    pr.repo.add_file(HEAD_SHA, MANIFEST, "{ not json")
    result = pr.scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "error" and status["description"].startswith(MANIFEST)
    [comment] = fake.comments(REPO, 42)
    assert "could not decide" in comment.body and MANIFEST in comment.body


def test_a_flood_of_comments_cannot_keep_the_status_from_being_set(tmp_path, fake):
    """Anyone can comment on a PR: the sticky comment is looked for on a few pages only, so
    the status is the verdict however many there are (tests/e2e/test_comment_flood.py)."""
    head = {**BASE, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, BASE, head)
    for i in range(120):  # 40 pages of 3: more than the delivery allowance
        fake.add_comment(REPO, 42, f"spam {i}", user="mallory")
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] in ("success", "failure") and "budget" not in status["description"]
    assert [c.user for c in fake.comments(REPO, 42)].count("mallory") == 120


def test_a_file_list_from_another_head_cannot_hide_a_stale_file(tmp_path, fake):
    """The branch is force-pushed to B (only README changed) while its files are listed, and back
    to A before the trees are read: A's stale page must still be judged, so A gets no success."""
    base = {**BASE, "README.md": "hi\n"}
    head = {**base, "docs/en/a.md": page(2), "docs/zh/a.md": page(2, zh=True)}
    pr = small_pr(tmp_path, fake, base, head, recorded=base)  # the manifest was not updated
    files_of_a = list(pr.repo.pulls[42]["files"])

    def force_push(method: str, path: str) -> None:
        if path.endswith("/pulls/42/files"):
            pr.repo.pulls[42].update(head_sha="e" * 40, files=[changed("README.md")])
        elif "/git/trees/" in path:
            pr.repo.pulls[42].update(head_sha=HEAD_SHA, files=files_of_a)

    fake.on_request = force_push
    result = pr.scenario.run()
    assert [s["state"] for s in pr.statuses()] == ["failure"], result.stdout
