"""The banded alignment gives exactly what the full table gave, and says what it gives past it.

The oracles below are the earlier implementations, kept here verbatim in substance: a full
(n+1) x (m+1) table whose cells outside the band score nothing, difflib's matching blocks,
and the similarity measure built on difflib's matcher. Random small inputs with few
distinct scores (so that ties are everywhere) must give identical answers.
"""

from __future__ import annotations

import random
from difflib import SequenceMatcher

import pytest

from docsnippets.snippets import alignment, classify
from docsnippets.snippets.alignment import band_of, best_alignment, matching_blocks
from docsnippets.snippets.grammar import Running
from docsnippets.snippets.pairs import LINE_LEVEL, MAX_RATIO_CELLS, MIN_SIMILARITY, Budget, similarity
from docsnippets.snippets.records import Snippet

RUNNING = Running()


def table_alignment(left, right, score, threshold, band):
    """The full-table alignment: every cell kept, cells off the band scoring 0."""
    n, m = len(left), len(right)
    if not n or not m:
        return []

    def near(i, j):
        return abs(i * m // n - j) <= band

    sim = {}
    for i in range(n):
        for j in range(m):
            if near(i, j):
                sim[(i, j)] = score(left[i], right[j])
    best = [[0.0] * (m + 1) for _ in range(n + 1)]
    for i in range(n - 1, -1, -1):
        for j in range(m - 1, -1, -1):
            s = sim.get((i, j), 0.0)
            take = s + best[i + 1][j + 1] if s >= threshold else -1.0
            best[i][j] = max(take, best[i + 1][j], best[i][j + 1])
    out = []
    i = j = 0
    while i < n and j < m:
        s = sim.get((i, j), 0.0)
        if s >= threshold and best[i][j] == s + best[i + 1][j + 1]:
            out.append((i, j))
            i, j = i + 1, j + 1
        elif best[i][j] == best[i + 1][j]:
            i += 1
        else:
            j += 1
    return out


def keyed_table_alignment(left, right, score, threshold, key):
    """Anchored on difflib's blocks of equal keys, the gaps aligned by the full table."""
    out = []
    i = j = 0
    blocks = SequenceMatcher(None, [key(x) for x in left], [key(x) for x in right], autojunk=False)
    for a, b, size in blocks.get_matching_blocks():
        gap = table_alignment(left[i:a], right[j:b], score, threshold, band_of(a - i, b - j))
        out += [(i + x, j + y) for x, y in gap]
        out += [(a + k, b + k) for k in range(size)]
        i, j = a + size, b + size
    return out


def _case(rng: random.Random):
    n, m = rng.randint(0, 14), rng.randint(0, 14)
    left = [rng.randint(0, 5) for _ in range(n)]
    right = [rng.randint(0, 5) for _ in range(m)]
    levels = (0.0, 0.25, 0.3, 0.5, 1.0)
    table = {(a, b): rng.choice(levels) for a in range(6) for b in range(6)}
    return left, right, lambda a, b: table[(a, b)]


@pytest.mark.parametrize("seed", range(300))
def test_the_band_gives_what_the_full_table_gives(seed, monkeypatch):
    rng = random.Random(seed)
    left, right, score = _case(rng)
    # Narrow bands and small limits, so that most cases are banded and many bands are narrow.
    monkeypatch.setattr(alignment, "MAX_CELLS", rng.choice((0, 16, 10_000)))
    monkeypatch.setattr(alignment, "MAX_BAND", rng.choice((0, 1, 2, 5)))
    monkeypatch.setattr(alignment, "CELLS_PER_ITEM", rng.choice((1, 2, 250)))
    band = band_of(len(left), len(right)) if left and right else 0
    expected = table_alignment(left, right, score, MIN_SIMILARITY, band)
    assert best_alignment(left, right, score, MIN_SIMILARITY) == expected
    keyed = keyed_table_alignment(left, right, score, MIN_SIMILARITY, key=lambda x: x % 3)
    assert best_alignment(left, right, score, MIN_SIMILARITY, key=lambda x: x % 3) == keyed


def test_the_band_rule():
    """Every cell up to MAX_CELLS; past it MAX_BAND either side, wider by the length
    difference, within CELLS_PER_ITEM per item of both sides and MAX_ALIGN_CELLS in all."""
    assert band_of(200, 200) == 200
    assert band_of(300, 300) == alignment.MAX_BAND
    assert band_of(300, 400) == 108
    assert band_of(24_000, 24_000) == alignment.MAX_BAND
    assert band_of(1200, 2400) == (alignment.CELLS_PER_ITEM * 3600 // 1200 - 1) // 2
    assert band_of(100_000, 100_000) == (alignment.MAX_ALIGN_CELLS // 100_000 - 1) // 2


def test_past_the_band_the_best_alignment_within_it_is_taken():
    """Each left item matches only the right item three places later: beyond a band of 2,
    nothing can be matched, however well it scores."""
    left, right = list(range(300)), list(range(-3, 300))
    score = lambda a, b: 1.0 if a == b else 0.0  # noqa: E731
    assert best_alignment(left, right, score, MIN_SIMILARITY) == [(i, i + 3) for i in range(300)]
    narrow = alignment.MAX_BAND
    try:
        alignment.MAX_BAND = 0  # band = |n - m| + 8 = 11 still reaches them
        assert best_alignment(left, right, score, MIN_SIMILARITY) == [(i, i + 3) for i in range(300)]
        alignment.CELLS_PER_ITEM = 1  # the band narrows to 0: only the diagonal can match
        found = best_alignment(left, right, score, MIN_SIMILARITY)
        assert found == [(i, j) for i, j in found if abs(i * 303 // 300 - j) == 0] and not found
    finally:
        alignment.MAX_BAND = narrow
        alignment.CELLS_PER_ITEM = 250


@pytest.mark.parametrize("seed", range(200))
def test_matching_blocks_are_difflibs(seed):
    rng = random.Random(seed)
    a = [rng.choice("abcd") for _ in range(rng.randint(0, 30))]
    b = [rng.choice("abcd") for _ in range(rng.randint(0, 30))]
    expected = [tuple(x) for x in SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()]
    assert matching_blocks(a, b, 10**9) == expected


def test_matching_blocks_give_up_past_their_steps():
    a = list(range(400))
    b = [k for i in range(0, 400, 2) for k in (i + 1, i)]
    assert matching_blocks(a, b, 10**9) is not None
    assert matching_blocks(a, b, 1000) is None


# --- similarity --------------------------------------------------------------------------------


def old_similarity(a: Snippet, b: Snippet, budget: Budget | None = None) -> float:
    """The measure as difflib's matcher gives it, tokens read by the running Python."""

    def ratio(matcher, budget):
        cells = len(matcher.a) * len(matcher.b)
        if cells > MAX_RATIO_CELLS or (budget is not None and cells > budget.cells):
            return matcher.quick_ratio()
        if budget is not None:
            budget.cells -= cells
        return matcher.ratio()

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
        return ratio(tokens, budget)
    by_line = ratio(SequenceMatcher(None, la, lb, autojunk=False), budget)
    return by_line if by_line >= MIN_SIMILARITY else tokens.quick_ratio() * 0.5


_WORDS = ["await", "x", "y", "f(1)", "g()", "# note", "'s'", "async with c:", "return", "if z:", "pass"]


def _body(rng: random.Random) -> str:
    lines = []
    for _ in range(rng.randint(0, 12)):
        lines.append(" ".join(rng.choice(_WORDS) for _ in range(rng.randint(1, 4))))
    return "\n".join(lines) + "\n"


def _snippet(body: str) -> Snippet:
    from docsnippets.snippets.fences import sha256_text

    return Snippet("a.md", (1, 2), (2, 2), "python", (), (), "parses", body, sha256_text(body), "0" * 64)


@pytest.mark.parametrize("seed", range(100))
def test_similarity_is_the_matchers(seed):
    rng = random.Random(seed)
    for _ in range(20):
        a, b = _snippet(_body(rng)), _snippet(_body(rng))
        cells = rng.choice((0, 10, 10**6))
        old, new = Budget(cells), Budget(cells)
        assert similarity(a, b, RUNNING, new) == old_similarity(a, b, old)
        assert new.cells == old.cells
        assert similarity(a, b, RUNNING) == old_similarity(a, b)
