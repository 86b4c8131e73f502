"""One verdict everywhere: exit code, comment headline, job summary, log line, outputs, annotations
and the JSON report agree, end to end through the entrypoint and the fake GitHub API."""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from tests.support.corpus import write
from tests.support.fake_github import FakeGitHub, changed
from tests.support.scenario import BASE_SHA, MANIFEST, REPO, TOKEN, Result, Scenario

from docsnippets.cli import main
from docsnippets.report.codediff import code_diff, code_lines

EN = "# Guide\n\n```python\nasync def hook(args):\n    # call the service\n    return await call(args)\n```\n"
ZH = "# 指南\n\n```python\nasync def hook(args):\n    # 调用服务\n    return await call(args)\n```\n"
# The translator changed the comment AND an argument: the argument must still show.
ZH_DIVERGED = ZH.replace("# 调用服务", "# 调用服务，最多重试三次").replace("call(args)", "call(args, retries=3)")


@pytest.fixture
def fake():
    with FakeGitHub(token=TOKEN) as server:
        yield server


def _update(root: Path) -> str:
    with open(os.devnull, "w") as sink:
        assert main(["update", "--root", str(root)], out=sink) == 0
    return (root / MANIFEST).read_text(encoding="utf-8")


def pr(tmp_path: Path, fake: FakeGitHub, *, zh: str, update_after: bool, fail_on: str) -> Scenario:
    """PR #42: the base had EN/ZH in sync; the head changes the Chinese page to ``zh``."""
    workspace = write(tmp_path / "workspace", {"docs/en/g.md": EN, "docs/zh/g.md": ZH})
    base_manifest = _update(workspace)
    (workspace / "docs/zh/g.md").write_text(zh, encoding="utf-8")
    if update_after:
        _update(workspace)
    runner = tmp_path / "runner"
    runner.mkdir()
    repo = fake.add_repo(REPO)
    repo.add_pull(42, [changed("docs/zh/g.md")] if zh != ZH else [changed("README.md")])
    repo.add_file(BASE_SHA, MANIFEST, base_manifest)
    scenario = Scenario(workspace, runner, fake)
    scenario.inputs.update({"INPUT_FAIL-ON": fail_on, "INPUT_COMMENT": "always"})
    return scenario


def headline(text: str) -> str:
    return next(line for line in text.splitlines() if line.startswith("### "))


