"""Extraction is linear in the file's size whatever its lines are: the prefilter alone and
the whole path a file takes (prefilter, decode, parse, classify), on pathological inputs."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.growth import MAX_RATIO, growth

from docsnippets.config import Config
from docsnippets.snippets.extract import may_contain_snippet, snippets_from_bytes

CONFIG = Config()
SIZE = 8_000  # bytes of the smaller input; the larger is growth.SCALE times that


def repeated(unit: bytes, head: bytes = b"", tail: bytes = b"") -> callable:
    return lambda n: head + unit * max(1, n // len(unit)) + tail


# Each shape once made a search scan on to the end of the file for every fence opener or for
# every character of a run.
SHAPES = {
    "word-then-openers": repeated(b"```python\n", head=b"async\n"),
    "openers-then-word": repeated(b"```python\n", tail=b"async\n"),
    "openers-of-growing-runs": lambda n: b"".join(b"`" * (3 + i % 40) + b"python\n" for i in range(n // 25)) + b"await",
    "one-long-backtick-line": lambda n: b"`" * n + b"\nasync\n",
    "one-long-tilde-line-then-python": lambda n: b"~" * n + b"python\nasync\n",
    "spaces-after-an-opener": lambda n: b"```" + b" " * n + b"\nasync\n",
    "tilde-openers-backtick-closers": repeated(b"~~~python\n```\n", head=b"async\n"),
    "closers-that-are-too-short": repeated(b"```\n", head=b"````python\n", tail=b"await\n"),
    "quoted-openers": repeated(b"> ```python\n", tail=b"> async\n"),
    "list-openers": repeated(b"- ```python\n", tail=b"  async\n"),
    "one-long-body-line": lambda n: b"```python\nasync " + b"a" * n + b"\n",
    "words-everywhere": repeated(b"await async ```python threading\n"),
}


def prefilter(data: bytes) -> bool:
    return may_contain_snippet(data, CONFIG)


def extract(data: bytes) -> object:
    return snippets_from_bytes("docs/en/x.md", data, CONFIG)


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_the_prefilter_is_linear(shape):
    assert growth(prefilter, SHAPES[shape], SIZE) < MAX_RATIO


@pytest.mark.parametrize("shape", sorted(SHAPES))
def test_extraction_is_linear(shape):
    assert growth(extract, SHAPES[shape], SIZE) < MAX_RATIO


LINES = st.sampled_from(
    [
        b"```python",
        b"````py",
        b"~~~python",
        b"```",
        b"````",
        b"~~~",
        b"async",
        b"await x",
        b"> ```python",
        b"- ```py",
        b"   ```",
        b"    ```",
        b"import threading",
        b"text",
        b"`" * 50,
        b"",
    ]
)


@settings(max_examples=8, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(LINES, min_size=1, max_size=12))
def test_any_repeated_block_of_fence_lines_is_linear_in_the_prefilter(lines):
    unit = b"\n".join(lines) + b"\n"
    assert growth(prefilter, repeated(unit, tail=b"async\n"), SIZE) < MAX_RATIO
