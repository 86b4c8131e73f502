import pytest

from docsnippets.constants import Status
from docsnippets.snippets import classify
from docsnippets.snippets.classify import find_markers, find_modules, syntax_status

MODULES = ("asyncio", "concurrent.futures", "threading", "multiprocessing", "_thread")


@pytest.mark.parametrize(
    ("body", "markers"),
    [
        ("async def f():\n    await g()\n", ["async def", "await"]),
        ("async with a as b:\n    pass\n", ["async with"]),
        ("async for x in y:\n    pass\n", ["async for"]),
        ("xs = [x async for x in aiter()]\n", ["async for"]),
        ("s = 'async def f(): await x'\n", []),
        ("# await something\nx = 1\n", []),
        ('"""\nasync def doc():\n"""\n', []),
        ("awaited = 1\nasync_mode = 2\n", []),
        ("    async def indented():\n        pass\n", ["async def"]),
    ],
)
def test_markers_are_real_tokens(body, markers):
    assert find_markers(body) == markers


@pytest.mark.parametrize(
    ("body", "modules"),
    [
        ("import asyncio\n", ["asyncio"]),
        ("import os, threading as t\n", ["threading"]),
        ("from concurrent.futures import ThreadPoolExecutor\n", ["concurrent.futures"]),
        ("from concurrent import futures\n", ["concurrent.futures"]),
        ("import asyncio.subprocess\n", ["asyncio"]),
        ("from multiprocessing.pool import Pool\n", ["multiprocessing"]),
        ("import _thread\n", ["_thread"]),
        ("import ray\nray.get(x)\n", []),
        ("import torch.multiprocessing\n", []),
        ("x = 'import asyncio'\n", []),
        ("from . import asyncio\n", []),
        ("import asynciox\n", []),
    ],
)
def test_concurrency_modules(body, modules):
    assert find_modules(body, MODULES) == modules


@pytest.mark.parametrize(
    ("body", "status"),
    [
        ("async def f():\n    await g()\n", "parses"),
        ("x = await g()\n", "needs-async-wrapper"),
        ("async with a() as b:\n    pass\n", "needs-async-wrapper"),
        ("async for x in y:\n    pass\n", "needs-async-wrapper"),
        ("async def custom_rm(args, sample) -> float\n", "incomplete-signature"),
        ("async def f(\n    a,\n    b,\n) -> int\n", "incomplete-signature"),
        ("async def f(a):\n", "incomplete-signature"),
        ("class C:\n    async def m(self) -> None\n", "incomplete-signature"),
        ("async def f(:\n    pass\n", "syntax-error"),
        ("return 1\n", "syntax-error"),
        ("    async def f():\n        pass\n", "parses"),
    ],
)
def test_syntax_status(body, status):
    assert syntax_status(body).status == status


def test_syntax_error_has_message_and_line():
    st = syntax_status("x = 1\ny = (\nasync def\n")
    assert st.status == "syntax-error"
    assert st.message and st.line is not None


def test_pathological_nesting_is_a_syntax_error_not_a_crash():
    st = syntax_status("await f(" + "(" * 10_000 + ")" * 10_000 + ")\n")
    assert st.status == "syntax-error"
    st = syntax_status("x = [" * 5000 + "]" * 5000 + "\n")
    assert st.status in ("syntax-error", "parses")


def test_null_byte_is_a_syntax_error():
    assert syntax_status("await x\x00\n").status == "syntax-error"


def test_comparable_tokens_ignore_comments_docstrings_layout():
    a = 'async def f(x):\n    """Doc."""\n    # hello\n    return await g(x)\n'
    b = 'async def f(x):\n    """文档。"""\n    # 你好\n    return await g(\n        x)\n'
    assert classify.comparable_tokens(a) == classify.comparable_tokens(b)
    assert classify.comparable_tokens(a) != classify.comparable_tokens(a.replace("g(x)", "h(x)"))


@pytest.mark.parametrize(
    ("body", "inside"),
    [
        ("if ready: go()\n", "go ( )"),
        ("class A(B): x: int = {1: 2}\n", "x : int = { 1 : 2 }"),
        ("if lambda: 0: go()\n", "go ( )"),  # the lambda's colon is not the header's
        ("with f(a=lambda: 1) as x: go()\n", "go ( )"),
        ("case: int = 1\n", ""),  # soft keywords are names too
        ("match = re.match(a, b)\n", ""),
        ("x: int = go()\n", ""),  # an annotation is no header
        ('async def go(): "Doc."\n', ""),  # a docstring on its header's line is left out
    ],
)
def test_a_statement_on_its_headers_line_is_one_block_deeper(body, inside):
    items = classify.comparable(body)
    assert " ".join(text for _, depth, kind, text in items if depth == 1 and kind != classify.END) == inside
    assert all(depth in (0, 1) for _, depth, _, _ in items)


def test_where_statements_end_is_kept_apart_from_the_tokens():
    one, two = "total = count()\n-1\n", "total = count() -1\n"
    assert classify.comparable_tokens(one) == classify.comparable_tokens(two)
    assert classify.comparable_lines(two) == ("total = count ( ) - 1",)
    assert classify.code_digest(one) != classify.code_digest(two)
    ends = [kind for _, _, kind, _ in classify.comparable(one)].count(classify.END)
    assert ends == 2


def test_nothing_is_executed(tmp_path):
    target = tmp_path / "pwned"
    body = f"import asyncio\nopen({str(target)!r}, 'w').write('x')\nasync def f():\n    pass\n"
    assert syntax_status(body).status == "parses"
    find_markers(body)
    find_modules(body, MODULES)
    assert not target.exists()


@pytest.mark.parametrize("body", ['await f("\\d")\n', "await f(x is 1)\n"])
def test_status_does_not_depend_on_the_warnings_filter(body):
    # Both lines make compile() warn; under `python -W error` that warning would become a
    # SyntaxError, and a cached status would then depend on how the writer was started.
    import warnings

    normal = syntax_status(body)
    with warnings.catch_warnings():
        warnings.simplefilter("error")
        strict = syntax_status(body)
    assert normal == strict == classify.SyntaxStatus(Status.NEEDS_ASYNC_WRAPPER)


def _status_by_two_compiles(body: str) -> str:
    """The definition: compiles as it is, else inside an ``async def`` (top-level await allowed)."""
    import ast as _ast
    import textwrap as _textwrap

    def ok(flags: int) -> bool:
        try:
            compile(_textwrap.dedent(body), "<s>", "exec", flags=flags, dont_inherit=True)
        except SyntaxError:
            return False
        return True

    if ok(0):
        return "parses"
    return "needs-async-wrapper" if ok(_ast.PyCF_ALLOW_TOP_LEVEL_AWAIT) else "neither"


@pytest.mark.parametrize(
    "body",
    [
        "x = 1\n",
        "await f()\n",
        "async for x in y:\n    pass\n",
        "async with a:\n    pass\n",
        "[x async for x in y]\n",
        "x = [await f() for _ in y]\n",
        "if True:\n    await f()\n",
        "async def f():\n    await g()\n",
        "def f():\n    return [x async for x in y]\n",
        "class A:\n    x = await f()\n",
        "lambda: (await x)\n",
        "await f()\nreturn 5\n",
        "    await f()\n    x = 1\n",
    ],
)
def test_one_compile_gives_the_status_two_compiles_define(body):
    got = classify.syntax_status(body).status
    want = _status_by_two_compiles(body)
    assert got == want if want != "neither" else got in ("incomplete-signature", "syntax-error")
