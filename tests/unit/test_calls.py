"""The check of a snippet's calls, awaits, ``with`` items and ``async for`` loops: one table per rule,
on a small package written to disk and read through the same edge as a real tree."""

from __future__ import annotations

import textwrap
from dataclasses import replace
from pathlib import Path

import pytest
from tests.support.corpus import write

from docsnippets.references.broken import broken_references, snippets_calling, snippets_to_check
from docsnippets.snippets.records import Snippet
from docsnippets.sources.directory import DirectoryFiles

FIRST = 20  # file line of every test snippet's first body line

LIB = {
    "lib/__init__.py": "from lib.api import *\nfrom .clients import Client, Child\n",
    "app/__init__.py": "from lib.clients import Client as AppClient\n",
    "lib/api.py": textwrap.dedent(
        """
        import contextlib
        import functools
        from contextlib import asynccontextmanager, contextmanager

        def fetch(url, timeout=5, *, retries, verbose=False): ...
        async def post(url, payload): ...
        def plain(url):
            return url
        def sync_gen():
            yield 1
        async def agen():
            yield 1
        def returns_future(x) -> "asyncio.Future[int]": ...
        @contextmanager
        def span(name):
            yield
        @asynccontextmanager
        async def aspan(name):
            yield
        @contextlib.contextmanager
        def span2(name):
            yield
        def wrapping(name, *, target=None):
            def decorator(fn):
                @functools.wraps(fn)
                def wrapper(*args, **kwargs):
                    return fn(*args, **kwargs)
                return wrapper
            return decorator
        @wrapping("x")
        def wrapped(a, b): ...
        def mystery(fn):
            return fn
        @mystery
        def hidden(a): ...
        def posonly(a, /, b): ...
        def absorbs(a, **kwargs): ...
        def spread(*args): ...
        try:
            def twice(a): ...
        except ImportError:
            twice = None
        """
    ),
    "lib/clients.py": textwrap.dedent(
        """
        from dataclasses import KW_ONLY, dataclass, field
        from external_lib import SomeExternal, some_decorator

        class Base:
            def __init__(self, url, *, token): ...
            def open(self, sid, *, mode="r"): ...
            async def close(self, sid): ...
            @staticmethod
            def make(a, b): ...
            @classmethod
            def build(cls, a): ...
            @property
            def prop(self): ...
        class Client(Base):
            async def __aenter__(self): ...
            async def __aexit__(self, *exc): ...
        class Child(Client):
            def __enter__(self): ...
            def __exit__(self, *exc): ...
        class Plain:
            pass
        class SyncOnly:
            def __enter__(self): ...
            def __exit__(self, *exc): ...
            def __iter__(self): ...
        class AsyncIter:
            def __aiter__(self): ...
        class Ext(SomeExternal):
            pass
        class WithNew:
            def __new__(cls, *a): ...
        @dataclass
        class Point:
            x: int
            y: int = 0
            z: list = field(default_factory=list)
            hidden: int = field(default=0, init=False)
        @dataclass(kw_only=True)
        class Opts:
            a: int
            b: int = 1
        @dataclass
        class Point3(Point):
            w: int = 3
        @dataclass
        class Marked:
            a: int
            _: KW_ONLY
            b: int
        @some_decorator
        class Decorated:
            def __init__(self): ...
        """
    ),
}

API = "from lib.api import fetch, post, plain, sync_gen, agen, returns_future, span, aspan, span2\n"
MORE = "from lib.api import wrapping, wrapped, hidden, posonly, absorbs, spread, twice\n"
CLIENTS = "from lib.clients import Client, Child, Plain, SyncOnly, AsyncIter, Ext, WithNew\n"
SHAPES = "from lib.clients import Point, Opts, Point3, Marked, Decorated\n"
CLIENT = "c = Client('u', token=1)\n"


@pytest.fixture(scope="module")
def lib(tmp_path_factory) -> Path:
    return write(tmp_path_factory.mktemp("calls"), LIB)


