"""``fail-on`` as a list: parsing, and which findings each setting counts."""

from __future__ import annotations

import pytest

from docsnippets.constants import parse_fail_on
from docsnippets.judge.verdict import Verdict


@pytest.mark.parametrize(
    ("text", "normal"),
    [
        ("stale", "stale"),
        ("desync", "desync"),
        ("never", "never"),
        ("references", "references"),
        ("References , STALE", "stale,references"),
        ("references,desync,stale,desync", "stale,desync,references"),
    ],
)
def test_parse_normalizes(text, normal):
    assert parse_fail_on(text) == normal


@pytest.mark.parametrize(
    ("text", "problem"),
    [("sometimes", "is not one of"), ("stale,", "is not one of"), ("never,desync", "combines never")],
)
def test_parse_rejects(text, problem):
    with pytest.raises(ValueError, match=problem):
        parse_fail_on(text)


def verdict(fail_on: str, *, fresh: bool = True, desync: int = 0, references: int = 0) -> Verdict:
    return Verdict(
        parse_fail_on(fail_on), fresh, () if fresh else ("1 snippet changed",), desync, references=references
    )


@pytest.mark.parametrize(
    ("fail_on", "fresh", "desync", "references", "cause"),
    [
        ("stale", True, 0, 2, None),
        ("stale,references", True, 0, 2, "references"),
        ("references", True, 0, 2, "references"),
        ("references", False, 0, 2, "stale"),  # a stale manifest counts whenever the gate is on
        ("desync", True, 1, 2, "desync"),  # desync keeps its meaning; references are not counted
        ("desync,references", True, 1, 2, "desync"),
        ("desync,references", True, 0, 2, "references"),
        ("never", False, 1, 2, None),
        ("stale,references", True, 0, 0, None),
    ],
)
def test_each_setting_counts_what_it_names(fail_on, fresh, desync, references, cause):
    v = verdict(fail_on, fresh=fresh, desync=desync, references=references)
    assert v.cause == cause and v.exit_code == (0 if cause is None else 1)
    assert v.as_json()["broken_references"] == references and v.outputs()["failed-on"] == (cause or "")
    if references:
        words = f"{references} broken references to the code"
        relaxed = f"{words}, not enforced"
        assert words in v.sentence() and (relaxed in v.sentence()) == ("references" not in fail_on)