def assert_agree(scenario: Scenario, result: Result, *, passed: bool, cause: str | None) -> str:
    """Every output says the same; returns the comment for case-specific checks."""
    assert result.code == (0 if passed else 1), result.stdout + result.stderr
    comments = scenario.comments()
    assert len(comments) == 1
    title = headline(comments[0])
    assert title == headline(result.summary)
    assert title.startswith("### ✅" if passed else "### ❌"), title
    log = [line for line in result.stdout.splitlines() if line.startswith("docsnippets: check ")]
    assert len(log) == 1 and log[0].endswith(f"; exit {result.code}")
    assert log[0].startswith("docsnippets: check passed" if passed else f"docsnippets: check failed ({cause})")
    assert result.outputs["verdict"] == ("passed" if passed else "failed")
    assert result.outputs["failed-on"] == (cause or "")
    errors = [a for a in result.annotations if a.startswith("::error")]
    assert bool(errors) == (not passed), result.annotations
    report = json.loads(scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    assert report["verdict"]["passed"] is passed and report["verdict"]["cause"] == cause
    assert report["verdict"]["exit_code"] == result.code
    return comments[0]


def test_fresh_and_passed(tmp_path, fake):
    scenario = pr(tmp_path, fake, zh=ZH, update_after=False, fail_on="desync")
    result = scenario.run()
    body = assert_agree(scenario, result, passed=True, cause=None)
    assert "is up to date" in headline(body) and "out of sync" not in body
    assert "To fix" not in body and result.outputs["fresh"] == "true"


def test_stale(tmp_path, fake):
    scenario = pr(tmp_path, fake, zh=ZH_DIVERGED, update_after=False, fail_on="stale")
    result = scenario.run()
    body = assert_agree(scenario, result, passed=False, cause="stale")
    assert "is stale" in headline(body) and "**To fix:** run this" in body
    assert "manifest stale" in result.stdout


def test_desync_fails_under_fail_on_desync(tmp_path, fake):
    scenario = pr(tmp_path, fake, zh=ZH_DIVERGED, update_after=True, fail_on="desync")
    result = scenario.run()
    body = assert_agree(scenario, result, passed=False, cause="desync")
    title = headline(body)
    assert "1 bilingual example out of sync" in title and "is up to date" not in title
    assert result.outputs["fresh"] == "true" and result.outputs["desynchronized"] == "1"
    # The fix names the side to edit: the English page, to match the Chinese edit of this PR.
    assert "**To fix:** bring each counterpart in line" in body
    assert "edit [`docs/en/g.md:4-6`]" in body and "to match [`docs/zh/g.md:4-6`]" in body
    assert "docsnippets update" not in body  # the manifest is fresh: updating it fixes nothing
    # The diff shows the argument, not the translated comment.
    assert "-    return await call(args)" in body and "+    return await call(args, retries=3)" in body
    assert "重试三次" not in body.split("English vs Chinese code")[1].split("</details>")[0]
    assert any("translation" in a for a in result.annotations if a.startswith("::error"))


def test_desync_reported_but_green_under_fail_on_stale(tmp_path, fake):
    scenario = pr(tmp_path, fake, zh=ZH_DIVERGED, update_after=True, fail_on="stale")
    result = scenario.run()
    body = assert_agree(scenario, result, passed=True, cause=None)
    title = headline(body)
    assert "is up to date" in title and "1 bilingual example out of sync, not enforced (fail-on stale)" in title
    assert "To bring the translations in line** (not enforced: fail-on stale)" in body
    assert any(a.startswith("::warning") and "translation" in a for a in result.annotations)
    assert "1 bilingual example out of sync, not enforced" in result.stdout


def test_stale_not_enforced_is_not_a_green_tick(tmp_path, fake):
    scenario = pr(tmp_path, fake, zh=ZH_DIVERGED, update_after=False, fail_on="never")
    result = scenario.run()
    assert result.code == 0 and result.outputs["verdict"] == "passed"
    title = headline(scenario.comments()[0])
    assert title.startswith("### ⚠️") and "is stale" in title and "not enforced" in title
    assert not any(a.startswith("::error") for a in result.annotations)


def test_code_lines_drop_comments_and_docstrings_only():
    body = 'async def f(x):\n    """Doc.\n\n    More."""\n    s = "# not a comment"  # a comment\n    return s\n'
    assert code_lines(body) == ["async def f(x):", '    s = "# not a comment"', "    return s"]
    assert code_diff(EN.split("```python\n")[1], ZH.split("```python\n")[1], "en", "zh") == ""


def test_error_is_one_verdict_too(tmp_path, fake):
    # The file list cannot be read: the run cannot decide what the PR touched -> error (2).
    scenario = pr(tmp_path, fake, zh=ZH, update_after=False, fail_on="stale")
    fake.fail("GET", r"/pulls/42/files", 502, times=None)
    result = scenario.run()
    assert result.code == 2, result.stdout + result.stderr
    title = headline(scenario.comments()[0])
    assert title == headline(result.summary) and title.startswith("### ❌ docsnippets: could not decide")
    assert result.outputs["verdict"] == "failed" and result.outputs["failed-on"] == "error"
    assert [line for line in result.stdout.splitlines() if line.startswith("docsnippets: check failed (error)")]
    assert any(a.startswith("::error") and "could not decide" in a for a in result.annotations)
    report = json.loads(scenario.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    assert report["verdict"]["cause"] == "error" and report["verdict"]["exit_code"] == 2


# --- fail-on as a list: broken references ------------------------------------------------------

EN_IMPORT = "# Guide\n\n```python\nfrom pkg.mod import run\n\nasync def hook(args):\n    return await run(args)\n```\n"
ZH_IMPORT = "# 指南\n\n```python\nfrom pkg.mod import run\n\nasync def hook(args):\n    return await run(args)\n```\n"
MOD = "async def run(args):\n    return args\n"


def code_pr(tmp_path: Path, fake: FakeGitHub, *, fail_on: str, stale: bool = False, desync: bool = False) -> Scenario:
    """PR #42 renames ``pkg.mod.run``, which both pages import; optionally it also leaves the
    manifest stale (an edited page) or a pair out of sync (the edit recorded)."""
    files = {"docs/en/g.md": EN_IMPORT, "docs/zh/g.md": ZH_IMPORT, "pkg/__init__.py": "", "pkg/mod.py": MOD}
    workspace = write(tmp_path / "workspace", files)
    base_manifest = _update(workspace)
    (workspace / "pkg/mod.py").write_text(MOD.replace("def run(", "def start("), encoding="utf-8")
    listed = [changed("pkg/mod.py")]
    if stale or desync:
        (workspace / "docs/zh/g.md").write_text(ZH_IMPORT.replace("run(args)", "run(args, 3)"), encoding="utf-8")
        listed.append(changed("docs/zh/g.md"))
        if desync:
            _update(workspace)
    runner = tmp_path / "runner"
    runner.mkdir()
    repo = fake.add_repo(REPO)
    repo.add_pull(42, listed)
    repo.add_file(BASE_SHA, MANIFEST, base_manifest)
    return Scenario(workspace, runner, fake, inputs={"INPUT_FAIL-ON": fail_on, "INPUT_COMMENT": "always"})


@pytest.mark.parametrize(
    ("fail_on", "shown"),
    [
        ("stale,references", "stale,references"),
        ("references", "references"),
        (" References, stale", "stale,references"),
    ],
)
def test_broken_references_fail_when_counted(tmp_path, fake, fail_on, shown):
    scenario = code_pr(tmp_path, fake, fail_on=fail_on)
    result = scenario.run()
    body = assert_agree(scenario, result, passed=False, cause="references")
    title = headline(body)
    assert f"2 broken references to the code (fail-on {shown})" in title and "itself is fresh" in title
    assert "#### Broken references (2)" in body and "**To fix:** make each broken import" in body
    errors = [a for a in result.annotations if a.startswith("::error")]
    assert {a.split(",endLine")[0] for a in errors} == {
        "::error file=docs/en/g.md,line=4",
        "::error file=docs/zh/g.md,line=4",
    }
    assert "check failed (references): manifest fresh; 2 broken references to the code" in result.stdout


def test_broken_references_are_warnings_under_fail_on_stale(tmp_path, fake):
    scenario = code_pr(tmp_path, fake, fail_on="stale")
    result = scenario.run()
    body = assert_agree(scenario, result, passed=True, cause=None)
    assert "2 broken references to the code, not enforced (fail-on stale)" in headline(body)
    assert "#### Broken references (2)" in body and "(not enforced: fail-on stale)" in body
    assert sum(a.startswith("::warning file=docs/") for a in result.annotations) == 2


def test_stale_and_desync_outrank_references(tmp_path, fake):
    scenario = code_pr(tmp_path, fake, fail_on="stale,references", stale=True)
    assert_agree(scenario, scenario.run(), passed=False, cause="stale")


def test_desync_outranks_references(tmp_path, fake):
    scenario = code_pr(tmp_path, fake, fail_on="desync,references", desync=True)
    result = scenario.run()
    body = assert_agree(scenario, result, passed=False, cause="desync")
    assert "#### Broken references (2)" in body and "**Then**" not in body.split("Broken references")[0]


def test_references_config_off_leaves_nothing_to_fail_on(tmp_path, fake):
    scenario = code_pr(tmp_path, fake, fail_on="stale,references")
    (scenario.workspace / ".docsnippets.yml").write_text("references: false\n", encoding="utf-8")
    scenario.inputs["INPUT_CONFIG"] = ".docsnippets.yml"
    result = scenario.run()
    body = assert_agree(scenario, result, passed=True, cause=None)
    assert "Broken references" not in body


def test_never_combined_with_others_is_a_usage_error(tmp_path, fake):
    scenario = code_pr(tmp_path, fake, fail_on="never,references")
    result = scenario.run()
    assert result.code == 2 and "combines never with other values" in result.stdout + result.stderr
