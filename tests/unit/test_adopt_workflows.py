"""The workflows ``docsnippets init`` writes are the blocks the docs recommend, byte for byte."""

from __future__ import annotations

import pytest
from markdown_it import MarkdownIt
from tests.support.corpus import REPO
from tests.support.scripts import load_script

from docsnippets.adopt.workflows import PLACEHOLDER_USES, WORKFLOWS, render, workflow_files

# The pages CI lints are the pages whose workflow blocks must be what init writes.
PAGES = load_script(".ci/lint_workflows.py", "lint_workflows").pages(REPO)


def page_blocks(page) -> dict[str, str]:
    """A page's yaml blocks whose first line names a workflow file: that path -> the block."""
    tokens = MarkdownIt("commonmark").parse(page.read_text(encoding="utf-8"))
    out = {}
    for token in tokens:
        first = token.content.split("\n", 1)[0] if token.type == "fence" else ""
        if token.info.strip() == "yaml" and first.startswith("# .github/workflows/"):
            out[first.split()[1]] = token.content
    return out


def test_the_action_page_holds_both_workflows_as_init_writes_them():
    blocks = page_blocks(REPO / "docs" / "action.md")
    assert sorted(blocks) == sorted(WORKFLOWS)
    assert workflow_files() == blocks


@pytest.mark.parametrize("page", PAGES, ids=lambda p: p.relative_to(REPO).as_posix())
def test_every_workflow_block_of_every_page_is_what_init_writes(page):
    written = workflow_files()
    for path, block in page_blocks(page).items():
        assert block == written.get(path), f"{page.relative_to(REPO)}: the block of {path} is not what init writes"


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
