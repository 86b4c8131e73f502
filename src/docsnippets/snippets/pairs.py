"""Pairing: which pages translate which, which of their snippets align, how they relate."""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Collection, Hashable, Mapping, Sequence
from dataclasses import dataclass
from difflib import SequenceMatcher
from functools import lru_cache
from typing import TypeVar

from docsnippets import work
from docsnippets.config import Config
from docsnippets.constants import Relation
from docsnippets.pagerules import PageRule
from docsnippets.snippets import classify, grammar
from docsnippets.snippets.alignment import best_alignment
from docsnippets.snippets.grammar import Judge
from docsnippets.snippets.pages import page_languages, page_pairs
from docsnippets.snippets.records import Inventory, Notice, Pair, Snippet

T = TypeVar("T")

# Below this similarity two snippets are not taken for versions of one example.
MIN_SIMILARITY = 0.3
# Bodies longer than this many code lines are compared line by line.
LINE_LEVEL = 6
# difflib's matching is cubic at worst when items repeat, so a hostile page could stall the
# check. Sequences longer than this product are compared by multiset overlap only, which is
# linear, and one file pair spends at most MAX_PAIR_CELLS on exact ones.
MAX_RATIO_CELLS = 40_000
MAX_PAIR_CELLS = 500_000


def file_pairs(files: Collection[str], config: Config) -> dict[str, tuple[str, str]]:
    """file -> (source file, translation file) of the first pair it is in (see :func:`page_pairs`)."""
    out: dict[str, tuple[str, str]] = {}
    for src, tr, _ in page_pairs(files, config):
        out.setdefault(src, (src, tr))
        out.setdefault(tr, (src, tr))
    return out


def code_digest(snippet: Snippet, judge: Judge) -> str:
    """Equal for bodies that are the same code, block by block and statement by statement, once
    comments and layout are set aside.

    Taken from the snippet when the extraction (the cache) brought one along.
    """
    return snippet.code_digest or grammar.code_digest(judge, snippet.body)


def relation(a: Snippet, b: Snippet, judge: Judge) -> Relation:
    """How two aligned snippets compare, their code read by the declared Python (``judge``)."""
    found = _textual_relation(a, b)
    if found is not None:
        return found
    if code_digest(a, judge) == code_digest(b, judge):
        return Relation.COMMENTS
    from docsnippets.snippets import literals  # only twins whose code differs need the string rule

    if literals.translated_only(
        a.body, b.body, lambda body: grammar.comparable_tokens(judge, body)
    ) and grammar.block_shape(judge, a.body) == grammar.block_shape(judge, b.body):
        return Relation.STRINGS
    return Relation.DIVERGED


def _textual_relation(a: Snippet, b: Snippet) -> Relation | None:
    """The relations told from the bodies' text alone, with no tokenizing: the same text, or
    the same once the common indentation is removed; None when it takes reading the code."""
    if a.body == b.body:
        return Relation.IDENTICAL
    if classify.dedent(a.body) == classify.dedent(b.body):
        return Relation.INDENTATION
    return None


class Budget:
    """What is left of one file pair's allowance of exact sequence matching (in cells)."""

    def __init__(self, cells: int = MAX_PAIR_CELLS) -> None:
        self.cells = cells

    def scorer(self, judge: Judge) -> Callable[[Snippet, Snippet], float]:
        """:func:`similarity` as ``judge``'s Python reads the bodies, spending this allowance."""
        return lambda a, b: similarity(a, b, judge, self)


def similarity(a: Snippet, b: Snippet, judge: Judge, budget: Budget | None = None) -> float:
    """How alike two bodies are as code; comments and layout do not count.

    Short bodies are compared token by token, long ones line by line, which keeps the cost
    of a pair bounded (difflib is quadratic in the worst case). The two linear bounds come
    first (difflib's ``real_quick_ratio`` and ``quick_ratio``, from counts kept per body),
    so the many pairs a band holds that are nothing alike cost no matcher at all.
    """
    if a.body_sha256 == b.body_sha256:
        return 1.0
    fa, fb = _form(judge, a.body), _form(judge, b.body)
    ta, tb = fa.tokens, fb.tokens
    if not ta.items and not tb.items:
        ta, tb = _words(a.body), _words(b.body)
    total = len(ta.items) + len(tb.items)
    if total and 2.0 * min(len(ta.items), len(tb.items)) / total < MIN_SIMILARITY:
        return 0.0
    quick = _overlap(ta, tb)
    if quick < MIN_SIMILARITY:
        return 0.0
    if max(len(fa.lines.items), len(fb.lines.items)) <= LINE_LEVEL:
        return _ratio(ta, tb, budget, quick)
    by_line = _ratio(fa.lines, fb.lines, budget)
    # A rename on every line leaves no equal line; the token multiset still shows kinship.
    return by_line if by_line >= MIN_SIMILARITY else quick * 0.5


