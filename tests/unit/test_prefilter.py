"""The byte prefilter and the fast file I/O must change no result, only the time taken.

Every check compares the prefiltered path with the unfiltered one (``prefilter=False``):
hand-written corner cases, random documents built from adversarial lines, generated trees
(bench/generate.py) and the Slime corpus, also re-encoded (CRLF, BOM) and re-nested
(blockquote, list). The Unicode tables the byte patterns rely on are checked against the
running interpreter.
"""

from __future__ import annotations

import os
import sys
from pathlib import Path

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.support.judging import scan_tree
from tests.support.scripts import load_script

from docsnippets.config import Config
from docsnippets.snippets import extract
from docsnippets.snippets.records import Notice
from docsnippets.sources import SourceError, disk, worktree

ROOT = Path(__file__).resolve().parents[2]


def _load_generator():
    return load_script("bench/generate.py", "bench_generate")


def same(data: bytes, config: Config | None = None) -> tuple[list, list]:
    """Assert both paths agree on snippets and notices; return the unfiltered answer."""
    config = config or Config()
    slow = extract.snippets_from_bytes("docs/en/x.md", data, config, prefilter=False)
    fast = extract.snippets_from_bytes("docs/en/x.md", data, config)
    assert fast == slow, data
    return slow


# --- the Unicode facts behind the byte patterns --------------------------------------------


def test_whitespace_table_is_pythons():
    spaces = {chr(c) for c in range(sys.maxunicode + 1) if chr(c).isspace()}
    assert set(extract.PY_WHITESPACE) == spaces
    # str.split() (fences.py cuts the language word with it) splits on exactly these.
    assert {c for c in map(chr, range(sys.maxunicode + 1)) if len(f"a{c}b".split()) == 2} == spaces


def test_lowercase_table_is_pythons():
    to_ascii = {}
    for c in map(chr, range(0x80, sys.maxunicode + 1)):
        low = c.lower()
        if low.isascii():
            to_ascii[c] = low
    # Only single letters: so a pure-ASCII language is matched exactly by per-letter classes.
    assert to_ascii == extract.ASCII_LOWER_OF
    assert all(len(v) == 1 for v in to_ascii.values())


@settings(max_examples=300, deadline=None)
@given(st.sets(st.binary(min_size=1, max_size=12), min_size=1, max_size=8))
def test_every_word_contains_a_needle(words):
    needles = extract._needles(words)
    assert all(any(n in w for n in needles) for w in words)
    assert len(needles) <= len(words)


# --- hand-written corner cases ----------------------------------------------------------------

