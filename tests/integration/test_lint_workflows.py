"""CI's workflow linting (.ci/lint_workflows.py): repository workflows and the examples in the docs."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / ".ci" / "lint_workflows.py"
PINNED_CHECKOUT = "actions/checkout@11bd71901bbe5b1630ceea73d27597364c9af683 # v4.2.2"


lint = load_script(".ci/lint_workflows.py", "lint_workflows")
needs_linters = pytest.mark.skipif(
    shutil.which("zizmor") is None or shutil.which("check-jsonschema") is None,
    reason="zizmor and check-jsonschema are not installed (.ci/run installs them)",
)


def _workflow(uses: str) -> str:
    return (
        "name: t\non:\n  pull_request:\npermissions: {}\njobs:\n  j:\n    runs-on: ubuntu-latest\n"
        f"    steps:\n      - uses: {uses}\n        with:\n          persist-credentials: false\n"
    )


README = f"""\
# x

```yaml
languages: [python]
```

```yaml
repos:
  - repo: https://github.com/OWNER/docsnippets
```

```yml
{_workflow(PINNED_CHECKOUT)}```

````markdown
```yaml
{_workflow("actions/checkout@v4")}```
````

- a list

  ```YAML
{"".join("  " + line + chr(10) for line in _workflow(PINNED_CHECKOUT).splitlines())}  ```
"""


def test_only_workflow_blocks_are_extracted() -> None:
    examples = lint.readme_workflows(README)
    fences = [README[: README.index(opener)].count("\n") + 1 for opener in ("```yml", "  ```YAML")]
    assert [e.line for e in examples] == fences
    assert all(lint.is_workflow(e.text) for e in examples)  # the list item's indentation is gone
    assert all("jobs:" in e.text and PINNED_CHECKOUT in e.text for e in examples)


def test_on_read_as_true_still_counts() -> None:
    assert lint.is_workflow("on: push\njobs: {}\n")
    assert not lint.is_workflow("jobs: {}\n")
    assert not lint.is_workflow("on: [\n")


def _repo(tmp_path: Path, readme: str, workflow: str | None = None) -> Path:
    root = tmp_path / "repo"
    (root / ".github" / "workflows").mkdir(parents=True)
    shutil.copy2(REPO / "action.yml", root / "action.yml")
    (root / "README.md").write_text(readme)
    if workflow is not None:
        (root / ".github" / "workflows" / "w.yml").write_text(workflow)
    return root


def _run(root: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(SCRIPT), "--repo", str(root)], capture_output=True, text=True, check=False
    )


@needs_linters
def test_the_repository_and_its_docs_are_clean() -> None:
    done = _run(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 at error level" in done.stdout
    assert done.stdout.count("ok -- validation done") == 2
    assert len(lint.page_workflows(REPO)) >= 2 and "(docs/action.md)" in done.stdout


def test_every_documentation_page_is_searched(tmp_path: Path) -> None:
    """README, the other top-level pages, every page under docs/ and bench/README.md; not the
    example docs the Action checks, nor anything in a virtualenv."""
    page = f"# x\n\n```yaml\n{_workflow(PINNED_CHECKOUT)}```\n"
    for rel in ("README.md", "CONTRIBUTING.md", "docs/action.md", "docs/deep/more.md", "bench/README.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(page, encoding="utf-8")
    for rel in ("examples/a.md", ".venv/lib/README.md"):
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(page, encoding="utf-8")
    found = [(e.page, e.line) for e in lint.page_workflows(tmp_path)]
    expected = ["CONTRIBUTING.md", "README.md", "bench/README.md", "docs/action.md", "docs/deep/more.md"]
    assert found == [(rel, 3) for rel in expected]


@needs_linters
def test_an_unpinned_example_fails(tmp_path: Path) -> None:
    bad = f"# x\n\n```yaml\n{_workflow('actions/checkout@v4')}```\n"
    done = _run(_repo(tmp_path, bad, _workflow(PINNED_CHECKOUT)))
    assert done.returncode == 1
    assert "README.md-line-3.yml" in done.stdout and "high [unpinned-uses]" in done.stdout
    root = _repo(tmp_path / "in-docs", "# x\n", _workflow(PINNED_CHECKOUT))
    (root / "docs").mkdir()
    (root / "docs" / "action.md").write_text("# y\n\n" + bad, encoding="utf-8")
    done = _run(root)
    assert done.returncode == 1
    assert "docs_action.md-line-5.yml" in done.stdout and "high [unpinned-uses]" in done.stdout


@needs_linters
def test_a_dangerous_trigger_in_the_repository_fails(tmp_path: Path) -> None:
    workflow = _workflow(PINNED_CHECKOUT).replace("  pull_request:", "  pull_request_target:")
    done = _run(_repo(tmp_path, "# x\n", workflow))
    assert done.returncode == 1
    assert ".github/workflows/w.yml" in done.stdout and "high [dangerous-triggers]" in done.stdout


@needs_linters
def test_a_schema_error_fails(tmp_path: Path) -> None:
    workflow = _workflow(PINNED_CHECKOUT).replace("runs-on: ubuntu-latest", "runs-on: ubuntu-latest\n    bogus: 1")
    done = _run(_repo(tmp_path, "# x\n", workflow))
    assert done.returncode == 1
    assert "0 at error level" in done.stdout  # zizmor is content; the schema is not
    assert "vendor.github-workflows" in done.stdout and "ok -- validation done" in done.stdout  # action.yml


def _all_workflow_texts() -> dict[str, str]:
    texts = {p.name: p.read_text(encoding="utf-8") for p in sorted((REPO / ".github" / "workflows").glob("*.yml"))}
    for example in lint.page_workflows(REPO):
        texts[f"{example.page}:{example.line}"] = example.text
    return texts


def test_every_action_is_pinned_by_sha_with_its_version_and_no_pull_request_target() -> None:
    import re

    import yaml

    pinned = re.compile(r"uses: [\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+(?:\.\d+\.\d+)?$")
    texts = _all_workflow_texts()
    assert len(texts) >= 5  # stage 1, stage 2, release; both examples in docs/action.md
    for name, text in texts.items():
        data = yaml.safe_load(text)
        triggers = data.get("on", data.get(True))
        assert "pull_request_target" not in (triggers if isinstance(triggers, dict | list) else [triggers]), name
        for line in text.splitlines():
            uses = line.strip().removeprefix("- ")
            if uses.startswith("uses:") and not uses.startswith(("uses: ./", "uses: $/")):
                assert pinned.fullmatch(uses), f"{name}: {uses}"
        for job in data["jobs"].values():
            for step in job.get("steps", []):
                if str(step.get("uses", "")).startswith("actions/checkout@"):
                    assert step["with"]["persist-credentials"] is False, name
