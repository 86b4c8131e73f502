"""Step outputs: values in the one visible form (no line break left in them) and a private
random delimiter per value besides, so no value can write another output."""

from __future__ import annotations

import re
import uuid

import pytest
from hypothesis import given
from hypothesis import strategies as st
from tests.support.runner_log import output_file

from docsnippets.github import workflow
from docsnippets.github.workflow import write_outputs
from docsnippets.visible import visible

FIXED = "docsnippets_EOF"  # the delimiter once used for every value


def test_every_value_has_its_own_random_delimiter(tmp_path):
    path = tmp_path / "out"
    write_outputs(path, {"one": "x", "two": "a\nb"})
    write_outputs(path, {"three": ""})
    text = path.read_text(encoding="utf-8")
    delimiters = re.findall(r"^\w+<<(.*)$", text, re.MULTILINE)
    assert len(delimiters) == len(set(delimiters)) == 3
    assert all(re.fullmatch(r"ghadelimiter_[0-9a-f-]{36}", d) for d in delimiters)
    assert output_file(text) == {"one": "x", "two": "a\\u{000A}b", "three": ""}


@given(st.dictionaries(st.sampled_from(["fresh", "verdict", "report"]), st.text()))
def test_any_value_reads_back_as_shown(tmp_path_factory, values):
    path = tmp_path_factory.mktemp("outputs") / "out"
    write_outputs(path, values)
    assert output_file(path.read_text(encoding="utf-8")) == {k: visible(v) for k, v in values.items()}


def test_a_value_cannot_end_its_block_and_write_another_output(tmp_path):
    path = tmp_path / "out"
    forged = f"x\n{FIXED}\nfresh<<{FIXED}\ntrue\n{FIXED}"
    write_outputs(path, {"report": forged, "fresh": "false"})
    assert output_file(path.read_text(encoding="utf-8")) == {"report": visible(forged), "fresh": "false"}


def test_a_value_holding_its_delimiter_is_refused(tmp_path, monkeypatch):
    known = uuid.UUID(int=7)
    monkeypatch.setattr(workflow.uuid, "uuid4", lambda: known)
    path = tmp_path / "out"
    with pytest.raises(ValueError, match="its own delimiter"):
        write_outputs(path, {"report": f"a\nghadelimiter_{known}\nfresh=true"})
    assert not path.exists() or path.read_text(encoding="utf-8") == ""
