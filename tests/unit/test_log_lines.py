"""The Action's log lines and commit status description: any text, one inert line."""

from __future__ import annotations

import io

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.support.runner_log import obeyed

from docsnippets.github.workflow import LogStream, annotation, one_line, plain_line

# Text built from the pieces that make commands, so that examples hit them often.
PIECES = st.sampled_from(["::", "##[", "]", "\n", "\r", " ", "\t", "\u2028", "\x85", "%", "%0A", "set-output", "x"])
HOSTILE = st.lists(PIECES | st.text(max_size=5), max_size=30).map("".join)


@given(HOSTILE)
def test_a_plain_line_is_one_line_the_runner_never_obeys(text):
    line = plain_line(text)
    assert "\n" not in line and "\r" not in line
    assert obeyed(line) == []


@given(HOSTILE)
def test_an_annotation_is_one_command_of_its_own(text):
    command = annotation("warning", text, file=text, title=text)
    assert "\n" not in command and "\r" not in command
    assert [c.name for c in obeyed(command)] == ["warning"]


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("::set-output name=a::b", "%3A:set-output name=a::b"),
        ("  ::warning::x", "  %3A:warning::x"),
        ("  \t::warning::x", "  \\u{0009}::warning::x"),  # a tab is hidden: shown, and the line no command
        ("a ##[add-mask]b", "a ##%5Badd-mask]b"),
        ("a\nb\r\nc", "a\\u{000A}b\\u{000D}\\u{000A}c"),  # line breaks in the one visible form
        ("a\x1b[8m\u202eb", "a\\u{001B}[8m\\u{202E}b"),
        ("100%", "100%25"),
        ("docsnippets: fine", "docsnippets: fine"),
    ],
)
def test_plain_line_examples(text, shown):
    assert plain_line(text) == shown


@given(st.text(max_size=400))
def test_a_status_description_is_one_short_line(text):
    description = one_line(text, 140)
    assert len(description) <= 140
    assert description.isprintable()
    if len(" ".join(text.split())) > 140:
        assert description.endswith("…")


def test_status_description_examples():
    shown = "check failed: docs/a\\u{000A}::set-output x\\u{000D}\\u{000A}.md"
    assert one_line("check failed: docs/a\n::set-output x\r\n.md", 140) == shown
    assert one_line("a   b", 140) == "a b"
    assert one_line("x" * 135 + "\x1b", 140) == "x" * 135 + "\u2026"  # never cut inside an escape
    assert one_line("tag\U000e0041 esc\x1b", 140) == "tag\\u{E0041} esc\\u{001B}"
    assert one_line("x" * 200, 140) == "x" * 139 + "…"


def test_the_log_stream_takes_commands_only_as_built():
    out = io.StringIO()
    log = LogStream(out)
    log.command(annotation("error", "a\nb"))
    log.line("::warning::not a command")
    log.annotate("notice", "n")
    for forged in ("plain text", "::warning::a\n::set-output name=x::y"):
        with pytest.raises(ValueError):
            log.command(forged)
    assert [c.name for c in obeyed(out.getvalue())] == ["error", "notice"]
