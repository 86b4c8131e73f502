"""CI's workflow linting (.ci/lint_workflows.py): repository workflows and README examples."""

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
def test_the_repository_and_its_readme_are_clean() -> None:
    done = _run(REPO)
    assert done.returncode == 0, done.stdout + done.stderr
    assert "0 at error level" in done.stdout
    assert done.stdout.count("ok -- validation done") == 2
    assert len(lint.readme_workflows((REPO / "README.md").read_text(encoding="utf-8"))) >= 2


@needs_linters
def test_an_unpinned_readme_example_fails(tmp_path: Path) -> None:
    readme = f"# x\n\n```yaml\n{_workflow('actions/checkout@v4')}```\n"
    done = _run(_repo(tmp_path, readme, _workflow(PINNED_CHECKOUT)))
    assert done.returncode == 1
    assert "README.md-line-3.yml" in done.stdout and "high [unpinned-uses]" in done.stdout


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
    for example in lint.readme_workflows((REPO / "README.md").read_text(encoding="utf-8")):
        texts[f"README.md:{example.line}"] = example.text
    return texts


def test_every_action_is_pinned_by_sha_with_its_version_and_no_pull_request_target() -> None:
    import re

    import yaml

    pinned = re.compile(r"uses: [\w.-]+/[\w.-]+@[0-9a-f]{40} # v\d+(?:\.\d+\.\d+)?$")
    texts = _all_workflow_texts()
    assert len(texts) >= 5  # stage 1, stage 2, release; both README examples
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
