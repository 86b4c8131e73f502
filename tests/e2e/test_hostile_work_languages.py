"""A pull request over twelve languages, each page thousands of examples long, ends in the error
outcome at the run's bounds as one over two languages does: exit 2, an ``error`` status naming
the bound (stage 2), a comment, never a verdict from a judging cut short."""

from __future__ import annotations

import itertools
import shutil
from pathlib import Path

import pytest
from tests.support.corpus import write
from tests.support.scenario import in_process_runner
from tests.support.stage2_pr import fork_pr

from docsnippets.cli import main

LANGS = ("en", "de", "es", "fr", "ja", "ko", "pt", "ru", "tr", "uk", "zh", "zh-hant")
CONFIG = "translations:\n  source: en\n  pages:\n" + "".join(f"    {c}: docs/{c}/{{path}}\n" for c in LANGS)
EXAMPLES = 2000


def _page(tag: str, n: int) -> str:
    return "".join(f"```python\nawait {tag}{i}(1)\n```\n\n" for i in range(n))


def _pr(tmp_path: Path, fake):
    """The base: every language's page with one example, the manifest fresh. The head: every
    page grown to EXAMPLES examples (its manifest not updated, which the bound stops before)."""
    base = write(
        tmp_path / "base", {".docsnippets.yml": CONFIG, **{f"docs/{c}/index.md": _page("step", 1) for c in LANGS}}
    )
    assert main(["update", "--root", str(base), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    head = Path(shutil.copytree(base, tmp_path / "head"))
    for c in LANGS:
        (head / f"docs/{c}/index.md").write_text(_page(c.replace("-", "_"), EXAMPLES), encoding="utf-8")
    largest = max(len((head / f"docs/{c}/index.md").read_bytes()) for c in LANGS)
    return (*fork_pr(tmp_path, fake, base, head, "desync"), largest)


def _ticking(monkeypatch) -> None:
    """The run's CPU clock as one tick a check: the bound is reached by the work done, not by
    the speed of the machine."""
    ticks = itertools.count()
    monkeypatch.setattr("docsnippets.interpreter.cpu_seconds", lambda: float(next(ticks)))


@pytest.mark.parametrize(
    ("setting", "said"),
    [("DOCSNIPPETS_MAX_PARSED_BYTES", "bytes"), ("DOCSNIPPETS_MAX_CPU_SECONDS", "s of CPU")],
)
def test_twelve_long_languages_stop_at_the_bound_in_both_stages(tmp_path, fake, monkeypatch, setting, said):
    stage1, stage2, largest = _pr(tmp_path, fake)
    if setting == "DOCSNIPPETS_MAX_PARSED_BYTES":
        value = str(2 * largest)  # any page fits, and two of the twelve
    else:
        _ticking(monkeypatch)
        value = "2000"  # two thousand checks: far fewer than judging twelve such pages makes
    for stage in (stage1, stage2):
        stage.inputs[setting] = value
    first = stage1.run(in_process_runner)
    assert first.code == 2, first.stdout + first.stderr
    assert f"::error::PR too large to judge: {setting}" in first.stdout
    second = stage2.run(in_process_runner)
    assert second.code == 2, second.stdout + second.stderr
    assert f"::error::PR too large for stage 2: {setting}" in second.stdout
    [status] = fake.repos["THUDM/slime"].statuses["624b824a898ab0ec1fcb4d373004c7f3852bf515"]
    assert status["state"] == "error" and setting in status["description"], status
    for comment in (*stage1.comments(), *stage2.comments()):
        assert "could not decide" in comment and said in comment
