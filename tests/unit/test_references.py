"""The static reference check: snippet imports resolved against the checked tree's code."""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.corpus import docs_with_code
from tests.support.judging import scan_tree

from docsnippets.config import Config
from docsnippets.references.broken import (
    DIRECTORY,
    FILE,
    broken_references,
    module_names,
    path_modules,
    snippets_importing,
)
from docsnippets.references.findings import IMPORT_KINDS
from docsnippets.references.imports import ImportRef, find_imports, imports_of
from docsnippets.references.packages import find_packages, reaches_code
from docsnippets.snippets.records import Snippet
from docsnippets.sources import SourceError, directory
from docsnippets.sources.directory import DirectoryFiles

FIRST = 10  # file line of every test snippet's first body line


def snippet(body: str, file: str = "docs/a.md", first: int = FIRST) -> Snippet:
    n = body.count("\n")
    return Snippet(
        file=file,
        fence_lines=(first - 1, first + n),
        code_lines=(first, first + n - 1),
        info="python",
        markers=(),
        modules=(),
        status="parses",
        body=body,
        body_sha256="",
        file_sha256="",
    )


def found(root: Path, body: str, packages: tuple[str, ...] = ()) -> list[tuple[int, str, str | None]]:
    broken = broken_references([snippet(body)], DirectoryFiles(root), packages)
    return [(b.line - FIRST + 1, b.module, b.name) for b in broken]


PKG = {
    "pkg/__init__.py": "from .impl import Thing\nfrom pkg.star import *\n",
    "pkg/impl.py": "class Thing:\n    inner = 1\n\ndef helper(): ...\n",
    "pkg/star.py": "__all__ = ['Listed']\nListed = 1\nUnlisted = 2\n",
    "pkg/sub.py": "",
    "pkg/mod.py": (
        "import os\nimport json as fast_json\nimport pkg.impl\n"
        "__all__ = ['lazy']\n__all__ += ['lazier']\n__all__.extend(['laziest'])\n"
        "def f(): ...\nasync def af(): ...\nclass K:\n    member = 1\n"
        "a, (b, *c) = 1, (2, 3)\nd: int = 1\nbare: int\ne = 0\ne += 1\n"
        "if os.name:\n    def g(): ...\nelse:\n    h = None\n"
        "try:\n    import tomllib as toml\nexcept ImportError:\n    toml = None\n"
        "with open(__file__) as handle:\n    w = 1\n"
        "for loop_var in ():\n    pass\n"
        "if (walrus := 1):\n    pass\n"
        "squares = [sq for sq in range(3)]\n"
        "def outer():\n    hidden = 1\n"
    ),
    "pkg/a/__init__.py": "",
    "pkg/a/leaf.py": "",
    "pkg/ns/deep.py": "X = 1\n",
    "pkg/broken.py": "def (:\n",
    "pkg/dyn.py": "def __getattr__(name):\n    raise AttributeError(name)\n",
    "pkg/chain/__init__.py": "from .inner import *\n",
    "pkg/chain/inner.py": "from .innermost import *\nOwn = 1\n_private = 2\n",
    "pkg/chain/innermost.py": "Deepest = 1\n",
    "pkg/outside.py": "from numpy import *\n",
    "single.py": "ONE = 1\n",
    "src/srcpkg/__init__.py": "VALUE = 1\n",
    "nspkg/m.py": "def f(): ...\n",
    "docsonly/README.md": "# not code\n",
}

