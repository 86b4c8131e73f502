"""`check --fail-on` with the Action's meaning, the warnings that stop silent results, the text report."""

from __future__ import annotations

import argparse
import json

import pytest

from docsnippets.cli import build_parser, main
from docsnippets.config import Config
from docsnippets.judge.compare import compare
from docsnippets.report.text import report_text
from docsnippets.snippets.extract import snippets_from_text
from docsnippets.snippets.pairs import pair_up

EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)  # note\n```\n"
ZH = "# 指南\n\n```python\nasync def hook(args):\n    return await call(args)  # 说明\n```\n"
ZH_DIVERGED = ZH.replace("call(args)", "call(args, 2)")


def run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


@pytest.fixture
def diverged(make_tree, capsys):
    """A fresh manifest over a pair whose code differs."""
    tree = make_tree({"docs/en/g.md": EN, "docs/zh/g.md": ZH_DIVERGED})
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    return tree


GATES = [("stale", 0, None), ("desync", 1, "desync"), ("never", 0, None)]


@pytest.mark.parametrize(("fail_on", "code", "cause"), GATES)
def test_fail_on_desync_with_fresh_manifest(diverged, capsys, fail_on, code, cause):
    got, out, _ = run(capsys, "check", "--root", str(diverged), "--fail-on", fail_on)
    assert got == code
    assert out.startswith("fresh:") and "diverged" in out
    assert any(line.startswith("check passed" if code == 0 else "check failed (desync)") for line in out.splitlines())
    data = json.loads(run(capsys, "check", "--root", str(diverged), "--fail-on", fail_on, "--format", "json")[1])
    assert data["verdict"]["cause"] == cause and data["verdict"]["exit_code"] == code
    assert data["verdict"]["fail_on"] == fail_on and data["fresh"] is True
    md = run(capsys, "check", "--root", str(diverged), "--fail-on", fail_on, "--format", "markdown")[1]
    assert md.startswith("### ❌" if code else "### ✅")


def test_fail_on_never_passes_a_stale_manifest(diverged, capsys):
    (diverged / "docs/en/g.md").write_text(EN.replace("call(args)", "call(args, 3)"), encoding="utf-8")
    assert run(capsys, "check", "--root", str(diverged))[0] == 1
    code, out, _ = run(capsys, "check", "--root", str(diverged), "--fail-on", "never")
    assert code == 0 and out.startswith("stale:") and "check passed: manifest stale" in out


def test_fail_on_rejects_other_values(diverged, capsys):
    code, _, err = run(capsys, "check", "--root", str(diverged), "--fail-on", "sometimes")
    assert code == 2 and "is not one of stale, desync, references, never" in err and err.count("\n") == 1


def test_changed_missing_file_warns_and_still_checks(diverged, capsys):
    code, out, err = run(capsys, "check", "--root", str(diverged), "--changed", "missing.md")
    assert code == 0 and out.startswith("fresh:")
    assert "missing.md: --changed file does not exist" in err and err.count("\n") == 1


def test_root_one_level_too_deep_warns(make_tree, capsys):
    tree = make_tree({"docs/en/g.md": EN, "docs/zh/g.md": ZH_DIVERGED})
    docs = tree / "docs"
    code, _, err = run(capsys, "update", "--root", str(docs))
    assert code == 0 and "en/g.md and zh/g.md look like a bilingual pair" in err
    code, out, err = run(capsys, "check", "--root", str(docs))
    assert code == 0 and "diverged" not in out  # no pairs: the desync is invisible
    assert "en/g.md and zh/g.md look like a bilingual pair" in err
    assert "--root at the directory that holds docs/" in err and "pair_rules" in err and err.count("\n") == 1
    # At the right root the warning goes away and the desync is found.
    code, out, err = run(capsys, "check", "--root", str(tree), "--fail-on", "desync")
    assert "look like" not in err and code == 1  # stale (manifest written at docs/) and desync


def test_root_one_level_too_high_warns(make_tree, capsys):
    tree = make_tree({"site/docs/en/g.md": EN, "site/docs/zh/g.md": ZH})
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    _, _, err = run(capsys, "check", "--root", str(tree))
    assert "run with --root site" in err


def test_no_warning_without_a_counterpart(make_tree, capsys):
    tree = make_tree({"en/g.md": EN})
    run(capsys, "update", "--root", str(tree))
    assert run(capsys, "check", "--root", str(tree))[2] == ""


def test_every_check_and_diff_option_has_help():
    parser = build_parser()
    sub = next(a for a in parser._actions if isinstance(a, argparse._SubParsersAction))
    for name in ("check", "diff"):
        for action in sub.choices[name]._actions:
            if action.help == argparse.SUPPRESS or isinstance(action, argparse._HelpAction):
                continue
            assert action.help, (name, action.option_strings or action.dest)


def _inv(files: dict[str, str]):
    return pair_up([s for p, t in files.items() for s in snippets_from_text(p, t, Config())], set(files), Config())


def test_text_report_groups_by_file_and_shows_old_location_only_when_it_differs():
    before = _inv({"x.md": "```py\nawait a\n```\n\n```py\nawait c\n```\n", "y.md": "```py\nawait y\n```\n"})
    after = _inv({"x.md": "```py\nawait b\n```\n\n\n\n```py\nawait c\n```\n", "y.md": "```py\nawait z\n```\n"})
    text = report_text(compare(before, after))
    assert text.count("x.md") == 1 and text.count("y.md") == 1
    assert "  x.md\n    changed  2\n    moved    8  (was 6)\n" in text
    assert "(was x.md" not in text and "changed  2  (was" not in text
