"""The merge driver's three-way merge as a pure function (the git-level runs are in test_git_merge)."""

from __future__ import annotations

from dataclasses import replace

import pytest

from docsnippets.config import Config
from docsnippets.git.merge_driver import merge, merge_files
from docsnippets.manifest import build as mf
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up

A = "async def a():\n    await fa()\n"
B = "async def b():\n    await fb()\n"
C = "async def c():\n    await fc()\n"


def doc(*bodies: str, lead: int = 0) -> str:
    return "\n" * lead + "".join(f"```python\n{b}```\n\ntext\n\n" for b in bodies)


@pytest.fixture
def manifest(config):
    """`manifest({path: markdown}, ...)`: the manifest an update of those documents writes."""

    def build(files: dict[str, str], repository=None, commit=None, config: Config = config, linked=None):
        snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, config)]
        return mf.build(pair_up(snippets, set(files), config), config, repository, commit, linked)

    return build


def test_line_moves_on_both_sides_add_up(manifest):
    base = manifest({"x.md": doc(A, B, C)})
    ours = manifest({"x.md": doc(A, B, C, lead=2)})  # two lines added above everything
    theirs = manifest({"x.md": doc(A, "async def a2():\n    await g()\n", B, C)})  # a snippet after A
    merged = merge(base, ours, theirs)
    expected = manifest({"x.md": doc(A, "async def a2():\n    await g()\n", B, C, lead=2)})
    assert merged.conflicts == () and mf.dumps(merged.data) == mf.dumps(expected)


def test_permalinks_survive_only_where_still_true(manifest):
    base = manifest({"x.md": doc(A, B)})
    theirs = manifest({"x.md": doc(A, B)}, "o/r", "a" * 40)  # the other side recorded a commit
    ours = manifest({"x.md": doc(A.replace("fa", "fz"), B)})  # this side edited A
    merged = merge(base, ours, theirs)
    assert merged.conflicts == ()
    links = [e.get("permalink") for e in mf.entries(merged.data)]
    assert links[0] is None and links[1] is not None and links[1].endswith("#L9-L10")
    mf.validate(merged.data, "merged")


def test_settings_changed_differently_is_a_conflict(manifest, config):
    base = manifest({"x.md": doc(A)})
    ours = manifest({"x.md": doc(A)}, config=replace(config, languages=("python",)))
    theirs = manifest({"x.md": doc(A)}, config=replace(config, languages=("py",)))
    assert merge(base, ours, theirs).conflicts == ("both branches changed the manifest's selection",)


def test_same_snippet_edited_differently_is_a_conflict(manifest):
    base = manifest({"x.md": doc(A, B)})
    ours = manifest({"x.md": doc(A, B.replace("fb", "f1"))})
    theirs = manifest({"x.md": doc(A, B.replace("fb", "f2"))})
    merged = merge(base, ours, theirs)
    assert merged.data is None and merged.conflicts == ("x.md: both branches changed the snippets around line 8",)


def test_unreadable_side_is_a_conflict_and_keeps_current(manifest, tmp_path):
    base, cur, other = (tmp_path / n for n in ("o.json", "a.json", "b.json"))
    text = mf.dumps(manifest({"x.md": doc(A)}))
    base.write_text(text, encoding="utf-8")
    other.write_text(text, encoding="utf-8")
    cur.write_text("<<<<<<< not json\n", encoding="utf-8")
    result = merge_files(base, cur, other, root=tmp_path)
    assert not result.clean and "not valid JSON" in result.messages[0] and "docsnippets update" in result.messages[-1]


class _Counted(dict):
    """A manifest entry whose field reads are counted."""

    reads = 0

    def __getitem__(self, key):
        _Counted.reads += 1
        return super().__getitem__(key)


def test_entries_added_on_one_side_are_placed_in_time_linear_in_the_entries(manifest):
    """Each entry one side added is shifted by what the other side did above it; the last
    shared entry above it is found without reading every entry of the side, for each added entry."""
    old = [f"async def f{i}():\n    await g{i}()\n" for i in range(1000)]
    new = [f"async def n{i}():\n    await h{i}()\n" for i in range(1000)]
    base = manifest({"x.md": doc(*old)})
    ours = manifest({"x.md": doc(*(b for pair in zip(old, new, strict=True) for b in pair))})
    theirs = manifest({"x.md": doc(*old, lead=3)})
    for group in ours["files"].values():
        group["snippets"] = [_Counted(e) for e in group["snippets"]]
    _Counted.reads = 0
    merged = merge(base, ours, theirs)
    assert merged.conflicts == ()
    expected = manifest({"x.md": doc(*(b for pair in zip(old, new, strict=True) for b in pair), lead=3)})
    assert mf.dumps(merged.data) == mf.dumps(expected)
    assert _Counted.reads <= 20 * 2000, _Counted.reads
