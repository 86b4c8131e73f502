"""Pull requests (and one merge) built to exhaust a run, for ``pathological.py``'s bounds table.

Each shape sets up, in a scratch directory, what one run of the real entrypoint reads: the
workspace, the runner's files and, for a pull request, the fake GitHub API of the tests
holding the PR (its file list, its head commit as trees, blobs and archive). ``Run`` says
how to start that run and how to read how it ended.
"""

from __future__ import annotations

import json
import os
import subprocess
from collections.abc import Callable
from dataclasses import dataclass
from functools import partial
from pathlib import Path
from typing import Any

from tests.support.corpus import write
from tests.support.fake_github import FakeGitHub
from tests.support.scenario import HEAD_SHA, MANIFEST, REPO, Scenario, manifest_of
from tests.support.stage2_pr import small_pr

GUIDE = "# Guide\n\n```python\nasync def main():\n    await step()\n```\n"
BASE = {"docs/en/guide.md": GUIDE, "docs/zh/guide.md": GUIDE.replace("Guide", "指南")}


@dataclass
class Run:
    """One run to measure: ``argv`` for the entrypoint, its environment and directory, and
    ``ended()`` saying how it ended once it has (the status stage 2 set; None: its log says)."""

    argv: list[str]
    env: dict[str, str]
    cwd: Path
    ended: Callable[[], str | None]


def _child_env(env: dict[str, str]) -> dict[str, str]:
    base = {k: v for k, v in os.environ.items() if not k.startswith(("INPUT_", "GITHUB_"))}
    return {**base, **env}


def _status(fake: FakeGitHub) -> Callable[[], str | None]:
    def ended() -> str | None:
        statuses = fake.repos[REPO].statuses.get(HEAD_SHA, [])
        if not statuses:
            return "no status"
        last = statuses[-1]
        return f"status {last['state']}: {last.get('description', '')}"

    return ended


def _stage2(tmp: Path, fake: FakeGitHub, head: dict[str, str | bytes], recorded: Any = None) -> Run:
    pr = small_pr(tmp, fake, BASE, {**BASE, **head}, recorded=BASE if recorded is None else recorded)
    return Run([], _child_env(pr.scenario.env()), pr.scenario.workspace, _status(fake))


def _stage1(tmp: Path, fake: FakeGitHub, head: dict[str, str | bytes]) -> Run:
    """The PR's own run, its head checked out (the base's manifest, not updated)."""
    pr = small_pr(tmp / "pr", fake, BASE, {**BASE, **head}, recorded=BASE)
    workspace = write(tmp / "stage1" / "workspace", {**BASE, **head, MANIFEST: pr.base_manifest})
    runner = tmp / "stage1" / "runner"
    runner.mkdir(parents=True)
    scenario = Scenario(workspace, runner, fake, head_repo="someone/repo")
    return Run([], _child_env(scenario.env()), workspace, lambda: None)


def _pages(tag: str, n: int) -> str:
    return "".join(f"```py\nawait {tag}{i}()\n```\n\n" for i in range(n))


