"""The extraction cache: a hit gives exactly what parsing gives, and anything odd is a miss."""

from __future__ import annotations

import ast
import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support import judging
from tests.support.child_check import check_imports
from tests.support.judging import scan_tree

from docsnippets import cache as cache_mod
from docsnippets import interpreter
from docsnippets.cache import CacheSettings, SnippetCache
from docsnippets.cli import main
from docsnippets.config import Config
from docsnippets.manifest import build as mf
from docsnippets.snippets import fences, grammar

EN = (
    "# Hooks\n\n```python\nimport asyncio\n\nasync def hook(x):\n    await asyncio.sleep(0)  # wait\n```\n\n"
    "- item\n\n  ```py\n  async with lock:\n      pass\n  ```\n\n> ```python\n> await f()\n> ```\n"
)
ZH = (
    "# 钩子\n\n```python\nimport asyncio\n\nasync def hook(x):\n    await asyncio.sleep(0)  # 等待\n```\n\n"
    "- 条目\n\n    ```py\n    async with lock:\n        pass\n    ```\n\n> ```python\n> await g()\n> ```\n"
)
FILES = {
    "docs/en/hooks.md": EN,
    "docs/zh/hooks.md": ZH,
    "guide.md": "```python\nimport threading\n```\n\n```python\nprint('async')\n```\n",
    "guide_zh.md": "```python\nimport threading\n```\n",
    "plain.md": "```python\nx = 1  # mentions threading\n```\n",
}


def _no_parsing(monkeypatch: pytest.MonkeyPatch) -> None:
    def refuse(*_args: object) -> None:
        raise AssertionError("a cached run parsed Markdown")

    monkeypatch.setattr(fences, "_parse", refuse)


def test_a_cached_scan_equals_a_parsed_one_and_parses_nothing(make_tree, tmp_path, monkeypatch):
    root = make_tree(FILES).resolve()
    config = Config()
    parsed = scan_tree(root, config)
    cold = SnippetCache(tmp_path / "cache", config)
    assert scan_tree(root, config, memo=cold) == parsed
    assert cold.hits == 0 and len(list(cold.directory.glob("*.json"))) == 5  # plain.md too: an empty result

    warm = SnippetCache(tmp_path / "cache", config)
    _no_parsing(monkeypatch)
    again = scan_tree(root, config, memo=warm)
    assert warm.hits == 5
    assert again == parsed
    # Relations come from the cached code digests: the same pairs, relations included.
    relations = ["comments", "indentation", "diverged", "identical"]
    assert [p.relation for p in again.pairs] == [p.relation for p in parsed.pairs] == relations
    assert all(s.code_digest for s in again.snippets)


def test_the_path_is_the_callers_and_content_is_the_key(make_tree, tmp_path, monkeypatch):
    # Two files with the same bytes share one entry (a run parses them once, asking the cache
    # once); each gets its own path back, from the run and from the cache.
    root = make_tree({"a.md": EN, "b/c.md": EN}).resolve()
    memo = SnippetCache(tmp_path / "cache", Config())
    first = scan_tree(root, Config(), memo=memo)
    assert (memo.hits, memo.misses) == (0, 1) and len(list(memo.directory.glob("*.json"))) == 1
    assert {s.file for s in first.snippets} == {"a.md", "b/c.md"}
    again = SnippetCache(tmp_path / "cache", Config())
    assert scan_tree(root, Config(), memo=again) == first and again.hits == 1
    # Edited content is a miss, and the new answer is the parsed one.
    (root / "a.md").write_text(EN.replace("await f()", "await f(1)"), encoding="utf-8")
    edited = scan_tree(root, Config(), memo=SnippetCache(tmp_path / "cache", Config()))
    assert edited == scan_tree(root, Config())
    assert "await f(1)\n" in [s.body for s in edited.snippets]


def test_the_salt_covers_selection_code_and_parser(monkeypatch):
    base = cache_mod.salt(Config())
    assert cache_mod.salt(Config()) == base
    assert cache_mod.salt(Config(languages=("python",))) != base
    assert cache_mod.salt(Config(modules=("asyncio",))) != base
    # Settings that do not change a file's extraction share entries.
    assert cache_mod.salt(Config(exclude=("x/*",), repository="o/r")) == base
    monkeypatch.setattr(cache_mod, "_markdown_it_fingerprint", lambda: b'__version__ = "0.0.0"\n')
    assert cache_mod.salt(Config()) != base
    monkeypatch.undo()
    monkeypatch.setattr(sys, "version", sys.version + " (another build)")
    assert cache_mod.salt(Config()) != base
    monkeypatch.undo()
    # The extraction code's own bytes are in it (here: one module fewer).
    monkeypatch.setattr(cache_mod, "_EXTRACTION_CODE", cache_mod._EXTRACTION_CODE[1:])
    assert cache_mod.salt(Config()) != base