CASES = [
    # (id, snippet body, expected (body line, module, name) list)
    ("module missing", "from pkg.gone import x\n", [(1, "pkg.gone", None)]),
    ("module missing, plain import", "import os\nimport pkg.gone as g\n", [(2, "pkg.gone", None)]),
    ("name missing", "from pkg.impl import Thing, helper, nothing\n", [(1, "pkg.impl", "nothing")]),
    ("names in __all__", "from pkg.mod import lazy, lazier, laziest\n", []),
    ("re-export in __init__", "from pkg import Thing\nfrom pkg import Other\n", [(2, "pkg", "Other")]),
    ("submodule", "from pkg import sub, a\nfrom pkg import nosub\n", [(2, "pkg", "nosub")]),
    ("function, async, class, imports", "from pkg.mod import f, af, K, os, fast_json, pkg\n", []),
    ("assignments", "from pkg.mod import a, b, c, d, e, squares, walrus, loop_var\n", []),
    ("conditional definitions", "from pkg.mod import g, h, toml, handle, w\n", []),
    ("bare annotation binds nothing", "from pkg.mod import bare\n", [(1, "pkg.mod", "bare")]),
    (
        "class body and function body are not top level",
        "from pkg.mod import member, hidden, sq\n",
        [
            (1, "pkg.mod", "member"),
            (1, "pkg.mod", "hidden"),
            (1, "pkg.mod", "sq"),
        ],
    ),
    ("star import needs only the module", "from pkg.mod import *\nfrom pkg.nomod import *\n", [(2, "pkg.nomod", None)]),
    ("star re-export honours __all__", "from pkg import Listed\nfrom pkg import Unlisted\n", [(2, "pkg", "Unlisted")]),
    (
        "star chain without __all__",
        "from pkg.chain import Own, Deepest\nfrom pkg.chain import _private\n",
        [
            (2, "pkg.chain", "_private"),
        ],
    ),
    ("star from outside the repository: not judged", "from pkg.outside import anything\n", []),
    ("module __getattr__: not judged", "from pkg.dyn import anything\n", []),
    ("unparsable module: exists, names not judged", "from pkg.broken import x\nimport pkg.broken\n", []),
    ("relative imports skipped", "from . import x\nfrom .gone import y\nfrom ..pkg import z\n", []),
    ("third-party and stdlib skipped", "import numpy\nfrom requests import nothing\nimport os.nothing\n", []),
    ("import a.b.c partially missing", "import pkg.a.leaf\nimport pkg.a.b.c\n", [(2, "pkg.a.b.c", None)]),
    ("from a plain module's child", "from pkg.impl.deeper import x\n", [(1, "pkg.impl.deeper", None)]),
    (
        "namespace portion inside a package",
        "from pkg.ns.deep import X, Y\nfrom pkg.ns import deep, shallow\n",
        [
            (1, "pkg.ns.deep", "Y"),
            (2, "pkg.ns", "shallow"),
        ],
    ),
    ("top-level module file", "from single import ONE, TWO\n", [(1, "single", "TWO")]),
    ("src layout", "from srcpkg import VALUE, OTHER\n", [(1, "srcpkg", "OTHER")]),
    ("namespace top level not listed: not the repository's", "from nspkg.m import g\n", []),
    ("duplicate names reported once", "from pkg.impl import nope, nope\n", [(1, "pkg.impl", "nope")]),
    (
        "parenthesised, multi-line: the statement's line",
        "x = 1\nfrom pkg.impl import (\n    Thing,\n    nope,\n)\n",
        [
            (2, "pkg.impl", "nope"),
        ],
    ),
    (
        "imports inside functions count",
        "async def main():\n    from pkg.impl import nope\n    await x\n",
        [
            (2, "pkg.impl", "nope"),
        ],
    ),
    ("top-level await parses", "await setup()\nfrom pkg.impl import nope\n", [(2, "pkg.impl", "nope")]),
    (
        "unparsable snippet: tokens",
        "def broken(:\n    pass\nfrom pkg.impl import nope\nimport pkg.gone\n",
        [
            (3, "pkg.impl", "nope"),
            (4, "pkg.gone", None),
        ],
    ),
    ("unparsable, parenthesised", "print(\nfrom pkg.impl import (Thing,\n    nope)\n", [(2, "pkg.impl", "nope")]),
    ("unparsable, relative and third-party still skipped", "def f(:\nfrom .x import y\nimport numpy.z\n", []),
    (
        "tokenizer restarts after a bad dedent",
        "if x:\n        a = 1\n    b = 2\nfrom pkg.impl import nope\n",
        [
            (4, "pkg.impl", "nope"),
        ],
    ),
    (
        "unparsable: import in strings and comments is not code",
        "x = (\n'from pkg.gone import y'\n# import pkg.gone\n",
        [],
    ),
    ("incomplete signature", "async def handler(x)\nfrom pkg.impl import nope\n", [(2, "pkg.impl", "nope")]),
]


