"""Bilingual pairing: which files correspond, which snippets align, how they relate."""

from __future__ import annotations

from collections.abc import Callable, Collection, Sequence
from difflib import SequenceMatcher
from typing import TypeVar

from . import classify
from .config import Config
from .records import COMMENTS, DIVERGED, IDENTICAL, INDENTATION, Inventory, Notice, Pair, Snippet

T = TypeVar("T")

# Below this similarity two snippets are not taken for versions of one example.
MIN_SIMILARITY = 0.3
# Bodies longer than this many code lines are compared line by line.
LINE_LEVEL = 6


def file_pairs(files: Collection[str], config: Config) -> dict[str, tuple[str, str]]:
    """file -> (English file, Chinese file) for every file whose counterpart exists.

    Rules are tried in order and the first whose counterpart is present wins; a file is
    in at most one pair, and the English side decides when two rules disagree.
    """
    out: dict[str, tuple[str, str]] = {}
    for path in sorted(files):
        if path in out:
            continue
        for side, other in config.counterparts(path):
            if other in files and other not in out:
                pair = (path, other) if side == "en" else (other, path)
                out[pair[0]] = pair
                out[pair[1]] = pair
                break
    return out


def relation(en: Snippet, zh: Snippet) -> str:
    if en.body == zh.body:
        return IDENTICAL
    if classify.dedent(en.body) == classify.dedent(zh.body):
        return INDENTATION
    if classify.comparable_tokens(en.body) == classify.comparable_tokens(zh.body):
        return COMMENTS
    return DIVERGED


def similarity(a: Snippet, b: Snippet) -> float:
    """How alike two bodies are as code; comments and layout do not count.

    Short bodies are compared token by token, long ones line by line, which keeps the cost
    of a pair bounded (difflib is quadratic in the worst case).
    """
    if a.body_sha256 == b.body_sha256:
        return 1.0
    ta = [text for _, text in classify.comparable_tokens(a.body)]
    tb = [text for _, text in classify.comparable_tokens(b.body)]
    if not ta and not tb:
        ta, tb = a.body.split(), b.body.split()
    tokens = SequenceMatcher(None, ta, tb, autojunk=False)
    if tokens.real_quick_ratio() < MIN_SIMILARITY or tokens.quick_ratio() < MIN_SIMILARITY:
        return 0.0
    la, lb = classify.comparable_lines(a.body), classify.comparable_lines(b.body)
    if max(len(la), len(lb)) <= LINE_LEVEL:
        return tokens.ratio()
    by_line = SequenceMatcher(None, la, lb, autojunk=False).ratio()
    # A rename on every line leaves no equal line; the token multiset still shows kinship.
    return by_line if by_line >= MIN_SIMILARITY else tokens.quick_ratio() * 0.5


def align(
    left: Sequence[T],
    right: Sequence[T],
    score: Callable[[T, T], float],
    threshold: float = MIN_SIMILARITY,
) -> list[tuple[int, int]]:
    """Order-preserving alignment maximising total similarity (a gap costs nothing).

    Unlike zipping in order, an example inserted on one side leaves the later pairs alone.
    """
    n, m = len(left), len(right)
    if not n or not m:
        return []
    sim = [[score(a, b) for b in right] for a in left]
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            take = sim[i][j] + best[i + 1][j + 1] if sim[i][j] >= threshold else -1.0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        if sim[i][j] >= threshold and best[i][j] == sim[i][j] + best[i + 1][j + 1]:
            out.append((i, j))
            i += 1
            j += 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return out


def pair_up(
    snippets: Sequence[Snippet],
    files: Collection[str],
    config: Config,
    notices: Sequence[Notice] = (),
) -> Inventory:
    """Sort the snippets, pair the files that exist in ``files`` and align their snippets."""
    ordered = tuple(sorted(snippets, key=lambda s: s.key))
    by_file: dict[str, list[int]] = {}
    for index, snippet in enumerate(ordered):
        by_file.setdefault(snippet.file, []).append(index)
    fpairs = file_pairs(files, config)
    counterparts: list[tuple[str, str | None]] = []
    for file in by_file:
        pair = fpairs.get(file)
        counterparts.append((file, None if pair is None else pair[1] if pair[0] == file else pair[0]))
    pairs: list[Pair] = []
    done: set[tuple[str, str]] = set()
    for file in by_file:
        pair = fpairs.get(file)
        if pair is None or pair in done:
            continue
        done.add(pair)
        en_idx, zh_idx = by_file.get(pair[0], []), by_file.get(pair[1], [])
        matches = align([ordered[i] for i in en_idx], [ordered[i] for i in zh_idx], similarity)
        for a, b in matches:
            en, zh = ordered[en_idx[a]], ordered[zh_idx[b]]
            pairs.append(Pair(en_idx[a], zh_idx[b], relation(en, zh)))
    pairs.sort(key=lambda p: (p.en, p.zh))
    return Inventory(ordered, tuple(pairs), tuple(counterparts), tuple(notices))
