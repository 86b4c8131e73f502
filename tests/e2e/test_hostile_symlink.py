"""A pull request's symlinks are not followed by the Action: stage 1 runs in the PR's checkout.

The workflow names a comment template, a manifest and a config by path; the PR decides what
sits there. A symlink to ``/proc/self/environ`` would otherwise post the runner's environment
(the token among it) in the PR comment.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from tests.support.scenario import MANIFEST, REPO, TOKEN
from tests.support.small_pr import SmallPR

ENVIRON = Path("/proc/self/environ")


@pytest.mark.parametrize(
    ("rel", "inputs"),
    [
        (".github/comment.md.j2", {"INPUT_COMMENT-TEMPLATE": ".github/comment.md.j2"}),
        (MANIFEST, {}),
        (".docsnippets.yml", {}),
    ],
    ids=["template", "manifest", "config"],
)
def test_stage_1_reads_nothing_through_a_symlink_in_the_pr(tmp_path, fake, rel, inputs):
    if not ENVIRON.exists():
        pytest.skip("no /proc/self/environ here")
    pr = SmallPR(tmp_path, fake, head={"docs/en/guide.md": "# Guide\n\nchanged\n"})
    scenario = pr.stage1()
    scenario.inputs.update(inputs)
    link = scenario.workspace / rel
    link.parent.mkdir(parents=True, exist_ok=True)
    link.unlink(missing_ok=True)
    link.symlink_to(ENVIRON)
    result = scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    errors = [line for line in result.stderr.splitlines() if line.startswith("docsnippets: error")]
    assert len(errors) == 1 and f"{rel}: a symlink inside the repository" in errors[0], result.stderr
    for comment in fake.comments(REPO, 42):
        assert TOKEN not in comment.body and "INPUT_" not in comment.body
    assert TOKEN not in result.summary and "INPUT_" not in result.summary
    assert os.readlink(link) == str(ENVIRON)
