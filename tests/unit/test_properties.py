"""Property-based tests: generated Markdown never breaks extraction, the manifest or the check.

Quick by default (a few dozen examples per property, part of the normal suite). With
``DOCSNIPPETS_LONG_FUZZ=1`` every property runs 10,000 examples instead::

    DOCSNIPPETS_LONG_FUZZ=1 python -m pytest -q -p no:cacheprovider tests/unit/test_properties.py

How a body relates to the file's lines is defined here, independently of fences.py:

* the file's lines are its text with one leading BOM removed, split at CRLF, CR or LF;
* the quote depth of a fence is the number of ``>`` before the fence run on its opening line
  (only container markers can stand there, and only blockquote markers are ``>``);
* each code line of the file, with ``depth`` times "blanks, ``>``, one optional space" cut
  from its start, is the matching line of the body, and nothing else is cut (in particular
  list indentation stays).
"""

from __future__ import annotations

import contextlib
import io
import os
import re
import tempfile
from collections.abc import Iterator
from dataclasses import replace
from pathlib import Path

from hypothesis import HealthCheck, assume, given, settings
from hypothesis import strategies as st
from tests.support import judging

from docsnippets.cache import SnippetCache
from docsnippets.cli import main
from docsnippets.config import Config
from docsnippets.judge.compare import limit_desync
from docsnippets.manifest import build as mf
from docsnippets.snippets import fences, grammar
from docsnippets.snippets.extract import snippets_from_bytes, snippets_from_text
from docsnippets.snippets.fences import NestingError, extract_fences
from docsnippets.snippets.pairs import pair_up

