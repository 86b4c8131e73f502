"""The Action end to end: the entrypoint run as the runner runs it, against a fake GitHub API
on 127.0.0.1 that PyGithub reaches over real HTTP."""

from __future__ import annotations

import math

import pytest
from tests.support.corpus import BASE, HEAD
from tests.support.fake_github import FORBIDDEN_INTEGRATION, FakeGitHub
from tests.support.scenario import (
    MANIFEST,
    PAGE,
    REPO,
    TOKEN,
    Scenario,
    check_fixed_outcome,
    check_stale_outcome,
    slime_scenario,
    subprocess_runner,
)

from docsnippets.github.annotate import annotations
from docsnippets.github.client import COMMENT_MARKER
from docsnippets.github.settings import Settings
from docsnippets.judge.verdict import decide


@pytest.fixture
def stale_pr(tmp_path, fake, manifests) -> Scenario:
    """The author changed the docs but committed the old manifest."""
    return slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["base"], base_manifest=manifests["base"])


def pages(n: int) -> int:
    return max(1, math.ceil(n / PAGE))


def test_stale_pr_rerun_and_fix(stale_pr: Scenario, fake: FakeGitHub):
    first = stale_pr.run()
    check_stale_outcome(stale_pr, first)

    # Re-run on the same head: the same single comment, and few requests.
    comment_id = fake.comments(REPO, 42)[0].id
    fake.reset_log()
    again = stale_pr.run()
    assert again.code == 1
    assert [c.id for c in fake.comments(REPO, 42)] == [comment_id]
    n_files = len(fake.repos[REPO].pulls[42]["files"])
    budget = pages(n_files) + pages(1) + 2
    assert len(fake.requests()) <= budget, [(r.method, r.path) for r in fake.requests()]

    # The author runs `docsnippets update` and pushes: green, and the comment says so.
    from docsnippets.cli import main

    assert main(["update", "--root", str(stale_pr.workspace)]) == 0
    fixed = stale_pr.run()
    check_fixed_outcome(stale_pr, fixed)
    assert [c.id for c in fake.comments(REPO, 42)] == [comment_id]


def test_fork_pr_read_only_token(stale_pr: Scenario, fake: FakeGitHub):
    stale_pr.head_repo = "someone/slime"
    fake.fail("POST", r"/issues/42/comments$", 403, times=None, body=FORBIDDEN_INTEGRATION)
    result = stale_pr.run()
    assert result.code == 1  # the gate's answer, not an error
    assert stale_pr.comments() == []
    assert any(a.startswith("::warning") and "fork" in a.lower() for a in result.annotations)
    assert "is stale" in result.summary
    assert result.outputs["fresh"] == "false"


def test_duplicate_comments_are_cleaned_up(stale_pr: Scenario, fake: FakeGitHub):
    fake.add_comment(REPO, 42, "unrelated review comment")
    fake.add_comment(REPO, 42, f"{COMMENT_MARKER}\nold one")
    fake.add_comment(REPO, 42, f"{COMMENT_MARKER}\nraced one")
    result = stale_pr.run()
    assert result.code == 1
    bodies = stale_pr.comments()
    assert len(bodies) == 2 and bodies[0] == "unrelated review comment"
    assert COMMENT_MARKER in bodies[1] and "is stale" in bodies[1]


def test_ghes_base_url(tmp_path, manifests):
    with FakeGitHub(token=TOKEN, max_page_size=PAGE, prefix="/api/v3") as ghes:
        pr = slime_scenario(
            tmp_path, ghes, BASE, HEAD, head_manifest=manifests["base"], base_manifest=manifests["base"]
        )
        result = pr.run()
        assert result.code == 1, result.stdout + result.stderr
        assert len(pr.comments()) == 1


def test_transient_502_is_retried(stale_pr: Scenario, fake: FakeGitHub):
    fake.fail("GET", r"/pulls/42/files$", 502, times=1)
    result = stale_pr.run()
    assert result.code == 1 and len(stale_pr.comments()) == 1


def test_persistent_api_failure_never_turns_green(tmp_path, fake, manifests):
    # Fresh docs but the API is down: undecidable PR view -> error, not green.
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["head"], base_manifest=manifests["base"])
    fake.fail("GET", r".*", 502, times=None)
    fake.fail("POST", r".*", 502, times=None)
    result = pr.run()
    assert result.code == 2, result.stdout
    assert TOKEN not in result.shown + result.stderr


def test_persistent_api_failure_keeps_stale_red(stale_pr: Scenario, fake: FakeGitHub):
    fake.fail("GET", r".*", 502, times=None)
    fake.fail("POST", r".*", 502, times=None)
    result = stale_pr.run()
    assert result.code == 1
    assert result.outputs["fresh"] == "false"


def test_first_adoption_without_base_manifest(tmp_path, fake, manifests):
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["head"], base_manifest=None)
    result = pr.run()
    assert result.code == 0, result.stdout
    comments = pr.comments()
    assert len(comments) == 1 and "adopts docsnippets" in comments[0]
    assert "Added (27)" in comments[0]


def test_fresh_and_unchanged_creates_no_comment(tmp_path, fake, manifests):
    pr = slime_scenario(tmp_path, fake, HEAD, HEAD, head_manifest=manifests["head"], base_manifest=manifests["head"])
    result = pr.run()
    assert result.code == 0
    assert pr.comments() == []
    assert result.outputs["fresh"] == "true"


def test_manifest_missing_in_head(tmp_path, fake, manifests):
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=None, base_manifest=manifests["base"])
    result = pr.run()
    assert result.code == 1
    assert "missing from this branch" in pr.comments()[0]


