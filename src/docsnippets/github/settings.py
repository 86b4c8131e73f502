"""The Action's settings, read once from the runner's environment by a table of fields.

Each field names where its value comes from (an ``INPUT_<NAME>`` variable, as the runner
passes ``with:`` inputs, upper-cased with hyphens kept; or a plain variable), how its text is
parsed and what it is when absent. Nothing else in the Action reads the environment.

The ``DOCSNIPPETS_HTTP_*`` and ``DOCSNIPPETS_PER_PAGE`` variables tune the API client (the
docs/action.md lists them); the tests set them to talk fast to the fake API.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from docsnippets.constants import DEFAULT_MANIFEST, CommentMode, FailOn, parse_fail_on
from docsnippets.visible import quoted
from docsnippets.work import Bound, Limits, OverBudget


class ActionError(Exception):
    """A one-line, token-free reason the run cannot decide; exit 2."""


Parser = Callable[[str, str], Any]  # (raw text, the name it came from) -> value


def _text(raw: str, name: str) -> str:
    return raw


def _url(raw: str, name: str) -> str:
    return raw.rstrip("/")


def _path(raw: str, name: str) -> Path | None:
    return Path(raw) if raw else None


def _directory(raw: str, name: str) -> Path:
    return Path(raw or ".")


def _number(raw: str, name: str) -> float:
    try:
        value = float(raw)
    except ValueError:
        raise ActionError(f"{name}={quoted(raw)} is not a number") from None
    if not math.isfinite(value):  # a bound of nan is never passed, one of inf never counts down
        raise ActionError(f"{name}={quoted(raw)} is not a finite number")
    return value


def _count(raw: str, name: str) -> int:
    return int(_number(raw, name))


def _boolean(raw: str, name: str) -> bool:
    low = raw.strip().lower()
    if low in ("true", "yes", "1", "on"):
        return True
    if low in ("", "false", "no", "0", "off"):
        return False
    raise ActionError(f"{name}={quoted(raw)} is not a boolean; use true or false")


def _fail_on(raw: str, name: str) -> str:
    try:
        return parse_fail_on(raw)
    except ValueError as exc:
        raise ActionError(f"{name}={quoted(raw)} {exc}") from None


def _choice(enum: type[CommentMode]) -> Parser:
    def parse(raw: str, name: str) -> Any:
        try:
            return enum(raw.lower())
        except ValueError:
            raise ActionError(f"{name}={quoted(raw)} is not one of {', '.join(enum)}") from None

    return parse


@dataclass(frozen=True)
class Source:
    """Where one setting comes from. ``keep_empty``: a set but empty value means empty (an
    input whose documented empty value switches something off), not the default."""

    variable: str
    parse: Parser
    default: str
    keep_empty: bool = False

    @property
    def shown(self) -> str:
        """The name a user knows: the input's own for inputs."""
        if self.variable.startswith("INPUT_"):
            return "input " + self.variable[len("INPUT_") :].lower()
        return self.variable

    def read(self, env: Mapping[str, str]) -> Any:
        raw = env.get(self.variable)
        text = raw.strip() if raw is not None else ""
        if not text and not (self.keep_empty and raw is not None):
            text = self.default
        return self.parse(text, self.shown)


def _env(variable: str, parse: Parser = _text, default: str = "", *, keep_empty: bool = False) -> Source:
    return Source(variable, parse, default, keep_empty)


def _in(name: str, parse: Parser = _text, default: str = "", *, keep_empty: bool = False) -> Source:
    return Source(f"INPUT_{name.upper()}", parse, default, keep_empty)


