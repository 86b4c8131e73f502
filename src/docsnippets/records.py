"""The records passed along the pipeline; all frozen so stages cannot edit each other's data."""

from __future__ import annotations

from dataclasses import dataclass, field
from functools import cached_property

IDENTICAL = "identical"
INDENTATION = "indentation"
COMMENTS = "comments"
DIVERGED = "diverged"
MISSING = "missing"
RELATIONS = (IDENTICAL, INDENTATION, COMMENTS, DIVERGED)
DESYNC = frozenset({DIVERGED, MISSING})


@dataclass(frozen=True)
class Snippet:
    """A selected fence. Its identity across runs is (file, body), never its number."""

    file: str
    fence_lines: tuple[int, int]
    code_lines: tuple[int, int]
    info: str
    markers: tuple[str, ...]
    modules: tuple[str, ...]
    status: str
    body: str
    body_sha256: str
    file_sha256: str
    status_message: str | None = None
    status_line: int | None = None
    # classify.code_digest of the body when already known (from the cache); not part of identity.
    code_digest: str = field(default="", compare=False, repr=False)

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.code_lines[0])


@dataclass(frozen=True)
class Pair:
    """Two aligned snippets (indices into the inventory's snippet list), English first."""

    en: int
    zh: int
    relation: str


@dataclass(frozen=True)
class Notice:
    """A file that could not be read as expected; shown as one line, never a traceback."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


@dataclass(frozen=True)
class Inventory:
    """Every selected snippet of a tree, sorted by file then line, and their bilingual pairs.

    ``counterparts`` maps each file that holds snippets to its existing counterpart file
    (or None), so that an unaligned snippet can be told apart as *missing*.
    """

    snippets: tuple[Snippet, ...]
    pairs: tuple[Pair, ...]
    counterparts: tuple[tuple[str, str | None], ...]
    notices: tuple[Notice, ...] = ()

    @cached_property
    def _counterpart_map(self) -> dict[str, str | None]:
        return dict(self.counterparts)

    def counterpart_of(self, file: str) -> str | None:
        return self._counterpart_map.get(file)

    def pair_of(self) -> dict[int, int]:
        """Snippet index -> pair index."""
        out: dict[int, int] = {}
        for n, pair in enumerate(self.pairs):
            out[pair.en] = n
            out[pair.zh] = n
        return out

    def missing(self) -> list[int]:
        """Snippets whose counterpart file exists but that no snippet there aligns with."""
        paired = self.pair_of()
        return [i for i, s in enumerate(self.snippets) if i not in paired and self.counterpart_of(s.file)]