def test_fail_on_desync(tmp_path, fake, manifests):
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["head"], base_manifest=manifests["head"])
    zh = pr.workspace / "docs/zh/developer_guide/trace.md"
    zh.write_text(zh.read_text(encoding="utf-8").replace('target="sample"', 'target="group"'), encoding="utf-8")
    from docsnippets.cli import main

    assert main(["update", "--root", str(pr.workspace)]) == 0
    fake.repos[REPO].pulls[42]["files"].append(
        {
            "filename": "docs/zh/developer_guide/trace.md",
            "status": "modified",
            "sha": "0" * 40,
            "additions": 1,
            "deletions": 1,
            "changes": 2,
        }
    )
    relaxed = pr.run()
    assert relaxed.code == 0 and relaxed.outputs["desynchronized"] == "1"
    assert "<details>" in pr.comments()[0]
    pr.inputs["INPUT_FAIL-ON"] = "desync"
    strict = pr.run()
    assert strict.code == 1
    assert any(a.startswith("::error") and "translation" in a for a in strict.annotations)


@pytest.mark.parametrize(
    ("change", "needle"),
    [
        ({"INPUT_GITHUB-TOKEN": ""}, "no GitHub token"),
        ({"GITHUB_EVENT_PATH": "/nonexistent/event.json"}, "event file not found"),
        ({"GITHUB_EVENT_NAME": "issues"}, "not supported"),
        ({"INPUT_FAIL-ON": "sometimes"}, "fail-on"),
    ],
)
def test_clear_errors(stale_pr: Scenario, change, needle):
    def runner(env, ws, rd):
        env.update(change)
        return subprocess_runner(env, ws, rd)

    result = stale_pr.run(runner)
    assert result.code == 2
    assert needle in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.stderr


def test_push_event_checks_whole_tree_without_token(tmp_path, fake, manifests):
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["base"], base_manifest=None)
    pr.event_name = "push"
    pr.inputs["INPUT_GITHUB-TOKEN"] = ""
    result = pr.run()
    assert result.code == 1 and result.outputs["changed"] == "4"
    assert fake.requests() == []


def test_settings_read_inputs_as_the_runner_passes_them(tmp_path):
    s = Settings.from_environ(
        {
            "INPUT_GITHUB-TOKEN": "t",
            "INPUT_FAIL-ON": "Desync",
            "INPUT_STRICT-LINES": "true",
            "GITHUB_API_URL": "https://ghe.example/api/v3/",
            "GITHUB_WORKSPACE": str(tmp_path),
        }
    )
    assert (s.token, s.fail_on, s.strict_lines, s.api_url) == ("t", "desync", True, "https://ghe.example/api/v3")
    assert s.comment == "on-change" and s.manifest == MANIFEST


def test_annotations_escape_and_limit():
    from docsnippets.config import Config
    from docsnippets.judge.compare import compare
    from docsnippets.snippets.extract import snippets_from_text
    from docsnippets.snippets.pairs import pair_up

    files = {f"d,{i}:x.md": "```py\nawait f()\n```\n" for i in range(15)}
    after = pair_up([s for p, t in files.items() for s in snippets_from_text(p, t, Config())], set(files), Config())
    before = pair_up([], set(), Config())
    report = compare(before, after)
    lines = annotations(report, decide(report, "stale"), MANIFEST)
    assert len([x for x in lines if x.startswith("::error")]) == 10
    assert lines[-1].startswith("::notice") and "5 more" in lines[-1]
    assert "file=d%2C0%3Ax.md" in lines[0]
    assert decide(report, "never").exit_code == 0 and decide(report, "stale").exit_code == 1
    relaxed = annotations(report, decide(report, "never"), MANIFEST)
    assert relaxed and not any(x.startswith("::error") for x in relaxed)


def test_pr_at_githubs_file_cap_checks_the_whole_tree(tmp_path, fake, manifests):
    # A 3,000-file listing may be truncated: the stale docs must be found even if not listed.
    filler = [
        {
            "filename": f"src/f{i}.py",
            "status": "modified",
            "sha": "0" * 40,
            "additions": 1,
            "deletions": 0,
            "changes": 1,
        }
        for i in range(3000)
    ]
    pr = slime_scenario(
        tmp_path, fake, HEAD, HEAD, head_manifest=manifests["base"], base_manifest=manifests["base"], extra_files=filler
    )
    pr.inputs["DOCSNIPPETS_PER_PAGE"] = "100"
    fake.max_page_size = 100
    result = pr.run()
    assert result.code == 1 and result.outputs["changed"] == "4", result.stdout
    assert any(a.startswith("::notice") and "whole tree" in a for a in result.annotations)


def test_a_schema_1_base_manifest_still_shows_what_the_pr_changes(tmp_path, fake, manifests):
    """The PR that brings schema 2 in is compared with a base branch that still has schema 1."""
    import json

    from tests.support.judging import scan_tree
    from tests.support.manifest_helpers import schema1

    from docsnippets.config import Config

    old = json.dumps(schema1(scan_tree(BASE, Config())), ensure_ascii=False, indent=2)
    pr = slime_scenario(tmp_path, fake, BASE, HEAD, head_manifest=manifests["head"], base_manifest=old)
    result = pr.run()
    check_fixed_outcome(pr, result)
    assert (result.outputs["changed"], result.outputs["moved"]) == ("4", "5")
    assert "base commit" not in result.stdout  # no warning that the base manifest was unusable
