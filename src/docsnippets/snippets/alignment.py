"""Order-preserving alignment of two sequences by similarity, in time and memory proportional
to their length times a band (pure).

An alignment is a set of matched pairs, increasing on both sides, whose scores each reach a
threshold and whose total is the largest; a gap costs nothing. Short sequences are aligned
over every cell. Long ones only match cells near the diagonal that joins their two ends:
``|i * m // n - j| <= band``, and the alignment found is the best one among those whose
pairs all lie within the band (a pair outside it is never made, however well it scores).
Among equally good alignments the one chosen is the same as the full table's rule gives:
walking from the start, a match is taken whenever an optimal alignment takes it, else an
item of the left side is passed over when that keeps the total, else one of the right.

The band's width is ``max(MAX_BAND, |n - m| + 8)`` cells either side, so a page that lost
or gained examples still aligns, but never more cells than ``CELLS_PER_ITEM`` per item of
both sides and ``MAX_ALIGN_CELLS`` in all: past that the band narrows (a page thousands of
snippets long, not any page a person writes).
"""

from __future__ import annotations

from array import array
from bisect import bisect_left, bisect_right
from collections.abc import Callable, Hashable, Sequence
from typing import TypeVar

from docsnippets import work

T = TypeVar("T")

# Up to this many cells every pair of items is scored.
MAX_CELLS = 40_000
# The band's half-width past that, at least (wider when the sides differ in length).
MAX_BAND = 50
# The scored cells of one alignment: at most this many per item of both sides, and in all.
CELLS_PER_ITEM = 250
MAX_ALIGN_CELLS = 5_000_000
# Anchoring on equal keys may look an item up this many times per item before it gives up
# and the whole of both sides is aligned by score within the band instead.
ANCHOR_STEPS = 100


def best_alignment(
    left: Sequence[T],
    right: Sequence[T],
    score: Callable[[T, T], float],
    threshold: float,
    key: Callable[[T], Hashable] | None = None,
) -> list[tuple[int, int]]:
    """The best alignment of ``left`` and ``right`` as (left index, right index) pairs.

    With ``key``, runs of equal keys are matched first (as ``difflib`` finds its matching
    blocks) and only the gaps between them are aligned by score, so a long pair of sides
    that mostly agree stays cheap. When finding those runs would cost more than
    ``ANCHOR_STEPS`` lookups per item (a page built to make it rescan), the two sides are
    aligned by score alone.
    """
    blocks = None
    if key is not None:
        keys_l, keys_r = [key(x) for x in left], [key(x) for x in right]
        blocks = matching_blocks(keys_l, keys_r, ANCHOR_STEPS * (len(left) + len(right) + 1))
    if blocks is None:
        return _banded(left, right, score, threshold, 0, 0)
    out: list[tuple[int, int]] = []
    i = j = 0
    for a, b, size in blocks:
        out += _banded(left[i:a], right[j:b], score, threshold, i, j)
        out += [(a + k, b + k) for k in range(size)]
        i, j = a + size, b + size
    return out


def matching_blocks(a: Sequence[Hashable], b: Sequence[Hashable], steps: int) -> list[tuple[int, int, int]] | None:
    """``difflib.SequenceMatcher(None, a, b, autojunk=False).get_matching_blocks()`` as
    tuples, or None when finding them would take more than ``steps`` lookups.

    The longest common run of the range is taken (the earliest in ``a``, then in ``b``),
    and the ranges before and after it are searched the same way.
    """
    where: dict[Hashable, list[int]] = {}
    for j, item in enumerate(b):
        where.setdefault(item, []).append(j)
    found: list[tuple[int, int, int]] = []
    todo = [(0, len(a), 0, len(b))]
    while todo:
        alo, ahi, blo, bhi = todo.pop()
        besti, bestj, size = alo, blo, 0
        ends: dict[int, int] = {}  # j -> length of the common run ending at a[i - 1], b[j]
        for i in range(alo, ahi):
            places = where.get(a[i], ())
            here: dict[int, int] = {}
            for j in places[bisect_left(places, blo) :]:
                if j >= bhi:
                    break
                k = here[j] = ends.get(j - 1, 0) + 1
                if k > size:
                    besti, bestj, size = i - k + 1, j - k + 1, k
            ends = here
            steps -= 1 + len(here)
            if steps < 0:
                return None
        if size:
            found.append((besti, bestj, size))
            if alo < besti and blo < bestj:
                todo.append((alo, besti, blo, bestj))
            if besti + size < ahi and bestj + size < bhi:
                todo.append((besti + size, ahi, bestj + size, bhi))
    found.sort()
    merged: list[tuple[int, int, int]] = []
    for i, j, k in found:
        if merged and merged[-1][0] + merged[-1][2] == i and merged[-1][1] + merged[-1][2] == j:
            merged[-1] = (merged[-1][0], merged[-1][1], merged[-1][2] + k)
        else:
            merged.append((i, j, k))
    return [*merged, (len(a), len(b), 0)]


