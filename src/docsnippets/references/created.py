"""Modules a page has its reader create: a snippet whose first line is a comment naming a
``.py`` path (``# pkg/tools/new_tool.py``) shows the file the tutorial asks for, so the
page's imports of that module are not missing code (pure: the bodies are only read).
"""

from __future__ import annotations

import re
from collections.abc import Iterable

# The whole comment is one relative path of a Python file; ``# main.py`` counts too (as ``main``).
_HEADER = re.compile(r"#\s*(?:\./)?((?:[A-Za-z_][\w-]*/)*[A-Za-z_]\w*\.py)\s*")


def created_paths(bodies: Iterable[str]) -> frozenset[str]:
    """The '/'-separated paths the bodies' header comments name."""
    out = set()
    for body in bodies:
        first = next((line.strip() for line in body.split("\n") if line.strip()), "")
        match = _HEADER.fullmatch(first)
        if match:
            out.add(match.group(1))
    return frozenset(out)


def is_created(created: frozenset[str], module: str) -> bool:
    """Whether ``module`` is one of ``created`` (dotted names) or a package holding one."""
    return any(name == module or name.startswith(module + ".") for name in created)