ASYNC = "async def f():\n    await g()\n"
POSITIVE = {
    "plain": f"```python\n{ASYNC}```\n",
    "py3-upper": f"```PYTHON3\n{ASYNC}```\n",
    "mixed-case": f"```PyThOn\n{ASYNC}```\n",
    "spaces-then-attrs": f"```   python   {{.cls}} title=x\n{ASYNC}```\n",
    "tab-before": f"```\tpy\n{ASYNC}```\n",
    "ideographic-space-before": f"```\u3000python\n{ASYNC}```\n",
    "nbsp-before": f"```\xa0py\n{ASYNC}```\n",
    "ideographic-space-after": f"```python\u3000title\n{ASYNC}```\n",
    "form-feed-after": f"```python\x0c\n{ASYNC}```\n",
    "file-separator-before": f"```\x1cpython\n{ASYNC}```\n",
    "nel-after": f"```python\x85x\n{ASYNC}```\n",
    "tilde": f"~~~python\n{ASYNC}~~~\n",
    "long-tilde-with-backticks-inside": f"~~~~py\n```\n{ASYNC}~~~~\n",
    "long-backticks-short-closer-inside": f"````python\n```\n{ASYNC}````\n",
    "closer-indented-4-is-content": f"```python\n    ```\n{ASYNC}```\n",
    "unclosed": f"```python\nx = 1\n\n{ASYNC}",
    "list": f"- item\n\n  ```python\n  {ASYNC.replace(chr(10), chr(10) + '  ')}```\n",
    "ordered-list": "1. step\n\n   ```python\n   async def f():\n       await g()\n   ```\n",
    "nested-list": "- a\n  - b\n\n    ```python\n    await g()\n    ```\n",
    "blockquote": "> ```python\n> await g()\n> ```\n",
    "blockquote-in-list": "- a\n\n  > ```python\n  > await g()\n  > ```\n",
    "list-in-blockquote": "> - a\n>\n>   ```python\n>   await g()\n>   ```\n",
    "crlf": f"```python\r\n{ASYNC.replace(chr(10), chr(13) + chr(10))}```\r\n",
    "lone-cr": "```python\rawait g()\r```\r",
    "bom": f"\ufeff```python\n{ASYNC}```\n",
    "bom-crlf": "\ufeff```python\r\nawait g()\r\n```\r\n",
    "double-bom": "\ufeff\ufeff```python\nawait g()\n```\n",
    "async-for": "```python\nasync for x in y:\n    pass\n```\n",
    "async-with": "```python\nasync with a as b:\n    pass\n```\n",
    "from-concurrent-import-futures": "```python\nfrom concurrent import futures\n```\n",
    "import-concurrent-futures-as": "```python\nimport concurrent.futures as cf\n```\n",
    "threading": "```py\nimport threading\n```\n",
    "_thread": "```py\nimport _thread\n```\n",
    "from-asyncio-import": "```py\nfrom asyncio import sleep\n```\n",
    "multiprocessing-submodule": "```py\nfrom multiprocessing.pool import Pool\n```\n",
    "marker-after-prose-and-other-fences": f"await in prose\n\n```bash\nawait\n```\n\n```python\n{ASYNC}```\n",
    "fence-after-blockquote-fence": "> ```python\n> x = 1\n```python\nawait g()\n```\n",
    "no-newline-at-eof": "```python\nawait g()",
    "closer-with-trailing-tab": f"```python\n{ASYNC}```\t\n\n```python\nawait h()\n```\n",
    "syntax-error": "```python\nawait (\n```\n",
}
NEGATIVE = {
    "prose-only": "We use asyncio and await things; threading too.\n",
    "bash-fence": "```bash\nawait x\nasync def\n```\n",
    "inline-code": "Call `await f()` and `async def`.\n\n```python\nx = 1\n```\n",
    "indented-code": "    await g()\n\n```python\nx = 1\n```\n",
    "html-comment": "<!-- ```python\nawait g()\n``` -->\n",
    "html-block": "<div>\n```python\nawait g()\n```\n</div>\n",
    "pythonic": "```pythonic\nawait g()\n```\n",
    "python-braces": "```python{.x}\nawait g()\n```\n",
    "python-comma": "```python,async\nawait g()\n```\n",
    "backtick-in-info": "```python `x`\nawait g()\n```\n",
    "marker-in-string": '```python\nx = "await"\n```\n',
    "marker-in-comment": "```python\n# await later\n```\n",
    "marker-in-info-only": "```python await\nx = 1\n```\n",
    "marker-before-fence": "await\n```python\nx = 1\n```\n",
    "marker-after-closed-fence": "```python\nx = 1\n```\nawait g()\n",
    "marker-after-fence-ended-by-quote": "> ```python\n> x = 1\n\nawait g()\n",
    "relative-import": "```python\nfrom . import asyncio\n```\n",
    "asyncio-attribute-only": "```python\nx = asyncio_like\n```\n",
    "two-char-fence": "``python\nawait g()\n``\n",
    "empty": "",
}


@pytest.mark.parametrize("name", sorted(POSITIVE))
def test_selected_cases_are_found_both_ways(name):
    snippets, _ = same(POSITIVE[name].encode("utf-8"))
    assert snippets, f"{name}: the case should select a block (else it tests nothing)"


@pytest.mark.parametrize("name", sorted(NEGATIVE))
def test_unselected_cases_agree(name):
    snippets, _ = same(NEGATIVE[name].encode("utf-8"))
    assert not snippets


# Decidable from bytes: no marker word inside any possible python fence body. The other
# negatives (a marker in a string, an HTML block, ...) need the parser and tokenizer.
REJECTED_BY_BYTES = {
    "prose-only",
    "bash-fence",
    "inline-code",
    "indented-code",
    "pythonic",
    "python-braces",
    "python-comma",
    "marker-before-fence",
    "marker-after-closed-fence",
    "two-char-fence",
    "empty",
}


def test_prefilter_rejects_what_bytes_can_decide():
    # Not a safety property, a usefulness one: the filter must actually filter.
    rejected = {n for n, text in NEGATIVE.items() if not extract.may_contain_snippet(text.encode(), Config())}
    assert rejected >= REJECTED_BY_BYTES
    assert not any(extract.may_contain_snippet(POSITIVE[n].encode(), Config()) is False for n in POSITIVE)


@pytest.mark.parametrize(
    "data",
    [
        "no markers, é".encode("latin-1"),
        "```python\nawait g()\n```\n é".encode("latin-1"),
        "```python\nawait g()\n```\n".encode("utf-16"),
        "plain text".encode("utf-16-be"),
        b"\x00binary",
        b"x" * 9000 + b"\x00 after the sniffed part",
        b"\xff\xfe",
    ],
)
def test_undecodable_files_get_the_same_notice(data):
    snippets, notices = same(data)
    assert not snippets
    assert len(notices) == (0 if data.startswith(b"x" * 10) else 1)


def test_oversized_file_notice_is_the_same():
    assert same(b"a" * 50, Config(max_file_bytes=10))[1]


