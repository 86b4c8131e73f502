"""What stage 2 takes from a workflow_run event: the head commit, owner and branch, or a refusal."""

from __future__ import annotations

import pytest

from docsnippets.github.settings import ActionError, Settings
from docsnippets.github.stage2 import RunEvent, run_event, status_state
from docsnippets.judge.compare import compare
from docsnippets.judge.verdict import decide

SETTINGS = Settings.from_environ({"GITHUB_EVENT_PATH": "/e.json"})
SHA = "0123456789abcdef0123456789abcdef01234567"


def event(**run) -> dict:
    base = {"event": "pull_request", "head_sha": SHA, "head_branch": "b", "head_repository": {"owner": {"login": "o"}}}
    return {"workflow_run": {**base, **run}}


def test_the_head_comes_from_the_event():
    assert run_event(event(), SETTINGS) == RunEvent(SHA, "o", "b")


@pytest.mark.parametrize(
    ("payload", "needle"),
    [
        ({}, "no workflow_run head_sha"),
        (event(head_sha="HEAD"), "no workflow_run head_sha"),
        (event(head_repository={"owner": {"login": "-x"}}), "no workflow_run head_sha"),
        (event(head_repository=None), "no workflow_run head_sha"),
        (event(head_branch=""), "no workflow_run head_sha"),
        (event(event="push"), "was not for a pull request"),
    ],
)
def test_anything_else_is_refused_in_one_line(payload, needle):
    with pytest.raises(ActionError) as err:
        run_event(payload, SETTINGS)
    assert needle in str(err.value) and "\n" not in str(err.value)


def test_status_state_follows_the_verdict(inventory_of):
    fresh = compare(inventory_of({}), inventory_of({}))
    assert status_state(decide(fresh, "stale")) == "success"
    assert status_state(decide(fresh, "stale", error="API down")) == "error"