def common_ends(a: Sequence[Hashable], b: Sequence[Hashable]) -> tuple[int, int]:
    """How many items ``a`` and ``b`` share at their head, then at their tail (not overlapping)."""
    head = 0
    while head < min(len(a), len(b)) and a[head] == b[head]:
        head += 1
    tail = 0
    while tail < min(len(a), len(b)) - head and a[-1 - tail] == b[-1 - tail]:
        tail += 1
    return head, tail


def band_of(n: int, m: int) -> int:
    """The band's half-width for sides of ``n`` and ``m`` items (the module's rule)."""
    if n * m <= MAX_CELLS:
        return max(n, m)
    band = max(MAX_BAND, abs(n - m) + 8)
    allowed = min(CELLS_PER_ITEM * (n + m), MAX_ALIGN_CELLS)
    if n * min(m, 2 * band + 1) > allowed:
        band = max(0, (allowed // n - 1) // 2)
    return band


class _Band:
    """Which cells of an n x m table are scored: row ``i`` holds columns ``lo[i] <= j < hi[i]``.

    Both edges only move right from one row to the next. The best total from any cell is
    kept for the band's cells only: from a cell left of a row's band it equals the band's
    first cell of that row (no later row scores a column further left), and from a cell
    right of it, the first later row whose band reaches that column at that column.
    """

    def __init__(self, n: int, m: int, band: int) -> None:
        self.n, self.m = n, m
        self.lo = [max(0, i * m // n - band) for i in range(n)]
        self.hi = [min(m, i * m // n + band + 1) for i in range(n)]
        # best[i][k]: the best total from cell (i, lo[i] + k), for k up to hi[i] - lo[i]
        # (the last one is the cell just right of the band).
        self.best: list[array[float]] = [array("d")] * n

    def total(self, i: int, j: int) -> float:
        """The best total of an alignment of ``left[i:]`` and ``right[j:]``."""
        if i < self.n and j > self.hi[i]:
            i = bisect_right(self.hi, j - 1, i)  # rows whose band ends before j add nothing
        if i >= self.n or j >= self.m:
            return 0.0
        return self.best[i][max(j, self.lo[i]) - self.lo[i]]


def _banded(
    left: Sequence[T], right: Sequence[T], score: Callable[[T, T], float], threshold: float, off_l: int, off_r: int
) -> list[tuple[int, int]]:
    n, m = len(left), len(right)
    if not n or not m:
        return []
    cells = _Band(n, m, band_of(n, m))
    lo, hi = cells.lo, cells.hi
    # Scored row by row, left to right: a score with a budget spends it in this order.
    sims = [_scored(left[i], right, lo[i], hi[i], score) for i in range(n)]
    for i in range(n - 1, -1, -1):
        work.check()
        a, b = lo[i], hi[i]
        below = _below(cells, i, a, b)
        row = [0.0] * (b - a + 1)
        right_of = row[b - a] = cells.total(i + 1, b)  # row i scores nothing from column b on
        scored = sims[i]
        for k in range(b - a - 1, -1, -1):
            value = below[k] if below[k] > right_of else right_of
            s = scored[k]
            if s >= threshold and s + below[k + 1] > value:
                value = s + below[k + 1]
            row[k] = right_of = value
        cells.best[i] = array("d", row)
    out: list[tuple[int, int]] = []
    i = j = 0
    while i < n and j < m:
        s = sims[i][j - lo[i]] if lo[i] <= j < hi[i] else 0.0
        here = cells.total(i, j)
        if s >= threshold and here == s + cells.total(i + 1, j + 1):
            out.append((off_l + i, off_r + j))
            i += 1
            j += 1
        elif here == cells.total(i + 1, j):
            i += 1
        else:
            j += 1
    return out


def _scored(item: T, right: Sequence[T], lo: int, hi: int, score: Callable[[T, T], float]) -> array[float]:
    work.check()
    return array("d", [score(item, right[j]) for j in range(lo, hi)])


def _below(cells: _Band, i: int, a: int, b: int) -> list[float]:
    """The best totals from row ``i + 1`` at columns ``a`` to ``b`` (all kept by that row)."""
    if i + 1 >= cells.n:
        return [0.0] * (b - a + 1)
    start, row = cells.lo[i + 1], cells.best[i + 1]
    before = min(start, b + 1) - a  # columns left of the next row's band (it starts at or after a)
    return [row[0]] * before + list(row[: max(0, b + 1 - start)])