def test_the_salt_covers_every_module_that_reads_a_body():
    """Each module of ``docsnippets.snippets`` that extraction reaches, the child's included
    (it answers for the declared Python), decides what an entry holds: its bytes are in the salt."""
    src = Path(cache_mod.__file__).resolve().parent
    todo, seen = ["cache.py", "snippets/extract.py"], set()
    while todo:
        name = todo.pop()
        if name in seen:
            continue
        seen.add(name)
        for node in ast.walk(ast.parse((src / name).read_text(encoding="utf-8"))):
            found = [node.module] if isinstance(node, ast.ImportFrom) and node.module else []
            if isinstance(node, ast.ImportFrom) and node.module == "docsnippets.snippets":
                found = [f"docsnippets.snippets.{alias.name}" for alias in node.names]
            for module in found:
                if module.startswith("docsnippets.snippets."):
                    todo.append(module.removeprefix("docsnippets.").replace(".", "/") + ".py")
    assert seen - set(cache_mod._EXTRACTION_CODE) == set()


def test_the_salt_covers_the_grammar(monkeypatch):
    """The declared version, and which release of it judges: another release is another judge."""

    class Stand:
        version = "3.98"

        def __init__(self, identity: str) -> None:
            self.identity = identity

    base = cache_mod.salt(Config())
    monkeypatch.setitem(grammar._judges, "3.98", Stand("/opt/python3.98 1"))
    one = cache_mod.salt(Config(python="3.98"))
    monkeypatch.setitem(grammar._judges, "3.98", Stand("/opt/python3.98 2"))
    assert len({base, one, cache_mod.salt(Config(python="3.98"))}) == 3


def test_a_cache_written_under_one_grammar_never_answers_for_another(tmp_path):
    """The same page, the same cache directory: each grammar's run records its own reading."""
    versions = [v for v in ("3.11", "3.12") if v == grammar.RUNNING or interpreter.find(v, os.environ)]
    if len(versions) < 2:
        pytest.skip("needs Python 3.11 and 3.12")
    root = tmp_path / "tree"
    (root / "docs").mkdir(parents=True)
    (root / "docs" / "a.md").write_text(
        '```python\nuser = {"name": "Ada"}\nawait greet(f"{user["name"]}")\n```\n', encoding="utf-8"
    )
    cache = ["--cache-dir", str(tmp_path / "cache")]
    statuses = {}
    for version in ("3.11", "3.12", "3.11"):
        (root / ".docsnippets.yml").write_text(f'python: "{version}"\n', encoding="utf-8")
        assert main(["update", "--root", str(root), *cache]) == 0
        data = json.loads((root / "documentation-snippets.json").read_text(encoding="utf-8"))
        statuses.setdefault(version, set()).add(data["files"]["docs/a.md"]["snippets"][0]["status"])
    assert statuses == {"3.11": {"syntax-error"}, "3.12": {"needs-async-wrapper"}}  # PEP 701 from 3.12 on
    assert len(list((tmp_path / "cache").rglob("*.json"))) == 2


def test_a_changed_selection_misses(make_tree, tmp_path):
    root = make_tree(FILES).resolve()
    scan_tree(root, Config(), memo=SnippetCache(tmp_path / "cache", Config()))
    narrow = Config(modules=("asyncio",))
    memo = SnippetCache(tmp_path / "cache", narrow)
    assert scan_tree(root, narrow, memo=memo) == scan_tree(root, narrow)
    assert memo.hits == 0


def _one_entry(make_tree, tmp_path: Path) -> tuple[Path, object, Path]:
    """A one-page tree, its parsed inventory, and the single cache entry that scan wrote."""
    root = make_tree({"docs/en/hooks.md": EN}).resolve()
    memo = SnippetCache(tmp_path / "cache", Config())
    truth = scan_tree(root, Config(), memo=memo)
    (entry,) = memo.directory.glob("*.json")
    return root, truth, entry


BAD_ENTRIES = [
    b"",
    b"not json",
    b"[]",
    b'{"format": 1}',
    b'{"format": 2, "snippets": []}',
    b'{"format": 1, "snippets": [{"body": "x"}]}',
    b"[" * 100_000,
]


@pytest.mark.parametrize("raw", BAD_ENTRIES, ids=range(len(BAD_ENTRIES)))
def test_a_broken_entry_is_a_miss_and_is_rewritten(make_tree, tmp_path, raw):
    root, truth, entry = _one_entry(make_tree, tmp_path)
    entry.write_bytes(raw)
    again = SnippetCache(tmp_path / "cache", Config())
    assert scan_tree(root, Config(), memo=again) == truth
    assert again.hits == 0 and again.misses == 1
    assert json.loads(entry.read_bytes())["format"] == cache_mod.CACHE_FORMAT