def pages(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """Two pages of N tiny distinct snippets each, the English and the Chinese one."""
    n = int(24_000 * scale)
    head = {"docs/en/big.md": _pages("e", n), "docs/zh/big.md": _pages("z", n)}
    return _stage2(tmp, fake, head) if stage == 2 else _stage1(tmp, fake, head)


def dashes(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A page whose one long line of list markers (``- - - ... x``) opens a hundred levels of
    lists, each asking whether the rest of the line is a break, after a snippet that makes
    the page worth parsing."""
    size = int((5 * 1024 * 1024 - 100) * scale)
    page = "```python\nawait f()\n```\n\n" + "- " * (size // 2) + "x\n"
    return _stage2(tmp, fake, {"docs/en/dashes.md": page})


def copies(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """One page under 2,999 paths (GitHub lists 3,000 files of a PR at most): parsed once."""
    page = _pages("copy", 60)
    return _stage2(tmp, fake, {f"docs/en/copy{k:04}.md": page for k in range(int(2_999 * scale))})


def fences(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """Copies of a 1 MiB unclosed fence holding comments that mention ``await``: every copy
    counts against the bound on parsed bytes, though it is parsed once."""
    page = "```python\n" + "# await\n" * (1024 * 1024 // 8)
    return _stage2(tmp, fake, {f"docs/en/fence{k}.md": page for k in range(max(2, int(20 * scale)))})


def stars(tmp: Path, fake: FakeGitHub, scale: float, stage: int, modules: int = 300) -> Run:
    """Modules of a package that star-import every other one, and snippets importing from them
    (300 come to more code than the code check parses in a run; 150 stay under it, so their
    run is the star walk's own cost)."""
    n = max(10, int(modules * scale))
    code = {"pkg/__init__.py": ""}
    for i in range(n):
        others = "".join(f"from pkg.m{j} import *\n" for j in range(n) if j != i)
        code[f"pkg/m{i}.py"] = others + f"\nasync def f{i}(x):\n    return x\n"
    page = "".join(
        f"```python\nfrom pkg.m{k} import f{(k * 7) % n}, absent{k}\nawait f{(k * 7) % n}(1, 2)\n```\n\n"
        for k in range(n)
    )
    return _stage2(tmp, fake, {**code, "docs/en/api.md": page})


def mismatch(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """A manifest recording N snippets a page whose bodies all differ from the page's: the
    comparison matches every one of them by similarity."""
    n = int(24_000 * scale)
    head = {"docs/en/big.md": _pages("y", n), "docs/zh/big.md": _pages("w", n)}
    recorded = {**BASE, "docs/en/big.md": _pages("e", n), "docs/zh/big.md": _pages("z", n)}
    return _stage2(tmp, fake, head, recorded=recorded)


def merge(tmp: Path, fake: FakeGitHub, scale: float, stage: int) -> Run:
    """``docsnippets merge-driver`` on a manifest to which one side added 8,000 entries."""
    n = int(8_000 * scale)
    old = [f"```python\nasync def f{i}():\n    await g{i}()\n```\n\ntext\n\n" for i in range(n)]
    new = [f"```python\nasync def n{i}():\n    await h{i}()\n```\n\ntext\n\n" for i in range(n)]
    trees = {
        "base": "".join(old),
        "ours": "".join(a + b for a, b in zip(old, new, strict=True)),
        "theirs": "\n\n\n" + "".join(old),
    }
    work = tmp / "merge"
    work.mkdir()
    for side, text in trees.items():
        (work / f"{side}.json").write_text(manifest_of(write(tmp / side, {"docs/en/x.md": text}), tmp), "utf-8")
    subprocess.run(["git", "init", "-q", str(work)], check=True)
    argv = ["merge-driver", "base.json", "ours.json", "theirs.json"]

    def ended() -> str | None:
        data = json.loads((work / "ours.json").read_text(encoding="utf-8"))
        return f"{sum(len(g['snippets']) for g in data['files'].values())} entries merged"

    return Run(argv, _child_env({}), work, ended)


SHAPES: dict[str, tuple[Callable[[Path, FakeGitHub, float, int], Run], int, str]] = {
    "pages-24000-stage2": (pages, 2, "N=24,000 tiny distinct snippets on each page of a pair"),
    "pages-24000-stage1": (pages, 1, "the same PR, stage 1 on its checkout"),
    "dashes-5mib": (dashes, 2, "5 MiB line of '- - - ... x' after a snippet"),
    "copies-2999": (copies, 2, "2,999 copies of one page of 60 snippets (archive)"),
    "fences-1mib-x20": (fences, 2, "20 copies of a 1 MiB unclosed fence of '# await'"),
    "stars-300": (stars, 2, "300 modules star-importing each other, 300 snippets"),
    "stars-150": (partial(stars, modules=150), 2, "150 of them (under the code bound), 150 snippets"),
    "mismatch-24000": (mismatch, 2, "manifest recording 24,000 bodies a page, all differing"),
    "merge-8000": (merge, 0, "merge driver, 8,000 entries added on one side"),
}
