"""What aligning and matching cost on hostile pages, counted, never timed.

Two pages of many tiny distinct snippets must not make the alignment keep a cell for every
pair of snippets, whatever band it scores; sides of unequal length must not widen the band
to the whole page; anchoring equal snippets must not rescan a page once per snippet. Each
test counts what the work is made of (memory, score calls, key lookups) at a size where a
table of every pair, or a rescan per anchor, is far past the bound.
"""

from __future__ import annotations

import tracemalloc

from docsnippets.judge.compare import match
from docsnippets.snippets.pairs import align
from docsnippets.snippets.records import Inventory, Snippet


def _score(a: int, b: int) -> float:
    return 0.9 if a % 7 == b % 7 else 0.5


def _peak(fn) -> int:
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def test_aligning_two_long_sides_keeps_memory_to_the_band():
    n = 1200  # a full table is n * n cells: 1.44 million
    peak = _peak(lambda: align(range(n), range(n), _score))
    # The band scores about 101 cells a row: well under 2 MB of numbers, kept twice.
    assert peak < 8_000_000, peak


class _Counted:
    def __init__(self, limit: int) -> None:
        self.calls = 0
        self.limit = limit

    def __call__(self, a: int, b: int) -> float:
        self.calls += 1
        assert self.calls <= self.limit, f"more than {self.limit} cells scored"
        return _score(a, b)


def test_sides_of_unequal_length_score_cells_in_proportion_to_their_length():
    n, m = 1200, 2400
    score = _Counted(250 * (n + m))  # the old band (|n - m| + 8 wide) scored about 2.4 million
    found = align(range(n), range(m), score)
    assert found and all(0 <= a < n and 0 <= b < m for a, b in found)


class _Key:
    """A key whose hashing is counted: each lookup of an item among the other side's."""

    hashes = 0

    def __init__(self, value: int) -> None:
        self.value = value

    def __hash__(self) -> int:
        _Key.hashes += 1
        return hash(self.value)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Key) and other.value == self.value


def test_anchoring_equal_items_looks_each_up_a_bounded_number_of_times():
    n = 3000
    left = list(range(n))
    right = [k for i in range(0, n, 2) for k in (i + 1, i)]  # neighbours swapped: 1 0 3 2 5 4 ...
    _Key.hashes = 0
    found = align(left, right, lambda a, b: 1.0 if a == b else 0.0, key=_Key)
    # Peeling one anchor at a time off such a page, rescanning what is left, costs n * n / 4.
    assert _Key.hashes <= 150 * (len(left) + len(right)), _Key.hashes
    assert len(found) == n // 2


def _snippet(file: str, n: int, body: str) -> Snippet:
    return Snippet(
        file=file,
        fence_lines=(3 * n + 1, 3 * n + 3),
        code_lines=(3 * n + 2, 3 * n + 2),
        info="python",
        markers=("await",),
        modules=(),
        status="needs-async-wrapper",
        body=body,
        body_sha256=f"{hash((file, body)) & (2**64 - 1):064x}",
        file_sha256="0" * 64,
    )


def test_matching_a_manifest_whose_bodies_all_differ_keeps_memory_to_the_band():
    n = 600  # a full table: 360,000 cells
    before = Inventory(tuple(_snippet("docs/en/p.md", i, f"await e{i}()\n") for i in range(n)), (), ())
    after = Inventory(tuple(_snippet("docs/en/p.md", i, f"await z{i}()\n") for i in range(n)), (), ())
    assert match(before, after) == {i: i for i in range(n)}  # the bodies' tokens read untraced
    peak = _peak(lambda: match(before, after))
    assert peak < 4_000_000, peak


def test_pairs_nothing_alike_cost_no_matcher(monkeypatch):
    """Two pages of 100 snippets: the table scores 10,000 pairs, of which only the 100 twins
    are alike. Bodies nothing alike are told apart by counts kept per body (difflib's linear
    bounds), so a sequence matcher is built for a pair only where the bounds let it through."""
    import random
    from difflib import SequenceMatcher

    from docsnippets.snippets import pairs
    from docsnippets.snippets.grammar import Running

    built = 0

    class Counting(SequenceMatcher):
        def __init__(self, *args, **kwargs):
            nonlocal built
            built += 1
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(pairs, "SequenceMatcher", Counting)
    rng = random.Random(7)

    def body() -> str:  # names of its own, bar the one keyword
        return "await " + " ".join(f"w{rng.randrange(10**9)}" for _ in range(10)) + "\n"

    en = [_snippet("docs/en/p.md", i, body()) for i in range(100)]
    zh = [_snippet("docs/zh/p.md", i, s.body.replace("await ", "await x ")) for i, s in enumerate(en)]
    found = align(en, zh, pairs.Budget().scorer(Running()))
    assert found == [(i, i) for i in range(100)]
    assert built <= 2 * 100, built
