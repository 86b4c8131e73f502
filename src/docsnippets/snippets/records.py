"""The records passed along the pipeline; all frozen so stages cannot edit each other's data."""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any

from docsnippets.constants import Relation, Status
from docsnippets.snippets.digest import sha256


@dataclass(frozen=True)
class Snippet:
    """A selected fence. Its identity across runs is (file, body), never its number."""

    file: str
    fence_lines: tuple[int, int]
    code_lines: tuple[int, int]
    info: str
    markers: tuple[str, ...]
    modules: tuple[str, ...]
    status: Status
    body: str
    body_sha256: str
    # The whole file's hash, known only when read from the tree (the cache's key); not identity.
    file_sha256: str = field(compare=False)
    status_message: str | None = None
    status_line: int | None = None
    # classify.code_digest of the body when already known (from the cache); not part of identity.
    code_digest: str = field(default="", compare=False, repr=False)

    @property
    def key(self) -> tuple[str, int]:
        return (self.file, self.code_lines[0])


def fence_fields(s: Snippet) -> dict[str, Any]:
    """Where a snippet stands and what was found in it, as the manifest and the cache store it."""
    return {
        "fence_lines": list(s.fence_lines),
        "code_lines": list(s.code_lines),
        "info": s.info,
        "markers": list(s.markers),
        "modules": list(s.modules),
        "status": s.status,
    }


#: The fields that say where a snippet stands: they may move as a whole (see ``moved_as_a_whole``).
POSITION_FIELDS = ("fence_lines", "code_lines")
#: What Python's tokenizer and compiler found: their words, and now and then what they accept,
#: change between Python versions, so these are true of the Python that reads the page.
COMPILED_FIELDS = ("markers", "status", "status_message", "status_line")


def recorded_fields(s: Snippet) -> dict[str, Any]:
    """Everything a manifest entry states about its snippet besides what it is (file, body) and
    what follows from that (id, hash, pair, permalink): each a claim the page must bear out."""
    out = fence_fields(s)
    if s.status_message is not None:
        out["status_message"] = s.status_message
    if s.status_line is not None:
        out["status_line"] = s.status_line
    return out


def moved_as_a_whole(before: Snippet, after: Snippet) -> bool:
    """Whether ``after`` stands where ``before`` stood, shifted by one number of lines: the
    fence and its code moved together (lines above them were added or removed)."""
    shift = after.fence_lines[0] - before.fence_lines[0]
    return all(
        a == b + shift
        for a, b in zip((*after.fence_lines, *after.code_lines), (*before.fence_lines, *before.code_lines), strict=True)
    )


def snippet_from(
    file: str, entry: dict[str, Any], *, body_sha256: str | None = None, file_sha256: str = "", code_digest: str = ""
) -> Snippet:
    """The Snippet a stored entry (manifest of either schema, or cache) describes; already validated.

    ``body_sha256`` defaults to the entry's own (a cache entry has none: its caller hashes the body).
    """
    return Snippet(
        file=file,
        fence_lines=(entry["fence_lines"][0], entry["fence_lines"][1]),
        code_lines=(entry["code_lines"][0], entry["code_lines"][1]),
        info=entry["info"],
        markers=tuple(entry["markers"]),
        modules=tuple(entry["modules"]),
        status=Status(entry["status"]),
        body=entry["body"],
        body_sha256=entry["body_sha256"] if body_sha256 is None else body_sha256,
        file_sha256=file_sha256,
        status_message=entry.get("status_message"),
        status_line=entry.get("status_line"),
        code_digest=code_digest,
    )


SNIPPET_ID_PREFIX = "snip-"
PAIR_ID_PREFIX = "pair-"
ID_HEX = 12


def _short(text: str) -> str:
    return sha256(text.encode("utf-8", "surrogateescape")).hexdigest()[:ID_HEX]


