"""The check of calls on the real Slime docs and code (../shared/corpus; skipped without it):
exactly the two real `finish_session` findings, and each mutation of the code reported at every
snippet line it breaks, in English and Chinese. The lines a report must point at are found
here by searching the Markdown, independently of the check."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.corpus import docs_with_code, lines_matching

from docsnippets.cli import main

CALL_KINDS = ("call", "await", "context")
LANGUAGES = ("docs/en/", "docs/zh/")
ROLLOUT = "slime/rollout/sglang_rollout.py"
TRACE = "slime/observability/trace_utils.py"
HTTP = "slime/utils/http_utils.py"


@pytest.fixture(scope="module")
def pristine(tmp_path_factory) -> Path:
    root = docs_with_code(tmp_path_factory.mktemp("calls") / "slime")
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    return root


@pytest.fixture
def slime(pristine: Path, tmp_path: Path) -> Path:
    """A copy of the code (the docs and the manifest too) that one test may mutate."""
    import shutil

    return Path(shutil.copytree(pristine, tmp_path / "slime"))


def call_findings(capsys, root: Path, *extra: str) -> tuple[int, list[dict]]:
    capsys.readouterr()
    code = main(["check", "--root", str(root), "--no-cache", "--format", "json", "--fail-on", "references", *extra])
    found = json.loads(capsys.readouterr().out)["broken_references"]
    return code, [b for b in found if b["kind"] in CALL_KINDS]


def edit(root: Path, path: str, old: str, new: str) -> None:
    file = root / path
    text = file.read_text(encoding="utf-8")
    assert text.count(old) == 1, old
    file.write_text(text.replace(old, new), encoding="utf-8")


FINISH_SESSION = (
    "missing required keyword-only argument `base_sample` of `BaseAdapter.finish_session` "
    "(slime/agent/adapters/common.py:245)"
)


def test_the_real_docs_have_exactly_the_two_finish_session_findings(pristine, capsys):
    code, found = call_findings(capsys, pristine)
    assert code == 1
    assert [(b["file"], b["line"], b["kind"], b["module"], b["name"], b["reason"]) for b in found] == [
        (
            f"{lang}get_started/agent.md",
            52,
            "call",
            "slime.agent.adapters.common",
            "BaseAdapter.finish_session",
            FINISH_SESSION,
        )
        for lang in LANGUAGES
    ]
    assert lines_matching(pristine, r"await adapter\.finish_session\(") == {(b["file"], b["line"]) for b in found}


def _drop_endpoint(root: Path) -> None:
    edit(
        root,
        ROLLOUT,
        'def get_model_url(args: Namespace, model_name: str, endpoint: str = "/generate") -> str:',
        'def get_model_url(args: Namespace, model_name: str) -> str:\n    endpoint = "/generate"',
    )


def _rename_target(root: Path) -> None:
    edit(
        root,
        TRACE,
        "    target: str | None = None,\n    target_getter",
        "    trace_target: str | None = None,\n    target_getter",
    )


def _async_trace_span(root: Path) -> None:
    edit(root, TRACE, "@contextmanager\ndef trace_span(", "@asynccontextmanager\nasync def trace_span(")


def _plain_post(root: Path) -> None:
    edit(
        root,
        HTTP,
        "async def post(url, payload, max_retries=60, headers=None):",
        "def post(url, payload, max_retries=60, headers=None):",
    )


MUTATIONS = [
    (
        _drop_endpoint,
        r"= get_model_url\(args, \"\w+\", \"/",
        "call",
        "too many positional arguments for `get_model_url`",
    ),
    (_rename_target, r"^@trace_function\(", "call", "unexpected keyword argument `target` of `trace_function`"),
    (_async_trace_span, r"^with trace_span\(", "context", "is an async context manager (@asynccontextmanager)"),
    # Only the pages that import `post` (usage.md and trace.md call it without importing it: unknown).
    (
        _plain_post,
        r"= await post\((actor|ref|reward)_url",
        "await",
        "`post` (slime/utils/http_utils.py:291) is a plain function",
    ),
]


@pytest.mark.parametrize(
    ("mutate", "pattern", "kind", "reason"),
    MUTATIONS,
    ids=["get_model_url-loses-endpoint", "trace_function-target-renamed", "trace_span-made-async", "post-made-plain"],
)
def test_each_mutation_is_reported_at_every_line_it_breaks_in_both_languages(
    slime, capsys, mutate, pattern, kind, reason
):
    mutate(slime)
    code, found = call_findings(capsys, slime)
    new = [b for b in found if b["name"] != "BaseAdapter.finish_session"]
    expected = lines_matching(slime, pattern)
    assert {lang for file, _ in expected for lang in LANGUAGES if file.startswith(lang)} == set(LANGUAGES)
    assert {(b["file"], b["line"]) for b in new} == expected
    assert all(b["kind"] == kind and reason in b["reason"] for b in new), new
    assert code == 1


def test_a_code_only_change_rechecks_the_snippets_calling_into_it(slime, capsys):
    _async_trace_span(slime)
    code, found = call_findings(capsys, slime, "--changed", TRACE)
    assert code == 1 and {(b["file"], b["line"]) for b in found} == lines_matching(slime, r"^with trace_span\(")
    code, found = call_findings(capsys, slime, "--changed", "slime/rollout/other.py")
    assert code == 0 and found == []


def test_ignore_calls_and_markers_silence_findings(slime, capsys):
    (slime / ".docsnippets.yml").write_text(
        "ignore_calls: [slime.agent.adapters.common.BaseAdapter.*]\n", encoding="utf-8"
    )
    code, found = call_findings(capsys, slime)
    assert code == 0 and found == []
    (slime / ".docsnippets.yml").unlink()
    edit(slime, "docs/en/get_started/agent.md", "(session_id)\n```", "(session_id)  # docsnippets: ignore[call]\n```")
    assert main(["update", "--root", str(slime), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    code, found = call_findings(capsys, slime)
    assert [b["file"] for b in found] == ["docs/zh/get_started/agent.md"]


def test_the_text_report_and_the_annotations_name_the_kind(slime, capsys):
    capsys.readouterr()
    assert main(["check", "--root", str(slime), "--no-cache", "--fail-on", "references"]) == 1
    out = capsys.readouterr().out
    assert "call     52  missing required keyword-only argument `base_sample`" in out
    assert "ignore[KIND]" in out


def test_slime_own_modules_read_as_snippets_give_no_finding(pristine, monkeypatch):
    """Precision on real code: every module of Slime, read as if it were a snippet, calls into
    the rest of Slime hundreds of times; that code runs, so any finding would be a false alarm."""
    from docsnippets.references import callables
    from docsnippets.references.calls import call_findings
    from docsnippets.references.namespaces import Namespaces
    from docsnippets.references.resolve import ModuleIndex
    from docsnippets.sources.directory import DirectoryFiles

    judged = []
    bind = callables.bind
    monkeypatch.setattr(callables, "bind", lambda *a: judged.append(a[2]) or bind(*a))
    ns = Namespaces(ModuleIndex(DirectoryFiles(pristine), ()))
    found = [
        (path.relative_to(pristine).as_posix(), f.line, f.reason)
        for path in sorted((pristine / "slime").rglob("*.py"))
        for f in call_findings(path.read_text(encoding="utf-8"), ns)
    ]
    assert found == [] and len(judged) >= 300, (found, len(judged))


def test_a_code_only_pull_request_that_makes_a_context_manager_async(slime, tmp_path, fake):
    """Through the Action: PR #42 changes only slime/observability/trace_utils.py; the snippets
    calling `trace_span` are re-checked and the comment, the annotations and the report say so."""
    from tests.support.fake_github import changed
    from tests.support.scenario import BASE_SHA, MANIFEST, REPO, Scenario

    manifest = (slime / MANIFEST).read_text(encoding="utf-8")
    _async_trace_span(slime)
    runner = tmp_path / "runner"
    runner.mkdir()
    repo = fake.repos.get(REPO) or fake.add_repo(REPO)
    repo.add_pull(42, [changed(TRACE, "modified")])
    repo.add_file(BASE_SHA, MANIFEST, manifest)
    pr = Scenario(slime, runner, fake, inputs={"INPUT_FAIL-ON": "stale,references"})
    result = pr.run()
    assert result.code == 1 and result.outputs["failed-on"] == "references", result.stdout + result.stderr
    report = json.loads(pr.host_path(result.outputs["report"]).read_text(encoding="utf-8"))
    found = [b for b in report["broken_references"] if b["kind"] in CALL_KINDS]
    assert {(b["file"], b["line"]) for b in found} == lines_matching(slime, r"^with trace_span\(")
    assert all(b["kind"] == "context" for b in found)
    [body] = pr.comments()
    assert "context `trace_span`" in body and "`async with`" in body
    titles = [a for a in result.annotations if "title=Snippet uses a context manager" in a]
    assert len(titles) == len(found) and all(a.startswith("::error ") for a in titles)
