"""FastAPI's real PR 4414286f2 (an English example edited, 11 translations left behind) judged
by stage 1 on the fork's checkout and by stage 2 from the API alike, within the request budget
(skips without ../shared)."""

from __future__ import annotations

import io
import shutil
from pathlib import Path

import pytest
from tests.support.corpus import CORPUS, copy_tree, need
from tests.support.fake_github import FakeGitHub
from tests.support.scenario import HEAD_SHA, REPO, TOKEN
from tests.support.stage2_pr import fork_pr, report

from docsnippets.cli import main

PARENT = CORPUS / "fastapi-docs-938c5f350"
CHANGES = CORPUS / "fastapi-docs-4414286f2-changes"
LANGUAGES = ("en", "de", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-hant")
CONFIG = "translations:\n  pages:\n" + "".join(f"    {c}: docs/{c}/{{path}}\n" for c in LANGUAGES)


def _update(root: Path) -> None:
    assert main(["update", "--root", str(root), "--no-cache"], out=io.StringIO()) == 0


@pytest.fixture
def wide_fake():
    with FakeGitHub(token=TOKEN, max_page_size=100) as server:
        yield server


def test_stage_1_and_stage_2_leave_the_same_11_translations_behind(tmp_path, wide_fake):
    base = copy_tree(need(PARENT), tmp_path / "base")
    (base / ".docsnippets.yml").write_text(CONFIG, encoding="utf-8")
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    for path in need(CHANGES).rglob("*.md"):
        (head / path.relative_to(CHANGES)).write_bytes(path.read_bytes())
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, wide_fake, base, head, "desync")
    first = stage1.run()
    wide_fake.reset_log()
    second = stage2.run()
    assert first.code == 1 and second.code == 0, second.stdout + second.stderr
    api = [(r.method, r.path) for r in wide_fake.requests() if not r.path.startswith("/_codeload/")]
    assert len(api) <= 12, api
    data = report(stage2, second)
    assert data == report(stage1, first)
    assert data["verdict"]["desynchronized"] == 11
    [status] = wide_fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] == "failure"
    (comment,) = stage2.comments()
    assert "11 translations still show the old code" in comment and len(comment) <= 65536