LONG = os.environ.get("DOCSNIPPETS_LONG_FUZZ") == "1"
settings.register_profile(
    "docsnippets-quick",
    max_examples=60,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
settings.register_profile(
    "docsnippets-long",
    max_examples=10_000,
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
# Used as a decorator per test, so loading no global profile changes other test modules.
PROFILE = settings.get_profile("docsnippets-long" if LONG else "docsnippets-quick")
# The tree properties start git and write files: fewer examples keep the quick run quick.
TREE_PROFILE = settings(PROFILE, max_examples=10_000 if LONG else 25)

BOM = "\ufeff"


# --- the test's own reading of a file ---------------------------------------------------------


def raw_lines(text: str) -> list[str]:
    if text.startswith(BOM):
        text = text[1:]
    return re.split(r"\r\n|\r|\n", text)


def quote_depth(opener: str) -> int:
    run = re.search(r"`{3,}|~{3,}", opener)
    assert run is not None, f"no fence run on the opening line {opener!r}"
    return opener[: run.start()].count(">")


def strip_quotes(line: str, depth: int) -> str:
    match = re.match(rf"(?:[ \t]*> ?){{{depth}}}", line)
    assert match is not None, f"{line!r} lacks the {depth} quote marker(s) of its fence"
    return line[match.end() :]


def too_deep(text: str) -> bool:
    """Whether some line may open enough containers to pass fences.MAX_NESTING: at least half
    as many markers (``>``, ``-``, ``*``, ``+``, ``1.``, ``1)``) as levels in the run of marker
    characters it starts with (a list takes two levels, a quote one)."""
    limit = fences.MAX_NESTING // 2
    for line in raw_lines(text):
        prefix = re.match(r"[ \t>*+\-0-9.)]*", line).group()
        if len(re.findall(r"[>*+\-]|[0-9]+[.)]", prefix)) >= limit:
            return True
    return False


def body_lines(body: str) -> list[str]:
    assert body == "" or body.endswith("\n"), f"a body ends with a newline: {body!r}"
    return body.split("\n")[:-1] if body else []


def assert_fences_match_file(text: str) -> list:
    found = extract_fences(text)
    lines = raw_lines(text)
    previous_end = 0
    for f in found:
        first_fence, last_fence = f.fence_lines
        first, last = f.code_lines
        assert previous_end < first_fence, "fences are in document order and do not overlap"
        previous_end = last_fence
        assert first == first_fence + 1 and first - 1 <= last <= last_fence <= len(lines)
        assert last_fence - last == (1 if f.closed else 0)
        opener = lines[first_fence - 1]
        depth = quote_depth(opener)
        expected = [strip_quotes(lines[n - 1], depth) for n in range(first, last + 1)]
        assert body_lines(f.body) == expected
        if f.info:
            assert f.info in opener.replace("\0", "\ufffd")
        if f.closed:  # the closing line: blanks, a run at least as long as the opener's, blanks
            run = re.search(r"`{3,}|~{3,}", opener).group()
            closer = strip_quotes(lines[last_fence - 1], depth)
            closing = rf"[ \t]*{re.escape(run[0])}{{{len(run)},}}[ \t]*"
            assert re.fullmatch(closing, closer), (opener, closer)
    return found


# --- noisy Markdown: anything goes, only the invariants are checked ------------------------

PREFIXES = ["", "", "", "> ", ">", "> > ", "- ", "* ", "+ ", "1. ", "10) ", "  ", "   ", "    ", "\t", "-\t", ">\t"]
PREFIXES += ["   > ", "- > ", "> - ", "  - ", "    - ", "1. > ", ">  ", "- - "]
FENCE_RUNS = ["```", "````", "`````", "~~~", "~~~~", "~~~~~~~~"]
INFOS = ["", "python", "py", "Python3", " py", "PY title=x", "python\u00a0x", "py{.x}", "`py`", "\tpython", "pyth"]
CODE = [
    "await x",
    "async def f():",
    "    return await g()",
    "async with a as b:",
    "async for i in y: pass",
    "import asyncio",
    "from concurrent.futures import ThreadPoolExecutor",
    "x = '```'",
    "# await in a comment",
    "s = 'await'",
    "",
    "\t\tawait tabbed()",
    "def broken(",
    "    ```",
    "~~~",
    "</div>",
    "<!-- x -->",
    "    indented code",
    "# Heading",
    "| a | b |",
]
line_text = st.one_of(
    st.sampled_from(CODE),
    st.builds(lambda run, info: run + info, st.sampled_from(FENCE_RUNS), st.sampled_from(INFOS)),
    st.text(max_size=20),
    st.builds(lambda c, n: c * n, st.sampled_from("x`~ \t-é中"), st.integers(1, 3000)),
    # Quote runs below fences.MAX_NESTING (two lines run together can still pass it).
    st.builds(lambda n: ">" * n, st.integers(1, 150)),
)
noisy_line = st.builds(lambda p, t: p + t, st.sampled_from(PREFIXES), line_text)
noisy_doc = st.builds(
    lambda bom, lines, eol: (BOM if bom else "") + "".join(line + eol for line in lines),
    st.booleans(),
    st.lists(noisy_line, max_size=40),
    st.sampled_from(["\n", "\r\n", "\r"]),
) | st.builds(
    lambda parts: "".join(parts),
    st.lists(st.one_of(noisy_line, st.sampled_from(["\n", "\r\n", "\r", BOM])), max_size=60),
)


@PROFILE
@given(noisy_doc)
def test_noisy_markdown_bodies_are_the_files_code_lines(text):
    try:
        assert_fences_match_file(text)
    except NestingError:
        assert too_deep(text)  # refused, never cut short; tests/test_hostile.py has the rest


@PROFILE
@given(noisy_doc, st.sampled_from(["utf-8", "utf-8-sig"]))
def test_noisy_markdown_extraction_never_raises_and_prefilter_changes_nothing(config, text, encoding):
    data = text.encode(encoding, "surrogatepass")
    try:
        full = snippets_from_bytes("docs/a.md", data, config, prefilter=False)
    except NestingError:  # until extract.py turns it into a notice
        assert too_deep(text)
        return
    assert snippets_from_bytes("docs/a.md", data, config) == full
    for s in full[0]:
        assert s.status in ("parses", "needs-async-wrapper", "incomplete-signature", "syntax-error")
        assert s.markers or s.modules
        assert s.info.split()[0].lower() in config.languages


@PROFILE
@given(st.binary(max_size=2000) | noisy_doc.map(lambda t: t.encode("utf-8", "surrogatepass")), st.data())
def test_arbitrary_bytes_give_snippets_or_one_line_notices(config, data, draw):
    if data and draw.draw(st.booleans()):  # corrupt a valid document in a few places
        raw = bytearray(data)
        for _ in range(draw.draw(st.integers(1, 3))):
            raw[draw.draw(st.integers(0, len(raw) - 1))] = draw.draw(st.integers(0, 255))
        data = bytes(raw)
    try:
        snippets, notices = snippets_from_bytes("docs/a.md", data, config)
        assert snippets_from_bytes("docs/a.md", data, config, prefilter=False) == (snippets, notices)
    except NestingError:  # until extract.py turns it into a notice
        assert too_deep(data.decode("utf-8", "replace"))
        return
    assert not (snippets and notices)
    for n in notices:
        assert str(n).startswith("docs/a.md: ") and "\n" not in str(n)


# --- structured Markdown: the expected fences are known exactly -------------------------------

# Paragraph words: nothing that can start a block or a container.
WORD = st.text(alphabet="abcdefghijklmnopqrstuvwxyzéßжü中文", min_size=1, max_size=8)
PARAGRAPH = st.lists(WORD, min_size=1, max_size=6).map(" ".join)
CODE_LINE = st.one_of(
    st.sampled_from(CODE),
    st.text(alphabet=st.characters(blacklist_categories=["Cs", "Cc"], blacklist_characters="\r\n"), max_size=30),
    st.builds(lambda n: "x" * n, st.integers(200, 5000)),
)
# (name, opener prefix, continuation prefix, what of the continuation prefix stays in the body)
CONTAINERS = [
    ("top", "", "", None),
    ("indented", "  ", "  ", None),
    ("bullet", "- ", "  ", None),
    ("ordered", "12. ", "    ", None),
    ("tab-bullet", "-\t", "\t", None),
    ("quote", "> ", "> ", ""),
    ("tight-quote", ">", ">", ""),
    ("double-quote", "> > ", "> > ", ""),
    ("quote-in-list", "- > ", "  > ", ""),
    ("list-in-quote", "> - ", ">   ", "  "),
    ("quote-in-ordered", "12. > ", "    > ", ""),
    ("quote-in-nested-list", "- - > ", "    > ", ""),
    ("deep-list", "- " * 12, "  " * 12, None),  # deeper than markdown-it's commonmark maxNesting
    ("deep-quote", "> " * 25, "> " * 25, ""),
]
QUOTED = {name for name, _, _, kept in CONTAINERS if kept is not None}


@st.composite
def fence_block(draw):
    """(lines, container, info, body lines, closed) of one fence in one kind of container."""
    name, first, cont, kept = draw(st.sampled_from(CONTAINERS))
    char = draw(st.sampled_from("`~"))
    info = draw(st.sampled_from(["python", "py", "Python3 title=x", "sh", "", "py  ", "python\tx", "py {a=`b`}"]))
    if char == "`" and "`" in info:  # not an opener at all: CommonMark forbids it
        info = "python"
    code = draw(st.lists(CODE_LINE, max_size=8))
    if name == "tight-quote":  # with no space after '>', a leading space would be eaten
        code = [c.lstrip(" \t") for c in code]
    longest = max((len(r) for c in code for r in re.findall(re.escape(char) + "+", c)), default=0)
    run = char * max(longest + 1, draw(st.integers(3, 6)))
    closed = draw(st.booleans())
    # A blank code line is written as an empty line, except inside a quote (it needs its '>').
    lines = [first + run + info, *(cont + c if c or kept is not None else "" for c in code)]
    if closed:
        lines.append(cont + run)
    body = [c if not c and kept is None else (cont if kept is None else kept) + c for c in code]
    return lines, name, info.strip(), body, closed


@st.composite
def structured_doc(draw):
    """Paragraphs and fences separated by blank lines, with the fences they must give."""
    lines: list[str] = []
    expected = []
    for _ in range(draw(st.integers(0, 8))):
        if draw(st.booleans()):
            lines += [draw(PARAGRAPH), ""]
            continue
        block, name, info, body, closed = draw(fence_block())
        start = len(lines) + 1
        lines += block
        expected.append((info, body, (start, len(lines)), closed))
        if not closed and name not in QUOTED:
            break  # an unclosed fence outside a quote runs on to the end of the document
        lines.append("")  # ends the quote, hence also a fence left open in it
    return lines, expected


def _render(lines, eol, bom):
    return (BOM if bom else "") + eol.join(lines) + (eol if lines else "")


@PROFILE
@given(structured_doc(), st.sampled_from(["\n", "\r\n", "\r"]), st.booleans())
def test_structured_markdown_gives_exactly_the_fences_written(doc, eol, bom):
    lines, expected = doc
    found = assert_fences_match_file(_render(lines, eol, bom))
    assert [(f.info, body_lines(f.body), f.fence_lines, f.closed) for f in found] == expected


@PROFILE
@given(st.one_of(noisy_doc, structured_doc().map(lambda d: _render(d[0], "\n", False))))
def test_a_cached_extraction_is_the_parsed_one(config, text):
    data = text.encode("utf-8", "surrogatepass")
    parsed = snippets_from_bytes("docs/a.md", data, config)
    with tempfile.TemporaryDirectory() as tmp:
        first = snippets_from_bytes("docs/a.md", data, config, memo=SnippetCache(Path(tmp), config))
        warm = SnippetCache(Path(tmp), config)
        second = snippets_from_bytes("docs/b.md", data, config, memo=warm)
        assert warm.hits == len(list(Path(tmp).glob("*/*.json")))
    assert first == parsed
    assert second == snippets_from_bytes("docs/b.md", data, config)
    assert second[0] == [replace(s, file="docs/b.md") for s in parsed[0]]
    python = grammar.judge(config.python)
    assert [s.code_digest for s in second[0]] == [grammar.code_digest(python, s.body) for s in parsed[0]]


# --- manifest and check ------------------------------------------------------------------------

PATHS = ["docs/en/a.md", "docs/zh/a.md", "guide.md", "guide_zh.md", "docs/en/b.md", "docs/zh/b.md", "注释/说明 x.md"]


def _any_doc():
    structured = structured_doc().map(lambda d: _render(d[0], "\n", False))
    return st.one_of(structured, noisy_doc)


tree_files = st.dictionaries(st.sampled_from(PATHS), _any_doc(), max_size=5)


@PROFILE
@given(tree_files, st.booleans())
def test_manifest_dump_load_dump_is_identical(config, files, linked):
    assume(not any(too_deep(text) for text in files.values()))
    snippets = [s for path, text in files.items() for s in snippets_from_text(path, text, config)]
    inv = pair_up(snippets, set(files), config)
    data = mf.build(inv, config, "owner/repo" if linked else None, "ab" * 20 if linked else None)
    text = mf.dumps(data)
    loaded = mf.parse(text, "m.json")
    assert mf.dumps(loaded) == text
    again = mf.build(mf.to_inventory(loaded), config, "owner/repo" if linked else None, "ab" * 20 if linked else None)
    assert mf.dumps(again) == text


def _write_tree(root: Path, files: dict[str, str]) -> None:
    for rel, text in files.items():
        path = root / rel
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(text.encode("utf-8", "surrogatepass"))


@contextlib.contextmanager
def _updated_tree(files: dict[str, str], config: Config) -> Iterator[tuple[Path, Path]]:
    """A temporary tree of ``files`` and the manifest ``update`` wrote for it."""
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write_tree(root, files)
        manifest = root / mf.DEFAULT_MANIFEST
        judging.update(root, config, manifest, repository=None, commit=None)
        yield root, manifest


@TREE_PROFILE
@given(tree_files)
def test_check_against_own_fresh_manifest_is_fresh(config, files):
    with _updated_tree(files, config) as (root, manifest):
        result = judging.check(root, config, manifest)
        assert result.freshness.fresh, result.freshness.reasons
        assert not result.manifest_missing
        partial = judging.check(root, config, manifest, changed=sorted(files))
        assert partial.freshness.fresh, partial.freshness.reasons


@TREE_PROFILE
@given(tree_files, st.sampled_from(PATHS), _any_doc())
def test_a_partial_check_agrees_with_a_full_one(config, files, path, text):
    """After editing one file, --changed with that file reports exactly what a full check does."""
    assume(not any(too_deep(t) for t in [*files.values(), text]))
    with _updated_tree(files, config) as (root, manifest):
        _write_tree(root, {path: text})
        full = judging.check(root, config, manifest)
        partial = judging.check(root, config, manifest, changed=[path])
        # Untouched files are not read again, so their warnings (a binary page, say) are not
        # repeated; everything else is the same.
        assert set(partial.freshness.notices) <= set(full.freshness.notices)
        # The partial check scopes the desynchronized pairs to the files it touched, as --changed does.
        expected = limit_desync(full.freshness, partial.touched)
        assert replace(partial.freshness, notices=()) == replace(expected, notices=())
        assert partial.inventory.pairs == full.inventory.pairs


@TREE_PROFILE
@given(tree_files)
def test_cli_update_then_check_exits_0(files):
    with tempfile.TemporaryDirectory() as tmp:
        root = Path(tmp).resolve()
        _write_tree(root, files)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stderr(err):
            assert main(["update", "--root", str(root)], out=out) == 0, err.getvalue()
            assert main(["check", "--root", str(root)], out=out) == 0, out.getvalue() + err.getvalue()
            assert main(["render", "--root", str(root)], out=out) == 0, err.getvalue()
        assert "Traceback" not in err.getvalue()
