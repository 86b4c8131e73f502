"""Stage 1 and stage 2 judge a pull request of a four-language tree alike (one judge): an English
example edited, its three translations left behind, each counted, named and linked."""

from __future__ import annotations

import shutil
from pathlib import Path

from tests.support.corpus import write
from tests.support.scenario import HEAD_SHA, REPO
from tests.support.stage2_pr import fork_pr, report

from docsnippets.cli import main

LANGS = ("en", "de", "ja", "zh-hant")
CONFIG = "translations:\n  source: en\n  pages:\n" + "".join(f"    {c}: docs/{c}/{{path}}\n" for c in LANGS)
OLD = "async def read_item(item_id: int, q: Union[str, None] = None):\n    return {'q': await find(q)}\n"
NEW = "async def read_item(item_id: int, q: str | None = None):\n    return {'q': await find(q)}\n"


def page(body: str, title: str) -> str:
    return f"# {title}\n\nSome prose.\n\n```python\n{body}```\n"


def _update(root: Path) -> None:
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115


def test_stage_1_and_stage_2_name_every_translation_left_behind_alike(tmp_path, fake):
    base = write(tmp_path / "base", {".docsnippets.yml": CONFIG, **{f"docs/{c}/index.md": page(OLD, c) for c in LANGS}})
    _update(base)
    head = Path(shutil.copytree(base, tmp_path / "head"))
    (head / "docs/en/index.md").write_text(page(NEW, "en"), encoding="utf-8")
    _update(head)
    stage1, stage2 = fork_pr(tmp_path, fake, base, head, "desync")
    first = stage1.run()
    second = stage2.run()
    assert first.code == 1 and second.code == 0, second.stderr  # stage 2 delivered: the status is the gate
    [status] = fake.repos[REPO].statuses[HEAD_SHA]
    assert status["state"] == "failure" and status["description"].startswith("check failed (desync)")
    assert report(stage2, second) == report(stage1, first)
    data = report(stage1, first)
    assert data["verdict"]["cause"] == "desync" and data["verdict"]["desynchronized"] == 3
    assert sorted(data["languages"]) == ["de", "ja", "zh-hant"]
    assert all(len(v["desynchronized"]) == 1 for v in data["languages"].values())
    (comment,) = stage2.comments()
    assert "3 translations still show the old code: `de`, `ja`, `zh-hant`" in comment
    for code in ("de", "ja", "zh-hant"):
        assert f"/docs/{code}/index.md#L" in comment  # each translation linked to its lines
        assert f"- `{code}`: edit [`docs/{code}/index.md:6-7`]" in comment  # and its fix
    assert comment.count("Patch that brings") == 1  # one patch for the three that share the old code
    shown = [a for a in second.annotations if "docs/" in a]
    assert any("3 translations out of step" in a for a in shown)
    assert {c for c in ("de", "ja", "zh-hant") if any(f"file=docs/{c}/index.md" in a for a in shown)} == {
        "de",
        "ja",
        "zh-hant",
    }
