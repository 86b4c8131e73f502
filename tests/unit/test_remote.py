"""The repository a git remote names: only OWNER/NAME on the configured server, from the forms git
clones from, and nothing else of the URL (a token in it never leaves it)."""

from __future__ import annotations

import pytest

from docsnippets.links import repository_of_remote

GOOD = [
    ("https://github.com/acme/widgets", "acme/widgets"),
    ("https://github.com/acme/widgets.git", "acme/widgets"),
    ("https://github.com/acme/widgets/", "acme/widgets"),
    ("http://github.com/acme/widgets.git", "acme/widgets"),
    ("https://GitHub.com/Acme/Widgets.git", "Acme/Widgets"),
    ("https://user:ghp_token@github.com/acme/widgets.git", "acme/widgets"),
    ("https://github.com:443/acme/widgets", "acme/widgets"),
    ("git@github.com:acme/widgets.git", "acme/widgets"),
    ("github.com:acme/widgets", "acme/widgets"),
    ("ssh://git@github.com/acme/widgets.git", "acme/widgets"),
    ("ssh://git@github.com:22/acme/widgets", "acme/widgets"),
    ("git://github.com/acme/my_widgets.v2.git", "acme/my_widgets.v2"),
    ("https://github.com/a-b-c/x", "a-b-c/x"),
]
BAD = [
    "",
    "origin",
    "/srv/git/widgets.git",
    "../widgets",
    "file:///srv/git/widgets.git",
    "https://gitlab.com/acme/widgets.git",
    "https://github.com.evil.example/acme/widgets",
    "https://evil.example/github.com/acme/widgets",
    "https://evil.example/?github.com/acme/widgets",
    "https://github.com@evil.example/acme/widgets",
    "git@evil.example:github.com/acme/widgets",
    "https://github.com/acme",
    "https://github.com/acme/widgets/tree/main",
    "https://github.com/acme/widgets?tab=readme",
    "https://github.com/acme/widgets#top",
    "https://github.com/-acme/widgets",
    "https://github.com/acme-/widgets",
    "https://github.com/ac--me/widgets",
    "https://github.com/" + "a" * 40 + "/widgets",
    "https://github.com/acme/" + "w" * 101,
    "https://github.com/acme/..",
    "https://github.com/acme/wid%0Agets",
    "https://github.com/acme/wid gets",
    "https://github.com/acme/widgets\n",
    "git@github.com:acme/widgets.git\n[core]",
    "https://github.com:notaport/acme/widgets",
    "ftp://github.com/acme/widgets",
    "https://github.com/acme/wid`gets`",
]


@pytest.mark.parametrize(("url", "expected"), GOOD)
def test_github_remotes_name_their_repository(url: str, expected: str) -> None:
    assert repository_of_remote(url) == expected


@pytest.mark.parametrize("url", BAD)
def test_anything_else_names_none(url: str) -> None:
    assert repository_of_remote(url) is None


def test_the_server_is_the_configured_one() -> None:
    enterprise = "https://git.example.com"
    assert repository_of_remote("git@git.example.com:team/tool.git", enterprise) == "team/tool"
    assert repository_of_remote("https://github.com/team/tool", enterprise) is None