@pytest.mark.parametrize(
    ("field", "value"),
    [
        ("fence_lines", [0, 3]),
        ("code_lines", [1, True]),
        ("code_lines", "1-2"),
        ("markers", "await"),
        ("status", "fine"),
        ("status_line", "3"),
        ("code_digest", "0" * 63),
        ("code_digest", "Z" * 64),
        ("body", None),
    ],
)
def test_a_malformed_snippet_is_a_miss(make_tree, tmp_path, field, value):
    root, truth, entry = _one_entry(make_tree, tmp_path)
    data = json.loads(entry.read_bytes())
    data["snippets"][0][field] = value
    entry.write_text(json.dumps(data), encoding="utf-8")
    again = SnippetCache(tmp_path / "cache", Config())
    assert scan_tree(root, Config(), memo=again) == truth and again.hits == 0


def test_an_unwritable_cache_only_means_no_cache(make_tree, tmp_path):
    root = make_tree(FILES).resolve()
    blocker = tmp_path / "not-a-dir"
    blocker.write_text("a file where the cache directory should be", encoding="utf-8")
    memo = SnippetCache(blocker, Config())
    assert scan_tree(root, Config(), memo=memo) == scan_tree(root, Config())
    assert memo.enabled is False and blocker.is_file()


def test_nesting_notices_are_not_cached(make_tree, tmp_path):
    deep = "".join(f"{'  ' * i}- x\n" for i in range(fences.MAX_NESTING + 5))
    doc = deep + "  " * (fences.MAX_NESTING + 5) + "```python\n" + "await f()\n```\n"
    root = make_tree({"deep.md": doc}).resolve()
    memo = SnippetCache(tmp_path / "cache", Config())
    first = scan_tree(root, Config(), memo=memo)
    assert first.notices and not list(memo.directory.glob("*.json"))
    assert scan_tree(root, Config(), memo=SnippetCache(tmp_path / "cache", Config())).notices == first.notices


def test_settings_from_the_environment(tmp_path):
    assert CacheSettings.from_environ({"DOCSNIPPETS_CACHE_DIR": "/c"}).directory == Path("/c")
    assert CacheSettings.from_environ({"XDG_CACHE_HOME": "/x", "HOME": "/h"}).directory == Path("/x/docsnippets")
    assert CacheSettings.from_environ({"HOME": "/h"}).directory == Path("/h/.cache/docsnippets")
    assert CacheSettings.from_environ({}).directory is None
    for off, directory in (("1", None), ("true", None), ("yes", None), ("0", Path("/c")), ("", Path("/c"))):
        env = {"DOCSNIPPETS_NO_CACHE": off, "DOCSNIPPETS_CACHE_DIR": "/c"}
        assert CacheSettings.from_environ(env).directory == directory


def test_cli_cache_flags(make_tree, tmp_path, capsys):
    root = make_tree(FILES).resolve()
    env = {"DOCSNIPPETS_CACHE_DIR": str(tmp_path / "env-cache")}
    assert main(["update", "--root", str(root)], environ=env) == 0
    assert len(list((tmp_path / "env-cache").glob("*/*.json"))) == 5
    assert main(["check", "--root", str(root), "--cache-dir", str(tmp_path / "flag")], environ=env) == 0
    assert len(list((tmp_path / "flag").glob("*/*.json"))) == 5  # the extraction entries, nothing else
    no_env = {"DOCSNIPPETS_CACHE_DIR": str(tmp_path / "no")}
    assert main(["check", "--root", str(root), "--no-cache"], environ=no_env) == 0
    off_env = {"HOME": str(tmp_path / "home"), "DOCSNIPPETS_NO_CACHE": "1"}
    assert main(["check", "--root", str(root)], environ=off_env) == 0
    assert not (tmp_path / "no").exists() and not (tmp_path / "home").exists()
    capsys.readouterr()


def _poison(cache_dir: Path, file: Path) -> None:
    """A well-formed entry that says ``file`` holds one made-up snippet."""
    memo = SnippetCache(cache_dir, Config())
    memo.directory.mkdir(parents=True, exist_ok=True)
    body = "await poisoned()\n"
    entry = {
        "format": cache_mod.CACHE_FORMAT,
        "snippets": [
            {
                "fence_lines": [1, 3],
                "code_lines": [2, 2],
                "info": "python",
                "markers": ["await"],
                "modules": [],
                "status": "needs-async-wrapper",
                "body": body,
                "status_message": None,
                "status_line": None,
                "code_digest": "0" * 64,
            }
        ],
    }
    key = hashlib.sha256(file.read_bytes()).hexdigest()
    (memo.directory / f"{key}.json").write_text(json.dumps(entry), encoding="utf-8")


