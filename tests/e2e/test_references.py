"""The reference check end to end on the real Slime docs and code: the CLI's JSON and exit
code, and a code-only pull request through the Action against the fake GitHub API."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.corpus import HEAD, copy_tree, docs_with_code, lines_matching, need
from tests.support.fake_github import FakeGitHub, changed
from tests.support.scenario import BASE_SHA, HEAD_SHA, MANIFEST, REPO, Scenario

from docsnippets.cli import main
from docsnippets.github.client import COMMENT_MARKER

TYPES = "slime/utils/types.py"
TRACE = "slime/observability/trace_utils.py"
ADAPTERS = "slime/agent/adapters/__init__.py"
LANGUAGES = ("docs/en/", "docs/zh/")


@pytest.fixture
def slime(tmp_path: Path) -> Path:
    """Slime's docs with its code laid over them, and a manifest written by `update`."""
    root = docs_with_code(tmp_path / "slime")
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    return root


def check_json(capsys, root: Path, *extra: str) -> tuple[int, dict]:
    capsys.readouterr()
    code = main(["check", "--root", str(root), "--no-cache", "--format", "json", *extra])
    return code, json.loads(capsys.readouterr().out)


IMPORT_KINDS = ("module", "name")


def imports_only(report: dict) -> list[dict]:
    return [b for b in report["broken_references"] if b["kind"] in IMPORT_KINDS]


def test_real_slime_docs_and_code_have_no_broken_import_and_only_the_two_bad_calls(slime, capsys):
    code, report = check_json(capsys, slime, "--fail-on", "stale,desync,references")
    assert imports_only(report) == [] and report["summary"]["fences"] > 0
    # The one real breakage of the new kinds (tests/e2e/test_calls.py has the details).
    assert [(b["file"], b["line"], b["kind"]) for b in report["broken_references"]] == [
        ("docs/en/get_started/agent.md", 52, "call"),
        ("docs/zh/get_started/agent.md", 52, "call"),
    ]
    assert code == 1 and report["verdict"]["cause"] == "references"


def test_docs_only_tree_reports_nothing(tmp_path, capsys):
    root = copy_tree(need(HEAD), tmp_path / "docs-only")
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    code, report = check_json(capsys, root, "--fail-on", "references")
    assert code == 0 and report["broken_references"] == []


def _move_types(root: Path) -> None:
    (root / TYPES).rename(root / "slime/utils/sample_types.py")


def _rename_trace_span(root: Path) -> None:
    path = root / TRACE
    text = path.read_text(encoding="utf-8")
    assert "def trace_span(" in text
    path.write_text(text.replace("def trace_span(", "def span_of("), encoding="utf-8")


def _drop_from_init(root: Path) -> None:
    path = root / ADAPTERS
    text = path.read_text(encoding="utf-8")
    text = text.replace("from slime.agent.adapters.anthropic import AnthropicAdapter\n", "")
    path.write_text(text.replace('"AnthropicAdapter", ', ""), encoding="utf-8")


@pytest.mark.parametrize(
    ("breakage", "module", "name", "pattern", "reason"),
    [
        (_move_types, "slime.utils.types", None, r"^from slime\.utils\.types import", "module slime.utils.types"),
        (
            _rename_trace_span,
            "slime.observability.trace_utils",
            "trace_span",
            r"^from slime\.observability\.trace_utils import .*\btrace_span\b",
            "defines no name trace_span",
        ),
        (
            _drop_from_init,
            "slime.agent.adapters",
            "AnthropicAdapter",
            r"^from slime\.agent\.adapters import AnthropicAdapter",
            "defines no name AnthropicAdapter",
        ),
    ],
    ids=["module-moved", "function-renamed", "name-removed-from-init"],
)
def test_each_breakage_is_reported_at_its_import_line_in_both_languages(
    slime, capsys, breakage, module, name, pattern, reason
):
    breakage(slime)
    code, report = check_json(capsys, slime)
    assert code == 0 and report["verdict"]["broken_references"] == len(report["broken_references"])
    code, report = check_json(capsys, slime, "--fail-on", "stale,references")
    assert code == 1 and report["verdict"]["cause"] == "references" and report["fresh"] is True
    found = imports_only(report)
    assert {(b["file"], b["line"]) for b in found} == lines_matching(slime, pattern)
    assert all(b["module"] == module and b["name"] == name and reason in b["reason"] for b in found)
    assert {lang for b in found for lang in LANGUAGES if b["file"].startswith(lang)} == set(LANGUAGES)
    ids = {e["id"] for group in json.loads((slime / MANIFEST).read_text())["files"].values() for e in group["snippets"]}
    assert {b["snippet"] for b in found} <= ids
    # Turned off, the same tree passes and reports nothing.
    code, report = check_json(capsys, slime, "--fail-on", "stale,references", "--no-references")
    assert code == 0 and report["broken_references"] == []