@pytest.fixture
def code_tree(make_tree) -> Path:
    return make_tree(PKG, "repo")


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rules(code_tree: Path, body: str, expected: list) -> None:
    assert found(code_tree, body) == expected


def test_indented_body_is_dedented(code_tree: Path) -> None:
    body = "    from pkg.impl import Thing\n\n    from pkg.impl import nope\n"
    assert found(code_tree, body) == [(3, "pkg.impl", "nope")]


def test_listed_namespace_package_is_checked(code_tree: Path) -> None:
    assert found(code_tree, "from nspkg.m import f, g\n", packages=("nspkg",)) == [(1, "nspkg.m", "g")]


def test_listed_package_without_code_reports_nothing(code_tree: Path) -> None:
    body = "from docsonly.x import y\nfrom absent import z\n"
    assert found(code_tree, body, packages=("docsonly", "absent")) == []


def test_reasons_name_what_is_missing(code_tree: Path) -> None:
    broken = broken_references([snippet("import pkg.a.b.c\nfrom pkg.impl import nope\n")], DirectoryFiles(code_tree))
    assert [b.reason for b in broken] == [
        "module pkg.a.b does not exist (imported as pkg.a.b.c)",
        "pkg.impl defines no name nope",
    ]
    assert all(b.snippet.file == "docs/a.md" and b.file == "docs/a.md" for b in broken)


# A tutorial that has the reader create a module shows it in a snippet headed by its path
# (``# pkg/new_tool.py``); the page's imports of that module are not missing code.
DECLARED = [
    ("a submodule the page creates", "# pkg/new_tool.py\ndef tool(): ...\n", "from pkg import new_tool\n", []),
    ("imported by its path", "# pkg/new_tool.py\nx = 1\n", "from pkg.new_tool import x\nimport pkg.new_tool\n", []),
    ("under src/", "  # src/pkg/new_tool.py\nx = 1\n", "import pkg.new_tool\n", []),
    ("a package it creates", "# pkg/fresh/mod.py\n", "from pkg.fresh.mod import y\nimport pkg.fresh\n", []),
    ("another module is still missing", "# pkg/new_tool.py\n", "from pkg import other\n", [(1, "pkg", "other")]),
    (
        "a path in the middle is no header",
        "x = 1\n# pkg/new_tool.py\n",
        "from pkg import new_tool\n",
        [(1, "pkg", "new_tool")],
    ),
    ("a header naming no module", "# main.py\n", "import pkg.main\n", [(1, "pkg.main", None)]),
]


@pytest.mark.parametrize(("header", "body", "expected"), [c[1:] for c in DECLARED], ids=[c[0] for c in DECLARED])
def test_a_module_the_page_creates_is_not_missing(code_tree: Path, header: str, body: str, expected: list) -> None:
    creates = snippet(header, first=FIRST - 5)
    later = snippet(body)
    broken = broken_references([creates, later], DirectoryFiles(code_tree))
    assert [(b.line - FIRST + 1, b.module, b.name) for b in broken] == expected
    # Only on its own page: the same import elsewhere is missing code.
    elsewhere = broken_references([creates, snippet(body, file="docs/b.md")], DirectoryFiles(code_tree))
    assert elsewhere != () or expected != []


def test_markdown_list_fence_reported_at_its_file_line(make_tree) -> None:
    doc = "# T\n\n1. Step:\n\n   ```python\n   import asyncio\n\n   from pkg.impl import nope\n   ```\n"
    root = make_tree({"docs/guide.md": doc, "pkg/__init__.py": "", "pkg/impl.py": "X = 1\n"}, "repo")
    inventory = scan_tree(root, Config())
    broken = broken_references(inventory.snippets, DirectoryFiles(root))
    assert [(b.file, b.line, b.name) for b in broken] == [("docs/guide.md", 8, "nope")]


