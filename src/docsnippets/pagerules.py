"""Page templates and the layouts made of them: which page of one language is which page of another.

A template is a path with slots (``{path}``, or ``{dir}`` and ``{name}``); a page that fits one
language's template has its counterpart where the same slots fill another's. ``config`` reads
and checks the two settings made of them, ``pair_rules`` and ``translations``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

SLOT = re.compile(r"\{(path|dir|name)\}")
_SLOT_RE = {
    "path": r"(?P<path>[^\n]+)",
    "dir": r"(?P<dir>(?:[^/\n]+/)*)",
    "name": r"(?P<name>[^/\n]+)",
}


@lru_cache(maxsize=1024)  # every template of a configuration (at most config.MAX_TEMPLATES) stays compiled
def template_regex(template: str) -> re.Pattern[str]:
    parts: list[str] = []
    pos = 0
    for match in SLOT.finditer(template):
        parts.append(re.escape(template[pos : match.start()]))
        parts.append(_SLOT_RE[match.group(1)])
        pos = match.end()
    parts.append(re.escape(template[pos:]))
    return re.compile("".join(parts))


def fill(template: str, slots: dict[str, str]) -> str:
    return SLOT.sub(lambda m: slots[m.group(1)], template)


@dataclass(frozen=True)
class PageRule:
    """One layout of translated pages: a path template per language, all with the same slots.

    ``templates`` holds (language code, template) with the source language first. A page that
    fits a translation's template has one counterpart, its source page; a page that fits the
    source template has one per translation. Translations are tried before the source, so a
    name like ``{dir}{name}_zh.md`` is read as the translation it spells, not as a source page.
    """

    templates: tuple[tuple[str, str], ...]

    @property
    def source(self) -> str:
        return self.templates[0][0]

    def counterparts(self, path: str) -> list[tuple[str, str, str]]:
        """(language of ``path``, language of the counterpart, counterpart path) for this rule."""
        (source, source_template), *translations = self.templates
        for language, template in translations:
            match = template_regex(template).fullmatch(path)
            if match:
                other = fill(source_template, match.groupdict())
                if other != path:
                    return [(language, source, other)]
        match = template_regex(source_template).fullmatch(path)
        if not match:
            return []
        slots = match.groupdict()
        out = [(source, language, fill(template, slots)) for language, template in translations]
        return [found for found in out if found[2] != path]


@dataclass(frozen=True)
class Translations:
    """The ``translations`` setting: the languages, where each one's pages live, which is the source.

    Language codes are kept as the project spells them (``zh-hant``, ``pt-BR``, ``zh_CN``): they
    are compared as written, so a code is whatever the paths use.
    """

    source: str
    rules: tuple[PageRule, ...]
    names: tuple[tuple[str, str], ...] = ()

    @property
    def languages(self) -> tuple[str, ...]:
        """The source first, then every translation in the order the rules name them."""
        out = [self.source]
        for rule in self.rules:
            out += [code for code, _ in rule.templates if code not in out]
        return tuple(out)

    def selection(self) -> dict[str, Any]:
        return {"source": self.source, "pages": [dict(rule.templates) for rule in self.rules]}
