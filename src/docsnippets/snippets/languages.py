"""Translated layouts of any number of languages, recognised from the Markdown paths a tree holds.

layouts.py finds two-language pair rules (``docs/en`` beside ``docs/zh``). A project with more
languages spells each one's code somewhere in its paths: a directory (``docs/{lang}/…`` with
any nesting after it, Hugo's ``content/{lang}/…``), a suffix (``page.{lang}.md`` as
mkdocs-static-i18n writes it, ``README_{LANG}.md``, ``README.{lang}.md``), Docusaurus's
``i18n/{lang}/docusaurus-plugin-content-docs/current/…`` against ``docs/…``, or a directory
suffix beside a source directory that has no code (``docs/source`` and ``docs/source_en``).
Each path proposes the layouts it could belong to; a layout is believed by the pages that pair
with their source page under it, and where several fit, the one that pairs the most wins.
"""

from __future__ import annotations

import re
import unicodedata
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass

from docsnippets.snippets.layouts import MIN_PAIRS, yaml_quoted

# ISO 639-1: a path part is read as a language only when it starts with one of these.
_ISO = frozenset(
    re.findall(
        r"[a-z]{2}",
        "aa ab ae af ak am an ar as av ay az ba be bg bh bi bm bn bo br bs ca ce ch co cr cs cu cv cy da de "
        "dv dz ee el en eo es et eu fa ff fi fj fo fr fy ga gd gl gn gu gv ha he hi ho hr ht hu hy hz ia id "
        "ie ig ii ik io is it iu ja jv ka kg ki kj kk kl km kn ko kr ks ku kv kw ky la lb lg li ln lo lt lu "
        "lv mg mh mi mk ml mn mr ms mt my na nb nd ne ng nl nn no nr nv ny oc oj om or os pa pi pl ps pt qu "
        "rm rn ro ru rw sa sc sd se sg si sk sl sm sn so sq sr ss st su sv sw ta te tg th ti tk tl tn to tr "
        "ts tt tw ty ug uk ur uz ve vi vo wa wo xh yi yo za zh zu",
    )
)
# A code as projects spell it: a language, then a script or region (zh-hant, pt-BR, zh_CN, zh-Hans).
_CODE = re.compile(r"([A-Za-z]{2})(?:[-_](?:[A-Za-z]{4}|[A-Za-z]{2}|[0-9]{3}))?")
_DOCUSAURUS = "i18n/{lang}/docusaurus-plugin-content-docs/current/{path}"
_SUFFIX = re.compile(r"(?P<stem>.+?)(?P<sep>[._-])(?P<code>[A-Za-z]{2}(?:[-_][A-Za-z0-9]{2,4})?)(?P<ext>\.[^./]+)")


def is_code(text: str) -> bool:
    match = _CODE.fullmatch(text)
    return match is not None and match.group(1).lower() in _ISO


@dataclass(frozen=True)
class GroupLayout:
    """A layout of several languages: each code's page template (the source first) and the
    pages that pair with their source page under it."""

    templates: tuple[tuple[str, str], ...]
    pairs: int

    @property
    def languages(self) -> tuple[str, ...]:
        return tuple(code for code, _ in self.templates)

    def describe(self) -> str:
        """One line of evidence: ``12 languages (en the source; de, es, …): docs/en/{path},
        docs/de/{path}, …; 854 translated pages pair with their source page`` (no ``…`` when
        the two templates shown are all there are)."""
        source, *others = self.languages
        shown = ", ".join(template for _, template in self.templates[:2])
        more = ", …" if len(self.templates) > 2 else ""
        return (
            f"{len(self.languages)} languages ({source} the source; {', '.join(others)}): {shown}{more}; "
            f"{self.pairs} translated pages pair with their source page"
        )


# A layout's key -> the source template and how a translation's template is spelled.
Key = tuple[str, str, str]  # (source template, translation template with {lang}, kind)


