"""The validated-manifest memo: a hit skips the JSON Schema (and its import), nothing else changes."""

from __future__ import annotations

import hashlib
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.child_check import check_imports

from docsnippets import cache as cache_mod
from docsnippets import engine
from docsnippets.cache import SnippetCache
from docsnippets.config import Config
from docsnippets.manifest import build as mf
from docsnippets.manifest import check as manifest_check
from docsnippets.manifest import store

REPO = Path(__file__).resolve().parents[2]
DOCS = {
    "docs/en/a.md": "```python\nawait f()\n```\n",
    "docs/zh/a.md": "```python\nawait f()  # 中文\n```\n",
}


def _tree(make_tree) -> tuple[Path, Path]:
    root = make_tree(DOCS).resolve()
    engine.update(root, Config(), root / mf.DEFAULT_MANIFEST, repository=None, commit=None)
    return root, root / mf.DEFAULT_MANIFEST


def _key(path: Path) -> str:
    return hashlib.sha256(path.read_text(encoding="utf-8").encode()).hexdigest()


def _entries(cache: Path) -> list[Path]:
    return sorted(cache.glob("manifest-*/*.json"))


def _schema_walks(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    calls: list[int] = []
    real = manifest_check._validator

    def counted():  # type: ignore[no-untyped-def]
        calls.append(1)
        return real()

    monkeypatch.setattr(manifest_check, "_validator", counted)
    return calls


def test_a_miss_validates_and_remembers_a_hit_skips_the_schema(make_tree, tmp_path, monkeypatch):
    root, path = _tree(make_tree)
    walks = _schema_walks(monkeypatch)
    plain = store.load(path)
    cold = SnippetCache(tmp_path / "c", Config())
    assert store.load(path, cold) == plain and len(walks) == 2 and cold.manifest_hits == 0
    (entry,) = _entries(tmp_path / "c")
    assert entry.name == f"{_key(path)}.json" and json.loads(entry.read_bytes())["valid"] == _key(path)
    warm = SnippetCache(tmp_path / "c", Config())
    assert store.load(path, warm) == plain and len(walks) == 2 and warm.manifest_hits == 1
    # The same through the engine's check: the same report, no schema walk.
    assert engine.check(root, Config(), path, memo=warm).report == engine.check(root, Config(), path).report
    assert warm.manifest_hits == 2 and len(walks) == 3  # the memo-less check walked once


def test_an_invalid_manifest_is_never_remembered(make_tree, tmp_path):
    _, path = _tree(make_tree)
    data = json.loads(path.read_text(encoding="utf-8"))
    memo = SnippetCache(tmp_path / "c", Config())
    for bad in ({**data, "generator": 7}, {**data, "files": {"a.md": {"snippets": "x"}}}, {"schema": 2}):
        path.write_text(mf.dumps(bad), encoding="utf-8")
        for _ in range(2):  # and so it is rejected the second time too
            with pytest.raises(mf.ManifestError):
                store.load(path, memo)
    path.write_text("{not json", encoding="utf-8")
    with pytest.raises(mf.ManifestError, match="not valid JSON"):
        store.load(path, memo)
    assert _entries(tmp_path / "c") == [] and memo.manifest_hits == 0


def test_an_entry_vouches_only_for_the_bytes_it_names(make_tree, tmp_path):
    _, path = _tree(make_tree)
    memo = SnippetCache(tmp_path / "c", Config())
    store.load(path, memo)
    (entry,) = _entries(tmp_path / "c")
    # A copy renamed after other bytes, or a damaged one, is a miss.
    other = path.read_text(encoding="utf-8").replace('"docsnippets"', '"docsnippets "')
    renamed = entry.with_name(hashlib.sha256(other.encode()).hexdigest() + ".json")
    renamed.write_bytes(entry.read_bytes())
    assert not memo.validated(renamed.stem)
    for damaged in (b"", b"[]", b'{"format": 1}', b"\xff"):
        entry.write_bytes(damaged)
        assert not memo.validated(entry.stem)
    assert not memo.validated("../" + entry.stem[3:]) and not memo.validated(entry.stem.upper())


def test_a_lying_entry_that_the_semantic_pass_catches_is_validated_in_full(make_tree, tmp_path):
    """The semantic pass still runs on a hit; should it object, the message is the full validation's."""
    _, path = _tree(make_tree)
    data = json.loads(path.read_text(encoding="utf-8"))
    entry = data["files"]["docs/en/a.md"]["snippets"][0]
    for broken in ({"body_sha256": "0" * 64}, {"fence_lines": "oops"}):
        path.write_text(
            mf.dumps(
                {
                    **data,
                    "files": {"docs/en/a.md": {**data["files"]["docs/en/a.md"], "snippets": [{**entry, **broken}]}},
                }
            ),
            encoding="utf-8",
        )
        memo = SnippetCache(tmp_path / "c", Config())
        memo.mark_validated(_key(path))  # poison
        with pytest.raises(mf.ManifestError) as raised:
            store.load(path, memo)
        with pytest.raises(mf.ManifestError) as plain:
            store.load(path)
        assert str(raised.value) == str(plain.value)


def test_the_salt_covers_schema_code_versions_and_jsonschema(monkeypatch, tmp_path):
    base = cache_mod.manifest_salt()
    assert cache_mod.manifest_salt() == base
    changes = [
        (cache_mod, "__version__", "9.9.9"),
        (sys, "version", sys.version + " (another build)"),
        (cache_mod, "_jsonschema_fingerprint", lambda: b"another jsonschema"),
        (cache_mod, "_MANIFEST_CODE", cache_mod._MANIFEST_CODE[1:]),  # each module's bytes count
    ]
    for owner, name, value in changes:
        monkeypatch.setattr(owner, name, value)
        assert cache_mod.manifest_salt() != base, name
        monkeypatch.undo()
    # The schema file's bytes: the same package with one byte of the schema changed.
    copy = tmp_path / "pkg"
    src = Path(cache_mod.__file__).resolve().parent
    schema_file = Path("manifest", "schema", "documentation-snippets.schema.json")
    (copy / schema_file).parent.mkdir(parents=True)
    for name in cache_mod._MANIFEST_CODE:
        (copy / name).parent.mkdir(parents=True, exist_ok=True)
        (copy / name).write_bytes((src / name).read_bytes())
    schema = (src / schema_file).read_bytes()
    monkeypatch.setattr(cache_mod, "__file__", str(copy / "cache.py"))
    (copy / schema_file).write_bytes(schema)
    assert cache_mod.manifest_salt() == base
    (copy / schema_file).write_bytes(schema + b" ")
    assert cache_mod.manifest_salt() != base


def test_a_new_salt_misses(make_tree, tmp_path, monkeypatch):
    _, path = _tree(make_tree)
    store.load(path, SnippetCache(tmp_path / "c", Config()))
    monkeypatch.setattr(cache_mod, "__version__", "9.9.9")
    memo = SnippetCache(tmp_path / "c", Config())
    store.load(path, memo)
    assert memo.manifest_hits == 0 and len(_entries(tmp_path / "c")) == 2


def _imports_jsonschema(root: Path, env: dict[str, str], *flags: str) -> tuple[bool, str]:
    return check_imports(root, env, "jsonschema", *flags)


def test_a_cached_check_never_imports_jsonschema(make_tree, tmp_path):
    root, _ = _tree(make_tree)
    env = {"DOCSNIPPETS_CACHE_DIR": str(tmp_path / "c"), "PATH": "/usr/bin:/bin"}
    assert _imports_jsonschema(root, env) == (True, "0")  # the first check validates
    assert _imports_jsonschema(root, env) == (False, "0")  # the second trusts that
    assert _imports_jsonschema(root, env, "--no-cache") == (True, "0")


def test_the_action_never_trusts_a_validated_entry(make_tree, tmp_path):
    """A planted "validated" entry for an invalid manifest: the CLI (its own cache) may take it,
    the Action (a home earlier PR steps could write) validates in full and rejects the manifest."""
    root, path = _tree(make_tree)
    data = json.loads(path.read_text(encoding="utf-8"))
    path.write_text(mf.dumps({**data, "generator": 7}), encoding="utf-8")  # only the schema says no
    home = tmp_path / "home"
    for cache_dir in (home / ".cache" / "docsnippets", tmp_path / "xdg" / "docsnippets", tmp_path / "explicit"):
        SnippetCache(cache_dir, Config()).mark_validated(_key(path))
    env = {
        "PATH": "/usr/bin:/bin",
        "HOME": str(home),
        "XDG_CACHE_HOME": str(tmp_path / "xdg"),
        "DOCSNIPPETS_CACHE_DIR": str(tmp_path / "explicit"),
    }
    run = lambda argv, extra: subprocess.run(  # noqa: E731
        [sys.executable, str(REPO / "entrypoint.py"), *argv],
        env={**env, **extra},
        cwd=root,
        capture_output=True,
        text=True,
        check=False,
    )
    cli = run(["check", "--root", str(root)], {})
    assert cli.returncode == 0, cli.stdout + cli.stderr  # the poison works on the CLI: it trusts its cache
    assert run(["check", "--root", str(root), "--no-cache"], {}).returncode == 2
    event = tmp_path / "event.json"
    event.write_text("{}", encoding="utf-8")
    action = run(
        [],
        {
            "GITHUB_ACTIONS": "true",
            "GITHUB_EVENT_NAME": "push",
            "GITHUB_EVENT_PATH": str(event),
            "GITHUB_REPOSITORY": "o/r",
            "GITHUB_WORKSPACE": str(root),
            "INPUT_MANIFEST": mf.DEFAULT_MANIFEST,
        },
    )
    assert action.returncode == 2, action.stdout + action.stderr
    assert "generator" in action.stdout + action.stderr and "Traceback" not in action.stderr
    assert os.path.exists(tmp_path / "explicit")  # the planted entries were there to be (not) read
