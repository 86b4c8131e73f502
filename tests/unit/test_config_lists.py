"""Lists in .docsnippets.yml that select what is read cannot be empty: an empty one would
select nothing and every check would pass on zero snippets."""

from __future__ import annotations

import pytest

from docsnippets.config import ConfigError, from_mapping


@pytest.mark.parametrize("key", ["languages", "extensions"])
def test_an_empty_selecting_list_is_an_error_that_says_so(key):
    with pytest.raises(ConfigError) as caught:
        from_mapping({key: []}, ".docsnippets.yml")
    message = str(caught.value)
    assert message.startswith(".docsnippets.yml: ") and key in message and "empty" in message
    assert "\n" not in message


def test_an_empty_modules_list_is_allowed():
    """Without modules a snippet is still selected by its async markers."""
    assert from_mapping({"modules": []}, ".docsnippets.yml").modules == ()
