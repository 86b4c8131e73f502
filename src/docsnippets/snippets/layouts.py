"""Bilingual layouts recognised from the Markdown paths a tree holds.

A repository met for the first time rarely says how its translations are laid out, but its
file names do: ``docs/en/x.md`` beside ``docs/zh_cn/x.md``, ``guide.md`` beside
``guide.zh-CN.md``. Each path suggests a few candidate pair rules; a candidate is kept only
when several files actually pair under it, so one odd name never decides a layout.
"""

from __future__ import annotations

import json
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass

from docsnippets.config import PairRule
from docsnippets.words import counted, plural

# A layout needs this many file pairs before it is believed.
MIN_PAIRS = 2
# The Chinese directory names that sit beside an ``en`` directory.
ZH_DIRS = ("zh", "zh_cn", "zh-CN", "zh_CN", "zh-cn", "zh-Hans", "cn")
# Suffixes that mark the Chinese twin of ``name.md``.
ZH_SUFFIXES = ("_zh", ".zh", ".zh-CN", "_CN", "_zh-CN", "_cn", ".zh_CN", "-zh")
DOCUSAURUS_EN = "docs/{path}"
DOCUSAURUS_ZH = "i18n/zh-Hans/docusaurus-plugin-content-docs/current/{path}"


@dataclass(frozen=True)
class Layout:
    """One recognised pair rule and the evidence for it: how many file pairs it makes."""

    rule: PairRule
    pairs: int

    @property
    def files(self) -> int:
        return 2 * self.pairs


def yaml_quoted(text: str) -> str:
    # A JSON string is a valid YAML double-quoted scalar, whatever a hostile path holds.
    return json.dumps(text, ensure_ascii=True)


def rules_yaml(rules: Iterable[PairRule]) -> str:
    """The ``pair_rules`` setting of ``.docsnippets.yml`` for ``rules``, ready to paste."""
    lines = ["pair_rules:"]
    lines.extend(f"  - {{en: {yaml_quoted(rule.en)}, zh: {yaml_quoted(rule.zh)}}}" for rule in rules)
    return "\n".join(lines) + "\n"


def _usable(prefix: str) -> bool:
    # Braces would read as template slots, and a rule must round-trip through the config.
    return "{" not in prefix and "}" not in prefix


def _candidates(path: str) -> Iterable[PairRule]:
    """The rules under which ``path`` would be the English side."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        if part == "en":
            prefix = "".join(p + "/" for p in parts[:i])
            if _usable(prefix):
                yield from (PairRule(f"{prefix}en/{{path}}", f"{prefix}{zh}/{{path}}") for zh in ZH_DIRS)
    name = parts[-1]
    stem, dot, ext = name.rpartition(".")
    if dot and stem and _usable(ext):
        yield from (PairRule(f"{{dir}}{{name}}.{ext}", f"{{dir}}{{name}}{suffix}.{ext}") for suffix in ZH_SUFFIXES)
    if parts[0] == "docs" and len(parts) > 1:
        yield PairRule(DOCUSAURUS_EN, DOCUSAURUS_ZH)


def _partner(rule: PairRule, path: str) -> str | None:
    found = rule.counterpart(path)
    return found[1] if found is not None and found[0] == "en" else None


def pairs_under(rules: Sequence[PairRule], files: Collection[str]) -> set[tuple[str, str]]:
    """(English, Chinese) file pairs the rules make, first rule first, each file in one pair."""
    present = set(files)
    used: set[str] = set()
    out: set[tuple[str, str]] = set()
    for rule in rules:
        for path in sorted(present):
            other = _partner(rule, path)
            if other is not None and other in present and path not in used and other not in used:
                out.add((path, other))
                used.update((path, other))
    return out


def _ranked(files: Collection[str]) -> list[tuple[PairRule, set[tuple[str, str]]]]:
    """Every candidate rule with the file pairs it makes, most pairs first."""
    present = set(files)
    counts: dict[PairRule, set[tuple[str, str]]] = {}
    for path in sorted(present):
        for rule in _candidates(path):
            other = _partner(rule, path)
            if other is not None and other in present:
                counts.setdefault(rule, set()).add((path, other))
    return sorted(counts.items(), key=lambda item: (-len(item[1]), item[0].en, item[0].zh))


def _chosen(ranked: Iterable[tuple[PairRule, set[tuple[str, str]]]], least: int) -> list[tuple[Layout, set]]:
    used: set[str] = set()
    chosen = []
    for rule, pairs in ranked:
        fresh = {(en, zh) for en, zh in pairs if en not in used and zh not in used}
        if len(fresh) >= least:
            chosen.append((Layout(rule, len(fresh)), fresh))
            used.update(f for pair in fresh for f in pair)
    return chosen


def recognise(files: Collection[str]) -> tuple[Layout, ...]:
    """The layouts the paths show, strongest first; each adds at least MIN_PAIRS new pairs."""
    chosen = [layout for layout, _ in _chosen(_ranked(files), MIN_PAIRS)]
    # Directory rules before suffix rules, as in the defaults: a file under docs/en/ that also
    # has a name_zh.md twin belongs to the directory layout.
    return tuple(sorted(chosen, key=lambda layout: (layout.rule.en.startswith("{"), -layout.pairs)))


def hints(files: Collection[str], configured: Sequence[PairRule]) -> tuple[tuple[Layout, tuple[str, str]], ...]:
    """Rules the names suggest but that pair too few files to be believed (fewer than
    MIN_PAIRS), each with one file pair as its evidence: shown to people, never acted on."""
    settled = {layout.rule for layout in recognise(files)} | set(configured)
    return tuple((layout, min(pairs)) for layout, pairs in _chosen(_ranked(files), 1) if layout.rule not in settled)


def missing_rules(layouts: Sequence[Layout], configured: Sequence[PairRule]) -> tuple[Layout, ...]:
    """The recognised layouts the configured rules do not already hold."""
    return tuple(layout for layout in layouts if layout.rule not in configured)


def describe(layouts: Sequence[Layout]) -> str:
    """``12 files pair up: docs/en/{path} <-> docs/zh_cn/{path} (6 pairs)``, for people."""
    files = sum(layout.files for layout in layouts)
    rules = "; ".join(f"{lay.rule.en} <-> {lay.rule.zh} ({counted(lay.pairs, 'pair')})" for lay in layouts)
    return f"{counted(files, 'file')} {plural(files, 'pairs', 'pair')} up: {rules}"