# Every setting: where it comes from, how it is parsed, what it is when absent.
SOURCES: Mapping[str, Source] = {
    # The runner's context
    "event_name": _env("GITHUB_EVENT_NAME"),
    "event_path": _env("GITHUB_EVENT_PATH", _path),
    "repository": _env("GITHUB_REPOSITORY"),
    "api_url": _env("GITHUB_API_URL", _url, "https://api.github.com"),
    "server_url": _env("GITHUB_SERVER_URL", _url, "https://github.com"),
    "workspace": _env("GITHUB_WORKSPACE", _directory, "."),
    "step_summary": _env("GITHUB_STEP_SUMMARY", _path),
    "output": _env("GITHUB_OUTPUT", _path),
    "runner_temp": _env("RUNNER_TEMP", _path),
    "sha": _env("GITHUB_SHA"),
    "run_id": _env("GITHUB_RUN_ID"),
    # The inputs (action.yml)
    "token": _in("github-token"),
    "manifest": _in("manifest", default=DEFAULT_MANIFEST),
    "config": _in("config"),
    "fail_on": _in("fail-on", _fail_on, FailOn.STALE),
    "comment": _in("comment", _choice(CommentMode), CommentMode.ON_CHANGE),
    "strict_lines": _in("strict-lines", _boolean, "false"),
    "report": _in("report"),
    "status_context": _in("status-context", default="docsnippets", keep_empty=True),
    "comment_template": _in("comment-template"),
    # Tuning of the API client
    "http_timeout": _env("DOCSNIPPETS_HTTP_TIMEOUT", _number, "20"),
    "http_retries": _env("DOCSNIPPETS_HTTP_RETRIES", _count, "4"),
    "http_backoff": _env("DOCSNIPPETS_HTTP_BACKOFF", _number, "1"),
    "per_page": _env("DOCSNIPPETS_PER_PAGE", _count, "100"),
    # PyGithub's spacing between requests (GitHub's advice against secondary rate limits)
    "http_pace": _env("DOCSNIPPETS_HTTP_PACE", _number, "0.25"),
    # Requests one run may send to read a PR (docs/action.md: the request budget); a PR needing more is refused
    "request_budget": _env("DOCSNIPPETS_REQUEST_BUDGET", _count, "300"),
    # Stage 2 reads the head commit as one archive within these bounds (inflated bytes, members);
    # a larger commit is read file by file, without the code check (docs/action.md: "Stage 2")
    "archive_max_bytes": _env("DOCSNIPPETS_ARCHIVE_MAX_BYTES", _count, str(512 * 1024 * 1024)),
    "archive_max_members": _env("DOCSNIPPETS_ARCHIVE_MAX_MEMBERS", _count, "100000"),
    # What one run may judge, whatever the PR holds (work.py): the bytes of its pages that may
    # hold snippets, the bytes of the modules the code check parses, and the CPU seconds of
    # the process and its children when judging stops; past any the verdict is an error that names it
    "max_parsed_bytes": _env("DOCSNIPPETS_MAX_PARSED_BYTES", _count, str(8 * 1024 * 1024)),
    "max_code_bytes": _env("DOCSNIPPETS_MAX_CODE_BYTES", _count, str(3 * 512 * 1024)),
    "max_cpu_seconds": _env("DOCSNIPPETS_MAX_CPU_SECONDS", _number, "90"),
    # The login an App's installation token comments as (GITHUB_TOKEN: github-actions[bot])
    "comment_author": _env("DOCSNIPPETS_COMMENT_AUTHOR"),
}


@dataclass(frozen=True)
class Settings:
    event_name: str
    event_path: Path | None
    repository: str
    api_url: str
    server_url: str
    workspace: Path
    step_summary: Path | None
    output: Path | None
    runner_temp: Path | None
    sha: str
    run_id: str
    token: str = field(repr=False)  # never in a repr, a str or a traceback's locals display
    manifest: str
    config: str
    fail_on: str  # normalized: stale, desync, references in that order, comma-separated; or never
    comment: CommentMode
    strict_lines: bool
    report: str
    status_context: str
    comment_template: str  # a template file in the workspace; empty: the packaged one
    http_timeout: float
    http_retries: int
    http_backoff: float
    per_page: int
    http_pace: float
    request_budget: int
    archive_max_bytes: int
    archive_max_members: int
    max_parsed_bytes: int
    max_code_bytes: int
    max_cpu_seconds: float
    comment_author: str

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> Settings:
        return cls(**{name: source.read(env) for name, source in SOURCES.items()})

    def limits(self) -> Limits:
        from docsnippets.interpreter import cpu_seconds  # the declared Python's child works for this run

        return Limits(
            parsed_bytes=self.max_parsed_bytes,
            code_bytes=self.max_code_bytes,
            cpu_seconds=self.max_cpu_seconds,
            clock=cpu_seconds,
        )


def bound_hit(exc: OverBudget) -> str:
    """What went past which bound, naming the setting that raises it."""
    setting = {
        Bound.PARSED_BYTES: "max_parsed_bytes",
        Bound.CODE_BYTES: "max_code_bytes",
        Bound.CPU_SECONDS: "max_cpu_seconds",
    }[exc.bound]
    return f"{SOURCES[setting].shown}: {exc}"
