"""github_pr against a fake GitHub over real HTTP: no PyGithub mocking, requests are counted."""

from __future__ import annotations

import logging
import math
import socket
import threading
import time
from collections.abc import Callable, Iterator
from typing import Any

import pytest
import requests
from tests.support.fake_github import FORBIDDEN_INTEGRATION, TOO_LONG_ERROR, FakeGitHub, changed

from docsnippets.constants import GITHUB_COMMENT_LIMIT
from docsnippets.github.client import (
    COMMENT_MARKER,
    ChangedFile,
    CommentOutcome,
    GitHubError,
    PullRequestClient,
    with_marker,
)

TOKEN = "ghs_s3cr3tT0kenThatMustNeverLeak42"
REPO = "octo/docs"
PR = 17
PAGE = 2  # server-side max page size: small so every list spans pages

ClientFactory = Callable[..., PullRequestClient]


@pytest.fixture(params=["", "/api/v3"], ids=["github.com", "ghes"])
def fake(request: pytest.FixtureRequest) -> Iterator[FakeGitHub]:
    with FakeGitHub(token=TOKEN, prefix=request.param, max_page_size=PAGE) as server:
        server.add_repo(REPO).add_pull(PR)
        yield server


@pytest.fixture
def client(fake: FakeGitHub) -> Iterator[ClientFactory]:
    made: list[PullRequestClient] = []

    def make(**overrides: Any) -> PullRequestClient:
        options: dict[str, Any] = {
            "token": TOKEN,
            "api_url": fake.api_url,
            "repository": REPO,
            "timeout": 5,
            "retries": 2,
            "backoff": 0.01,
            "max_rate_limit_wait": 0.05,
            "seconds_between_requests": None,
            "seconds_between_writes": None,
        }
        options.update(overrides)
        made.append(PullRequestClient(**options))
        return made[-1]

    yield make
    for c in made:
        c.close()


def marker_comments(fake: FakeGitHub) -> list[Any]:
    return [c for c in fake.comments(REPO, PR) if COMMENT_MARKER in c.body]


def pages(items: int) -> int:
    return max(1, math.ceil(items / PAGE))


def searched(items: int) -> int:
    """The pages a search for our comment reads when it is the newest: the first and the last."""
    return min(pages(items), 2)


# -- changed files and file contents --------------------------------------------------------


def test_changed_files_reads_every_page(fake: FakeGitHub, client: ClientFactory) -> None:
    files = [
        changed("docs/en/a.md"),
        changed("docs/zh/新.md", "added"),
        changed("docs/en/new name.md", "renamed", previous="docs/en/old name.md"),
        changed("docs/en/gone.md", "removed"),
        changed("manifest.json", "copied", previous="base.json"),
    ]
    fake.repos[REPO].add_pull(PR, files)
    gh = client()

    got = gh.changed_files(PR)

    assert got == [
        ChangedFile("docs/en/a.md", "modified", None),
        ChangedFile("docs/zh/新.md", "added", None),
        ChangedFile("docs/en/new name.md", "renamed", "docs/en/old name.md"),
        ChangedFile("docs/en/gone.md", "removed", None),
        ChangedFile("manifest.json", "copied", "base.json"),
    ]
    seen = fake.requests("GET", r"/pulls/17/files$")
    assert [r.query.get("page", "1") for r in seen] == ["1", "2", "3"]
    assert all(r.query["per_page"] == "100" for r in seen)
    assert len(fake.log) == 3  # no repo or PR GET


def test_changed_files_of_missing_pr_is_not_found(fake: FakeGitHub, client: ClientFactory) -> None:
    with pytest.raises(GitHubError) as err:
        client().changed_files(999)
    assert err.value.kind == "not_found"
    assert str(err.value) == "listing the PR's changed files failed: 404 Not Found"


