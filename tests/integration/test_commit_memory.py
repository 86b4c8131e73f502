"""Stage 2 holds a commit's pages only as long as it needs them: a page that cannot hold a
snippet is let go once it has been read, whether it came in the archive or as a blob.

The head of a pull request may hold hundreds of megabytes of Markdown that holds no example
(the archive's bound is 512 MiB); kept whole to the end of the run, beside the parse of its one
costly page, that passed the run's 1 GiB.
"""

from __future__ import annotations

import hashlib
import tracemalloc

from docsnippets.config import Config
from docsnippets.github.commit import GitHubCommit
from docsnippets.github.listing import CommitListing, ListingEntry
from docsnippets.github.prfiles import pages_kept
from docsnippets.judge import Case, judge
from docsnippets.snippets import grammar

PAGES = 30
PAGE_BYTES = 256 * 1024
CONFIG = Config(python=grammar.RUNNING)
SNIPPET = "```python\nfrom pkg import f\nawait f()\n```\n"


def _sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data, usedforsecurity=False).hexdigest()


def _files() -> dict[str, bytes]:
    files = {
        f"docs/en/prose{i:02}.md": f"Prose {i} without examples.\n".encode() * (PAGE_BYTES // 28) for i in range(PAGES)
    }
    files["docs/en/api.md"] = SNIPPET.encode()
    files["pkg/__init__.py"] = b"async def f():\n    pass\n"
    return files


def _listing(files: dict[str, bytes]) -> CommitListing:
    entries = {p: ListingEntry(p, "100644", "blob", _sha(d), len(d)) for p, d in files.items()}
    return CommitListing("a" * 40, entries, False)


def _held_after_judging(archived: bool) -> tuple[int, int]:
    """(bytes still held once the commit is judged, blob requests made), the commit alive."""
    requests = 0
    files = _files()  # the server's: what is traced below is the run's own
    listing = _listing(files)
    by_sha = {_sha(d): d for d in files.values()}

    def blob(sha: str) -> bytes:
        nonlocal requests
        requests += 1
        return bytes(bytearray(by_sha[sha]))  # a copy, as a download is

    tracemalloc.start()
    try:
        copies = {path: bytes(bytearray(data)) for path, data in files.items()} if archived else None
        commit = GitHubCommit(listing, blob, archived=copies, kept=pages_kept(CONFIG))
        del copies
        found = judge(Case(commit, CONFIG, None))
        assert [s.file for s in found.inventory.snippets] == ["docs/en/api.md"]
        held = tracemalloc.get_traced_memory()[0]
        assert commit.listing is listing
    finally:
        tracemalloc.stop()
    return held, requests


def test_pages_without_snippets_are_let_go_once_read_from_the_archive():
    held, requests = _held_after_judging(archived=True)
    assert held < PAGES * PAGE_BYTES / 4, held
    assert requests == 0


def test_pages_without_snippets_are_let_go_once_downloaded():
    held, _ = _held_after_judging(archived=False)
    assert held < PAGES * PAGE_BYTES / 4, held
