"""Fixtures of the end-to-end tests: the fake GitHub API and the Slime manifests."""

from __future__ import annotations

import pytest
from tests.support.corpus import BASE, HEAD, need
from tests.support.fake_github import FakeGitHub
from tests.support.scenario import PAGE, TOKEN, manifest_of


@pytest.fixture
def fake():
    with FakeGitHub(token=TOKEN, max_page_size=PAGE) as server:
        yield server


@pytest.fixture
def manifests(tmp_path_factory):
    """The manifests `update` writes for the base and the head commit of the Slime change."""
    need(HEAD, BASE)
    tmp = tmp_path_factory.mktemp("manifests")
    return {"base": manifest_of(BASE, tmp), "head": manifest_of(HEAD, tmp)}