def test_the_action_never_reads_a_cache(tmp_path, head_tree):
    """Where the CLI trusts its cache, the Action (whose home earlier PR steps could write) does not."""
    root = Path(__file__).resolve().parents[2]
    ws = head_tree
    assert main(["update", "--root", str(ws), "--no-cache"]) == 0
    home = tmp_path / "home"
    for cache_dir in (home / ".cache" / "docsnippets", tmp_path / "xdg" / "docsnippets", tmp_path / "explicit"):
        _poison(cache_dir, ws / "docs/en/developer_guide/trace.md")
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "DOCSNIPPETS_CACHE_DIR": str(tmp_path / "explicit"),
    }
    # The poison works on the CLI: the cache is trusted there.
    cli = subprocess.run(
        [sys.executable, str(root / "entrypoint.py"), "check", "--root", str(ws)],
        env=env,
        capture_output=True,
        text=True,
        check=False,
    )
    assert cli.returncode == 1 and "1 snippet added; 3 snippets removed" in cli.stdout, cli.stdout + cli.stderr
    # The Action, on a push event (no token, whole tree): fresh, the cache never consulted.
    event = tmp_path / "event.json"
    event.write_text("{}", encoding="utf-8")
    action = subprocess.run(
        [sys.executable, str(root / "entrypoint.py")],
        env={
            **env,
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "push",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_REPOSITORY": "THUDM/slime",
            "GITHUB_WORKSPACE": str(ws),
            "INPUT_MANIFEST": mf.DEFAULT_MANIFEST,
        },
        cwd=ws,
        capture_output=True,
        text=True,
        check=False,
    )
    assert action.returncode == 0, action.stdout + action.stderr


def test_cached_check_of_the_real_change(tmp_path, monkeypatch, base_tree, head_tree):
    """44d29ee59's manifest against the 624b824a8 docs: the same report, cold or cached."""
    base, head = base_tree, head_tree
    manifest = tmp_path / "base.json"
    judging.update(base, Config(), manifest, repository=None, commit=None)
    plain = judging.check(head, Config(), manifest)
    judging.check(head, Config(), manifest, memo=SnippetCache(tmp_path / "c", Config()))
    warm = SnippetCache(tmp_path / "c", Config())
    _no_parsing(monkeypatch)
    cached = judging.check(head, Config(), manifest, memo=warm)
    assert warm.hits == 14
    assert cached.freshness == plain.freshness and cached.inventory == plain.inventory
    assert (len(plain.freshness.changed), len(plain.freshness.moved)) == (4, 5)


def test_a_cached_check_never_imports_markdown_it(make_tree, tmp_path):
    """What makes a repeated check start fast: no parser import at all (timed in bench/run.py)."""
    root = make_tree(FILES).resolve()
    env = {"DOCSNIPPETS_CACHE_DIR": str(tmp_path / "c"), "PATH": "/usr/bin:/bin"}
    assert main(["update", "--root", str(root)], environ=env, out=open(os.devnull, "w")) == 0  # noqa: SIM115

    assert check_imports(root, env, "markdown_it") == (False, "0")
    assert check_imports(root, env, "markdown_it", "--no-cache") == (True, "0")


def test_an_entry_that_is_not_a_regular_file_is_a_miss(make_tree, tmp_path):
    root, truth, entry = _one_entry(make_tree, tmp_path)
    entry.unlink()
    os.mkfifo(entry)  # a reader that opened it for reading would wait forever
    again = SnippetCache(tmp_path / "cache", Config())
    assert scan_tree(root, Config(), memo=again) == truth and again.hits == 0


def test_a_huge_body_is_cached_without_a_digest(make_tree, tmp_path, monkeypatch):
    big = "await f()\n" + "x = 1\n" * (cache_mod.MAX_DIGEST_CHARS // 6 + 1)
    doc = f"```python\n{big}```\n"
    root = make_tree({"docs/en/big.md": doc, "docs/zh/big.md": doc.replace("x = 1", "x = 2", 1)}).resolve()
    memo = SnippetCache(tmp_path / "cache", Config())
    parsed = scan_tree(root, Config(), memo=memo)
    stored = [json.loads(p.read_bytes()) for p in memo.directory.glob("*.json")]
    assert [e["snippets"][0]["code_digest"] for e in stored] == ["", ""]
    assert not list(memo.directory.glob("*.tmp"))
    warm = SnippetCache(tmp_path / "cache", Config())
    _no_parsing(monkeypatch)
    again = scan_tree(root, Config(), memo=warm)
    assert warm.hits == 2 and again == parsed
    assert [p.relation for p in again.pairs] == [p.relation for p in parsed.pairs] == ["diverged"]


def test_an_empty_cache_dir_is_a_usage_error(make_tree, capsys):
    root = make_tree(FILES).resolve()
    assert main(["check", "--root", str(root), "--cache-dir", ""]) == 2
    assert "--cache-dir: empty path" in capsys.readouterr().err