@dataclass(frozen=True)
class _Counted:
    """A sequence and how often each of its items occurs."""

    items: tuple[str, ...]
    counts: Counter[str]

    @classmethod
    def of(cls, items: Sequence[str]) -> _Counted:
        return cls(tuple(items), Counter(items))


@dataclass(frozen=True)
class _Form:
    """A body as similarity reads it: its code tokens, and its code lines."""

    tokens: _Counted
    lines: _Counted


@lru_cache(maxsize=1024)
def _form(judge: Judge, body: str) -> _Form:
    tokens = [text for _, text in grammar.comparable_tokens(judge, body)]
    return _Form(_Counted.of(tokens), _Counted.of(grammar.comparable_lines(judge, body)))


@lru_cache(maxsize=64)
def _words(body: str) -> _Counted:
    """What a body without any code token is compared by."""
    return _Counted.of(body.split())


def _overlap(a: _Counted, b: _Counted) -> float:
    """difflib's ``quick_ratio``: twice the size of the multiset intersection over the total length."""
    total = len(a.items) + len(b.items)
    if not total:
        return 1.0
    small, large = (a.counts, b.counts) if len(a.counts) <= len(b.counts) else (b.counts, a.counts)
    return 2.0 * sum(min(n, large[item]) for item, n in small.items()) / total


def _ratio(a: _Counted, b: _Counted, budget: Budget | None, quick: float | None = None) -> float:
    """difflib's ``ratio()``, or its linear upper bound ``quick_ratio()`` past the limits above.

    The bound can only raise a score, so past them a long pair may align where exact
    matching would not; it keeps a hostile page from costing minutes. ``quick``: the bound,
    when it is known already.
    """
    cells = len(a.items) * len(b.items)
    if cells > MAX_RATIO_CELLS or (budget is not None and cells > budget.cells):
        return _overlap(a, b) if quick is None else quick
    if budget is not None:
        budget.cells -= cells
    return SequenceMatcher(None, a.items, b.items, autojunk=False).ratio()


def align(
    left: Sequence[T],
    right: Sequence[T],
    score: Callable[[T, T], float],
    threshold: float = MIN_SIMILARITY,
    key: Callable[[T], Hashable] | None = None,
) -> list[tuple[int, int]]:
    """Order-preserving alignment maximising total similarity (a gap costs nothing).

    Unlike zipping in order, an example inserted on one side leaves the later pairs alone.
    With ``key``, runs of equal keys are fixed first and only the gaps between them are
    aligned by similarity, so a long file pair of mostly-matching snippets stays cheap. The
    cost is bounded however long the pages are (alignment.py says how).
    """
    return best_alignment(left, right, score, threshold, key)


# File pair (as a set of its two paths) -> the aligned snippet pairs already known for it,
# as (source snippet's key, translation snippet's key, relation).
Settled = Mapping[frozenset[str], Sequence[tuple[tuple[str, int], tuple[str, int], str]]]


def pair_up(
    snippets: Sequence[Snippet],
    files: Collection[str],
    config: Config,
    notices: Sequence[Notice] = (),
    settled: Settled | None = None,
) -> Inventory:
    """Sort the snippets, pair the files that exist in ``files`` and align their snippets.

    File pairs in ``settled`` take the pairs given there instead of being aligned again (a
    check of a few changed files reuses the manifest's pairs for the files it did not touch).
    """
    ordered = tuple(sorted(snippets, key=lambda s: s.key))
    index_of = {s.key: i for i, s in enumerate(ordered)} if settled else {}
    if len(index_of) != len(ordered):  # two snippets at one place: align everything instead
        settled = None
    by_file: dict[str, list[int]] = {}
    for index, snippet in enumerate(ordered):
        by_file.setdefault(snippet.file, []).append(index)
    found = [p for p in page_pairs(files, config) if p[0] in by_file or p[1] in by_file]
    partners: dict[str, list[str]] = {}
    for src, tr, _ in found:
        partners.setdefault(src, []).append(tr)
        partners.setdefault(tr, []).append(src)
    counterparts = [(file, other) for file in by_file for other in partners.get(file) or [None]]
    pairs: list[Pair] = []
    for src, tr, _ in found:
        work.check()
        known = _settled(settled, (src, tr), index_of, ordered) if settled else None
        if known is not None:
            pairs.extend(known)
            continue
        src_idx, tr_idx = by_file.get(src, []), by_file.get(tr, [])
        src_side, tr_side = [ordered[i] for i in src_idx], [ordered[i] for i in tr_idx]
        judge = grammar.judge(config.python)
        matches = align(src_side, tr_side, Budget().scorer(judge), key=lambda s, judge=judge: code_digest(s, judge))
        for a, b in matches:
            pairs.append(Pair(src_idx[a], tr_idx[b], relation(src_side[a], tr_side[b], judge)))
    pairs.sort(key=lambda p: (p.source, p.translation))
    if config.translations is None:
        return Inventory(ordered, tuple(pairs), tuple(counterparts), tuple(notices))
    languages, untranslated = page_languages(by_file, found, config)
    return Inventory(
        ordered,
        tuple(pairs),
        tuple(counterparts),
        tuple(notices),
        languages=languages,
        untranslated=untranslated,
        source_language=config.source_language,
    )


