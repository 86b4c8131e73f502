"""The rendering API in one place: each output has its own module, imported when used.

``report_data`` (the JSON report), ``textreport`` (the terminal), ``comment`` (PR comment,
job summary, ``--format markdown``) and ``catalogue`` (``docsnippets render``); the escaping
helpers are ``markup``. The comment and the catalogue are Jinja2 templates, so their modules
are loaded only by a command that prints one: a terminal ``check`` never imports jinja2.
"""

from __future__ import annotations

from typing import Any

from docsnippets.constants import COMMENT_BUDGET
from docsnippets.judge.compare import Report
from docsnippets.report.context import CommentContext, Links
from docsnippets.report.data import report_json
from docsnippets.report.markup import code_span, fenced
from docsnippets.report.templating import TemplateError
from docsnippets.visible import visible, visible_block

__all__ = [
    "CommentContext",
    "Links",
    "TemplateError",
    "catalogue",
    "code_span",
    "comment",
    "fenced",
    "report_json",
    "visible",
    "visible_block",
]


def comment(freshness: Report, ctx: CommentContext, budget: int = COMMENT_BUDGET) -> str:
    from docsnippets.report import comment as module

    return module.comment(freshness, ctx, budget)


def catalogue(data: dict[str, Any], lang: str = "zh") -> str:
    from docsnippets.report.catalogue import catalogue as build

    return build(data, lang)
