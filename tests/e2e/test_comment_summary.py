"""The job summary and the PR comment of the real Slime PR, as the Action writes them, rendered
with GitHub's Markdown engine."""

from __future__ import annotations

from pathlib import Path

import pytest
from tests.support.corpus import BASE, HEAD, need
from tests.support.fake_github import FakeGitHub
from tests.support.gfm import assert_structure
from tests.support.scenario import TOKEN, manifest_of, slime_scenario


def test_job_summary_and_comment_of_the_slime_pr(tmp_path: Path):
    need(HEAD, BASE)
    with FakeGitHub(token=TOKEN) as fake:
        old = manifest_of(BASE, tmp_path)
        scenario = slime_scenario(tmp_path / "pr", fake, BASE, HEAD, head_manifest=old, base_manifest=old)
        result = scenario.run()
        comments = scenario.comments()
    assert result.code == 1 and len(comments) == 1
    for text in (result.summary, comments[0]):
        root = assert_structure(text)
        assert text.count("+from slime.observability.trace_utils import trace_function\n") == 1
        assert "`docs/{en,zh}/developer_guide/trace.md`" in text
        assert any(n.tag == "a" for n in root.walk())


@pytest.mark.parametrize(
    ("template", "words"),
    [
        ("{{ headline }}\n{{ sections[0].entries[0] }}\n", None),
        ("{% if %}", "comment.md.j2: line 1"),
        (None, "cannot read the template"),
    ],
)
def test_the_comment_template_input(tmp_path: Path, template, words):
    need(HEAD, BASE)
    with FakeGitHub(token=TOKEN) as fake:
        old = manifest_of(BASE, tmp_path)
        scenario = slime_scenario(tmp_path / "pr", fake, BASE, HEAD, head_manifest=old, base_manifest=old)
        scenario.inputs["INPUT_COMMENT-TEMPLATE"] = ".github/comment.md.j2"
        if template is not None:
            (scenario.workspace / ".github").mkdir(exist_ok=True)
            (scenario.workspace / ".github" / "comment.md.j2").write_text(template, encoding="utf-8")
        result = scenario.run()
        comments = scenario.comments()
    if words is None:
        assert result.code == 1 and comments[0].startswith("### ❌ docsnippets:")
        assert "the same change in both" in comments[0] and comments[0].count("\n") > 3
        return
    assert result.code == 2 and comments == []
    errors = [line for line in result.stderr.splitlines() if line.startswith("docsnippets: error")]
    assert len(errors) == 1 and words in errors[0] and "comment.md.j2" in errors[0], result.stderr
    assert "Traceback" not in result.stderr