def snippet_ids(snippets: Sequence[Snippet]) -> tuple[str, ...]:
    """The stable id of each snippet: ``snip-`` and 12 hex digits of SHA-256 over
    ``file NUL body_sha256 NUL occurrence``.

    The occurrence counts only earlier snippets of the same file with the same body, so an
    insertion, removal or edit anywhere else leaves every other id alone; the position in
    the tree never enters it. ``snippets`` must be in document order within each file.
    """
    seen: Counter[tuple[str, str]] = Counter()
    out: list[str] = []
    for s in snippets:
        key = (s.file, s.body_sha256)
        out.append(SNIPPET_ID_PREFIX + _short(f"{s.file}\0{s.body_sha256}\0{seen[key]}"))
        seen[key] += 1
    return tuple(out)


def pair_id_of(source_id: str, translation_id: str) -> str:
    """A pair's id follows from its members' ids (the source snippet's first), nothing else."""
    return PAIR_ID_PREFIX + _short(f"{source_id}\0{translation_id}")


@dataclass(frozen=True)
class Pair:
    """Two aligned snippets (indices into the inventory's snippet list): the source page's and
    the translation page's (with two languages, the English and the Chinese one)."""

    source: int
    translation: int
    relation: Relation


@dataclass(frozen=True)
class Notice:
    """A file that could not be read as expected; shown as one line, never a traceback."""

    file: str
    message: str

    def __str__(self) -> str:
        return f"{self.file}: {self.message}"


@dataclass(frozen=True)
class Untranslated:
    """A language's source pages with snippets and no page in it: how many, and the first of
    them by path (at most pages.MAX_LISTED, so hundreds of languages over thousands of pages
    cost a count each, not a record per page and language)."""

    language: str
    count: int
    pages: tuple[str, ...]


@dataclass(frozen=True)
class Inventory:
    """Every selected snippet of a tree, sorted by file then line, and their pairs.

    ``counterparts`` pairs each file that holds snippets with each existing counterpart file
    (a source page with each translation page, a translation page with its source page), or
    with None when it has none, so that an unaligned snippet can be told apart as *missing*.
    ``languages`` (file, code), ``untranslated`` (per language, its source pages without a
    page in it) and ``source_language`` are known only under the ``translations`` setting; with
    the two-language pair rules they stay empty and every report speaks of English and Chinese.
    """

    snippets: tuple[Snippet, ...]
    pairs: tuple[Pair, ...]
    counterparts: tuple[tuple[str, str | None], ...]
    notices: tuple[Notice, ...] = ()
    languages: tuple[tuple[str, str], ...] = ()
    untranslated: tuple[Untranslated, ...] = ()
    source_language: str | None = None

    @cached_property
    def _counterpart_map(self) -> dict[str, tuple[str, ...]]:
        out: dict[str, tuple[str, ...]] = {}
        for file, other in self.counterparts:
            out[file] = (*out.get(file, ()), *((other,) if other else ()))
        return out

    @cached_property
    def _language_map(self) -> dict[str, str]:
        return dict(self.languages)

    def language_of(self, file: str) -> str | None:
        return self._language_map.get(file)

    @cached_property
    def ids(self) -> tuple[str, ...]:
        """Stable snippet ids, index for index (see :func:`snippet_ids`)."""
        return snippet_ids(self.snippets)

    def counterpart_of(self, file: str) -> str | None:
        """The file's first counterpart (its only one with two languages)."""
        return next(iter(self.counterparts_of(file)), None)

    def counterparts_of(self, file: str) -> tuple[str, ...]:
        return self._counterpart_map.get(file, ())

    def pair_of(self) -> dict[int, int]:
        """Snippet index -> pair index."""
        out: dict[int, int] = {}
        for n, pair in enumerate(self.pairs):
            out[pair.source] = n
            out[pair.translation] = n
        return out

    def missing_twins(self) -> list[tuple[int, str]]:
        """(snippet, counterpart file) for each counterpart file that exists but holds no
        snippet aligned with it: one per translation that lacks a source example."""
        linked: set[tuple[int, str]] = set()
        for p in self.pairs:
            linked.add((p.source, self.snippets[p.translation].file))
            linked.add((p.translation, self.snippets[p.source].file))
        return [
            (i, other)
            for i, s in enumerate(self.snippets)
            for other in self.counterparts_of(s.file)
            if (i, other) not in linked
        ]

    def missing(self) -> list[int]:
        """Snippets that some existing counterpart file holds no aligned snippet for."""
        return sorted({i for i, _ in self.missing_twins()})