@pytest.mark.parametrize(
    ("config", "text", "selected"),
    [
        (Config(languages=("kotlin",)), "```\u212aotlin\nawait g()\n```\n", True),  # KELVIN SIGN lowers to k
        (Config(languages=("kotlin",)), "```KOTLIN\nawait g()\n```\n", True),
        (Config(languages=("пайтон",)), "```ПАЙТОН\nawait g()\n```\n", True),  # non-ASCII: generic opener
        (Config(languages=("py",)), "```python\nawait g()\n```\n", False),
        (Config(modules=(".weird",)), "```python\nfrom . import weird\n```\n", False),
        (Config(modules=("gevent",)), "```python\nimport gevent\n```\n", True),
        (Config(modules=("gevent",)), "```python\ngevent.spawn()\n```\n", False),
        (Config(languages=("python",), modules=()), "```python\nimport asyncio\n```\n", False),
        (Config(languages=()), "```python\nawait g()\n```\n", False),
        (Config(languages=("py", "пайтон")), "```PY\nawait g()\n```\n", True),
    ],
)
def test_configured_selections(config, text, selected):
    snippets, _ = same(text.encode("utf-8"), config)
    assert bool(snippets) == selected


# --- random documents from adversarial lines ----------------------------------------------------

LINES = [
    "```python",
    "```py",
    "```Python3",
    "``` python title",
    "```\u3000python",
    "```\xa0py",
    "```python\u3000x",
    "````python",
    "~~~python",
    "~~~~py",
    "```bash",
    "```",
    "````",
    "~~~",
    "~~~~",
    "   ```",
    "    ```",
    "```  ",
    "```\t",
    "``` x",
    "```\u212aotlin",
    "await x",
    "async def f():",
    "    await g()",
    "async with a:",
    "async for x in y:",
    "import asyncio",
    "from concurrent import futures",
    "import concurrent.futures as cf",
    "import threading",
    "from . import asyncio",
    "x = 1",
    "text mentioning await and asyncio",
    "# heading",
    "",
    "- item",
    "1. item",
    "<div>",
    "<!-- await -->",
    "`await` inline",
    "\t```python",
    "\tawait x",
]
PREFIXES = ["", "", "", "> ", "  ", "- ", "   ", "1. ", ">> ", "    ", "\t"]
EOLS = ["\n", "\r\n", "\r"]
CONFIGS = [Config(), Config(languages=("py",)), Config(languages=("kotlin", "python")), Config(modules=("asyncio",))]

documents = st.tuples(
    st.lists(st.tuples(st.sampled_from(PREFIXES), st.sampled_from(LINES), st.sampled_from(EOLS)), max_size=30),
    st.booleans(),
    st.sampled_from(range(len(CONFIGS))),
)


