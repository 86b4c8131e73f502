"""The declared Python: the setting, the port's rules, and what travels between two Pythons."""

from __future__ import annotations

import io
import json
import re
import tokenize
from pathlib import Path

import pytest

from docsnippets.config import DEFAULT_PYTHON, Config, ConfigError, from_mapping
from docsnippets.constants import Status
from docsnippets.snippets import classify, facts, grammar
from docsnippets.snippets.facts import Facts
from docsnippets.snippets.grammar import GrammarError, Running, judge

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.parametrize(("value", "expected"), [("3.11", "3.11"), ("3.13", "3.13"), (" 3.12 ", "3.12")])
def test_the_setting_takes_a_version(value, expected):
    assert from_mapping({"python": value}, "cfg.yml").python == expected


@pytest.mark.parametrize(
    ("value", "needle"),
    [
        (3.1, "is the number 3.1; quote the version"),  # YAML's reading of `python: 3.10`
        (3.12, "is the number 3.12; quote the version"),
        ("3.10", "from 3.11 on"),
        ("2.7", "from 3.11 on"),
        ("3", "from 3.11 on"),
        ("python3.12", "from 3.11 on"),
        (True, "from 3.11 on"),
    ],
)
def test_a_bad_setting_is_one_line_naming_the_file(value, needle):
    with pytest.raises(ConfigError) as caught:
        from_mapping({"python": value}, "cfg.yml")
    message = str(caught.value)
    assert message.startswith("cfg.yml: 'python'") and needle in message and "\n" not in message


def test_the_default_is_the_action_images_python():
    base = re.search(r"^FROM python:(\d+\.\d+)-", (ROOT / "Dockerfile").read_text(encoding="utf-8"), re.M)
    assert base is not None and base.group(1) == DEFAULT_PYTHON == Config().python


def test_the_selection_records_the_version_and_an_older_manifest_reads_as_the_default():
    config = Config()
    assert config.selection()["python"] == DEFAULT_PYTHON
    older = {k: v for k, v in config.selection().items() if k != "python"}
    assert config.same_selection(older)
    assert config.same_selection(config.selection())
    assert not config.same_selection({**older, "python": "3.13"})
    assert not Config(python="3.13").same_selection(older)


def test_the_running_version_is_judged_here():
    assert isinstance(judge(grammar.RUNNING), Running)


def test_another_version_without_a_provider_is_a_one_line_error(monkeypatch):
    monkeypatch.setattr(grammar, "_provider", None)
    monkeypatch.setattr(grammar, "_judges", {})
    other = "3.99"
    with pytest.raises(GrammarError) as caught:
        judge(other)
    message = str(caught.value)
    assert isinstance(caught.value, ConfigError) and "\n" not in message
    assert f"Python {other}'s grammar (the `python` setting)" in message
    assert f"run docsnippets with Python {other}" in message


def test_a_provided_judge_is_made_once_per_version(monkeypatch):
    made: list[str] = []

    def provider(version: str) -> grammar.Judge:
        made.append(version)
        return Running()

    monkeypatch.setattr(grammar, "_provider", provider)
    monkeypatch.setattr(grammar, "_judges", {})
    assert judge("3.98") is judge("3.98")
    assert made == ["3.98"]


@pytest.mark.parametrize(
    "body",
    [
        "import asyncio\nasync def f():\n    await g(f'{x!r:>{w}}')  # note\n",
        "await f(\n",  # the tokenizer gives up: the rest travels as one item
        'x = "\\ud800"\nawait y\n',
        "print('no marker')\n",
        "async def f(a) -> int\n",
    ],
)
def test_facts_travel_between_two_pythons_unchanged(body):
    found = facts.facts_here(body, ("asyncio",))
    assert facts.decode_facts(json.loads(json.dumps(facts.encode_facts(found)))) == found


def test_token_types_travel_by_name():
    for kind in (tokenize.NAME, tokenize.OP, tokenize.STRING, classify.REST, *range(-7, -1)):
        assert classify.type_number(classify.type_name(kind)) == kind
    assert classify.type_number("FSTRING_START") == classify.FSTRING_START
    assert classify.type_number("NO_SUCH_TYPE") == tokenize.ERRORTOKEN


def test_the_code_digest_does_not_depend_on_type_numbers():
    items = ((1, 0, tokenize.NAME, "await"), (1, 0, classify.FSTRING_START, 'f"'))
    assert classify.digest_of(items) == classify.digest_of(facts.decode_code(facts.encode_code(items)) or ())


def test_unselected_bodies_get_no_status():
    assert facts.facts_here("x = 1\n", ("asyncio",)) == Facts((), (), None, None)
    found = facts.facts_here("await x\n", ())
    assert found.status is not None and found.status.status == Status.NEEDS_ASYNC_WRAPPER


def test_answer_and_serve_speak_json_lines():
    out = io.BytesIO()
    requests = [json.dumps(["facts", "await x\n", []]).encode(), json.dumps(["comparable", "a = 1\n"]).encode()]
    facts.serve(requests, out)
    hello, answered, code = (json.loads(line) for line in out.getvalue().splitlines())
    assert hello[:2] == [int(p) for p in grammar.RUNNING.split(".")]
    assert facts.decode_facts(answered).markers == ("await",)
    assert facts.decode_code(code) == classify.comparable("a = 1\n")


@pytest.mark.parametrize(
    "raw",
    [
        None,
        {},
        [1, 2, 3],
        [[], [], None, None, "extra"],
        [["await"], [], ["no-such-status", None, None], None],
        [["await"], [], ["parses", 3, None], None],
        [["await"], [], ["syntax-error", "m", "7"], None],
        [["await"], [], ["syntax-error", "m", True], None],
        [[1], [], None, None],
        [["await"], [], None, [[1, 0, "NAME"]]],
        [["await"], [], None, [["1", 0, "NAME", "x"]]],
        [["await"], [], None, [[1, "0", "NAME", "x"]]],
        [["await"], [], None, [[1, 0, 1, "x"]]],
    ],
)
def test_an_answer_without_the_shape_of_facts_is_refused(raw):
    with pytest.raises((ValueError, TypeError)):
        facts.decode_facts(raw)
