"""The client's request budget, its comment identity and a commit read by its listing, over real HTTP
against the fake API."""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import pytest
from tests.support.fake_github import FakeGitHub, changed

from docsnippets.github.client import PullRequestClient, with_marker
from docsnippets.github.commit import GitHubCommit
from docsnippets.sources import Refusal

REPO = "octo/docs"
PR = 17
INSTALLATION = "ghs_installationTokenForTests0001"
PERSONAL = "github_pat_personalTokenForTests0001"
HEAD = "b" * 40


@pytest.fixture
def fake() -> Iterator[FakeGitHub]:
    with FakeGitHub(token=INSTALLATION, max_page_size=2) as server:
        server.add_repo(REPO).add_pull(PR)
        yield server


def client(fake: FakeGitHub, **overrides: Any) -> PullRequestClient:
    options: dict[str, Any] = {
        "token": fake.token,
        "api_url": fake.api_url,
        "repository": REPO,
        "timeout": 5,
        "retries": 0,
        "seconds_between_requests": None,
        "seconds_between_writes": None,
    }
    return PullRequestClient(**{**options, **overrides})


def test_requests_past_the_budget_are_refused_unsent(fake: FakeGitHub) -> None:
    fake.repos[REPO].add_pull(PR, [changed(f"docs/{i}.md") for i in range(10)])  # 5 pages
    gh = client(fake, request_budget=3)
    with pytest.raises(Exception) as err:
        gh.changed_files(PR)
    assert getattr(err.value, "kind", None) == "budget"
    assert "budget of 3 API requests" in str(err.value)
    assert len(fake.log) == 3
    gh.budget.grant(2)  # what a run grants itself to deliver its verdict
    assert gh.upsert_comment(PR, "report", create=False).action == "skipped"
    assert len(fake.log) == 4


def test_an_installation_token_owns_only_the_actions_bot_comments(fake: FakeGitHub) -> None:
    other = fake.add_comment(REPO, PR, with_marker("planted"), user="mallory")
    outcome = client(fake).upsert_comment(PR, "report", create=True)
    assert outcome.action == "created" and outcome.comment_id != other
    bodies = {c.id: (c.user, c.body) for c in fake.comments(REPO, PR)}
    assert bodies[other] == ("mallory", with_marker("planted"))
    assert bodies[outcome.comment_id] == ("github-actions[bot]", with_marker("report"))
    assert not fake.requests("GET", r"^/user$")


def test_another_token_asks_who_it_is_once() -> None:
    with FakeGitHub(token=PERSONAL, bot_login="docs-bot", user_login="docs-bot") as fake:
        fake.add_repo(REPO).add_pull(PR)
        bot = fake.add_comment(REPO, PR, with_marker("by the actions bot"), user="github-actions[bot]")
        mine = fake.add_comment(REPO, PR, with_marker("old"), user="docs-bot")
        gh = client(fake)
        assert gh.upsert_comment(PR, "new", create=True).comment_id == mine
        assert gh.upsert_comment(PR, "newer", create=True).comment_id == mine
        assert len(fake.requests("GET", r"^/user$")) == 1
        assert [c.body for c in fake.comments(REPO, PR) if c.id == bot] == [with_marker("by the actions bot")]


def test_the_comment_author_can_be_named_for_an_app_token(fake: FakeGitHub) -> None:
    app = fake.add_comment(REPO, PR, with_marker("old"), user="my-app[bot]")
    fake.add_comment(REPO, PR, with_marker("actions"), user="github-actions[bot]")
    outcome = client(fake, comment_author="my-app[bot]").upsert_comment(PR, "new", create=True)
    assert outcome.action == "updated" and outcome.comment_id == app
    assert len(fake.comments(REPO, PR)) == 2


def test_a_commit_is_read_exactly_and_each_blob_once(fake: FakeGitHub) -> None:
    repo = fake.repos[REPO]
    for name in (" docs/a.md", "docs/a.md", "docs/b.md"):
        repo.add_file(HEAD, name, "same bytes\n" if name != "docs/a.md" else "other\n")
    repo.add_file(HEAD, "docs/big.md", "x" * 100)
    repo.add_symlink(HEAD, "docs/link.md", "a.md")
    repo.add_submodule(HEAD, "docs/sub.md")
    gh = client(fake)
    commit = GitHubCommit(gh.listing(HEAD), gh.blob, listed={"docs/listed.md"})
    paths = [" docs/a.md", "docs/a.md", "docs/b.md", "docs/big.md", "docs/link.md", "docs/sub.md", "docs/gone.md"]
    got = dict(commit.read_many([*paths, "docs/listed.md"], 50))
    assert got[" docs/a.md"] == got["docs/b.md"] == b"same bytes\n"
    assert got["docs/a.md"] == b"other\n"
    assert "larger than max_file_bytes (50 bytes)" in str(got["docs/big.md"])
    assert got["docs/gone.md"] is None
    refused = [r for r in got.values() if isinstance(r, Refusal)]
    assert [(r.path, r.reason.split(";")[0]) for r in refused] == [
        ("docs/link.md", "a symbolic link"),
        ("docs/listed.md", f"listed as changed by the PR but not in its head {HEAD[:12]}"),
        ("docs/sub.md", "a submodule"),
    ]
    assert len(fake.requests("GET", r"/git/blobs/")) == 2  # two distinct contents under the limit