@settings(max_examples=400, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(documents)
def test_random_documents_agree(doc):
    lines, bom, config_index = doc
    text = ("\ufeff" if bom else "") + "".join(prefix + line + eol for prefix, line, eol in lines)
    same(text.encode("utf-8"), CONFIGS[config_index])


# --- generated trees and the Slime corpus ------------------------------------------------------


def _write_adversarial(root: Path) -> None:
    cases = {**POSITIVE, **NEGATIVE}
    for n, (name, text) in enumerate(sorted(cases.items())):
        for lang in ("en", "zh"):
            path = root / "docs" / lang / "adversarial" / f"{n:02d}-{name}.md"
            path.parent.mkdir(parents=True, exist_ok=True)
            path.write_bytes(text.encode("utf-8"))
    (root / "docs/en/adversarial/latin1.md").write_bytes("caf\xe9 asyncio".encode("latin-1"))
    (root / "docs/zh/adversarial/utf16.md").write_bytes("```python\nawait g()\n```\n".encode("utf-16"))


@pytest.mark.parametrize("seed", [1, 2])
def test_generated_tree_agrees(tmp_path, seed):
    generate = _load_generator()
    root = tmp_path / "tree"
    generate.generate(root, files=120, async_share=0.25, seed=seed)
    _write_adversarial(root)
    for config in CONFIGS[:2]:
        fast = scan_tree(root, config)
        slow = scan_tree(root, config, prefilter=False)
        assert fast == slow
    assert fast.snippets and fast.pairs and len(fast.notices) == 2


def _variants(text: str) -> dict[str, bytes]:
    return {
        "crlf-bom": ("\ufeff" + text.replace("\n", "\r\n")).encode("utf-8"),
        "blockquote": "".join("> " + line for line in text.splitlines(keepends=True)).encode("utf-8"),
        "list-item": ("- item\n\n" + "".join("  " + line for line in text.splitlines(keepends=True))).encode("utf-8"),
    }


def test_corpus_files_agree_also_reencoded_and_nested(head_tree, base_tree):
    for root in (head_tree, base_tree):
        assert scan_tree(root, Config()) == scan_tree(root, Config(), prefilter=False)
        for path in sorted(root.rglob("*.md")):
            data = path.read_bytes()
            same(data)
            for variant in _variants(data.decode("utf-8")).values():
                same(variant)


# --- the file-system fast paths are the pathlib ones --------------------------------------------


def _reference_read(root: Path, rel: str) -> bytes | Notice | None:
    path = root / rel  # read_file before it used os.lstat
    try:
        if path.is_symlink() and not os.path.exists(path):  # dangling or a loop: an error, never "absent"
            raise SourceError(f"{rel}: broken symlink")
        if path.is_symlink() and not path.resolve().is_relative_to(root):
            return Notice(rel, "symlink points outside the root; not followed")
        if not path.is_file():
            return None
        return path.read_bytes()
    except RuntimeError:  # Path.resolve() on a symlink loop (Python 3.11)
        return None
    except OSError as exc:
        raise SourceError(str(exc)) from None


def _reference_walk(root: Path) -> list[str]:
    out: list[str] = []
    for dirpath, dirnames, filenames in os.walk(root, followlinks=False):
        dirnames[:] = sorted(d for d in dirnames if d != ".git")
        rel = Path(dirpath).relative_to(root)
        out.extend((rel / name).as_posix() for name in filenames)
    return sorted(out)


@pytest.fixture
def odd_tree(tmp_path: Path) -> Path:
    root = tmp_path / "root"
    (root / "a b/ç").mkdir(parents=True)
    (root / ".git").mkdir()
    (root / ".git/x.md").write_text("ignored")
    (root / "top.md").write_text("top")
    (root / "a b/ç/deep.md").write_text("deep")
    (root / "dir.md").mkdir()
    (tmp_path / "outside.md").write_text("outside")
    (root / "link-in.md").symlink_to(root / "top.md")
    (root / "link-out.md").symlink_to(tmp_path / "outside.md")
    (root / "dangling.md").symlink_to(root / "missing.md")
    (root / "linkdir").symlink_to(root / "a b", target_is_directory=True)
    (root / "self.md").symlink_to(root / "self.md")
    os.mkfifo(root / "fifo.md")
    return root


def _outcome(read, root: Path, rel: str) -> tuple[str, object]:
    try:
        return "value", read(root, rel)
    except Exception as exc:  # the same failure (a symlink loop raises RuntimeError in pathlib) counts
        return "raises", type(exc)


def test_read_file_matches_pathlib(odd_tree):
    names = [*_reference_walk(odd_tree), "missing.md", "top.md/below.md", "linkdir/ç/deep.md", "nul\0.md", "dir.md"]
    for rel in names:
        assert _outcome(disk.read_file, odd_tree, rel) == _outcome(_reference_read, odd_tree, rel), rel


def test_walk_matches_pathlib(odd_tree, monkeypatch):
    assert worktree._walk_typed(odd_tree)[0] == _reference_walk(odd_tree)
    monkeypatch.chdir(odd_tree.parent)
    for root in (Path("root"), Path("./root"), Path("root/"), Path("root/../root")):
        assert worktree._walk_typed(root)[0] == _reference_walk(root)
    monkeypatch.chdir(odd_tree)
    assert worktree._walk_typed(Path("."))[0] == _reference_walk(Path("."))


def test_listing_hints_are_only_hints(odd_tree):
    files, regular = worktree._walk_typed(odd_tree)
    assert files == _reference_walk(odd_tree)
    assert regular == {"top.md", "a b/ç/deep.md"}
    # A stale or wrong hint must not change the answer: the reader falls back to read_file.
    for rel in [*files, "missing.md", "dir.md"]:
        hinted = _outcome(lambda root, name: disk.read_listed(root, name, True), odd_tree, rel)
        assert hinted == _outcome(_reference_read, odd_tree, rel), rel


@pytest.mark.parametrize("walk", ["scan", "os.walk"])
def test_an_unlistable_directory_is_an_error_naming_it(odd_tree, monkeypatch, walk):
    real = os.scandir

    def failing(path):
        if os.fspath(path).endswith("ç"):
            raise PermissionError(13, "Permission denied", os.fspath(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", failing)  # os.walk calls it too: same failure both ways
    walker = worktree._walk_typed if walk == "scan" else lambda root: (worktree._os_walk(root, os.fspath(root)), None)
    with pytest.raises(SourceError, match=r"^a b/ç: directory cannot be read \(permission denied\); make it readable"):
        walker(odd_tree)


def test_a_broken_symlink_is_an_error_naming_it(odd_tree):
    for rel in ("dangling.md", "self.md"):
        with pytest.raises(SourceError, match=rf"^{rel}: broken symlink .*fix the link or remove it"):
            disk.read_file(odd_tree, rel)
