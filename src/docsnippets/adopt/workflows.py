"""The two workflow files ``init`` writes, from templates that are the blocks docs/action.md recommends.

The templates hold GitHub's own ``${{ … }}`` expressions, so Jinja's variables are spelled
``[[ … ]]`` here; a test keeps the rendered files byte-identical to those blocks.
"""

from __future__ import annotations

import re
from functools import cache
from pathlib import Path

# The placeholder the user replaces with the release commit they use (RELEASING.md).
PLACEHOLDER_ACTION = "OWNER/docsnippets@0000000000000000000000000000000000000000"
PLACEHOLDER_USES = f"{PLACEHOLDER_ACTION} # v1"
# What --action may name: a repository at a full commit SHA, nothing YAML could misread.
ACTION_REF = re.compile(r"[A-Za-z0-9_.-]+/[A-Za-z0-9_.-]+@[0-9a-f]{40}")
# Relative path -> template, in the order they are written.
WORKFLOWS = {
    ".github/workflows/docsnippets.yml": "docsnippets.yml.j2",
    ".github/workflows/docsnippets-comment.yml": "docsnippets-comment.yml.j2",
}


@cache
def _environment():
    from jinja2 import Environment, FileSystemLoader, StrictUndefined

    return Environment(
        loader=FileSystemLoader(Path(__file__).parent / "templates"),
        variable_start_string="[[",
        variable_end_string="]]",
        keep_trailing_newline=True,
        undefined=StrictUndefined,
        autoescape=False,
    )


def render(template: str, uses: str = PLACEHOLDER_USES) -> str:
    """The workflow text with ``uses`` as the Action's reference."""
    return _environment().get_template(template).render(uses=uses)


def workflow_files(uses: str = PLACEHOLDER_USES) -> dict[str, str]:
    return {path: render(template, uses) for path, template in WORKFLOWS.items()}