@pytest.mark.parametrize("path", ["manifest.json", "docs/with space #1/é?.json", "d/100%.json"])
def test_file_at_reads_text_at_a_ref(fake: FakeGitHub, client: ClientFactory, path: str) -> None:
    repo = fake.repos[REPO]
    repo.add_file("a" * 40, path, '{"base": true}\n')
    repo.add_file("b" * 40, path, '{"head": true}\n')
    gh = client()

    assert gh.file_at(path, "a" * 40) == '{"base": true}\n'
    assert gh.file_at(path, "b" * 40) == '{"head": true}\n'
    assert len(fake.log) == 2


def test_file_at_reads_the_name_exactly_as_given(fake: FakeGitHub, client: ClientFactory) -> None:
    """A name is never trimmed into another file's: a leading slash or space is refused."""
    fake.repos[REPO].add_file("a" * 40, "manifest.json", "{}")
    gh = client()
    for bad in ["/manifest.json", " manifest.json", "manifest.json "]:
        with pytest.raises(GitHubError, match="not a repository file path"):
            gh.file_at(bad, "a" * 40)
    assert not fake.log


def test_file_at_returns_none_on_404(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.repos[REPO].add_file("a" * 40, "manifest.json", "{}")
    gh = client()
    assert gh.file_at("manifest.json", "c" * 40) is None  # no such file at that ref
    assert gh.file_at("missing.json", "a" * 40) is None
    assert len(fake.log) == 2


def test_file_at_large_file_falls_back_to_blob(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.large_file_bytes = 10
    text = "ünïcode line\n" * 20
    fake.repos[REPO].add_file("a" * 40, "big.json", text)
    gh = client()
    assert gh.file_at("big.json", "a" * 40) == text
    assert [r.path.split("/")[4] for r in fake.log] == ["contents", "git"]


def test_file_at_rejects_directories_and_bad_paths(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.repos[REPO].add_file("a" * 40, "docs/x.md", "x")
    gh = client()
    with pytest.raises(GitHubError, match="not a regular file") as err:
        gh.file_at("docs", "a" * 40)
    assert err.value.kind == "failed"
    for bad in ["", "/", "docs/../etc", "a//b"]:
        with pytest.raises(GitHubError, match="not a repository file path"):
            gh.file_at(bad, "a" * 40)


def test_file_at_non_utf8_is_failed(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.repos[REPO].add_file("a" * 40, "bin.json", b"\xff\xfe\x00")
    with pytest.raises(GitHubError, match="not UTF-8") as err:
        client().file_at("bin.json", "a" * 40)
    assert err.value.kind == "failed"


# -- the sticky comment ---------------------------------------------------------------------


def test_with_marker_appends_once() -> None:
    once = with_marker("## Report")
    assert once == f"## Report\n\n{COMMENT_MARKER}\n"
    assert with_marker(once) == once
    assert with_marker("") == f"{COMMENT_MARKER}\n"
    inline = f"see {COMMENT_MARKER} here"  # not on its own line: not ours
    assert with_marker(inline).endswith(f"\n\n{COMMENT_MARKER}\n")


def test_create_then_update_then_unchanged(fake: FakeGitHub, client: ClientFactory) -> None:
    gh = client()

    created = gh.upsert_comment(PR, "first", create=True)
    assert created.action == "created"
    assert created.url is not None and created.url.endswith(f"#issuecomment-{created.comment_id}")
    [only] = fake.comments(REPO, PR)
    assert only.id == created.comment_id and only.body == with_marker("first")

    updated = gh.upsert_comment(PR, "second", create=True)
    assert updated == CommentOutcome("updated", created.comment_id, created.url, 0)
    assert fake.comments(REPO, PR)[0].body == with_marker("second")

    fake.reset_log()
    same = gh.upsert_comment(PR, "second", create=False)
    assert same == CommentOutcome("unchanged", created.comment_id, created.url, 0)
    assert [r.method for r in fake.log] == ["GET"]  # listed, no PATCH


def test_skipped_when_nothing_to_update_and_create_false(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.add_comment(REPO, PR, "LGTM", user="human")
    outcome = client().upsert_comment(PR, "report", create=False)
    assert outcome == CommentOutcome("skipped", None, None, 0)
    assert [c.body for c in fake.comments(REPO, PR)] == ["LGTM"]
    assert {r.method for r in fake.log} == {"GET"}


def test_update_existing_comment_found_on_a_later_page(fake: FakeGitHub, client: ClientFactory) -> None:
    for i in range(5):
        fake.add_comment(REPO, PR, f"human {i}", user="human")
    fake.add_comment(REPO, PR, f"> {COMMENT_MARKER}\nquoted, not ours", user="human")
    ours = fake.add_comment(REPO, PR, with_marker("old"))
    fake.add_comment(REPO, PR, "after", user="human")

    outcome = client().upsert_comment(PR, "new", create=True)

    assert outcome.action == "updated" and outcome.comment_id == ours
    assert len(fake.comments(REPO, PR)) == 8
    assert [c.body for c in marker_comments(fake) if c.id == ours] == [with_marker("new")]


def test_duplicates_are_cleaned_and_oldest_patched(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.add_comment(REPO, PR, "human", user="human")
    ids = [fake.add_comment(REPO, PR, with_marker(f"stale {i}")) for i in range(3)]

    outcome = client().upsert_comment(PR, "fresh", create=True)

    assert outcome == CommentOutcome("updated", ids[0], outcome.url, 2)
    assert [(c.id, c.body) for c in marker_comments(fake)] == [(ids[0], with_marker("fresh"))]
    assert len(fake.requests("DELETE")) == 2


def test_duplicates_with_newest_current_keep_newest(fake: FakeGitHub, client: ClientFactory) -> None:
    ids = [fake.add_comment(REPO, PR, with_marker(b)) for b in ("stale", "report")]

    outcome = client().upsert_comment(PR, "report", create=True)

    assert outcome == CommentOutcome("unchanged", ids[1], outcome.url, 1)
    assert [c.id for c in marker_comments(fake)] == [ids[1]]
    assert not fake.requests("PATCH")


def test_delete_404_is_fine(fake: FakeGitHub, client: ClientFactory) -> None:
    ids = [fake.add_comment(REPO, PR, with_marker(f"x{i}")) for i in range(3)]
    fake.fail("DELETE", rf"/issues/comments/{ids[1]}$", 404)

    outcome = client().upsert_comment(PR, "y", create=True)

    assert outcome.action == "updated" and outcome.comment_id == ids[0]
    assert outcome.deleted_duplicates == 1  # the 404 one was someone else's delete


def test_failing_duplicate_delete_is_logged_not_raised(
    fake: FakeGitHub, client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    ids = [fake.add_comment(REPO, PR, with_marker(f"x{i}")) for i in range(2)]
    fake.fail("DELETE", r"/issues/comments/", 403, body=FORBIDDEN_INTEGRATION)

    outcome = client().upsert_comment(PR, "y", create=True)

    assert outcome == CommentOutcome("updated", ids[0], outcome.url, 0)
    assert "deleting a duplicate PR comment failed: 403" in caplog.text


def test_race_other_run_posted_first(fake: FakeGitHub, client: ClientFactory) -> None:
    """Another run's comment lands just before our POST: its (older) one survives, with our body."""
    other: list[int] = []

    def before(method: str, path: str) -> None:
        if method == "POST" and not other:
            other.append(fake.add_comment(REPO, PR, with_marker("other run")))

    fake.on_request = before
    outcome = client().upsert_comment(PR, "ours", create=True)

    assert outcome.action == "updated" and outcome.comment_id == other[0]
    assert outcome.deleted_duplicates == 1
    assert [(c.id, c.body) for c in marker_comments(fake)] == [(other[0], with_marker("ours"))]


def test_race_other_run_posted_after(fake: FakeGitHub, client: ClientFactory) -> None:
    """Another run's comment lands after ours: ours is the oldest and stays."""
    posted = threading.Event()

    def before(method: str, path: str) -> None:
        if method == "POST":
            posted.set()
        elif method == "GET" and posted.is_set() and len(marker_comments(fake)) == 1:
            fake.add_comment(REPO, PR, with_marker("other run"))

    fake.on_request = before
    outcome = client().upsert_comment(PR, "ours", create=True)

    assert outcome.action == "created" and outcome.deleted_duplicates == 1
    assert [(c.id, c.body) for c in marker_comments(fake)] == [(outcome.comment_id, with_marker("ours"))]


def test_patch_404_when_deleted_meanwhile_recreates(fake: FakeGitHub, client: ClientFactory) -> None:
    cid = fake.add_comment(REPO, PR, with_marker("old"))

    def before(method: str, path: str) -> None:
        if method == "PATCH":
            fake.repos[REPO].comments[PR].clear()

    fake.on_request = before
    outcome = client().upsert_comment(PR, "new", create=True)

    assert outcome.action == "created" and outcome.comment_id != cid
    assert [c.body for c in marker_comments(fake)] == [with_marker("new")]


@pytest.mark.parametrize("body", ["same report", None])
def test_two_clients_racing_in_threads_leave_one(fake: FakeGitHub, client: ClientFactory, body: str | None) -> None:
    barrier = threading.Barrier(2, timeout=5)

    def before(method: str, path: str) -> None:
        if method == "POST":
            barrier.wait()  # both runs listed nothing; now both POST at once

    fake.on_request = before
    clients = [client(), client()]
    outcomes: list[CommentOutcome] = []
    errors: list[BaseException] = []

    def run(i: int) -> None:
        try:
            outcomes.append(clients[i].upsert_comment(PR, body or f"run {i}", create=True))
        except BaseException as exc:  # surfaced below
            errors.append(exc)

    threads = [threading.Thread(target=run, args=(i,)) for i in range(2)]
    for t in threads:
        t.start()
    for t in threads:
        t.join(10)

    assert not errors
    assert len(fake.requests("POST")) == 2
    [survivor] = marker_comments(fake)
    assert {o.comment_id for o in outcomes} == {survivor.id}
    assert sum(o.deleted_duplicates for o in outcomes) == 1
    if body is not None:
        assert survivor.body == with_marker(body)


# -- request budget -------------------------------------------------------------------------


@pytest.mark.parametrize(("n_files", "n_comments"), [(5, 4), (1, 1), (0, 7)])
def test_typical_edit_run_request_count(fake: FakeGitHub, client: ClientFactory, n_files: int, n_comments: int) -> None:
    fake.repos[REPO].add_pull(PR, [changed(f"docs/{i}.md") for i in range(n_files)])
    fake.repos[REPO].add_file("a" * 40, "docsnippets.json", "{}")
    for i in range(n_comments - 1):
        fake.add_comment(REPO, PR, f"human {i}", user="human")
    fake.add_comment(REPO, PR, with_marker("previous report"))
    gh = client()

    gh.changed_files(PR)
    assert gh.file_at("docsnippets.json", "a" * 40) == "{}"
    assert gh.upsert_comment(PR, "new report", create=True).action == "updated"

    expected = pages(n_files) + searched(n_comments) + 2
    assert len(fake.log) == expected
    assert [r.method for r in fake.log].count("PATCH") == 1
    assert not fake.requests(path=r"^/repos/[^/]+/[^/]+(/pulls/\d+)?$")  # no repo/PR GETs


def test_first_and_unchanged_run_request_counts(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.repos[REPO].add_pull(PR, [changed(f"docs/{i}.md") for i in range(3)])
    for i in range(3):
        fake.add_comment(REPO, PR, f"human {i}", user="human")
    gh = client()

    gh.changed_files(PR)
    assert gh.file_at("docsnippets.json", "a" * 40) is None  # no base manifest yet
    assert gh.upsert_comment(PR, "report", create=True).action == "created"
    # files + comments + contents + POST + the race check re-listing (now 4 comments)
    first = pages(3) + pages(3) + 1 + 1 + pages(4)
    assert len(fake.log) == first

    fake.reset_log()
    gh.changed_files(PR)
    gh.file_at("docsnippets.json", "a" * 40)
    assert gh.upsert_comment(PR, "report", create=True).action == "unchanged"
    assert len(fake.log) == pages(3) + pages(4) + 1


# -- errors, retries, rate limits -------------------------------------------------------------


def test_forbidden_post_on_fork_pr(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("POST", r"/issues/17/comments$", 403, body=FORBIDDEN_INTEGRATION, times=None)
    gh = client()
    with pytest.raises(GitHubError) as err:
        gh.upsert_comment(PR, "report", create=True)
    assert err.value.kind == "forbidden" and err.value.status == 403
    assert str(err.value) == ("posting the PR comment failed: 403 Resource not accessible by integration")
    assert len(fake.requests("POST")) == 1  # a plain 403 is not retried
    assert len(fake.log) == 2  # the listing, then the one POST


def test_too_long_from_server_is_too_large(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.add_comment(REPO, PR, with_marker("old"))
    fake.fail("PATCH", r"/issues/comments/\d+$", 422, body=TOO_LONG_ERROR)
    with pytest.raises(GitHubError) as err:
        client().upsert_comment(PR, "x" * 60000, create=True)
    assert err.value.kind == "too_large"
    assert str(err.value) == (
        "updating the PR comment failed: 422 Validation Failed (body is too long (maximum is 65536 characters))"
    )


def test_too_long_body_is_refused_before_any_request(fake: FakeGitHub, client: ClientFactory) -> None:
    gh = client()
    with pytest.raises(GitHubError) as err:
        gh.upsert_comment(PR, "x" * GITHUB_COMMENT_LIMIT, create=True)
    assert err.value.kind == "too_large"
    assert not fake.log


def test_fake_server_enforces_the_body_limit(fake: FakeGitHub) -> None:
    url = f"{fake.api_url}/repos/{REPO}/issues/{PR}/comments"
    auth = {"Authorization": f"Bearer {TOKEN}"}
    too_long = requests.post(url, json={"body": "x" * (GITHUB_COMMENT_LIMIT + 1)}, headers=auth)
    assert too_long.status_code == 422 and too_long.json() == TOO_LONG_ERROR
    assert requests.post(url, json={"body": "x" * GITHUB_COMMENT_LIMIT}, headers=auth).ok
    assert requests.post(url, json={"body": "x"}).status_code == 401


def test_unexpected_422_is_failed(fake: FakeGitHub, client: ClientFactory) -> None:
    body = {"message": "Validation Failed", "errors": [{"field": "body", "code": "invalid"}]}
    fake.fail("POST", r"/comments$", 422, body=body)
    with pytest.raises(GitHubError) as err:
        client().upsert_comment(PR, "x", create=True)
    assert err.value.kind == "failed"
    assert str(err.value).endswith("422 Validation Failed (body invalid)")


def test_502_then_200_is_retried(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.repos[REPO].add_pull(PR, [changed("a.md")])
    fake.fail("GET", r"/pulls/17/files$", 502, times=1)
    fake.fail("POST", r"/comments$", 503, times=1)
    gh = client()
    assert gh.changed_files(PR) == [ChangedFile("a.md", "modified", None)]
    assert gh.upsert_comment(PR, "x", create=True).action == "created"
    assert len(marker_comments(fake)) == 1
    assert [r.status for r in fake.log] == [502, 200, 200, 503, 201, 200]


def test_persistent_502_is_unavailable_and_fast(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("GET", r"/pulls/17/files$", 502, times=None, body="<html>\n<h1>Bad gateway</h1>")
    gh = client(retries=3)
    started = time.monotonic()
    with pytest.raises(GitHubError) as err:
        gh.changed_files(PR)
    assert time.monotonic() - started < 2
    assert err.value.kind == "unavailable" and err.value.status == 502
    assert "\n" not in str(err.value)
    assert str(err.value).startswith("listing the PR's changed files failed: 502")
    assert len(fake.log) == 4  # 1 + 3 retries


def test_primary_rate_limit_403_is_retried(fake: FakeGitHub, client: ClientFactory) -> None:
    past = str(int(time.time()) - 10)
    limit = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": past}
    message = {"message": "API rate limit exceeded for installation ID 1."}
    fake.fail("GET", r"/comments$", 403, body=message, headers=limit, times=1)
    gh = client()
    assert gh.upsert_comment(PR, "x", create=False).action == "skipped"
    assert [r.status for r in fake.log] == [403, 200]


def test_rate_limit_that_persists_is_unavailable(fake: FakeGitHub, client: ClientFactory) -> None:
    past = str(int(time.time()) - 10)
    limit = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": past}
    message = {"message": "API rate limit exceeded for installation ID 1."}
    fake.fail("GET", r"/comments$", 403, body=message, headers=limit, times=None)
    gh = client(retries=1)
    with pytest.raises(GitHubError) as err:
        gh.upsert_comment(PR, "x", create=True)
    assert err.value.kind == "unavailable" and err.value.status == 403
    # GithubRetry consumed the last 403's body while deciding; the headers still tell.
    assert "rate limit" in str(err.value).lower()
    assert len(fake.log) == 2


def test_rate_limit_reset_far_away_gives_up_at_once(fake: FakeGitHub, client: ClientFactory) -> None:
    later = str(int(time.time()) + 3600)
    limit = {"x-ratelimit-remaining": "0", "x-ratelimit-reset": later}
    message = {"message": "API rate limit exceeded for user ID 1."}
    fake.fail("GET", r"/files$", 403, body=message, headers=limit, times=None)
    with pytest.raises(GitHubError) as err:
        client().changed_files(PR)
    assert err.value.kind == "unavailable" and len(fake.log) == 1


def test_secondary_rate_limit_is_retried(fake: FakeGitHub, client: ClientFactory) -> None:
    message = {"message": "You have exceeded a secondary rate limit. Please wait a few minutes."}
    fake.fail("GET", r"/files$", 403, body=message, times=1)
    assert client().changed_files(PR) == []
    assert [r.status for r in fake.log] == [403, 200]


def test_429_with_retry_after_is_retried(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("GET", r"/files$", 429, headers={"retry-after": "0"}, times=1)
    assert client().changed_files(PR) == []
    assert [r.status for r in fake.log] == [429, 200]


def test_long_retry_after_is_not_waited_for(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("POST", r"/comments$", 429, headers={"retry-after": "3600"}, times=None)
    started = time.monotonic()
    with pytest.raises(GitHubError) as err:
        client().upsert_comment(PR, "x", create=True)
    assert time.monotonic() - started < 2
    assert err.value.kind == "unavailable" and err.value.status == 429
    assert len(fake.requests("POST")) == 1


def test_bad_credentials_is_failed(fake: FakeGitHub, client: ClientFactory) -> None:
    with pytest.raises(GitHubError) as err:
        client(token="wrong-token").changed_files(PR)
    assert err.value.kind == "failed"
    assert str(err.value) == "listing the PR's changed files failed: 401 Bad credentials"
    assert fake.seen_authorization == ["token wrong-token"]


def test_connection_refused_is_unavailable(client: ClientFactory) -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    gh = client(api_url=f"http://127.0.0.1:{port}", retries=1)
    with pytest.raises(GitHubError) as err:
        gh.changed_files(PR)
    assert err.value.kind == "unavailable"
    assert str(err.value) == ("listing the PR's changed files failed: cannot reach 127.0.0.1 (NewConnectionError)")


def test_timeout_is_unavailable(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("GET", r"/files$", 200, body=[], delay=1.5)
    with pytest.raises(GitHubError) as err:
        client(timeout=0.5, retries=0).changed_files(PR)
    assert err.value.kind == "unavailable"
    assert "did not answer within 1s" in str(err.value)


def test_bad_configuration_is_failed() -> None:
    for kwargs in (
        {"token": ""},
        {"repository": "not-a-repo"},
        {"repository": "a/b/c"},
        {"api_url": "ftp://example.com"},
    ):
        options = {"token": TOKEN, "api_url": "https://api.github.com", "repository": REPO}
        with pytest.raises(GitHubError) as err:
            PullRequestClient(**{**options, **kwargs})
        assert err.value.kind == "failed"


def test_token_never_leaks(fake: FakeGitHub, client: ClientFactory, caplog: pytest.LogCaptureFixture) -> None:
    caplog.set_level(logging.DEBUG)  # PyGithub and urllib3 log every request at DEBUG
    scenarios: list[tuple[str, str, int, Any, dict[str, str]]] = [
        ("POST", r"/comments$", 403, FORBIDDEN_INTEGRATION, {}),
        ("GET", r"/comments$", 404, None, {}),
        ("GET", r"/comments$", 502, "<html>bad gateway</html>", {}),
        ("GET", r"/comments$", 429, None, {"retry-after": "9999"}),
        ("GET", r"/comments$", 403, {"message": "API rate limit exceeded"}, {}),
        ("PATCH", r"/comments/", 422, TOO_LONG_ERROR, {}),
    ]
    fake.add_comment(REPO, PR, "no marker here", user="human")
    messages: list[str] = []
    for method, path, status, body, headers in scenarios:
        fake.faults.clear()
        if method == "PATCH":
            fake.add_comment(REPO, PR, with_marker("old"))
        fake.fail(method, path, status, body=body, headers=headers, times=None)
        with pytest.raises(GitHubError) as err:
            client(retries=1).upsert_comment(PR, "x", create=True)
        messages += [str(err.value), repr(err.value), err.value.message]
    fake.faults.clear()
    with pytest.raises(GitHubError) as err:
        client(token="nope").changed_files(PR)
    messages.append(str(err.value))
    fake.fail("GET", r"/files$", 200, body=[], delay=1.2)
    with pytest.raises(GitHubError) as err:
        client(timeout=0.5, retries=0).changed_files(PR)
    messages.append(str(err.value))

    assert len({m.split(":")[0] for m in messages}) >= 3  # several operations exercised
    assert all(TOKEN not in m for m in messages), messages
    assert caplog.records
    assert TOKEN not in caplog.text
    assert any(f"token {TOKEN}" == a for a in fake.seen_authorization)  # it was really sent


def test_token_echoed_by_server_is_scrubbed(fake: FakeGitHub, client: ClientFactory) -> None:
    fake.fail("POST", r"/comments$", 403, body={"message": f"token {TOKEN} may not post"})
    with pytest.raises(GitHubError) as err:
        client().upsert_comment(PR, "x", create=True)
    assert str(err.value) == "posting the PR comment failed: 403 token *** may not post"


# -- the one visible form, whoever built the text ------------------------------------------------

HIDDEN = "docs/\x1b[31m\u202eevil\u200b.md"
SHOWN = "docs/\\u{001B}[31m\\u{202E}evil\\u{200B}.md"


def test_a_comment_is_posted_visible_whoever_built_its_body(fake: FakeGitHub, client: ClientFactory) -> None:
    client().upsert_comment(PR, f"### report\n\n{HIDDEN}\n", create=True)
    [comment] = marker_comments(fake)
    assert SHOWN in comment.body and "\x1b" not in comment.body


def test_a_status_description_is_set_visible_whoever_built_it(fake: FakeGitHub, client: ClientFactory) -> None:
    client().set_status("a" * 40, "failure", context="docsnippets", description=HIDDEN, target_url=None)
    [status] = fake.repos[REPO].statuses["a" * 40]
    assert status["description"] == SHOWN


def test_a_failed_delete_is_logged_visible(
    fake: FakeGitHub, client: ClientFactory, caplog: pytest.LogCaptureFixture
) -> None:
    """GitHub's message reaches the log through Python's logging, not the Action's log stream."""
    [fake.add_comment(REPO, PR, with_marker(f"x{i}")) for i in range(2)]
    fake.fail("DELETE", r"/issues/comments/", 403, body={"message": f"refused {HIDDEN}"})
    client().upsert_comment(PR, "y", create=True)
    assert SHOWN in caplog.text and "\x1b" not in caplog.text
