"""The Action's settings table, the token kept out of every display, and workflow commands."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import pytest

from docsnippets.constants import CommentMode, FailOn
from docsnippets.github.settings import SOURCES, ActionError, Settings
from docsnippets.github.workflow import add_mask, annotation

SECRET = "ghs_neverShowThis0123456789"


def test_the_table_names_every_field_once():
    assert list(SOURCES) == [f.name for f in dataclasses.fields(Settings)]


def test_defaults_when_the_environment_is_empty():
    s = Settings.from_environ({})
    assert (s.fail_on, s.comment, s.strict_lines) == (FailOn.STALE, CommentMode.ON_CHANGE, False)
    assert (s.manifest, s.status_context, s.report, s.token) == ("documentation-snippets.json", "docsnippets", "", "")
    assert (s.api_url, s.workspace, s.event_path) == ("https://api.github.com", Path("."), None)
    assert (s.http_timeout, s.http_retries, s.per_page) == (20.0, 4, 100)


def test_an_empty_status_context_switches_the_status_off():
    assert Settings.from_environ({"INPUT_STATUS-CONTEXT": ""}).status_context == ""
    assert Settings.from_environ({"INPUT_STATUS-CONTEXT": " gate "}).status_context == "gate"
    # Other inputs fall back to their default when empty, as the runner passes every input.
    assert Settings.from_environ({"INPUT_MANIFEST": " "}).manifest == "documentation-snippets.json"


@pytest.mark.parametrize(
    ("env", "message"),
    [
        (
            {"INPUT_FAIL-ON": "sometimes"},
            "input fail-on='sometimes' is not one of stale, desync, references, never, nor a list of them",
        ),
        (
            {"INPUT_FAIL-ON": "never,stale"},
            "input fail-on='never,stale' combines never with other values; never turns the gate off, pass it alone",
        ),
        ({"INPUT_COMMENT": "loud"}, "input comment='loud' is not one of on-change, always, never"),
        ({"INPUT_STRICT-LINES": "maybe"}, "input strict-lines='maybe' is not a boolean; use true or false"),
        ({"DOCSNIPPETS_HTTP_TIMEOUT": "soon"}, "DOCSNIPPETS_HTTP_TIMEOUT='soon' is not a number"),
        # a bound of nan is never passed and one of inf never counts: each would lift it unsaid
        ({"DOCSNIPPETS_MAX_CPU_SECONDS": "nan"}, "DOCSNIPPETS_MAX_CPU_SECONDS='nan' is not a finite number"),
        ({"DOCSNIPPETS_REQUEST_BUDGET": "inf"}, "DOCSNIPPETS_REQUEST_BUDGET='inf' is not a finite number"),
        ({"DOCSNIPPETS_MAX_PARSED_BYTES": "-inf"}, "DOCSNIPPETS_MAX_PARSED_BYTES='-inf' is not a finite number"),
    ],
)
def test_bad_values_are_one_line_naming_the_input(env, message):
    with pytest.raises(ActionError) as err:
        Settings.from_environ(env)
    assert str(err.value) == message


def test_the_token_is_in_no_repr_or_str():
    s = Settings.from_environ({"INPUT_GITHUB-TOKEN": SECRET, "GITHUB_REPOSITORY": "o/r"})
    assert s.token == SECRET
    for shown in (repr(s), str(s), f"{s}", f"{s!r}"):
        assert SECRET not in shown and "o/r" in shown


def test_add_mask_is_one_command_and_refuses_what_would_break_it():
    assert add_mask(SECRET) == f"::add-mask::{SECRET}"
    assert add_mask("") is None and add_mask("a\nb") is None


def test_annotation_properties_cannot_end_the_command():
    line = annotation("error", "50%\nnext", "a,b:c\u202e.md", (3, 4), "t:1")
    assert line == "::error file=a%2Cb%3Ac\\u{202E}.md,line=3,endLine=4,title=t%3A1::50%25\\u{000A}next"
