"""A hostile pull request cannot write workflow commands into either stage's log.

The attacker picks file names and manifest content holding ``::set-output``, ``::add-mask::``,
``::stop-commands::`` and ``::warning`` lines, and the runner's legacy ``##[…]`` form; the
runner must find no command in stdout or stderr but the Action's own annotations and mask.
"""

from __future__ import annotations

from tests.support.gfm import assert_structure
from tests.support.runner_log import foreign, obeyed
from tests.support.scenario import REPO, TOKEN, Result
from tests.support.small_pr import SNIPPET, SmallPR, manifest_with

INJECTED = (
    "\n::set-output name=fresh::true"
    "\n::add-mask::docsnippets"
    "\n::stop-commands::pwned"
    "\n::warning::INJECTED"
    "\n##[set-output name=verdict;]passed"
    "\n"
)
EVIL = f"docs/en/evil{INJECTED}.md"
# Python's repr keeps U+2028 and `##[` as they are: a name quoted with !r is not safe either.
QUOTED_EVIL = "docs/en/x##[set-output name=verdict;]passed\u2028 ::warning::INJECTED.md"


def assert_obeys_nothing_injected(result: Result) -> None:
    assert foreign(result.stdout, TOKEN) == [], result.stdout
    assert foreign(result.stderr) == [], result.stderr
    for command in obeyed(result.stdout) + obeyed(result.stderr):
        assert not command.line.lstrip().startswith("::warning::INJECTED"), command
    # Nothing was masked but the token: "docsnippets" stays readable in the log.
    assert [c.line for c in obeyed(result.stdout) if c.name == "add-mask"] == [f"::add-mask::{TOKEN}"]


def test_stage_1_log_of_a_stale_file_with_a_hostile_name(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={EVIL: "# Evil\n\n" + SNIPPET})
    result = pr.stage1().run()
    assert result.code == 1, result.stdout + result.stderr
    assert_obeys_nothing_injected(result)
    [stale] = [a for a in result.annotations if a.startswith("::error ")]
    assert "file=docs/en/evil\\u{000A}%3A%3Aset-output" in stale  # the one visible form, then %-escaped


def test_stage_1_log_of_a_hostile_manifest(tmp_path, fake):
    def rename(data: dict) -> None:
        first = next(iter(data["files"]))
        data["files"][QUOTED_EVIL] = data["files"].pop(first)
        data["files"][QUOTED_EVIL]["counterpart"] = QUOTED_EVIL

    pr = SmallPR(tmp_path, fake)
    pr = SmallPR(tmp_path / "hostile", fake, manifest=manifest_with(pr.base_manifest, rename))
    result = pr.stage1().run()
    assert result.code == 2, result.stdout + result.stderr
    assert "counterpart must be null" in result.stderr and result.stderr.count("\n") == 1
    assert_obeys_nothing_injected(result)


def test_stage_2_log_of_a_directory_under_a_hostile_name(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={f"{EVIL}/inner.md": "# not the listed file\n"})
    # The PR's file list names the hostile path itself; the API finds a directory there.
    files = fake.repos[REPO].pulls[42]["files"]
    files[0]["filename"] = EVIL
    result = pr.stage2().run()
    assert result.code != 0, result.stdout + result.stderr
    assert "evil\\u{000A}::set-output" in result.stdout + result.stderr
    assert_obeys_nothing_injected(result)
    # The status names the file too: on one line, within GitHub's 140 characters.
    [status] = pr.statuses()
    assert status["state"] == "error"
    assert "\n" not in status["description"] and len(status["description"]) <= 140
    assert "evil\\u{000A}::set-output" in status["description"]
    for comment in fake.comments(REPO, 42):  # the reason, for the author, shown inert
        assert_structure(comment.body, allowed=frozenset({"blockquote"}))


def test_stage_2_log_and_status_of_a_stale_file_with_a_hostile_name(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={EVIL: "# Evil\n\n" + SNIPPET})
    result = pr.stage2().run()
    assert result.code == 0, result.stdout + result.stderr  # the failure status delivered
    assert_obeys_nothing_injected(result)
    [status] = pr.statuses()
    assert status["state"] == "failure"
    assert "\n" not in status["description"] and len(status["description"]) <= 140