def snippet(body: str, file: str = "docs/a.md") -> Snippet:
    n = body.count("\n")
    return Snippet(
        file=file,
        fence_lines=(FIRST - 1, FIRST + n),
        code_lines=(FIRST, FIRST + n - 1),
        info="python",
        markers=(),
        modules=(),
        status="parses",
        body=body,
        body_sha256="",
        file_sha256="",
    )


def findings(root: Path, body: str, ignore_calls: tuple[str, ...] = ()) -> list[tuple[int, str, str]]:
    found = broken_references([snippet(body)], DirectoryFiles(root), ignore_calls=ignore_calls)
    return [(b.line - FIRST + 1, str(b.kind), b.reason) for b in found]


def check_table(root: Path, prelude: str, body: str, expected: list[tuple[int, str, str]]) -> None:
    offset = prelude.count("\n")
    got = [(line - offset, kind, reason) for line, kind, reason in findings(root, prelude + body)]
    assert [(line, kind) for line, kind, _ in got] == [(line, kind) for line, kind, _ in expected], got
    for (_, _, reason), (_, _, part) in zip(got, expected, strict=True):
        assert part in reason, (part, reason)


CALLS = [
    ("binds", "fetch('u', retries=1)\n", []),
    ("missing keyword-only", "fetch('u')\n", [(1, "call", "missing required keyword-only argument `retries`")]),
    ("too many positional", "fetch('u', 1, 2, retries=1)\n", [(1, "call", "it takes at most 2, 3 given")]),
    ("unexpected keyword", "fetch(url='u', retries=1, col=2)\n", [(1, "call", "unexpected keyword argument `col`")]),
    ("twice", "fetch('u', url='v', retries=1)\n", [(1, "call", "multiple values for argument `url`")]),
    ("missing positional", "fetch(retries=1)\n", [(1, "call", "missing required argument `url`")]),
    ("star args at the call: not judged", "fetch(*args)\n", []),
    ("star kwargs at the call: not judged", "fetch('u', **options)\n", []),
    ("**kwargs absorbs", "absorbs(1, anything=2)\n", []),
    ("positional-only by keyword", "posonly(a=1, b=2)\n", [(1, "call", "positional-only argument `a`")]),
    ("*args absorbs", "spread(1, 2, 3)\n", []),
    ("unknown decorator: not judged", "hidden(1, 2)\n", []),
    ("wraps-style decorator keeps the parameters", "wrapped(1)\n", [(1, "call", "missing required argument `b`")]),
    ("decorator call, at its line", "@wrapping('x', tgt=1)\ndef g(): ...\n", [(1, "call", "unexpected keyword")]),
    ("bound twice in the module: not judged", "twice(1, 2, 3)\n", []),
    ("first line of a multi-line call", "x = 1\nfetch(\n    'u',\n)\n", [(2, "call", "`retries`")]),
    ("a snippet name shadows nothing", "def fetch(): ...\n", []),
    ("where the callee is", "fetch()\n", [(1, "call", "(lib/api.py:6)")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in CALLS], ids=[c[0] for c in CALLS])
def test_calls_bind_to_functions(lib, body, expected):
    check_table(lib, API + MORE, body, expected)


METHODS = [
    ("instance method binds", CLIENT + "c.open('s', mode='w')\n", []),
    ("keyword-only on a method", CLIENT + "c.open('s', 'w')\n", [(2, "call", "`Base.open`")]),
    ("__init__ through the base class", "c = Client('u')\n", [(1, "call", "`token` of `Base.__init__`")]),
    ("staticmethod through the class", "Client.make(1)\n", [(1, "call", "missing required argument `b`")]),
    ("classmethod through an instance", CLIENT + "c.build()\n", [(2, "call", "missing required argument `a`")]),
    ("plain method through the class takes self", CLIENT + "Client.open(c, 's')\n", []),
    ("property: not judged", CLIENT + "c.prop()\n", []),
    ("a name bound twice: not judged", CLIENT + "c = other()\nc.open()\n", []),
    ("a parameter of the same name: not judged", CLIENT + "def f(c):\n    c.open()\n", []),
    ("a call's result", "Client('u', token=1).open()\n", [(1, "call", "missing required argument `sid`")]),
    ("a base outside the repository: not judged", "Ext(1, 2)\n", []),
    ("__new__: not judged", "WithNew(1)\n", []),
    ("object's __init__", "Plain(1)\n", [(1, "call", "at most 0, 1 given")]),
    ("through the package's re-exports", "import lib\nlib.Client('u')\n", [(2, "call", "`token`")]),
    ("through a star re-export", "import lib\nlib.fetch('u')\n", [(2, "call", "`retries`")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in METHODS], ids=[c[0] for c in METHODS])
def test_calls_bind_to_classes_and_methods(lib, body, expected):
    check_table(lib, CLIENTS, body, expected)


DATACLASSES = [
    ("fields bind", "Point(1)\nPoint(1, 2, [])\nPoint(x=1, z=[])\n", []),
    ("a required field", "Point()\n", [(1, "call", "missing required argument `x` of `Point`")]),
    ("too many", "Point(1, 2, [], 4)\n", [(1, "call", "at most 3, 4 given")]),
    ("init=False is no parameter", "Point(1, hidden=2)\n", [(1, "call", "unexpected keyword argument `hidden`")]),
    ("kw_only=True", "Opts(1)\n", [(1, "call", "at most 0, 1 given")]),
    ("kw_only required", "Opts()\n", [(1, "call", "keyword-only argument `a`")]),
    ("inherited fields first", "Point3(1, 2, [], 4)\n", []),
    ("inherited required field", "Point3(w=1)\n", [(1, "call", "`x`")]),
    ("KW_ONLY marker", "Marked(1, 2)\n", [(1, "call", "at most 1, 2 given")]),
    ("another class decorator: not judged", "Decorated(1)\n", []),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in DATACLASSES], ids=[c[0] for c in DATACLASSES])
def test_dataclass_fields_are_the_init(lib, body, expected):
    check_table(lib, SHAPES, body, expected)


AWAITS = [
    ("a coroutine function", "await post('u', {})\n", []),
    ("a plain function", "await plain('u')\n", [(1, "await", "`plain` (lib/api.py:8) is a plain function")]),
    ("an awaitable annotation", "await returns_future(1)\n", []),
    ("a generator", "await sync_gen()\n", []),
    ("a decorator may make it awaitable", "await hidden(1)\n", []),
    ("an async method", CLIENT + "await c.close('s')\n", []),
    ("a plain method", CLIENT + "await c.open('s')\n", [(2, "await", "`Base.open`")]),
    ("a class: not judged", "await Client('u', token=1)\n", []),
    ("both rules on one call", "await plain()\n", [(1, "await", "plain function"), (1, "call", "`url`")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in AWAITS], ids=[c[0] for c in AWAITS])
def test_awaits_hit_coroutine_functions(lib, body, expected):
    check_table(lib, API + MORE + CLIENTS, body, expected)


CONTEXTS = [
    ("with on a @contextmanager", "with span('x'):\n    pass\n", []),
    ("async with on a @contextmanager", "async with span('x'):\n    pass\n", [(1, "context", "use `with`")]),
    ("contextlib.contextmanager spelled out", "async with span2('x'):\n    pass\n", [(1, "context", "`span2`")]),
    ("async with on an @asynccontextmanager", "async with aspan('x'):\n    pass\n", []),
    ("with on an @asynccontextmanager", "with aspan('x'):\n    pass\n", [(1, "context", "use `async with`")]),
    ("async with on a class with __aenter__", "async with Client('u', token=1) as c:\n    pass\n", []),
    ("with on a class with only __aenter__", "with Client('u', token=1):\n    pass\n", [(1, "context", "only")]),
    ("async with on a class without", "async with SyncOnly():\n    pass\n", [(1, "context", "no `__aenter__`")]),
    ("a subclass with both", "with Child('u', token=1):\n    pass\n", []),
    ("a base outside: not judged", "async with Ext():\n    pass\n", []),
    ("a name bound to an instance", "s = SyncOnly()\nasync with s:\n    pass\n", [(2, "context", "`SyncOnly`")]),
    ("the second item", "with span('a'), aspan('b'):\n    pass\n", [(1, "context", "`aspan`")]),
    ("async for with __aiter__", "async for x in AsyncIter():\n    pass\n", []),
    ("async for without", "async for x in SyncOnly():\n    pass\n", [(1, "context", "no `__aiter__`")]),
    ("async for over a plain generator", "async for x in sync_gen():\n    pass\n", [(1, "context", "use `for`")]),
    ("async for over an async generator", "async for x in agen():\n    pass\n", []),
    ("async comprehension", "async def f():\n    return [x async for x in SyncOnly()]\n", [(2, "context", "")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in CONTEXTS], ids=[c[0] for c in CONTEXTS])
def test_context_managers_and_async_iterators_of_the_right_kind(lib, body, expected):
    check_table(lib, API + CLIENTS, body, expected)


# A placeholder (`...`, `Ellipsis`, `…` where it tokenizes) stands for arguments the page leaves
# out: nothing is said about missing ones, nor about too many positional ones it stands for; what
# the call does write out is judged as before.
PLACEHOLDERS = [
    ("... stands for the arguments", "fetch(...)\n", []),
    ("Ellipsis by name", "fetch(Ellipsis)\n", []),
    ("… where it tokenizes", "fetch(…)\n", []),
    ("… on a line of its own", "fetch(\n    …\n)\n", []),
    ("… in a string is no placeholder", "fetch('…')\n", [(1, "call", "`retries`")]),
    ("… beside an unexpected keyword", "fetch(…, col=1)\n", [(1, "call", "unexpected keyword argument `col`")]),
    ("... with a keyword", "fetch(..., retries=1)\n", []),
    ("... beside an unexpected keyword", "fetch(..., col=2)\n", [(1, "call", "unexpected keyword argument `col`")]),
    ("a class", "Client(...)\n", []),
    ("a dataclass", "Point(...)\n", []),
    ("object's __init__: ... may stand for none", "Plain(...)\n", []),
    ("a placeholder counts for no positional", "plain(1, ...)\n", []),
    ("too many written out beside it", "plain(1, 2, ...)\n", [(1, "call", "2 given besides the placeholder")]),
    ("positional-only by keyword", "posonly(..., a=1)\n", [(1, "call", "positional-only argument `a`")]),
    ("a position surely filled", "fetch(..., 'u', url='v')\n", [(1, "call", "multiple values for argument `url`")]),
    ("a position the placeholder may leave open", "fetch(..., 'u', timeout=1, retries=1)\n", []),
    ("a keyword after the placeholder's positions", "fetch(..., timeout=1, retries=1)\n", []),
    ("a keyword's value stands for no other", "fetch(url=...)\n", [(1, "call", "keyword-only argument `retries`")]),
    ("keyword values", "fetch(url=..., retries=...)\n", []),
    ("await on a plain function", "await plain(...)\n", [(1, "await", "plain function")]),
    ("the wrong context manager", "with aspan(...):\n    pass\n", [(1, "context", "use `async with`")]),
    ("a method", CLIENT + "c.open(...)\n", []),
    ("a decorator call", "@wrapping(..., tgt=1)\ndef g(): ...\n", [(1, "call", "unexpected keyword")]),
    ("a nested call", "fetch(Point(...), retries=1)\n", []),
    ("... inside a value is a value", "fetch([...])\n", [(1, "call", "`retries`")]),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in PLACEHOLDERS], ids=[c[0] for c in PLACEHOLDERS])
def test_placeholders_stand_for_arguments_left_out(lib, body, expected):
    check_table(lib, API + MORE + CLIENTS + SHAPES, body, expected)


def test_a_placeholder_page_still_shares_its_imports(lib):
    first = snippet("from lib.api import fetch\nfetch(…)\n", "docs/p.md")
    later = replace(snippet("fetch('u')\n", "docs/p.md"), code_lines=(FIRST + 10, FIRST + 10))
    assert [(b.line, str(b.kind)) for b in broken_references([first, later], DirectoryFiles(lib))] == [
        (FIRST + 10, "call")
    ]


SILENCED = [
    ("inline marker", "fetch('u')  # docsnippets: ignore[call]\n", []),
    ("a marker of another kind", "fetch('u')  # docsnippets: ignore[await]\n", [(1, "call", "")]),
    ("several kinds", "await plain()  # docsnippets: ignore[await, call]\n", []),
    ("on any line of the call", "fetch(\n    'u',  # docsnippets: ignore[call]\n)\n", []),
    ("on a with item", "with aspan('x'):  # docsnippets: ignore[context]\n    pass\n", []),
    ("a snippet that does not parse", "fetch('u'\n", []),
]


@pytest.mark.parametrize(("body", "expected"), [c[1:] for c in SILENCED], ids=[c[0] for c in SILENCED])
def test_findings_are_silenced_by_a_marker(lib, body, expected):
    check_table(lib, API, body, expected)


@pytest.mark.parametrize(
    ("patterns", "count"), [((), 2), (("lib.api.fetch",), 1), (("lib.api.*",), 0), (("lib.clients.*",), 2)]
)
def test_ignore_calls_patterns_match_the_callee_dotted_name(lib, patterns, count):
    assert len(findings(lib, API + "fetch('u')\nawait plain('u')\n", patterns)) == count


def test_a_finding_names_the_callee_by_module_and_qualified_name(lib):
    (found,) = broken_references([snippet(CLIENTS + "c = Client('u')\n")], DirectoryFiles(lib))
    assert (found.module, found.name, found.line) == ("lib.clients", "Base.__init__", FIRST + 1)


def test_code_changes_recheck_the_snippets_whose_calls_pass_through_them(lib):
    calls_client = snippet("from app import AppClient\nAppClient('u', token=1).open('s')\n", "docs/c.md")
    calls_fetch = snippet("from lib import fetch\nfetch('u', retries=1)\n", "docs/f.md")
    other = snippet("from lib.clients import Plain\n", "docs/o.md")
    files = DirectoryFiles(lib)
    every = [calls_client, calls_fetch, other]
    assert snippets_calling(every, ["lib/clients.py"], files) == (calls_client,)
    assert snippets_calling(every, ["lib/api.py"], files) == (calls_fetch,)
    assert snippets_calling(every, [], files) == ()
    # Without the tree, only imports count: docs/o.md imports lib.clients, docs/f.md its parent package.
    assert {s.file for s in snippets_to_check(every, [], ["lib/clients.py"])} == {"docs/o.md", "docs/f.md"}
    chosen = snippets_to_check(every, [], ["lib/clients.py"], files)
    assert {s.file for s in chosen} == {"docs/o.md", "docs/f.md", "docs/c.md"}


def test_a_page_shares_the_imports_of_its_earlier_snippets(lib):
    first = snippet("from lib.api import fetch\n", "docs/p.md")
    later = replace(snippet("fetch('u')\n", "docs/p.md"), code_lines=(FIRST + 10, FIRST + 10))
    elsewhere = replace(later, file="docs/q.md")
    rebound = replace(snippet("fetch = None\n", "docs/p.md"), code_lines=(FIRST + 5, FIRST + 5))
    files = DirectoryFiles(lib)
    assert [(b.file, b.line) for b in broken_references([first, later], files)] == [("docs/p.md", FIRST + 10)]
    # Only the page's snippets, only those before it, and only an import by the nearest one.
    assert broken_references([later, elsewhere], files, pages=[first, later, elsewhere])[0].file == "docs/p.md"
    assert len(broken_references([later, elsewhere], files, pages=[first, later, elsewhere])) == 1
    assert broken_references([replace(first, code_lines=(FIRST + 20, FIRST + 20)), later], files) == ()
    assert broken_references([later], files, pages=[first, rebound, later]) == ()


def test_call_findings_in_the_json_the_text_the_comment_and_the_annotations(lib):
    from docsnippets.github.annotate import annotations
    from docsnippets.judge.compare import compare
    from docsnippets.judge.verdict import decide
    from docsnippets.report import render
    from docsnippets.report.data import report_json
    from docsnippets.report.text import report_text
    from docsnippets.snippets.records import Inventory

    (call,) = broken_references([snippet(API + "fetch('u')\n", "docs/<b>x</b>.md")], DirectoryFiles(lib))
    empty = Inventory((), (), ())
    report = replace(compare(empty, empty), broken_references=(("snip-0123456789ab", call),))
    data = report_json(report)["broken_references"][0]
    assert (data["kind"], data["module"], data["name"], data["line"]) == ("call", "lib.api", "fetch", FIRST + 1)
    text = report_text(report, "m.json", decide(report, "stale,references"))
    assert f"call     {FIRST + 1}  missing required keyword-only argument `retries`" in text
    assert "ignore[KIND]" in text and "broken import" not in text
    body = render.comment(report, render.CommentContext(marker="<!-- m -->"))
    section = body.split("#### Broken references (1)")[1]
    assert (
        "- `docs/<b>x</b>.md:21` call `fetch`: missing required keyword\\-only argument `retries` of `fetch`" in section
    )
    assert "of `fetch` (`lib/api.py:6`)" in section and "ignore\\[KIND\\] on its line" in section
    (line,) = annotations(report, decide(report, "stale,references"), "m.json")
    assert line.startswith("::error ") and "title=Snippet call does not fit the code" in line


def _star_fan(root: Path, depth: int) -> Path:
    """Two modules per level, each star-importing both of the next level: 2**depth paths."""
    files = {"fan/__init__.py": "", f"fan/a{depth}.py": "def f(x): ...\n", f"fan/b{depth}.py": "def g(x): ...\n"}
    for i in range(depth):
        for side in "ab":
            files[f"fan/{side}{i}.py"] = f"from fan.a{i + 1} import *\nfrom fan.b{i + 1} import *\n"
    return write(root, files)


def test_a_fan_of_star_imports_is_read_once_per_module(tmp_path, monkeypatch):
    from docsnippets.references.namespaces import Namespaces
    from docsnippets.references.resolve import ModuleIndex

    depth = 16
    root = _star_fan(tmp_path, depth)
    counts = {"names": 0, "lookups": 0}
    names, lookup = ModuleIndex.names, Namespaces._lookup

    def counting_names(self, module):
        counts["names"] += 1
        return names(self, module)

    def counting_lookup(self, module, name, hops):
        counts["lookups"] += 1
        return lookup(self, module, name, hops)

    monkeypatch.setattr(ModuleIndex, "names", counting_names)
    monkeypatch.setattr(Namespaces, "_lookup", counting_lookup)
    body = "from fan.a0 import nothere, f\nnothere(1)\nf()\n"
    found = broken_references([snippet(body)], DirectoryFiles(root))
    assert [(b.line - FIRST + 1, str(b.kind)) for b in found] == [(1, "name"), (3, "call")]
    modules = 2 * depth + 3
    assert counts["names"] <= 3 * modules and counts["lookups"] <= 3 * modules, counts


@pytest.mark.parametrize(
    "body",
    [
        "import lib\nx = " + "lib." * 950 + "fetch(1)\n",
        "".join(f"a{i} = a{i + 1}()\n" for i in range(3000)) + "a0.m()\n",
    ],
    ids=["deep-attribute-chain", "long-chain-of-names"],
)
def test_hostile_nesting_is_not_judged_and_raises_nothing(lib, body):
    assert [b for b in broken_references([snippet(body)], DirectoryFiles(lib)) if b.kind == "call"] == []


def test_a_chain_of_star_imports_deeper_than_the_interpreter_is_not_judged(tmp_path):
    files = {"chain/__init__.py": "", "chain/m1500.py": "x = 1\n"}
    files.update({f"chain/m{i}.py": f"from chain.m{i + 1} import *\n" for i in range(1500)})
    root = write(tmp_path, files)
    assert broken_references([snippet("from chain.m0 import nothere\nnothere()\n")], DirectoryFiles(root)) == ()


def test_a_call_reason_with_an_unpaired_backtick_stays_plain_text(lib):
    from docsnippets.report.items import broken

    (call,) = broken_references([snippet(API + "fetch('u')\n")], DirectoryFiles(lib))
    odd = replace(call, reason="unexpected keyword argument `x` of <b>`y</b>")
    line = broken("snip-0123456789ab", odd, None)
    assert "\\`x\\` of ``<b>`y</b>``" in line  # escaped, and the HTML inside a code span
    assert "`retries`" in broken("snip-0123456789ab", call, None)
