"""Selection settings: the defaults from the specification, overridable by a YAML file."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from typing import Any

from docsnippets.visible import quoted

DEFAULT_LANGUAGES = ("python", "python3", "py")
DEFAULT_MODULES = ("asyncio", "concurrent.futures", "threading", "multiprocessing", "_thread")
DEFAULT_EXTENSIONS = (".md", ".markdown")
DEFAULT_PAIR_RULES = (("docs/en/{path}", "docs/zh/{path}"), ("{dir}{name}.md", "{dir}{name}_zh.md"))
DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
# The Python whose grammar judges the snippets: the Action image's (the Dockerfile's base).
DEFAULT_PYTHON = "3.12"
_PYTHON = re.compile(r"3\.(1[1-9]|[2-9][0-9])")

# Links are built from it: a host with an optional port and path, nothing that ends a link.
_SERVER_URL = re.compile(r"https?://[\w.-]+(?::[0-9]+)?(?:/[\w.~%-]+)*")
_PLACEHOLDER = re.compile(r"\{(path|dir|name)\}")
_PLACEHOLDER_RE = {
    "path": r"(?P<path>[^\n]+)",
    "dir": r"(?P<dir>(?:[^/\n]+/)*)",
    "name": r"(?P<name>[^/\n]+)",
}


@lru_cache(maxsize=64)
def _template_regex(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    for match in _PLACEHOLDER.finditer(template):
        parts.append(re.escape(template[pos : match.start()]))
        parts.append(_PLACEHOLDER_RE[match.group(1)])
        pos = match.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts))


class ConfigError(ValueError):
    """A configuration problem, phrased as one line naming the file and the fix."""


@dataclass(frozen=True)
class PairRule:
    """``en`` and ``zh`` are path templates with ``{path}``, ``{dir}`` and ``{name}`` slots."""

    en: str
    zh: str

    def counterpart(self, path: str) -> tuple[str, str] | None:
        """(side of ``path``, the other side's path) when ``path`` fits this rule."""
        for side, this, other in (("zh", self.zh, self.en), ("en", self.en, self.zh)):
            match = _template_regex(this).fullmatch(path)
            if match:
                slots = match.groupdict()
                other_path = _PLACEHOLDER.sub(lambda m, slots=slots: slots[m.group(1)], other)
                if other_path != path:
                    return side, other_path
        return None

    def validate(self, where: str) -> None:
        for side in (self.en, self.zh):
            slots = _PLACEHOLDER.findall(side)
            leftover = _PLACEHOLDER.sub("", side)
            if not slots or "{" in leftover or "}" in leftover:
                raise ConfigError(
                    f"{where}: pair rule template {quoted(side)} needs {{path}}, or {{dir}} and {{name}}, "
                    "and no other braces"
                )
            if len(set(slots)) != len(slots):
                raise ConfigError(f"{where}: pair rule template {quoted(side)} uses a slot twice; use each slot once")
        if sorted(_PLACEHOLDER.findall(self.en)) != sorted(_PLACEHOLDER.findall(self.zh)):
            raise ConfigError(f"{where}: pair rule {quoted(self.en)} -> {quoted(self.zh)} must use the same slots")


@dataclass(frozen=True)
class Config:
    """Every setting, defaults from the specification; ``source`` names the file they came from."""

    languages: tuple[str, ...] = DEFAULT_LANGUAGES
    modules: tuple[str, ...] = DEFAULT_MODULES
    extensions: tuple[str, ...] = DEFAULT_EXTENSIONS
    pair_rules: tuple[PairRule, ...] = tuple(PairRule(en, zh) for en, zh in DEFAULT_PAIR_RULES)
    exclude: tuple[str, ...] = ()
    max_file_bytes: int = DEFAULT_MAX_FILE_BYTES
    repository: str | None = None
    server_url: str = "https://github.com"
    packages: tuple[str, ...] = ()  # top-level packages of the repository besides those found
    references: bool = True  # check the imports of snippets against the tree's code
    ignore_calls: tuple[str, ...] = ()  # fnmatch patterns of callees (module.Qual.name) not judged
    python: str = DEFAULT_PYTHON  # the Python version whose tokenizer and compile() judge the snippets
    source: Path | None = field(default=None, compare=False)

    def selection(self) -> dict[str, Any]:
        """The settings that decide what is selected; recorded in the manifest."""
        return {
            "languages": list(self.languages),
            "modules": list(self.modules),
            "extensions": list(self.extensions),
            "pair_rules": [{"en": r.en, "zh": r.zh} for r in self.pair_rules],
            "exclude": list(self.exclude),
            "python": self.python,
        }

    def same_selection(self, recorded: Any) -> bool:
        """Whether a manifest's recorded selection is this one.

        A manifest written before the ``python`` setting existed has no such key; its snippets
        are compared with what the default version makes of them, so it is fresh exactly when
        that version agrees with every record in it (``update`` then writes the key).
        """
        if isinstance(recorded, dict) and "python" not in recorded:
            recorded = {**recorded, "python": DEFAULT_PYTHON}
        return recorded == self.selection()

    def is_markdown(self, path: str) -> bool:
        return path.lower().endswith(self.extensions)

    def is_excluded(self, path: str) -> bool:
        return bool(self.exclude) and any(fnmatchcase(path, pattern) for pattern in self.exclude)

    def selects(self, path: str) -> bool:
        """Whether ``path`` is a page this selection reads: a Markdown name, not excluded."""
        return self.is_markdown(path) and not self.is_excluded(path)

    def counterparts(self, path: str) -> list[tuple[str, str]]:
        """Every rule that fits, in rule order: (side of ``path``, counterpart path)."""
        found = (rule.counterpart(path) for rule in self.pair_rules)
        return [f for f in found if f is not None]


_KEYS = {f.name for f in fields(Config)} - {"source"}


def _str_list(value: Any, key: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of non-empty strings")
    return tuple(value)


def _languages(value: Any, key: str, where: str) -> tuple[str, ...]:
    return tuple(v.lower() for v in _str_list(value, key, where))


def _extensions(value: Any, key: str, where: str) -> tuple[str, ...]:
    return tuple((v if v.startswith(".") else "." + v).lower() for v in _str_list(value, key, where))


def _exclude(value: Any, key: str, where: str) -> tuple[str, ...]:
    patterns = _str_list(value, key, where)
    for pattern in patterns:
        if pattern.startswith("/") or "\\" in pattern or pattern.count("[") != pattern.count("]"):
            raise ConfigError(
                f"{where}: bad glob {quoted(pattern)} in 'exclude': use a relative path pattern "
                "with '/', such as 'docs/archive/*'"
            )
    return patterns


def _pair_rules(value: Any, key: str, where: str) -> tuple[PairRule, ...]:
    if not isinstance(value, list) or not all(
        isinstance(r, dict) and set(r) == {"en", "zh"} and all(isinstance(v, str) for v in r.values()) for r in value
    ):
        raise ConfigError(f"{where}: 'pair_rules' must be a list of {{en: ..., zh: ...}} templates")
    rules = tuple(PairRule(r["en"], r["zh"]) for r in value)
    for rule in rules:
        rule.validate(where)
    return rules


def _positive_int(value: Any, key: str, where: str) -> int:
    if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
        raise ConfigError(f"{where}: '{key}' must be a positive integer")
    return value


def _packages(value: Any, key: str, where: str) -> tuple[str, ...]:
    names = _str_list(value, key, where)
    for name in names:
        if not name.isidentifier():
            raise ConfigError(f"{where}: '{key}' holds {quoted(name)}; list top-level package names such as 'slime'")
    return names


def _python(value: Any, key: str, where: str) -> str:
    if isinstance(value, float):  # YAML reads 3.10 as the number 3.1
        raise ConfigError(f"{where}: '{key}' is the number {value!r}; quote the version, such as {key}: \"3.12\"")
    if not isinstance(value, str) or not _PYTHON.fullmatch(value.strip()):
        raise ConfigError(
            f"{where}: '{key}' is {value!r}; write a Python version from 3.11 on, such as {key}: \"3.12\""
        )
    return value.strip()


def _boolean(value: Any, key: str, where: str) -> bool:
    if not isinstance(value, bool):
        raise ConfigError(f"{where}: '{key}' must be true or false")
    return value


def _url_part(pattern: re.Pattern[str], problem: str) -> Callable[[Any, str, str], str]:
    """A non-empty string without a trailing '/' that fits ``pattern``; ``problem`` says what it must do."""

    def parse(value: Any, key: str, where: str) -> str:
        if not isinstance(value, str) or not value:
            raise ConfigError(f"{where}: '{key}' must be a non-empty string")
        value = value.rstrip("/")
        if not pattern.fullmatch(value):
            raise ConfigError(f"{where}: '{key}' must {problem}")
        return value

    return parse


# Every setting a config file may hold, and how its value is checked and normalized.
_PARSERS: dict[str, Callable[[Any, str, str], Any]] = {
    "languages": _languages,
    "modules": _str_list,
    "extensions": _extensions,
    "exclude": _exclude,
    "pair_rules": _pair_rules,
    "max_file_bytes": _positive_int,
    "repository": _url_part(re.compile(r"[\w.-]+/[\w.-]+"), "look like owner/name"),
    "server_url": _url_part(_SERVER_URL, "be an http(s) URL such as https://github.example.com"),
    "packages": _packages,
    "references": _boolean,
    "ignore_calls": _str_list,
    "python": _python,
}


def from_mapping(data: Any, where: str) -> Config:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: the top level must be a mapping of settings")
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown setting {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}")
    return Config(**{key: parse(data[key], key, where) for key, parse in _PARSERS.items() if key in data})
