"""A tree's snippets and pairs, read through a :class:`sources.FileSource`: whole, or as a
recorded inventory with some files read again.

Reading the whole tree is the truth; the partial reading (``check --changed``, a pre-commit
hook, stage 2 when the head commit cannot be read at once) keeps the records of the files it
does not read, so its cost follows the change rather than the tree.
"""

from __future__ import annotations

from collections.abc import Collection, Iterable
from dataclasses import dataclass, replace

from docsnippets import work
from docsnippets.config import Config
from docsnippets.snippets.digest import sha256
from docsnippets.snippets.extract import Memo, snippets_from_bytes
from docsnippets.snippets.pairs import Settled, pair_up
from docsnippets.snippets.records import Inventory, Notice, Snippet
from docsnippets.sources import FileSource, Read, Refusal

EMPTY = Inventory((), (), ())


@dataclass(frozen=True)
class Extracted:
    """Some files of a tree, extracted: their snippets, the notices and refusals, which exist."""

    snippets: tuple[Snippet, ...]
    notices: tuple[Notice, ...]
    refused: tuple[Refusal, ...]
    present: frozenset[str]


def _utf8_name(rel: str) -> bool:
    try:
        rel.encode("utf-8")
    except UnicodeEncodeError:  # undecodable bytes arrive as lone surrogates
        return False
    return True


@dataclass(frozen=True)
class _Page:
    """What one page's bytes gave, as found at the first path holding them."""

    path: str
    snippets: list[Snippet]
    notices: list[Notice]
    parsed: bool  # it passed the prefilter, so every copy of it counts against the bound

    def at(self, path: str) -> tuple[list[Snippet], list[Notice]]:
        """The same page's findings at another path that holds the same bytes."""
        if path == self.path:
            return self.snippets, self.notices
        return [replace(s, file=path) for s in self.snippets], [replace(n, file=path) for n in self.notices]


def _page(rel: str, data: bytes, config: Config, memo: Memo | None) -> _Page:
    passed = []

    def parsing() -> None:
        passed.append(True)
        work.parse(len(data), rel)

    found, problems = snippets_from_bytes(rel, data, config, memo=memo, on_parse=parsing)
    return _Page(rel, found, problems, bool(passed))


def extract(reads: Iterable[tuple[str, Read]], config: Config, memo: Memo | None = None) -> Extracted:
    """The snippets of the files read, in the order read (path order); a file that is absent is
    not present. Each file's bytes are let go once its snippets are out.

    Bytes met before under another path (a page copied K times) are parsed once, known by
    their hash; every copy that passed the prefilter counts against the run's bound on
    parsed bytes."""
    snippets: list[Snippet] = []
    notices: list[Notice] = []
    refused: list[Refusal] = []
    present: set[str] = set()
    pages: dict[bytes, _Page] = {}  # those parsed, by the SHA-256 of their bytes
    for rel, data in reads:
        work.check()
        if not _utf8_name(rel):
            shown = rel.encode("utf-8", "surrogateescape").decode("utf-8", "backslashreplace")
            notices.append(Notice(shown, "file name is not valid UTF-8; skipped - rename the file"))
            continue
        if data is None:
            continue
        if isinstance(data, Notice):
            notices.append(data)
            continue
        if isinstance(data, Refusal):
            refused.append(data)
            continue
        present.add(rel)
        key = sha256(data).digest()
        page = pages.get(key)
        if page is None:
            page = _page(rel, data, config, memo)
            if page.parsed:  # one the prefilter let go costs no more to meet again
                pages[key] = page
        else:
            work.parse(len(data), rel)
        found, problems = page.at(rel)
        snippets.extend(found)
        notices.extend(problems)
    return Extracted(tuple(snippets), tuple(notices), tuple(refused), frozenset(present))


def read_pages(source: FileSource, paths: Iterable[str], config: Config, memo: Memo | None = None) -> Extracted:
    """The selected pages among ``paths``, read and extracted."""
    wanted = sorted(p for p in paths if config.selects(p))
    return extract(source.read_many(wanted, config.max_file_bytes), config, memo)


def whole(
    source: FileSource, config: Config, memo: Memo | None = None, also: Iterable[str] = ()
) -> tuple[Inventory, Extracted]:
    """Every selected page of the tree, paired. ``also``: pages read besides the listed ones (a
    change names them: one the tree does not hold is read as absent, or refused by the source)."""
    found = read_pages(source, {*source.entries(), *also}, config, memo)
    return pair_up(found.snippets, found.present, config, found.notices), found


