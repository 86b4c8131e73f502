"""Which pages are translations of which: the page pairs the rules make, and their languages.

A source page pairs with its page in each translation, a translation page with its source
page; :func:`pairs.pair_up` then aligns the examples of each page pair.
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from docsnippets.config import Config
from docsnippets.snippets.records import Untranslated

MAX_LISTED = 1000  # source pages named per language without a page in it; the rest are counted
# (source page, translation page, the translation's language code)
PagePair = tuple[str, str, str]


def page_pairs(files: Collection[str], config: Config) -> list[PagePair]:
    """Every (source page, translation page, language) whose two pages are in ``files``.

    Pages are taken in path order and rules in order, and the first rule whose counterpart
    is present wins: a translation page has one source page, a source page one translation
    per language, and no page is both. With two languages every page is in at most one pair.
    """
    source = config.source_language
    source_of: dict[str, str] = {}  # translation page -> its source page
    taken: dict[str, set[str]] = {}  # source page -> the languages it is paired in
    out: list[PagePair] = []
    for path in sorted(files):
        for side, other_side, other in config.counterparts(path):
            if other not in files:
                continue
            src, tr, language = (path, other, other_side) if side == source else (other, path, side)
            if tr in source_of or tr in taken or src in source_of or language in taken.get(src, ()):
                continue
            source_of[tr] = src
            taken.setdefault(src, set()).add(language)
            out.append((src, tr, language))
    return out


def page_languages(
    by_file: Mapping[str, object], found: Sequence[PagePair], config: Config
) -> tuple[tuple[tuple[str, str], ...], tuple[Untranslated, ...]]:
    """The language of every page with snippets or paired with one, and per language the source
    pages with snippets that have no page in it: their count and the first MAX_LISTED by path."""
    source = config.source_language
    language: dict[str, str] = {}
    for src, tr, code in found:
        language[src], language[tr] = source, code
    for file in by_file:
        if file not in language:
            code = config.language_of(file)
            if code is not None:
                language[file] = code
    has = {(src, code) for src, _, code in found}
    count: dict[str, int] = {}
    listed: dict[str, list[str]] = {}
    for file in sorted(by_file):
        if language.get(file) == source:
            for code in dict.fromkeys(side for _, side, _ in config.counterparts(file)):
                if (file, code) not in has:
                    count[code] = count.get(code, 0) + 1
                    if count[code] <= MAX_LISTED:
                        listed.setdefault(code, []).append(file)
    missing = tuple(Untranslated(code, count[code], tuple(listed[code])) for code in sorted(count))
    return tuple(sorted(language.items())), missing