def test_changed_code_rechecks_only_the_snippets_importing_it(slime, capsys):
    _move_types(slime)
    code, report = check_json(capsys, slime, "--fail-on", "references", "--changed", TYPES)
    assert code == 1 and {b["module"] for b in report["broken_references"]} == {"slime.utils.types"}
    code, report = check_json(capsys, slime, "--fail-on", "references", "--changed", "slime/rollout/other.py")
    assert code == 0 and report["broken_references"] == []


def test_config_turns_the_check_off_and_names_packages(slime, capsys):
    _move_types(slime)
    (slime / ".docsnippets.yml").write_text("references: false\n", encoding="utf-8")
    code, report = check_json(capsys, slime, "--fail-on", "references")
    assert code == 0 and report["broken_references"] == []
    (slime / ".docsnippets.yml").write_text("references: maybe\n", encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--root", str(slime), "--no-cache"]) == 2
    assert "'references' must be true or false" in capsys.readouterr().err


# --- a code-only pull request through the Action ----------------------------------------------


def code_only_pr(slime: Path, tmp_path: Path, fake: FakeGitHub, fail_on: str) -> Scenario:
    """PR #42 moves slime/utils/types.py and touches no Markdown; the manifest stays fresh."""
    manifest = (slime / MANIFEST).read_text(encoding="utf-8")
    _move_types(slime)
    runner = tmp_path / f"runner-{fail_on.replace(',', '-')}"
    runner.mkdir()
    repo = fake.repos.get(REPO) or fake.add_repo(REPO)
    repo.add_pull(42, [changed("slime/utils/sample_types.py", "renamed", previous=TYPES)])
    repo.add_file(BASE_SHA, MANIFEST, manifest)
    return Scenario(slime, runner, fake, inputs={"INPUT_FAIL-ON": fail_on})


def test_code_only_pr_that_moves_an_imported_module(slime, tmp_path, fake):
    pr = code_only_pr(slime, tmp_path, fake, "stale,references")
    result = pr.run()
    assert result.code == 1, result.stdout + result.stderr
    assert (result.outputs["verdict"], result.outputs["failed-on"], result.outputs["fresh"]) == (
        "failed",
        "references",
        "true",
    )
    [body] = pr.comments()
    assert "Broken references" in body and "`slime.utils.types`" in body
    report = json.loads(pr.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    found = report["broken_references"]
    assert found and {b["file"] for b in found} == {
        "docs/en/get_started/customization.md",
        "docs/zh/get_started/customization.md",
    }
    for b in found:
        assert f"`{b['snippet']}`" in body
        assert f"blob/{HEAD_SHA}/{b['file']}#L{b['line']}-L{b['line']}" in body
        assert any(a.startswith(f"::error file={b['file']},line={b['line']},") for a in result.annotations)
    assert "check failed (references)" in result.stdout
    assert "❌ docsnippets: 2 broken references to the code (fail-on stale,references)" in result.summary
    assert body.startswith(COMMENT_MARKER) and "❌ docsnippets: 2 broken references" in body
    assert report["verdict"]["cause"] == "references" and report["verdict"]["exit_code"] == 1

    # The same PR under fail-on stale: green, the finding a warning, still the one sticky comment.
    pr.inputs["INPUT_FAIL-ON"] = "stale"
    relaxed = pr.run()
    assert relaxed.code == 0, relaxed.stdout + relaxed.stderr
    assert (relaxed.outputs["verdict"], relaxed.outputs["failed-on"]) == ("passed", "")
    assert not [a for a in relaxed.annotations if a.startswith("::error")]
    assert any(a.startswith("::warning file=docs/en/get_started/customization.md,line=") for a in relaxed.annotations)
    [again] = pr.comments()
    assert "Broken references" in again and "not enforced" in again
