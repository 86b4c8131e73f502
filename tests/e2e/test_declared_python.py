"""A pull request that declares another Python: stage 1 stops with one line, stage 2 ignores it.

Stage 1 runs in the PR's checkout with the PR's config, so the PR chooses the grammar of its
own check; what it cannot do is supply the interpreter (one planted in the checkout and put on
PATH is never started). Stage 2 reads the default branch's config: the PR's has no say there.
"""

from __future__ import annotations

import os

from tests.support.small_pr import SmallPR

OTHER = "3.99"
CONFIG = {".docsnippets.yml": f'python: "{OTHER}"\n'}


def test_stage_1_with_the_prs_python_stops_with_one_line_and_starts_nothing_of_the_pr(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head=dict(CONFIG))
    scenario = pr.stage1()
    planted = scenario.workspace / "bin" / f"python{OTHER}"
    planted.parent.mkdir()
    planted.write_text(f"#!/bin/sh\ntouch {tmp_path}/started\nexit 1\n", encoding="utf-8")
    planted.chmod(0o755)
    scenario.inputs["PATH"] = f"{planted.parent}{os.pathsep}{os.environ.get('PATH', '')}"
    result = scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    assert not (tmp_path / "started").exists()
    errors = [line for line in result.stderr.splitlines() if line.startswith("docsnippets: error")]
    assert len(errors) == 1 and "Traceback" not in result.stderr, result.stderr
    assert f"Python {OTHER}'s grammar (the `python` setting)" in errors[0]
    assert "the Action runs Python" in errors[0] and "remove the setting" in errors[0]


def test_stage_2_judges_by_the_default_branchs_python_whatever_the_pr_declares(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head=dict(CONFIG))
    result = pr.stage2().run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["success"]
