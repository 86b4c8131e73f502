"""Selection settings: the defaults from the specification, overridable by a YAML file."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass, field, fields
from fnmatch import fnmatchcase
from functools import cached_property
from pathlib import Path
from typing import Any

from docsnippets.pagerules import SLOT, PageRule, Translations
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


class ConfigError(ValueError):
    """A configuration problem, phrased as one line naming the file and the fix."""


def _check_template(template: str, where: str, setting: str) -> list[str]:
    """The slots of a page template; a template without one, or with stray braces, is refused,
    and so is one that is no relative path inside the repository: the pages it names would lie
    outside the tree, or be one page under two names."""
    parts = template.split("/")
    if any(part in ("", ".", "..") for part in parts) or any(c in template for c in "\0\n"):
        raise ConfigError(
            f"{where}: {setting} template {quoted(template)} must be a relative path inside the repository "
            "('/' between names, no '.', '..' or empty part)"
        )
    slots = SLOT.findall(template)
    leftover = SLOT.sub("", template)
    if not slots or "{" in leftover or "}" in leftover:
        raise ConfigError(
            f"{where}: {setting} template {quoted(template)} needs {{path}}, or {{dir}} and {{name}}, "
            "and no other braces"
        )
    if len(set(slots)) != len(slots):
        raise ConfigError(f"{where}: {setting} template {quoted(template)} uses a slot twice; use each slot once")
    if "path" in slots and len(slots) > 1:
        # {path} spans directories: beside another slot a long page name splits in cubically
        # many ways, and {path} alone already names every page {dir}{name} would.
        raise ConfigError(
            f"{where}: {setting} template {quoted(template)} mixes slots; use {{path}} alone, or {{dir}} and {{name}}"
        )
    return sorted(slots)


@dataclass(frozen=True)
class PairRule:
    """``en`` and ``zh`` are path templates with ``{path}``, ``{dir}`` and ``{name}`` slots."""

    en: str
    zh: str

    @property
    def pages(self) -> PageRule:
        return PageRule((("en", self.en), ("zh", self.zh)))

    def counterpart(self, path: str) -> tuple[str, str] | None:
        """(side of ``path``, the other side's path) when ``path`` fits this rule."""
        found = self.pages.counterparts(path)
        return (found[0][0], found[0][2]) if found else None


def _validate_pages(rule: PageRule, where: str, setting: str) -> None:
    """Every template of ``rule`` is a page template, and all have the same slots (a page's
    counterpart is found by filling the slots its own path gave); ``setting`` names the key the
    templates came from, so the error points at the line to fix."""
    _one_language_per_template(dict(rule.templates), where)
    shapes = {tuple(_check_template(template, where, setting)) for _, template in rule.templates}
    if len(shapes) != 1:
        shown = " -> ".join(quoted(t) for _, t in rule.templates)
        raise ConfigError(f"{where}: {setting} templates {shown} must use the same slots")


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
    # Any number of languages; when set it replaces pair_rules (see Translations).
    translations: Translations | None = None
    source: Path | None = field(default=None, compare=False)

    def selection(self) -> dict[str, Any]:
        """The settings that decide what is selected; recorded in the manifest."""
        pages: dict[str, Any] = (
            {"pair_rules": [{"en": r.en, "zh": r.zh} for r in self.pair_rules]}
            if self.translations is None
            else {"translations": self.translations.selection()}
        )
        return {
            "languages": list(self.languages),
            "modules": list(self.modules),
            "extensions": list(self.extensions),
            **pages,
            "exclude": list(self.exclude),
            "python": self.python,
        }

    @cached_property
    def page_rules(self) -> tuple[PageRule, ...]:
        """Every layout of pages, in the order tried: the translations' or the pair rules'."""
        if self.translations is not None:
            return self.translations.rules
        return tuple(rule.pages for rule in self.pair_rules)

    @property
    def source_language(self) -> str:
        return self.translations.source if self.translations is not None else "en"

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

    def counterparts(self, path: str) -> list[tuple[str, str, str]]:
        """Every counterpart the rules give, in rule order: (language of ``path``, the
        counterpart's language, counterpart path). A source page has one per translation."""
        return [found for rule in self.page_rules for found in rule.counterparts(path)]

    def language_of(self, path: str) -> str | None:
        """The language the first fitting rule gives ``path``, None when no rule fits it."""
        found = self.counterparts(path)
        return found[0][0] if found else None


_KEYS = {f.name for f in fields(Config)} - {"source"}


def _str_list(value: Any, key: str, where: str) -> tuple[str, ...]:
    if isinstance(value, str):
        value = [value]
    if not isinstance(value, list) or not all(isinstance(v, str) and v for v in value):
        raise ConfigError(f"{where}: '{key}' must be a list of non-empty strings")
    return tuple(value)


def _selecting(value: Any, key: str, where: str) -> tuple[str, ...]:
    """A list that selects what is read: empty, it would select nothing, and pass every check."""
    found = _str_list(value, key, where)
    if not found:
        raise ConfigError(
            f"{where}: '{key}' is empty, so nothing would be checked; name at least one, or leave the key out"
        )
    return found


def _languages(value: Any, key: str, where: str) -> tuple[str, ...]:
    return tuple(v.lower() for v in _selecting(value, key, where))


def _extensions(value: Any, key: str, where: str) -> tuple[str, ...]:
    return tuple((v if v.startswith(".") else "." + v).lower() for v in _selecting(value, key, where))


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
        _validate_pages(rule.pages, where, "'pair_rules'")
    return rules


# A display name goes into the comment's raw HTML summaries: words only, nothing that links or mentions.
_NAME = re.compile(r"[^\W_](?:[^\W_]|[ .()'-]){0,39}")
# Every page is matched against every template: a bound keeps a hostile config from costing minutes.
MAX_TEMPLATES = 500
_CODE = re.compile(r"[A-Za-z]{2,8}(?:[-_][A-Za-z0-9]{1,8})*")


def _code(value: Any, where: str) -> str:
    if isinstance(value, bool):  # YAML 1.1 reads a bare no (Norwegian), yes, on or off as a boolean
        bare = "no" if value is False else "yes"
        raise ConfigError(
            f'{where}: language code {bare} reads as the YAML boolean {str(value).lower()}; quote it: "{bare}"'
        )
    if not isinstance(value, str) or not _CODE.fullmatch(value):
        raise ConfigError(
            f"{where}: language code {quoted(str(value))} must look like en, zh-hant, pt-BR or zh_CN "
            "(letters, digits, - or _)"
        )
    return value


def _translations(value: Any, key: str, where: str) -> Translations:
    usage = "{source: en, pages: {en: 'docs/en/{path}', de: 'docs/de/{path}'}, names: {de: German}}"
    if not isinstance(value, dict) or not set(value) <= {"source", "pages", "names"} or "pages" not in value:
        raise ConfigError(f"{where}: 'translations' must be a mapping such as {usage}")
    source = _code(value.get("source", "en"), where)
    layouts = value["pages"] if isinstance(value["pages"], list) else [value["pages"]]
    templates = sum(len(layout) for layout in layouts if isinstance(layout, dict))
    if templates > MAX_TEMPLATES:
        raise ConfigError(
            f"{where}: 'translations.pages' holds {templates} templates; at most {MAX_TEMPLATES} are read"
        )
    rules: list[PageRule] = []
    for layout in layouts:
        if not isinstance(layout, dict) or not all(isinstance(t, str) for t in layout.values()):
            raise ConfigError(f"{where}: each 'translations.pages' entry must map language codes to path templates")
        codes = [_code(code, where) for code in layout]
        if source not in codes or len(codes) < 2:
            raise ConfigError(
                f"{where}: 'translations.pages' {', '.join(codes) or 'entry'} must hold the source language "
                f"{source!r} and at least one translation"
            )
        rule = PageRule(((source, layout[source]), *((c, layout[c]) for c in codes if c != source)))
        _validate_pages(rule, where, "'translations.pages'")
        rules.append(rule)
    names = value.get("names", {})
    if not isinstance(names, dict) or not all(isinstance(n, str) and _NAME.fullmatch(n) for n in names.values()):
        raise ConfigError(
            f"{where}: 'translations.names' must map language codes to display names of letters, digits, "
            "spaces and . ( ) ' - only"
        )
    found = Translations(source, tuple(rules), tuple((_code(c, where), n) for c, n in names.items()))
    languages = found.languages
    stray = [code for code, _ in found.names if code not in languages]
    if stray:
        raise ConfigError(
            f"{where}: 'translations.names' {quoted(stray[0])} is not a language of 'translations.pages'; "
            "name only the languages configured"
        )
    return found


def _one_language_per_template(layout: dict[str, str], where: str) -> None:
    """Two languages with one template would make each page both: which one it is would be a guess."""
    seen: dict[str, str] = {}
    for code, template in layout.items():
        if template in seen:
            raise ConfigError(
                f"{where}: languages {quoted(seen[template])} and {quoted(code)} have the same template "
                f"{quoted(template)}; give each language its own"
            )
        seen[template] = code


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
    "translations": _translations,
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
    if "translations" in data and "pair_rules" in data:
        raise ConfigError(f"{where}: set 'translations' or 'pair_rules', not both; 'translations' holds every layout")
    return Config(**{key: parse(data[key], key, where) for key, parse in _PARSERS.items() if key in data})
