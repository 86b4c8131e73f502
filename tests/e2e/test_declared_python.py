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


def test_stage_2_whose_declared_python_fails_ends_with_an_error_status(tmp_path, fake):
    """The default branch declares a Python whose child dies on its first body: the run cannot
    judge the PR, and says so where branch protection looks (the status) and in the comment."""
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": "```python\nawait step(2)\n```\n"})
    scenario = pr.stage2()
    (scenario.workspace / ".docsnippets.yml").write_text(f'python: "{OTHER}"\n', encoding="utf-8")
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    child = bin_dir / f"python{OTHER}"
    major, minor = OTHER.split(".")
    child.write_text(f'#!/bin/sh\necho "[{major}, {minor}, \\"{OTHER}.0 (fake)\\"]"\nread line\nexit 3\n', "utf-8")
    child.chmod(0o755)
    scenario.inputs["PATH"] = f"{bin_dir}{os.pathsep}{os.environ.get('PATH', '')}"
    result = scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    (status,) = pr.statuses()
    assert status["state"] == "error" and f"Python {OTHER}" in status["description"], status
    assert "stopped \\(exit 3\\)" in scenario.comments()[0]  # the comment's Markdown escapes
