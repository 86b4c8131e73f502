"""Bilingual pairing: which files correspond, which snippets align, how they relate."""

from __future__ import annotations

from collections.abc import Callable, Collection, Mapping, Sequence
from difflib import SequenceMatcher
from typing import TypeVar

from docsnippets.config import Config
from docsnippets.constants import Relation
from docsnippets.pagerules import PageRule
from docsnippets.snippets import classify, grammar
from docsnippets.snippets.grammar import Judge
from docsnippets.snippets.pages import page_languages, page_pairs
from docsnippets.snippets.records import Inventory, Notice, Pair, Snippet

T = TypeVar("T")

# Below this similarity two snippets are not taken for versions of one example.
MIN_SIMILARITY = 0.3
# Bodies longer than this many code lines are compared line by line.
LINE_LEVEL = 6
# Gaps with more candidate pairs than this are aligned within a diagonal band.
MAX_CELLS = 40_000
MAX_BAND = 50
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


def relation(en: Snippet, zh: Snippet, judge: Judge) -> Relation:
    """How two aligned snippets compare, their code read by the declared Python (``judge``)."""
    if en.body == zh.body:
        return Relation.IDENTICAL
    if classify.dedent(en.body) == classify.dedent(zh.body):
        return Relation.INDENTATION
    if code_digest(en, judge) == code_digest(zh, judge):
        return Relation.COMMENTS
    from docsnippets.snippets import literals  # only twins whose code differs need the string rule

    if literals.translated_only(
        en.body, zh.body, lambda body: grammar.comparable_tokens(judge, body)
    ) and grammar.block_shape(judge, en.body) == grammar.block_shape(judge, zh.body):
        return Relation.STRINGS
    return Relation.DIVERGED


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
    of a pair bounded (difflib is quadratic in the worst case).
    """
    if a.body_sha256 == b.body_sha256:
        return 1.0
    ta = [text for _, text in grammar.comparable_tokens(judge, a.body)]
    tb = [text for _, text in grammar.comparable_tokens(judge, b.body)]
    if not ta and not tb:
        ta, tb = a.body.split(), b.body.split()
    tokens = SequenceMatcher(None, ta, tb, autojunk=False)
    if tokens.real_quick_ratio() < MIN_SIMILARITY or tokens.quick_ratio() < MIN_SIMILARITY:
        return 0.0
    la, lb = grammar.comparable_lines(judge, a.body), grammar.comparable_lines(judge, b.body)
    if max(len(la), len(lb)) <= LINE_LEVEL:
        return _ratio(tokens, budget)
    by_line = _ratio(SequenceMatcher(None, la, lb, autojunk=False), budget)
    # A rename on every line leaves no equal line; the token multiset still shows kinship.
    return by_line if by_line >= MIN_SIMILARITY else tokens.quick_ratio() * 0.5


def _ratio(matcher: SequenceMatcher[str], budget: Budget | None) -> float:
    """``ratio()``, or its linear upper bound ``quick_ratio()`` past the limits above.

    The bound can only raise a score, so past them a long pair may align where exact
    matching would not; it keeps a hostile page from costing minutes.
    """
    cells = len(matcher.a) * len(matcher.b)
    if cells > MAX_RATIO_CELLS or (budget is not None and cells > budget.cells):
        return matcher.quick_ratio()
    if budget is not None:
        budget.cells -= cells
    return matcher.ratio()


def align(
    left: Sequence[T],
    right: Sequence[T],
    score: Callable[[T, T], float],
    threshold: float = MIN_SIMILARITY,
    key: Callable[[T], object] | None = None,
) -> list[tuple[int, int]]:
    """Order-preserving alignment maximising total similarity (a gap costs nothing).

    Unlike zipping in order, an example inserted on one side leaves the later pairs alone.
    With ``key``, runs of equal keys are fixed first and only the gaps between them are
    aligned by similarity, so a long file pair of mostly-matching snippets stays cheap.
    """
    if key is None:
        return _align_dp(left, right, score, threshold, 0, 0)
    keys_l, keys_r = [key(x) for x in left], [key(x) for x in right]
    out: list[tuple[int, int]] = []
    i = j = 0
    for block in SequenceMatcher(None, keys_l, keys_r, autojunk=False).get_matching_blocks():
        out += _align_dp(left[i : block.a], right[j : block.b], score, threshold, i, j)
        out += [(block.a + k, block.b + k) for k in range(block.size)]
        i, j = block.a + block.size, block.b + block.size
    return out


def _align_dp(
    left: Sequence[T],
    right: Sequence[T],
    score: Callable[[T, T], float],
    threshold: float,
    off_l: int,
    off_r: int,
) -> list[tuple[int, int]]:
    n, m = len(left), len(right)
    if not n or not m:
        return []
    # A wide gap is searched along a band around its diagonal: cost n x band, not n x m.
    band = max(MAX_BAND, abs(n - m) + 8) if n * m > MAX_CELLS else max(n, m)

    def near(i: int, j: int) -> bool:
        return abs(i * m // n - j) <= band if band < max(n, m) else True

    sim: dict[tuple[int, int], float] = {}
    for i in range(n):
        lo, hi = (0, m) if band >= max(n, m) else (max(0, i * m // n - band), min(m, i * m // n + band + 1))
        for j in range(lo, hi):
            sim[(i, j)] = score(left[i], right[j])
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        row, below = best[i], best[i + 1]
        for j in range(m - 1, -1, -1):
            s = sim.get((i, j), 0.0) if near(i, j) else 0.0
            take = s + below[j + 1] if s >= threshold else -1.0
            row[j] = max(take, below[j], row[j + 1])
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        s = sim.get((i, j), 0.0)
        if s >= threshold and best[i][j] == s + best[i + 1][j + 1]:
            out.append((off_l + i, off_r + j))
            i += 1
            j += 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return out


# File pair (as a set of its two paths) -> the aligned snippet pairs already known for it,
# as (English snippet's key, Chinese snippet's key, relation).
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
        known = _settled(settled, (src, tr), index_of, ordered) if settled else None
        if known is not None:
            pairs.extend(known)
            continue
        en_idx, zh_idx = by_file.get(src, []), by_file.get(tr, [])
        en_side, zh_side = [ordered[i] for i in en_idx], [ordered[i] for i in zh_idx]
        judge = grammar.judge(config.python)
        matches = align(en_side, zh_side, Budget().scorer(judge), key=lambda s, judge=judge: code_digest(s, judge))
        for a, b in matches:
            en, zh = ordered[en_idx[a]], ordered[zh_idx[b]]
            pairs.append(Pair(en_idx[a], zh_idx[b], relation(en, zh, judge)))
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
    for en_key, zh_key, rel in known:
        en, zh = index_of.get(en_key), index_of.get(zh_key)
        if en is None or zh is None or en in used or zh in used or (ordered[en].file, ordered[zh].file) != pair:
            return None
        if not _plausible(ordered[en], ordered[zh], rel):
            return None
        used.update((en, zh))
        out.append(Pair(en, zh, rel))
    return out


def _plausible(en: Snippet, zh: Snippet, rel: str) -> bool:
    """The checks of :func:`relation` that cost no tokenizing (the code-level relations are taken on trust)."""
    if en.body == zh.body:
        return rel == Relation.IDENTICAL
    if classify.dedent(en.body) == classify.dedent(zh.body):
        return rel == Relation.INDENTATION
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