def _proposals(path: str) -> Iterable[tuple[Key, str, str]]:
    """(layout key, language code or "" for a page without one, the page's slot value)."""
    parts = path.split("/")
    for i, part in enumerate(parts[:-1]):
        prefix = "".join(p + "/" for p in parts[:i])
        rest = "/".join(parts[i + 1 :])
        if is_code(part):
            yield (f"{prefix}{{lang}}/{{path}}", f"{prefix}{{lang}}/{{path}}", "directory"), part, rest
        for sep in ("_", "-"):
            base, found, code = part.rpartition(sep)
            if found and base and is_code(code):
                key = (f"{prefix}{base}/{{path}}", f"{prefix}{base}{sep}{{lang}}/{{path}}", "directory suffix")
                yield key, code, rest
        for sep in ("_", "-"):  # the source directory of the suffix layout above: no code
            yield (f"{prefix}{part}/{{path}}", f"{prefix}{part}{sep}{{lang}}/{{path}}", "directory suffix"), "", rest
    docusaurus = len(parts) > 4 and parts[0] == "i18n" and parts[2:4] == ["docusaurus-plugin-content-docs", "current"]
    if docusaurus and is_code(parts[1]):
        yield ("docs/{path}", _DOCUSAURUS, "docusaurus"), parts[1], "/".join(parts[4:])
    if parts[0] == "docs" and len(parts) > 1:
        yield ("docs/{path}", _DOCUSAURUS, "docusaurus"), "", "/".join(parts[1:])
    directory = "".join(p + "/" for p in parts[:-1])
    match = _SUFFIX.fullmatch(parts[-1])
    if match and is_code(match["code"]):
        sep, ext = match["sep"], match["ext"]
        key = (f"{{dir}}{{name}}{ext}", f"{{dir}}{{name}}{sep}{{lang}}{ext}", "suffix")
        yield key, match["code"], directory + match["stem"]
    stem, dot, ext = parts[-1].rpartition(".")
    if dot and stem:
        for sep in (".", "_", "-"):
            yield (f"{{dir}}{{name}}.{ext}", f"{{dir}}{{name}}{sep}{{lang}}.{ext}", "suffix"), "", directory + stem


def recognise_groups(
    files: Collection[str], guess: Callable[[list[str]], str | None] | None = None
) -> list[GroupLayout]:
    """The layouts of several languages the paths show, the one that pairs the most first.

    ``guess`` names the language of a source that has no code in its paths from some of its
    pages (None: English, unless English is a translation)."""
    pages: dict[Key, dict[str, dict[str, str]]] = {}
    # A brace in a name would read as a template's slot: such a path is no evidence.
    for path in sorted(p for p in files if "{" not in p and "}" not in p):
        for key, code, slot in _proposals(path):
            pages.setdefault(key, {}).setdefault(code, {})[slot] = path
    found = [layout for key, by_code in pages.items() if (layout := _layout(key, by_code, guess)) is not None]
    return sorted(found, key=lambda layout: (-layout.pairs, layout.templates))


def _layout(
    key: Key, by_code: dict[str, dict[str, str]], guess: Callable[[list[str]], str | None] | None
) -> GroupLayout | None:
    source_template, template, _ = key
    coded = {code: slots for code, slots in by_code.items() if code}
    sources = [code for code in coded if code == "en"] or sorted(coded, key=lambda c: (-len(coded[c]), c))[:1]
    if "" in by_code and source_template != template:
        sources.append("")
    best: tuple[int, str, list[tuple[str, int]]] | None = None
    for source in sources:
        slots = by_code[source].keys()
        kept = [(code, len(s.keys() & slots)) for code, s in sorted(coded.items()) if code != source]
        kept = [(code, n) for code, n in kept if n]
        pairs = sum(n for _, n in kept)
        if kept and pairs >= MIN_PAIRS and (best is None or pairs > best[0]):
            best = (pairs, source, kept)
    if best is None:
        return None
    pairs, source, kept = best
    if source == "":
        named = guess(sorted(by_code[""].values())[:20]) if guess is not None else None
        codes = {code.lower() for code, _ in kept}
        source = named if named and named.lower() not in codes else "en" if "en" not in codes else "und"
        head = (source, source_template)
    else:
        head = (source, template.replace("{lang}", source))
    return GroupLayout((head, *((code, template.replace("{lang}", code)) for code, _ in kept)), pairs)


# --- the source's language from its text, when no path names it --------------------------


_SCRIPTS = (("HIRAGANA", "ja"), ("KATAKANA", "ja"), ("HANGUL", "ko"), ("CJK", "zh"), ("CYRILLIC", "ru"))


def language_of_text(text: str) -> str | None:
    """The language a page's letters suggest: Japanese kana, Korean Hangul, Chinese Han,
    Cyrillic; Latin letters say nothing (None)."""
    counts: dict[str, int] = {}
    for char in text[:200_000]:
        if ord(char) < 0x0370:
            continue
        name = unicodedata.name(char, "")
        for script, code in _SCRIPTS:
            if script in name:
                counts[code] = counts.get(code, 0) + 1
                break
    if counts.get("ja", 0) * 10 > sum(counts.values()):
        return "ja"
    return max(counts, key=counts.__getitem__) if sum(counts.values()) >= 20 else None


def translations_yaml(layout: GroupLayout) -> str:
    """The ``translations`` setting of ``.docsnippets.yml`` for ``layout``, every name quoted."""
    lines = ["translations:", f"  source: {yaml_quoted(layout.languages[0])}", "  pages:"]
    lines += [f"    {yaml_quoted(code)}: {yaml_quoted(template)}" for code, template in layout.templates]
    return "\n".join(lines) + "\n"
