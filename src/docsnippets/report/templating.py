"""The Jinja2 environment the comment and the catalogue are laid out in.

Sandboxed, because a repository may point ``comment-template`` at a file of its own and that
file is read from the checkout the Action runs in. ``autoescape`` is off since the output is
Markdown, not HTML: safety comes from the values, which the callers escape before a template
sees them (see ``comment.py``), and from the filters below, which are the escaping helpers of
``markup.py``; what a template renders has its hidden characters shown (``docsnippets.visible``),
whatever it did with its values. Undefined names are errors, so a misspelt variable fails the run instead of
printing nothing. jinja2 is imported here only, and only when something is rendered: a
terminal ``check`` never pays for it. A template inside the repository is read with the root's
rule of :mod:`docsnippets.fileio`: a symlink there is refused, never rendered through (it could
point at ``/proc/self/environ`` and post the runner's token in the comment).
"""

from __future__ import annotations

import errno
from functools import cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsnippets.fileio import SymlinkRefused, read_regular
from docsnippets.report import markup
from docsnippets.visible import visible, visible_block
from docsnippets.words import counted

if TYPE_CHECKING:
    from jinja2 import Template
    from jinja2.sandbox import SandboxedEnvironment

TEMPLATES = Path(__file__).with_name("templates")
TEMPLATE_LIMIT = 1 << 20  # a comment template is a page of Markdown, not a megabyte


class TemplateError(ValueError):
    """A template that cannot be read, parsed or rendered; the message names the file."""


FILTERS = {
    "code_span": markup.code_span,
    "code_cell": lambda text: markup.code_span(text, in_table=True),
    "fenced": markup.fenced,
    "plain": markup.plain,
    "visible": visible,
    "details": markup.details,
    "counted": counted,  # {{ n|counted("rename") }}: "1 rename", "2 renames"
}


@cache
def environment() -> SandboxedEnvironment:
    from jinja2 import FileSystemLoader, StrictUndefined
    from jinja2.sandbox import SandboxedEnvironment

    env = SandboxedEnvironment(
        loader=FileSystemLoader(TEMPLATES),
        autoescape=False,
        undefined=StrictUndefined,
        keep_trailing_newline=True,
        trim_blocks=True,
        lstrip_blocks=True,
    )
    env.filters.update(FILTERS)
    return env


@cache
def words() -> dict[str, Any]:
    """The catalogue's words in each language, as data: adding a language adds a block there."""
    import yaml

    data = yaml.safe_load((TEMPLATES / "words.yaml").read_text(encoding="utf-8"))
    return data


def load(path: Path | None, default: str, *, root: Path | None) -> tuple[Template, str]:
    """The user's template at ``path`` (in the repository ``root``), else the packaged ``default``;
    with its name for errors."""
    from jinja2 import TemplateError as JinjaError

    env = environment()
    if path is None:
        return env.get_template(default), default
    try:
        raw = read_regular(path, root=root, limit=TEMPLATE_LIMIT)
        if raw is None:
            raise FileNotFoundError(errno.ENOENT, "No such file or directory", str(path))
    except SymlinkRefused as exc:
        raise TemplateError(str(exc)) from None
    except OSError as exc:
        raise TemplateError(
            f"{path}: cannot read the template ({exc.strerror or exc}); check comment-template"
        ) from None
    if len(raw) > TEMPLATE_LIMIT:
        raise TemplateError(f"{path}: the template is over {TEMPLATE_LIMIT} bytes; shorten it")
    try:
        return env.from_string(raw.decode("utf-8")), str(path)
    except UnicodeDecodeError:
        raise TemplateError(f"{path}: the template is not UTF-8 text; save it as UTF-8") from None
    except JinjaError as exc:
        raise TemplateError(f"{path}: {_where(exc)}; fix the template") from None


def render(template: Template, name: str, context: dict[str, Any]) -> str:
    """The rendered text, hidden characters shown whatever the template did with its values."""
    from jinja2 import TemplateError as JinjaError

    try:
        return visible_block(template.render(context))
    except JinjaError as exc:
        raise TemplateError(f"{name}: {_where(exc)}; fix the template") from None
    except (TypeError, ValueError, ArithmeticError, LookupError) as exc:
        raise TemplateError(f"{name}: {type(exc).__name__}: {exc}; fix the template") from None


def _where(exc: Exception) -> str:
    line = getattr(exc, "lineno", None)
    message = " ".join(str(getattr(exc, "message", None) or exc).split())
    return f"line {line}: {message}" if line else message
