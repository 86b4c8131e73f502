"""Other people's comments cannot keep a pull request from its verdict.

Anyone may comment on a pull request, thousands of times. Stage 2 finds its own sticky
comment within a few pages (the first, then the newest ones), so a flood costs it a bounded
number of requests and the commit status is still the verdict, never an ``error``; a comment
by someone else that carries the marker is never adopted, edited or deleted.
"""

from __future__ import annotations

import pytest
from tests.support.scenario import REPO
from tests.support.small_pr import SNIPPET, SmallPR

from docsnippets.github.client import COMMENT_MARKER, with_marker
from docsnippets.github.comments import SEARCH_PAGES

FLOOD = 3_000
FORGED = f"looks official\n\n{COMMENT_MARKER}\n"
LISTING = r"/issues/42/comments$"


def flood(fake, own_at: int | None) -> int | None:
    """FLOOD comments by others (a forged marker comment first and last among them), the bot's
    own sticky comment after ``own_at`` of them; its id."""
    own = None
    for i in range(FLOOD):
        if i == own_at:
            own = fake.add_comment(REPO, 42, with_marker("### old report"))
        forged = i in (0, FLOOD - 1)
        fake.add_comment(REPO, 42, FORGED if forged else f"+1 ({i})", user="mallory")
    if own_at == FLOOD:
        own = fake.add_comment(REPO, 42, with_marker("### old report"))
    return own


@pytest.mark.parametrize(
    ("own_at", "found"),
    [(0, True), (FLOOD, True), (FLOOD - 2, True), (FLOOD // 2, False), (None, False)],
    ids=["first", "last", "newest-page", "buried", "none"],
)
@pytest.mark.parametrize("stale", [True, False], ids=["stale", "fresh"])
def test_a_comment_flood_leaves_the_verdict_alone(tmp_path, fake, own_at, found, stale):
    head = {"docs/en/new.md": "# New\n\n" + SNIPPET} if stale else {}
    pr = SmallPR(tmp_path, fake, head=head)
    own = flood(fake, own_at)
    fake.reset_log()
    result = pr.stage2().run()
    assert result.code == 0, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == ("failure" if stale else "success"), status

    listings = fake.requests("GET", LISTING)
    assert len(listings) <= 2 * SEARCH_PAGES  # a search, and one more after posting a new comment
    assert len(fake.log) <= 40, [r.path for r in fake.log]

    comments = fake.comments(REPO, 42)
    forged = [c for c in comments if c.user == "mallory" and c.body == FORGED]
    assert len(forged) == 2  # never edited, never deleted
    mine = [c for c in comments if c.user != "mallory"]
    if found:
        assert [c.id for c in mine] == [own] and mine[0].body != with_marker("### old report")
        assert not fake.requests("POST", LISTING)
    elif stale:
        assert fake.requests("POST", LISTING)  # posted anew at the end, where the next run finds it
        assert mine[-1].id == max(c.id for c in comments)


def test_the_next_run_finds_the_comment_it_posted_under_a_flood(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={"docs/en/new.md": "# New\n\n" + SNIPPET})
    flood(fake, FLOOD // 2)
    assert pr.stage2("first").run().code == 0
    fake.reset_log()
    assert pr.stage2("second").run().code == 0
    assert not fake.requests("POST", LISTING)  # the comment of the first run, updated or unchanged
    assert len(fake.requests("GET", LISTING)) == 2  # the first page and the last


def test_a_buried_comment_is_outdone_by_one_that_tells_the_verdict(tmp_path, fake):
    """A report buried under a flood says what an earlier run found (stale, say). When this
    run has nothing noteworthy to say (``on-change``) it would normally stay silent; but the
    search could not rule out an old report of ours, so it posts the current one at the end:
    the newest comment of ours always tells the verdict the status gives."""
    pr = SmallPR(tmp_path, fake)  # fresh: nothing noteworthy, no comment needed on its own
    flood(fake, FLOOD // 2)
    result = pr.stage2().run()
    assert result.code == 0, result.stdout + result.stderr
    [status] = pr.statuses()
    assert status["state"] == "success"
    mine = [c for c in fake.comments(REPO, 42) if c.user != "mallory"]
    assert len(mine) == 2 and mine[0].body == with_marker("### old report")  # never found, never touched
    assert "up to date" in mine[-1].body and mine[-1].id == max(c.id for c in fake.comments(REPO, 42))


def test_a_short_list_without_our_comment_stays_silent_when_nothing_is_noteworthy(tmp_path, fake):
    """Every page read and no comment of ours: ``on-change`` posts nothing for a fresh PR."""
    pr = SmallPR(tmp_path, fake)
    for i in range(SEARCH_PAGES * 3 - 1):  # fewer pages than a search reads (3 comments a page)
        fake.add_comment(REPO, 42, f"+1 ({i})", user="mallory")
    assert pr.stage2().run().code == 0
    assert all(c.user == "mallory" for c in fake.comments(REPO, 42))
