"""A pull request that needs more work than a run may do ends in an error that names the bound,
in both stages: an ``error`` status (stage 2), a comment, exit 2, never a green verdict."""

from __future__ import annotations

import pytest
from tests.support.scenario import in_process_runner
from tests.support.small_pr import SmallPR

PAGE = "".join(f"```python\nawait step({i})\n```\n\n" for i in range(40))


@pytest.mark.parametrize(
    ("setting", "value", "said"),
    [
        ("DOCSNIPPETS_MAX_PARSED_BYTES", "200", "come to more than 200 bytes"),
        ("DOCSNIPPETS_MAX_CPU_SECONDS", "0.001", "s of CPU"),
    ],
)
def test_stage2_past_a_bound_sets_an_error_status_that_names_it(tmp_path, fake, setting, value, said):
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": PAGE})
    second = pr.stage2()
    second.inputs[setting] = value
    result = second.run()
    assert result.code == 2, result.stdout + result.stderr
    (status,) = pr.statuses()
    assert status["state"] == "error" and setting in status["description"], status
    (comment,) = second.comments()
    assert "could not decide" in comment and setting.replace("_", "\\_") in comment and said in comment
    assert f"::error::PR too large for stage 2: {setting}" in result.stdout


def test_stage2_past_the_code_bound_sets_an_error_status_that_names_it(tmp_path, fake):
    code = {"pkg/__init__.py": "", "pkg/m.py": "async def f(x):\n    return x\n"}
    page = "```python\nfrom pkg.m import f\nawait f(1)\n```\n"
    pr = SmallPR(tmp_path, fake, head={**code, "docs/en/more.md": page})
    second = pr.stage2()
    second.inputs["DOCSNIPPETS_MAX_CODE_BYTES"] = "10"
    result = second.run()
    assert result.code == 2, result.stdout + result.stderr
    (status,) = pr.statuses()
    assert status["state"] == "error" and "DOCSNIPPETS_MAX_CODE_BYTES" in status["description"], status
    assert "import comes to more than 10 bytes \\(at `pkg/m.py`\\)" in second.comments()[0]


def test_stage1_past_a_bound_comments_and_exits_2(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": PAGE})
    first = pr.stage1()
    first.inputs["DOCSNIPPETS_MAX_PARSED_BYTES"] = "200"
    result = first.run()
    assert result.code == 2, result.stdout + result.stderr
    assert "::error::PR too large to judge: DOCSNIPPETS_MAX_PARSED_BYTES" in result.stdout
    (comment,) = first.comments()
    assert "could not decide" in comment and "DOCSNIPPETS\\_MAX\\_PARSED\\_BYTES" in comment
    assert pr.statuses() == []


def test_within_the_default_bounds_the_same_pr_is_judged(tmp_path, fake):
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": PAGE})
    result = pr.stage2().run()
    assert result.code == 0, result.stdout + result.stderr
    assert [s["state"] for s in pr.statuses()] == ["failure"]


class _SpentAfterJudging:
    """The CPU bound as it stands when judging is done but rendering what was found is not."""

    @staticmethod
    def check() -> None:
        from docsnippets.work import Bound, OverBudget

        raise OverBudget(Bound.CPU_SECONDS, "judging it took more than 90 s of CPU")


def test_rendering_past_the_cpu_bound_is_an_error_status_too(tmp_path, fake, monkeypatch):
    import docsnippets.report.comment as comment

    monkeypatch.setattr(comment, "work", _SpentAfterJudging)
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": PAGE})
    second = pr.stage2()
    result = second.run(in_process_runner)
    assert result.code == 2, result.stdout + result.stderr
    (status,) = pr.statuses()
    assert status["state"] == "error" and "DOCSNIPPETS_MAX_CPU_SECONDS" in status["description"]
    first = pr.stage1()
    result = first.run(in_process_runner)
    assert result.code == 2 and "::error::PR too large to judge: DOCSNIPPETS_MAX_CPU_SECONDS" in result.stdout


def test_a_push_check_past_the_cpu_bound_keeps_its_verdict_and_writes_a_short_summary(tmp_path, fake, monkeypatch):
    import docsnippets.report.comment as comment

    monkeypatch.setattr(comment, "work", _SpentAfterJudging)
    pr = SmallPR(tmp_path, fake, head={"docs/en/more.md": PAGE})
    push = pr.stage1()
    push.event_name = "push"
    result = push.run(in_process_runner)
    assert result.code == 1, result.stdout + result.stderr  # stale: the judging was complete
    assert "The full report is in the JSON report: DOCSNIPPETS_MAX_CPU_SECONDS" in result.summary


PROSE_PAGES = 20
PROSE_LINES = 6000  # about 290 KB a page


def test_stage2_lets_a_page_without_snippets_go_once_it_is_read(tmp_path, fake, monkeypatch):
    """Stage 2's head commit holds only the pages that may hold a snippet: when the last page
    is parsed, the prose pages read before it are no longer in memory."""
    import tracemalloc

    from docsnippets import work

    prose = {
        f"docs/en/prose{i:02}.md": f"Prose {i:02} without examples, long enough.\n" * PROSE_LINES
        for i in range(PROSE_PAGES)
    }
    pr = SmallPR(tmp_path, fake, head={**prose, "docs/en/zz.md": PAGE})
    held: list[int] = []
    counted = work.parse

    def parse(size: int, path: str) -> None:
        if path == "docs/en/zz.md":
            held.append(tracemalloc.get_traced_memory()[0])
        counted(size, path)

    monkeypatch.setattr(work, "parse", parse)
    pr.stage2("warm").run(in_process_runner)  # what the run imports is not counted below
    held.clear()
    tracemalloc.start()
    try:
        result = pr.stage2().run(in_process_runner)
    finally:
        tracemalloc.stop()
    assert result.code == 0, result.stdout + result.stderr
    assert pr.statuses()[-1]["state"] == "failure"
    assert held and max(held) < sum(map(len, prose.values())) / 4, held