def with_counterparts(changed: Iterable[str], config: Config) -> set[str]:
    """The selected pages among ``changed`` and every counterpart they may have."""
    out: set[str] = set()
    for path in changed:
        if config.selects(path):
            out.add(path)
            out.update(other for *_, other in config.counterparts(path))
    return out


def touched_files(source: FileSource, changed: Iterable[str], config: Config, known: Collection[str] = ()) -> list[str]:
    """The changed pages plus every counterpart that the tree holds or ``known`` records."""
    out: set[str] = set()
    for path in changed:
        if not config.selects(path):
            continue
        out.add(path)
        for *_, other in config.counterparts(path):
            if other in known or source.kind(other) is not None:
                out.add(other)
    return sorted(out)


def settled_pairs(base: Inventory, touched: Collection[str], *, among: bool = False) -> Settled:
    """``base``'s pairs between files that were not touched: their snippets are base's too.

    ``among``: its pairs between files that both were (an inventory that read them already)."""
    out: dict[frozenset[str], list[tuple[tuple[str, int], tuple[str, int], str]]] = {}
    for file, other in base.counterparts:
        if other is not None and (file in touched) is among and (other in touched) is among:
            out[frozenset((file, other))] = []
    for pair in base.pairs:
        source, translation = base.snippets[pair.source], base.snippets[pair.translation]
        group = out.get(frozenset((source.file, translation.file)))
        if group is not None:
            group.append((source.key, translation.key, pair.relation))
    return out


def overlay(
    recorded: Inventory,
    fresh: Extracted,
    reread: Collection[str],
    config: Config,
    source: FileSource,
    aligned: Inventory | None = None,
) -> Inventory:
    """``recorded`` with the pages in ``reread`` taken from ``fresh`` (their new extraction).

    Pages not read keep their recorded snippets and pairs; whether a counterpart page without
    snippets exists is asked of ``source``. ``aligned``: an inventory that holds the same
    extraction of the pages read, whose pairs between them are taken rather than found again."""
    reread = set(reread)
    kept = [s for s in recorded.snippets if s.file not in reread]
    files: set[str] = {s.file for s in kept}
    files.update(other for file, other in recorded.counterparts if other and other not in reread and file not in reread)
    files.update(f for f in fresh.present if f in reread)
    # Counterparts of untouched pages may themselves be untouched pages without snippets.
    for f in list(files):
        for *_, other in config.counterparts(f):
            if other not in reread and other not in files and config.selects(other) and source.kind(other) is not None:
                files.add(other)
    snippets = [*kept, *(s for s in fresh.snippets if s.file in reread)]
    settled = {**settled_pairs(recorded, reread)}
    if aligned is not None:
        settled.update(settled_pairs(aligned, reread, among=True))
    return pair_up(snippets, files, config, fresh.notices, settled=settled)


def partial(
    source: FileSource, recorded: Inventory, reread: Collection[str], config: Config, memo: Memo | None = None
) -> tuple[Inventory, Extracted]:
    """``recorded`` with the pages in ``reread`` read again from the tree: cost follows the change."""
    fresh = read_pages(source, reread, config, memo)
    return overlay(recorded, fresh, reread, config, source), fresh


def unreadable(notices: Iterable[Notice], recorded: Collection[str]) -> tuple[Refusal, ...]:
    """The pages the manifest records snippets of that could not be read this time (not UTF-8,
    binary, over ``max_file_bytes``...), as refusals: what cannot be read is an error, and its
    records stay, never read as the page's removal. A page with no records is only a notice."""
    return tuple(
        Refusal(n.file, f"{n.message} (the manifest records snippets of it, kept as they are)")
        for n in notices
        if n.file in recorded
    )


def keep_records(current: Inventory, recorded: Inventory, files: Collection[str], config: Config) -> Inventory:
    """``current`` with the snippets of ``files`` as ``recorded`` has them.

    A page that exists but cannot be judged (refused) keeps its records: its refusal makes the
    verdict an error, and must not also read as the page's deletion."""
    files = set(files)
    if not files:
        return current
    snippets = [s for s in current.snippets if s.file not in files]
    snippets += [s for s in recorded.snippets if s.file in files]
    present = {f for f, _ in current.counterparts} | {o for _, o in current.counterparts if o} | files
    present.update(o for f, o in recorded.counterparts if o and f in files)
    return pair_up(snippets, present, config, current.notices, settled=settled_pairs(current, files))