def _settled(
    settled: Settled, pair: tuple[str, str], index_of: dict[tuple[str, int], int], ordered: Sequence[Snippet]
) -> list[Pair] | None:
    """The known pairs of a file pair, or None (align it) when they do not fit these snippets."""
    known = settled.get(frozenset(pair))
    if known is None:
        return None
    out: list[Pair] = []
    used: set[int] = set()
    for source_key, translation_key, rel in known:
        source, translation = index_of.get(source_key), index_of.get(translation_key)
        if source is None or translation is None or source in used or translation in used:
            return None
        if (ordered[source].file, ordered[translation].file) != pair:
            return None
        if not _plausible(ordered[source], ordered[translation], rel):
            return None
        used.update((source, translation))
        out.append(Pair(source, translation, rel))
    return out


def _plausible(a: Snippet, b: Snippet, rel: str) -> bool:
    """The checks of :func:`relation` that cost no tokenizing (the code-level relations are taken on trust)."""
    found = _textual_relation(a, b)
    if found is not None:
        return rel == found
    return rel in (Relation.COMMENTS, Relation.STRINGS, Relation.DIVERGED)


def pairing_hint(inventory: Inventory, config: Config, exists: Callable[[str], bool]) -> str | None:
    """A one-line warning when no file paired although files that look like pairs exist.

    The usual cause is a root one level off (``--root docs`` while the rules say ``docs/en/``):
    then every snippet is unpaired and no desync can ever be found, silently.
    """
    files = sorted({f for f, _ in inventory.counterparts})
    if not files or any(other is not None for _, other in inventory.counterparts):
        return None
    for rule in config.page_rules:
        for file in files:
            found = _shifted_pair(rule, file, exists)
            if found is not None:
                other, fix = found
                shown = " <-> ".join(template for _, template in rule.templates)
                return (
                    f"no pair rule matched, but {file} and {other} look like a bilingual pair under the rule "
                    f"{shown}; {fix}, or set {_setting(config)} in .docsnippets.yml"
                )
    return None


def _setting(config: Config) -> str:
    return "translations" if config.translations is not None else "pair_rules"


def _shifted_pair(rule: PageRule, file: str, exists: Callable[[str], bool]) -> tuple[str, str] | None:
    """(counterpart, fix) when ``file`` pairs under ``rule`` with the root moved up or down."""
    parts = [template.split("/") for _, template in rule.templates]
    first = parts[0]
    k = 0
    # Root too deep: the rule's shared leading directories (docs/) are missing from the paths.
    while k < min(len(p) for p in parts) - 1 and all(p[k] == first[k] for p in parts) and "{" not in first[k]:
        k += 1
        shorter = PageRule(tuple((code, "/".join(p[k:])) for (code, _), p in zip(rule.templates, parts, strict=True)))
        hit = next((other for *_, other in shorter.counterparts(file) if exists(other)), None)
        if hit is not None:
            return hit, f"run with --root at the directory that holds {'/'.join(first[:k])}/"
    # Root too high: the paths carry a leading directory the rule does not expect.
    names = file.split("/")
    for k in range(1, len(names)):
        head, tail = "/".join(names[:k]), "/".join(names[k:])
        for *_, other in rule.counterparts(tail):
            if exists(f"{head}/{other}"):
                return f"{head}/{other}", f"run with --root {head}"
    return None
