"""Shared fixtures: small trees written by the tests, the Slime corpus when present, a config."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import pytest
from hypothesis import settings

from docsnippets import interpreter
from docsnippets.config import Config
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up
from docsnippets.snippets.records import Inventory, Notice
from tests.support.corpus import ABSENT, BASE, HEAD, SEED, SHARED, copy_tree, need, write

# Speed is measured in bench/, never in a test: hypothesis's per-example deadline is a timing
# assertion that a busy 2-core machine fails at random.
settings.register_profile("docsnippets", deadline=None)
settings.load_profile("docsnippets")

TreeMaker = Callable[..., Path]
FileWriter = Callable[[Path, dict[str, str | bytes]], Path]


def _wants_shared(report: pytest.TestReport) -> bool:
    longrepr = report.longrepr
    return report.skipped and isinstance(longrepr, tuple) and str(longrepr[-1]).endswith(ABSENT)


@pytest.hookimpl(wrapper=True, tryfirst=True)
def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """One line for the tests that skip because ../shared is absent, instead of one line each.

    On a clone these are dozens of tests with one reason; listed one by one (``-ra``) they bury
    the skips that say something. They stay counted as skipped in the final line: they are
    set aside only while the short summary is written, then put back.
    """
    skipped = terminalreporter.stats.get("skipped", [])
    corpus = [r for r in skipped if _wants_shared(r)]
    if corpus:
        terminalreporter.stats["skipped"] = [r for r in skipped if not _wants_shared(r)]
    try:
        return (yield)
    finally:
        if corpus:
            terminalreporter.stats["skipped"] = skipped
            terminalreporter.write_line(
                f"{len(corpus)} tests skipped: they read the Slime corpus or the seed catalogue in "
                f"../shared, which is not beside the checkout ({SHARED} is absent)"
            )


@pytest.fixture(autouse=True, scope="session")
def _private_cache(tmp_path_factory: pytest.TempPathFactory):
    """The CLI's extraction cache goes to a directory of this run, never to the user's home.

    One directory for the whole run, so that the many tests that check a tree twice, or the
    same documents again, exercise the cached path too.
    """
    with pytest.MonkeyPatch.context() as patch:
        patch.setenv("DOCSNIPPETS_CACHE_DIR", str(tmp_path_factory.mktemp("extraction-cache")))
        patch.delenv("DOCSNIPPETS_NO_CACHE", raising=False)
        yield


# The pure core is tested as the entry points run it: a declared Python other than the running
# one is asked in a child process (tests of the grammar itself set their own provider).
interpreter.install()


@pytest.fixture(scope="session")
def config() -> Config:
    """The default configuration. Session-wide: it is frozen, and hypothesis tests may use it."""
    return Config()


@pytest.fixture
def inventory_of(config: Config) -> Callable[..., Inventory]:
    """`inventory_of({path: markdown})`: the paired inventory of those documents, as a scan finds it."""

    def build(files: dict[str, str], notices: Sequence[Notice] = ()) -> Inventory:
        snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, config)]
        return pair_up(snippets, set(files), config, notices)

    return build


@pytest.fixture
def head_tree(tmp_path: Path) -> Path:
    return copy_tree(need(HEAD), tmp_path / "head")


@pytest.fixture
def base_tree(tmp_path: Path) -> Path:
    return copy_tree(need(BASE), tmp_path / "base")


@pytest.fixture
def seed() -> Path:
    return need(SEED)


@pytest.fixture
def write_files() -> FileWriter:
    """`write_files(root, {relative path: text or bytes})` writes the files and returns root."""
    return write


@pytest.fixture
def make_tree(tmp_path: Path) -> TreeMaker:
    def make(files: dict[str, str | bytes], name: str = "tree") -> Path:
        return write(tmp_path / name, files)

    return make
