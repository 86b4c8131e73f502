"""Stage 2 against a hostile PR, end to end through ``entrypoint.py`` and the fake API: every
fact comes from the run's head commit, read exactly as listed, within a request budget."""

from __future__ import annotations

from tests.support.fake_github import changed
from tests.support.scenario import HEAD_SHA, MANIFEST
from tests.support.stage2_pr import page, small_pr

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
    pr = small_pr(tmp_path, fake, BASE, head, head_manifest=None)
    pr.repo.add_file(HEAD_SHA, MANIFEST, pr.base_manifest)  # the PR did not update its manifest
    pr.repo.pulls[42]["files"] = [f for f in pr.repo.pulls[42]["files"] if f["filename"] != MANIFEST]
    result = pr.scenario.run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["failure"]
    assert len(fake.comments("THUDM/slime", 42)) == 1
    assert result.stdout.rstrip().endswith("exit 0")
