"""Lost pairs on the Slime docs as a git repository: one side of a bilingual page pair renamed
or deleted on a branch whose manifest was updated, as a contributor pushes it.

Every way docsnippets reports a change must name the page left behind: ``diff`` (the gate
under ``--fail-on desync``, a note under the default), the markdown report the PR comment is
made of, the JSON report, ``check`` before the update, and ``update``'s own summary.
"""

from __future__ import annotations

import io
import json
from pathlib import Path

import pytest
from tests.support.corpus import need
from tests.support.gitinit import commit_all, run_git, slime_repo

from docsnippets.cli import main

TRACE_EN = "docs/en/developer_guide/trace.md"
TRACE_ZH = "docs/zh/developer_guide/trace.md"
AGENT_EN = "docs/en/get_started/agent.md"
AGENT_ZH = "docs/zh/get_started/agent.md"


def cli(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    """Slime committed on main with its manifest, then a branch to change it on."""
    root = slime_repo(tmp_path / "slime")
    assert cli("update", "--root", str(root))[0] == 0
    commit_all(root, "manifest")
    run_git(root, "checkout", "-q", "-b", "change")
    return root


def _pairs(root: Path) -> int:
    return json.loads(cli("check", "--root", str(root), "--format", "json")[1])["summary"]["pairs"]


def _lost_everywhere(root: Path, kept: str, gone: str, happened: str) -> None:
    code, text = cli("diff", "main", "--root", str(root), "--fail-on", "desync")
    assert code == 1, text
    assert kept in text and gone in text and happened in text
    assert "fix:" in text and "check failed (desync)" in text
    code, text = cli("diff", "main", "--root", str(root))
    assert code == 0, text
    assert kept in text and happened in text and "lost its counterpart" in text
    code, md = cli("diff", "main", "--root", str(root), "--format", "markdown")
    assert "Pages that lost their counterpart" in md and f"`{kept}`" in md and f"`{gone}`" in md
    code, raw = cli("diff", "main", "--root", str(root), "--format", "json")
    lost = json.loads(raw)["lost_pairs"]
    assert [(x["kept"], x["gone"]) for x in lost] == [(kept, gone)]


def test_one_side_renamed(repo: Path) -> None:
    need(repo)
    before = _pairs(repo)
    run_git(repo, "mv", TRACE_EN, "docs/en/developer_guide/tracing.md")
    code, text = cli("check", "--root", str(repo), "--fail-on", "desync")
    assert code == 1 and f"{TRACE_ZH} lost its counterpart {TRACE_EN}" in text
    code, text = cli("update", "--root", str(repo))
    after = _pairs(repo)
    assert after < before
    assert f"{before} → {after} pairs: {before - after} lost ({TRACE_ZH} lost its counterpart" in text
    commit_all(repo, "rename one side")
    _lost_everywhere(repo, TRACE_ZH, TRACE_EN, "renamed to docs/en/developer_guide/tracing.md")
    _, text = cli("diff", "main", "--root", str(repo))
    assert f"rename {TRACE_ZH} to docs/zh/developer_guide/tracing.md" in text


def test_one_side_deleted(repo: Path) -> None:
    run_git(repo, "rm", "-q", AGENT_ZH)
    assert cli("update", "--root", str(repo))[0] == 0
    commit_all(repo, "delete one side")
    _lost_everywhere(repo, AGENT_EN, AGENT_ZH, "deleted")
    _, text = cli("diff", "main", "--root", str(repo))
    assert f"delete {AGENT_EN} as well, or restore {AGENT_ZH}" in text


def test_both_sides_renamed_lose_nothing(repo: Path) -> None:
    run_git(repo, "mv", TRACE_EN, "docs/en/developer_guide/tracing.md")
    run_git(repo, "mv", TRACE_ZH, "docs/zh/developer_guide/tracing.md")
    assert cli("update", "--root", str(repo))[0] == 0
    commit_all(repo, "rename both sides")
    code, raw = cli("diff", "main", "--root", str(repo), "--fail-on", "desync", "--format", "json")
    assert json.loads(raw)["lost_pairs"] == [] and code == 0
