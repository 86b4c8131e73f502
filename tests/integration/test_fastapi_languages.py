"""FastAPI's docs in 12 languages at the parent of 4414286f2, and that PR: an English example
edited, its 11 translations left behind (skips without ../shared)."""

from __future__ import annotations

import io
import json
import shutil
from pathlib import Path

import pytest
from tests.support.corpus import CORPUS, copy_tree, need
from tests.support.gitinit import commit_all, init_repo, run_git

from docsnippets.cli import main
from docsnippets.configfile import load as load_config
from docsnippets.constants import GITHUB_COMMENT_LIMIT

PARENT = CORPUS / "fastapi-docs-938c5f350"
CHANGES = CORPUS / "fastapi-docs-4414286f2-changes"
LANGUAGES = ("de", "en", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-hant")
ACTION = "OWNER/docsnippets@" + "1" * 40


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


@pytest.fixture(scope="module")
def adopted(tmp_path_factory) -> Path:
    """FastAPI at the parent commit as a git repository, after `docsnippets init`, committed."""
    repo = copy_tree(need(PARENT), tmp_path_factory.mktemp("fastapi") / "repo")
    init_repo(repo)
    code, said = run("init", "--root", str(repo), "--action", ACTION)
    assert code == 0, said
    commit_all(repo, "adopt docsnippets")
    return repo


def test_init_recognises_the_12_languages_with_english_the_source(adopted):
    config = load_config(None, adopted)
    assert config.translations is not None
    assert config.translations.source == "en"
    assert sorted(config.translations.languages) == sorted(LANGUAGES)
    data = json.loads((adopted / "documentation-snippets.json").read_text(encoding="utf-8"))
    assert data["schema"] == 3
    # No translated page is untranslated: every page without a counterpart is an English one
    # or one no language is given to (the README at the top).
    alone = [file for file, group in data["files"].items() if not group["counterparts"]]
    assert alone and all(group["language"] in ("en", None) for f, group in data["files"].items() if f in alone)
    _, text = run("check", "--root", str(adopted), "--format", "json")
    summary = json.loads(text)["summary"]
    missing = summary["untranslated_by_language"].values()
    assert all(page.startswith("docs/en/") for m in missing for page in m["pages"])
    assert all(m["count"] == len(m["pages"]) for m in missing)
    assert summary["without_source"] == []


def test_the_pr_leaves_all_11_translations_of_index_md_behind(adopted, tmp_path):
    repo = Path(shutil.copytree(adopted, tmp_path / "pr", symlinks=True))
    parent = run_git(repo, "rev-parse", "HEAD").strip()
    for path in need(CHANGES).rglob("*.md"):
        target = repo / path.relative_to(CHANGES)
        target.write_bytes(path.read_bytes())
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, "Update embedded code examples to Python 3.10 syntax")
    code, comment = run("diff", parent, "--root", str(repo), "--fail-on", "desync", "--format", "markdown")
    assert code == 1, comment
    assert len(comment) <= GITHUB_COMMENT_LIMIT
    others = [c for c in LANGUAGES if c != "en"]
    named = ", ".join(f"`{c}`" for c in others)
    assert (
        "example at `docs/en/docs/index.md:185-197` · edited in this PR: "
        f"11 translations still show the old code: {named}" in comment
    )
    for c in others:
        assert f"- `{c}`: edit `docs/{c}/docs/index.md:" in comment  # the fix per language
    assert comment.count("(git apply)") == 1  # ja's own variant gets no patch: its code differs beyond the change
    code, text = run("diff", parent, "--root", str(repo), "--fail-on", "desync", "--format", "json")
    data = json.loads(text)
    assert code == 1 and data["verdict"]["desynchronized"] == 11
    behind = {code: v["desynchronized"] for code, v in data["languages"].items() if v["desynchronized"]}
    assert sorted(behind) == others
    assert all(d[0]["sides"][0]["file"] == "docs/en/docs/index.md" for d in behind.values())
