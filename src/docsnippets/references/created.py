"""Modules a page has its reader create: a Python fence whose first line is a comment naming
a ``.py`` path (``# pkg/tools/new_tool.py``) shows the file the tutorial asks for, so the
page's imports of that module are not missing code (pure: the bodies are only read).

Any Python fence of the page may show it, not only a selected (async) snippet: a tutorial
often has the reader write a plain module, then use it from an async example.
"""

from __future__ import annotations

import re
from collections.abc import Collection, Iterable

from docsnippets.snippets.fences import NestingError, extract_fences

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


def page_fences(data: bytes | None, languages: Collection[str]) -> list[str]:
    """The bodies of the page's fences in ``languages`` (its bytes as read; nothing when it
    cannot be read as UTF-8 Markdown, whose snippets would then not have been found either)."""
    if data is None:
        return []
    try:
        return [f.body for f in extract_fences(data.decode("utf-8-sig")) if f.language in languages]
    except (UnicodeDecodeError, NestingError):
        return []


def is_created(created: frozenset[str], module: str) -> bool:
    """Whether ``module`` is one of ``created`` (dotted names) or a package holding one."""
    return any(name == module or name.startswith(module + ".") for name in created)
