"""Selection settings: the defaults from the specification, overridable by a YAML file."""

from __future__ import annotations

import errno
import os
import re
import stat
from dataclasses import dataclass, field, fields
from fnmatch import fnmatchcase
from functools import lru_cache
from pathlib import Path
from typing import Any

DEFAULT_LANGUAGES = ("python", "python3", "py")
DEFAULT_MODULES = ("asyncio", "concurrent.futures", "threading", "multiprocessing", "_thread")
DEFAULT_EXTENSIONS = (".md", ".markdown")
DEFAULT_PAIR_RULES = (("docs/en/{path}", "docs/zh/{path}"), ("{dir}{name}.md", "{dir}{name}_zh.md"))
DEFAULT_MAX_FILE_BYTES = 5 * 1024 * 1024
CONFIG_FILENAMES = (".docsnippets.yml", ".docsnippets.yaml")

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


class NotRegularFile(OSError):
    """A path that exists but is a FIFO, a device or a socket rather than a file."""


def read_regular(path: Path) -> bytes | None:
    """The bytes of a regular file, None when it does not exist.

    Opened without blocking and checked before reading: a manifest or config that is a FIFO,
    a device or a symlink to ``/dev/zero`` would otherwise hang or fill the memory. Raises
    IsADirectoryError, NotRegularFile, or another OSError for anything else.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    with os.fdopen(fd, "rb") as handle:
        mode = os.fstat(fd).st_mode
        if stat.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, "Is a directory", str(path))
        if not stat.S_ISREG(mode):
            raise NotRegularFile(errno.EINVAL, "not a regular file", str(path))
        return handle.read()


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
                    f"{where}: pair rule template {side!r} needs {{path}}, or {{dir}} and {{name}}, and no other braces"
                )
            if len(set(slots)) != len(slots):
                raise ConfigError(f"{where}: pair rule template {side!r} uses a slot twice; use each slot once")
        if sorted(_PLACEHOLDER.findall(self.en)) != sorted(_PLACEHOLDER.findall(self.zh)):
            raise ConfigError(f"{where}: pair rule {self.en!r} -> {self.zh!r} must use the same slots")


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
    source: Path | None = field(default=None, compare=False)

    def selection(self) -> dict[str, Any]:
        """The settings that decide what is selected; recorded in the manifest."""
        return {
            "languages": list(self.languages),
            "modules": list(self.modules),
            "extensions": list(self.extensions),
            "pair_rules": [{"en": r.en, "zh": r.zh} for r in self.pair_rules],
            "exclude": list(self.exclude),
        }

    def is_markdown(self, path: str) -> bool:
        return path.lower().endswith(self.extensions)

    def is_excluded(self, path: str) -> bool:
        return bool(self.exclude) and any(fnmatchcase(path, pattern) for pattern in self.exclude)

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


def from_mapping(data: Any, where: str) -> Config:
    if data is None:
        data = {}
    if not isinstance(data, dict):
        raise ConfigError(f"{where}: the top level must be a mapping of settings")
    unknown = sorted(str(k) for k in data if k not in _KEYS)
    if unknown:
        raise ConfigError(f"{where}: unknown setting {', '.join(unknown)}; known: {', '.join(sorted(_KEYS))}")
    kwargs: dict[str, Any] = {}
    for key in ("languages", "modules", "extensions", "exclude"):
        if key in data:
            kwargs[key] = _str_list(data[key], key, where)
    if "languages" in kwargs:
        kwargs["languages"] = tuple(v.lower() for v in kwargs["languages"])
    if "extensions" in kwargs:
        kwargs["extensions"] = tuple((v if v.startswith(".") else "." + v).lower() for v in kwargs["extensions"])
    for pattern in kwargs.get("exclude", ()):
        if pattern.startswith("/") or "\\" in pattern or pattern.count("[") != pattern.count("]"):
            raise ConfigError(
                f"{where}: bad glob {pattern!r} in 'exclude': use a relative path pattern "
                "with '/', such as 'docs/archive/*'"
            )
    if "pair_rules" in data:
        rules = data["pair_rules"]
        if not isinstance(rules, list) or not all(
            isinstance(r, dict) and set(r) == {"en", "zh"} and all(isinstance(v, str) for v in r.values())
            for r in rules
        ):
            raise ConfigError(f"{where}: 'pair_rules' must be a list of {{en: ..., zh: ...}} templates")
        kwargs["pair_rules"] = tuple(PairRule(r["en"], r["zh"]) for r in rules)
        for rule in kwargs["pair_rules"]:
            rule.validate(where)
    if "max_file_bytes" in data:
        value = data["max_file_bytes"]
        if not isinstance(value, int) or isinstance(value, bool) or value <= 0:
            raise ConfigError(f"{where}: 'max_file_bytes' must be a positive integer")
        kwargs["max_file_bytes"] = value
    for key in ("repository", "server_url"):
        if key in data:
            if not isinstance(data[key], str) or not data[key]:
                raise ConfigError(f"{where}: '{key}' must be a non-empty string")
            kwargs[key] = data[key].rstrip("/")
    if "repository" in kwargs and not re.fullmatch(r"[\w.-]+/[\w.-]+", kwargs["repository"]):
        raise ConfigError(f"{where}: 'repository' must look like owner/name")
    if "server_url" in kwargs and not _SERVER_URL.fullmatch(kwargs["server_url"]):
        raise ConfigError(f"{where}: 'server_url' must be an http(s) URL such as https://github.example.com")
    return Config(**kwargs)


def load(path: Path | None, root: Path) -> Config:
    """The explicit file, else ``.docsnippets.yml`` at the root, else the defaults."""
    if path is None:
        for name in CONFIG_FILENAMES:
            candidate = root / name
            if candidate.is_file():
                path = candidate
                break
        else:
            return Config()
    import yaml  # here: most trees have no config, and yaml is a fifth of the start-up

    where = str(path)
    try:
        raw = read_regular(path)
        if raw is None:
            raise ConfigError(f"{where}: config file not found; pass an existing file to --config")
        text = raw.decode("utf-8")
    except NotRegularFile:
        raise ConfigError(f"{where}: not a regular file; pass the config file to --config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read the config ({exc.__class__.__name__}); fix the file") from None
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{where}: invalid YAML{at}: {problem}; fix the syntax") from None
    except RecursionError:
        raise ConfigError(f"{where}: invalid YAML: nested too deeply; fix the syntax") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # PyYAML's constructors let these through for values such as 2001-13-01 or an
        # integer of more than 4300 digits.
        detail = str(exc).split(";")[0].splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"{where}: invalid YAML value ({detail}); fix the value") from None
    config = from_mapping(data, where)
    return Config(**{**{f.name: getattr(config, f.name) for f in fields(Config)}, "source": path})
