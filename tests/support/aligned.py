"""Which file pairs a judging aligns, and how often: for the tests that work is done once."""

from __future__ import annotations

from collections import Counter

from docsnippets.snippets import pairs


def count_alignments(monkeypatch) -> Counter:
    """A counter, filled as the judging goes, of the alignments of each file pair (by its files)."""
    seen: Counter = Counter()
    real = pairs.align

    def counting(left, right, *args, **kwargs):
        files = {s.file for s in (*left, *right)}
        if files:
            seen[frozenset(files)] += 1
        return real(left, right, *args, **kwargs)

    monkeypatch.setattr(pairs, "align", counting)
    return seen
