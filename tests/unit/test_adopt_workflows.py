"""The workflows ``docsnippets init`` writes are README's recommended blocks, byte for byte."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from tests.support.corpus import REPO

from docsnippets.adopt.workflows import PLACEHOLDER_USES, WORKFLOWS, render, workflow_files


def readme_blocks() -> dict[str, str]:
    """README's yaml blocks whose first line names a workflow file: that path -> the block."""
    tokens = MarkdownIt("commonmark").parse((REPO / "README.md").read_text(encoding="utf-8"))
    out = {}
    for token in tokens:
        first = token.content.split("\n", 1)[0] if token.type == "fence" else ""
        if token.info.strip() == "yaml" and first.startswith("# .github/workflows/"):
            out[first.split()[1]] = token.content
    return out


def test_rendered_workflows_are_readmes_blocks_byte_for_byte():
    blocks = readme_blocks()
    assert sorted(blocks) == sorted(WORKFLOWS)
    assert workflow_files() == blocks


def test_the_action_reference_is_the_only_thing_that_varies():
    pinned = "acme/docsnippets@" + "a" * 40
    for path, template in WORKFLOWS.items():
        default, other = render(template), render(template, pinned)
        assert default.count(PLACEHOLDER_USES) == 1
        assert other == default.replace(PLACEHOLDER_USES, pinned)
        assert f"uses: {pinned}\n" in other and path.startswith(".github/workflows/")


@pytest.mark.parametrize("template", sorted(WORKFLOWS.values()))
def test_workflows_keep_least_privilege_and_pins(template: str):
    text = render(template)
    assert "permissions: {}" in text and "persist-credentials: false" in text
    for line in text.splitlines():
        key, _, value = line.strip().removeprefix("- ").partition(": ")
        if key == "uses" and value != PLACEHOLDER_USES:
            ref = value.split()[0]
            assert len(ref.rsplit("@", 1)[1]) == 40, line  # every third-party action pinned by SHA