class CountingFiles:
    """An in-memory tree that records every read."""

    def __init__(self, files: dict[str, str]) -> None:
        self.files = {k: v.encode() for k, v in files.items()}
        self.reads: list[str] = []

    def kind(self, path: str) -> str | None:
        if path in self.files:
            return FILE
        return DIRECTORY if any(k.startswith(path + "/") for k in self.files) else None

    def read(self, path: str) -> bytes | None:
        self.reads.append(path)
        return self.files.get(path)

    def holds_code(self, path: str) -> bool:
        return any(k.startswith(path + "/") and k.endswith(".py") for k in self.files)


def test_each_imported_module_read_once_and_no_other() -> None:
    files = CountingFiles({k: v for k, v in PKG.items() if k.startswith("pkg/")})
    snippets = [snippet("from pkg.impl import Thing, nope\n", file=f"docs/{n}.md") for n in range(5)]
    broken = broken_references([*snippets, snippet("import pkg.sub\nimport os\n")], files)
    assert sorted(files.reads) == ["pkg/impl.py"]  # `import pkg.sub` needs no names: not read
    assert [(b.file, b.name) for b in broken] == [(f"docs/{n}.md", "nope") for n in range(5)]


def test_symlink_out_of_root_is_absent_and_fifo_not_read(make_tree) -> None:
    outside = make_tree({"real.py": "X = 1\n"}, "outside")
    root = make_tree({"pkg/__init__.py": ""}, "repo")
    os.symlink(outside / "real.py", root / "pkg" / "linked.py")
    os.symlink(root / "pkg" / "__init__.py", root / "pkg" / "inside.py")
    os.mkfifo(root / "pkg" / "pipe.py")
    files = DirectoryFiles(root)
    assert files.kind("pkg/linked.py") is None
    assert files.kind("pkg/inside.py") == FILE
    assert files.kind("pkg/pipe.py") is None and files.read("pkg/pipe.py") is None
    assert files.kind("pkg/../pkg/__init__.py") is None
    assert found(root, "from pkg.linked import X\n") == [(1, "pkg.linked", None)]


def test_unreadable_or_oversized_module_is_not_judged(code_tree: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    body = "from pkg.impl import nope\n"
    assert found(code_tree, body) == [(1, "pkg.impl", "nope")]
    small = DirectoryFiles(code_tree, max_bytes=10)
    assert small.read("pkg/impl.py") is None
    assert broken_references([snippet(body)], small) == ()

    def unreadable(root: Path, rel: str, limit: int | None = None) -> bytes:
        raise SourceError(f"{rel}: permission denied")

    monkeypatch.setattr(directory, "read_file", unreadable)
    assert found(code_tree, body) == []
    assert found(code_tree, "from pkg.gone import x\n") == [(1, "pkg.gone", None)]


def test_find_imports_lines_and_names() -> None:
    body = "import a.b as c, d\nfrom e.f import (g as h,\n  i)\nfrom .j import k\nfrom l import *\n"
    expected = (
        ImportRef(5, "a.b"),
        ImportRef(5, "d"),
        ImportRef(6, "e.f", ("g", "i")),
        ImportRef(9, "l", ("*",)),
    )
    assert find_imports(body, 5) == expected
    broken_body = "def f(\n" + body  # now read by tokens: the same imports, one line later
    assert find_imports(broken_body, 4) == expected


def test_module_names_of_unparsable_source() -> None:
    assert module_names(b"def (:\n") is None
    names = module_names(b"__all__ = ['x'] + ['y']\nz = 1\n")
    assert names is not None and names.exported == {"x", "y"} and "z" in names.defined


def test_path_modules_and_affected_snippets() -> None:
    assert path_modules("pkg/sub/__init__.py") == ("pkg.sub",)
    assert path_modules("src/pkg/mod.py") == ("src.pkg.mod", "pkg.mod")
    assert path_modules("docs/x.md") == () and path_modules("my-dir/x.py") == ()
    one = snippet("from pkg import mod\n", file="docs/1.md")
    two = snippet("import pkg.mod.deeper\n", file="docs/2.md")
    three = snippet("from pkg.other import mod\n", file="docs/3.md")
    four = snippet("from pkg import other\n", file="docs/4.md")
    assert snippets_importing([one, two, three, four], ["src/pkg/mod.py"]) == (one, two, four)
    assert snippets_importing([one, two, three, four], ["pkg/__init__.py"]) == (one, two, three, four)
    assert snippets_importing([one, two, three, four], ["pkg/other/__init__.py"]) == (one, three, four)
    assert snippets_importing([one, two, three, four], ["lib/pkg/mod.py", "README.md"]) == ()


def test_find_packages(code_tree: Path) -> None:
    assert find_packages(DirectoryFiles(code_tree)) == ("pkg", "single", "srcpkg")


def test_reaches_code_reads_no_directory_below_the_top(make_tree, monkeypatch) -> None:
    """A big directory git ignores (data, checkpoints) is not listed on every check."""
    root = make_tree({"data/big/x.bin": "", "data/y.bin": "", "docs/a.md": "# A\n", "src/notes.txt": ""})
    listed: list[str] = []
    real = DirectoryFiles.listing
    monkeypatch.setattr(DirectoryFiles, "listing", lambda self, rel: listed.append(rel) or real(self, rel))
    assert reaches_code(DirectoryFiles(root), ()) is False
    assert sorted(set(listed)) == ["", "src"]


@pytest.mark.parametrize(
    ("files", "packages", "reaches"),
    [
        ({"docs/a.md": "# A\n"}, (), False),
        ({"pkg/__init__.py": ""}, (), True),
        ({"mod.py": ""}, (), True),
        ({"src/pkg/__init__.py": ""}, (), True),
        ({"src/mod.py": ""}, (), True),
        # Code elsewhere, or a directory without __init__.py, is nothing an import resolves to.
        ({"examples/demo.py": "", "tools/x/y.py": ""}, (), False),
        ({"pkg/impl.py": ""}, (), False),
        ({"my-tool.py": "", "src/2fast.py": ""}, (), False),
        # A listed namespace package counts where its directory holds code, at any depth.
        ({"ns/sub/impl.py": ""}, ("ns",), True),
        ({"src/ns/impl.py": ""}, ("ns",), True),
        ({"ns/README.md": ""}, ("ns",), False),
        ({"ns/sub/impl.py": ""}, ("other",), False),
    ],
)
def test_reaches_code_is_false_only_where_no_import_can_resolve(make_tree, files, packages, reaches) -> None:
    root = make_tree(files)
    assert reaches_code(DirectoryFiles(root), packages) is reaches
    # The reference check agrees: where nothing is reachable, no import of any name is judged.
    names = sorted({part.removesuffix(".py") for path in files for part in path.split("/")})
    body = "".join(f"import {n}.missing\n" for n in [*names, *packages] if n.isidentifier())
    if not reaches and body:
        assert broken_references([snippet(body)], DirectoryFiles(root), packages) == ()


def test_import_refs_of_a_snippet_use_file_lines() -> None:
    assert imports_of(snippet("x = 1\nimport pkg\n", first=40)) == (ImportRef(41, "pkg"),)


# --- the real Slime docs and code ------------------------------------------------------------


@pytest.fixture
def slime_repo(tmp_path: Path) -> Path:
    return docs_with_code(tmp_path / "head")


def _check(root: Path, packages: tuple[str, ...] = ()) -> set[tuple[str, int, str, str | None]]:
    """The import findings (the calls' are tested in test_calls.py and tests/e2e/test_calls.py)."""
    inventory = scan_tree(root, Config())
    found = broken_references(inventory.snippets, DirectoryFiles(root), packages)
    return {(b.file, b.line, b.module, b.name) for b in found if b.kind in IMPORT_KINDS}


def _lines_of(root: Path, text: str) -> set[tuple[str, int]]:
    """Where ``text`` stands in the English and Chinese docs, found independently of the check."""
    out = set()
    for path in sorted((root / "docs").rglob("*.md")):
        for n, line in enumerate(path.read_text(encoding="utf-8").split("\n"), start=1):
            if line.strip() == text:
                out.add((path.relative_to(root).as_posix(), n))
    assert {file.split("/")[1] for file, _ in out} == {"en", "zh"}, f"{text!r} not in both languages"
    return out


def test_real_tree_reports_nothing(slime_repo: Path) -> None:
    assert _check(slime_repo) == set()
    assert _check(slime_repo, packages=("slime", "slime_plugins", "examples")) == set()


def test_real_docs_without_code_report_nothing(head_tree: Path) -> None:
    assert _check(head_tree, packages=("slime", "slime_plugins")) == set()


def _edit(path: Path, old: str, new: str) -> None:
    text = path.read_text(encoding="utf-8")
    assert old in text
    path.write_text(text.replace(old, new), encoding="utf-8")


def test_real_module_moved(slime_repo: Path) -> None:
    utils = slime_repo / "slime" / "utils"
    (utils / "types.py").rename(utils / "sample_types.py")
    where = _lines_of(slime_repo, "from slime.utils.types import Sample")
    assert _check(slime_repo) == {(f, n, "slime.utils.types", None) for f, n in where}


def test_real_function_renamed(slime_repo: Path) -> None:
    _edit(slime_repo / "slime" / "observability" / "trace_utils.py", "def trace_function(", "def trace_call(")
    where = _lines_of(slime_repo, "from slime.observability.trace_utils import trace_function")
    assert _check(slime_repo) == {(f, n, "slime.observability.trace_utils", "trace_function") for f, n in where}


def test_real_name_removed_from_init(slime_repo: Path) -> None:
    init = slime_repo / "slime" / "agent" / "adapters" / "__init__.py"
    _edit(init, "from slime.agent.adapters.anthropic import AnthropicAdapter\n", "")
    _edit(init, '"AnthropicAdapter", ', "")
    where = _lines_of(slime_repo, "from slime.agent.adapters import AnthropicAdapter")
    assert _check(slime_repo) == {(f, n, "slime.agent.adapters", "AnthropicAdapter") for f, n in where}


FRAGMENTS = [
    "import ",
    "from ",
    "pkg",
    ".",
    "impl",
    "gone",
    " as ",
    "(",
    ")",
    ",",
    "\n",
    "    ",
    "*",
    "'''",
    "#",
    "def f(:",
    "nope",
    "\\",
    "await ",
]


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.function_scoped_fixture])
@given(st.lists(st.sampled_from(FRAGMENTS), max_size=40))
def test_any_body_gives_imports_inside_it(code_tree: Path, parts: list[str]) -> None:
    body = "".join(parts) + "\n"
    refs = find_imports(body, FIRST)
    assert all(FIRST <= ref.line < FIRST + body.count("\n") for ref in refs)
    assert all(ref.module and not ref.module.startswith(".") for ref in refs)
    for broken in broken_references([snippet(body)], DirectoryFiles(code_tree)):
        assert broken.module.split(".")[0] == "pkg"


def test_comment_shows_a_broken_reference_escaped_and_linked_to_its_line():
    from dataclasses import replace

    from docsnippets.judge.compare import compare
    from docsnippets.references.broken import BrokenReference
    from docsnippets.report import render
    from docsnippets.snippets.records import Inventory

    hostile = snippet("from pkg.mod import gone\n", "docs/@team <b>`x`</b>.md")
    found = BrokenReference(hostile.file, FIRST, "pkg.mod", "gone", "pkg.mod defines no name gone", hostile)
    empty = Inventory((), (), ())
    report = replace(compare(empty, empty), broken_references=(("snip-0123456789ab", found),))
    links = render.Links("https://github.com", "o/r", "c" * 40)
    body = render.comment(report, render.CommentContext(marker="<!-- m -->", links=links))
    section = body.split("#### Broken references (1)")[1]
    assert f"``docs/@team <b>`x`</b>.md:{FIRST}``" in section
    assert f"/blob/{'c' * 40}/docs/%40team%20%3Cb%3E%60x%60%3C/b%3E.md#L{FIRST}-L{FIRST}" in section
    assert "`snip-0123456789ab`" in section and "`pkg.mod` defines no name gone" in section
