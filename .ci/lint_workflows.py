"""Lint every workflow of the repository and every workflow example in its documentation.

    python .ci/lint_workflows.py [--repo DIR]

The ```yaml blocks that are workflows (a mapping with `on` and `jobs`) in the documentation
pages (README.md and the other Markdown files at the top, every page under docs/, and
bench/README.md) are written to temporary files, so the examples people copy are held to the
same bar as the real ones:

- zizmor --offline: every finding is printed; an error-level (high severity) finding fails.
  Findings silenced inline (`# zizmor: ignore[...]`) do not reach zizmor's report, so their
  comments are listed here, where a reviewer sees them.
- check-jsonschema --builtin-schema vendor.github-workflows on the workflows and
  vendor.github-actions on action.yml (the schemas ship with check-jsonschema: no network).

Exit 0 when clean, 1 on a finding or schema error, 2 when a tool is missing.
"""

from __future__ import annotations

import argparse
import json
import re
import shutil
import subprocess
import sys
import tempfile
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import yaml
from markdown_it import MarkdownIt

REPO = Path(__file__).resolve().parents[1]
YAML_INFO = ("yaml", "yml")
IGNORE_COMMENT = re.compile(r"#\s*zizmor:\s*ignore\[[^\]]*\].*")


# The documentation pages, as globs relative to the repository root.
PAGES = ("*.md", "docs/**/*.md", "bench/*.md")


@dataclass(frozen=True)
class Example:
    line: int  # 1-based line of the opening fence in its page
    text: str
    page: str = "README.md"  # the page, relative to the repository root


def is_workflow(text: str) -> bool:
    try:
        data = yaml.safe_load(text)
    except yaml.YAMLError:
        return False
    # YAML 1.1 reads the key `on` as the boolean true.
    return isinstance(data, dict) and "jobs" in data and ("on" in data or True in data)


def readme_workflows(markdown: str, page: str = "README.md") -> list[Example]:
    """The workflow examples of one Markdown page."""
    tokens = MarkdownIt("commonmark").parse(markdown)
    return [
        Example(t.map[0] + 1, t.content, page)
        for t in tokens
        if t.type == "fence" and t.info.split()[:1] and t.info.split()[0].lower() in YAML_INFO and t.map
        if is_workflow(t.content)
    ]


def pages(repo: Path) -> list[Path]:
    """The documentation pages whose workflow examples are linted."""
    found = {p for pattern in PAGES for p in repo.glob(pattern) if p.is_file()}
    return sorted(found, key=lambda p: p.relative_to(repo).as_posix())


def page_workflows(repo: Path) -> list[Example]:
    """The workflow examples of every documentation page."""
    out = []
    for page in pages(repo):
        rel = page.relative_to(repo).as_posix()
        out += readme_workflows(page.read_text(encoding="utf-8"), rel)
    return out


def write_examples(examples: Sequence[Example], directory: Path) -> list[Path]:
    target = directory / ".github" / "workflows"
    target.mkdir(parents=True, exist_ok=True)
    paths = []
    for example in examples:
        path = target / f"{example.page.replace('/', '_')}-line-{example.line}.yml"
        path.write_text(example.text, encoding="utf-8")
        paths.append(path)
    return paths


def severe(findings: list[dict]) -> list[dict]:
    return [f for f in findings if f.get("determinations", {}).get("severity") == "High"]


def shown(path: str) -> str:
    """Copies of examples by their own name (it carries the page and line), others as given."""
    return path.rsplit("/", 1)[-1] if "/docsnippets-lint-" in path else path


def describe(finding: dict) -> str:
    location = (finding.get("locations") or [{}])[0]
    path = shown(location.get("symbolic", {}).get("key", {}).get("Local", {}).get("verbatim_path", "?"))
    row = location.get("concrete", {}).get("location", {}).get("start_point", {}).get("row", -1) + 1
    severity = finding.get("determinations", {}).get("severity", "?")
    return f"{path}:{row}: {severity.lower()} [{finding.get('ident')}] {finding.get('desc')}"


def inline_ignores(paths: Sequence[Path], cwd: Path) -> list[str]:
    out = []
    for path in paths:
        for number, line in enumerate((cwd / path).read_text(encoding="utf-8").splitlines(), 1):
            match = IGNORE_COMMENT.search(line)
            if match:
                out.append(f"{shown(str(path))}:{number}: {match.group(0)}")
    return out


def zizmor(paths: Sequence[Path], cwd: Path) -> int:
    """Paths relative to ``cwd`` where possible, so findings name repository files as in git."""
    shown_paths = [p.relative_to(cwd) if p.is_relative_to(cwd) else p for p in paths]
    done = subprocess.run(
        ["zizmor", "--offline", "--no-config", "--no-progress", "--format", "json", *map(str, shown_paths)],
        cwd=cwd,
        capture_output=True,
        text=True,
        check=False,
    )
    try:
        findings = json.loads(done.stdout or "[]")
    except json.JSONDecodeError:
        print(f"zizmor failed (exit {done.returncode}):\n{done.stderr.strip()}")
        return 1
    if done.returncode not in (0, 10, 11, 12, 13, 14) or (done.returncode and not findings):
        print(f"zizmor failed (exit {done.returncode}):\n{done.stderr.strip()}")
        return 1
    for finding in findings:
        print(f"  {describe(finding)}")
    for line in inline_ignores(shown_paths, cwd):
        print(f"  silenced inline: {line}")
    errors = severe(findings)
    print(f"zizmor: {len(findings)} finding(s), {len(errors)} at error level, {len(paths)} file(s)")
    return 1 if errors else 0


def schemas(workflows: Sequence[Path], action: Path) -> int:
    status = 0
    for schema, files in (("vendor.github-workflows", workflows), ("vendor.github-actions", [action])):
        done = subprocess.run(
            ["check-jsonschema", "--builtin-schema", schema, *map(str, files)],
            capture_output=True,
            text=True,
            check=False,
        )
        print(f"check-jsonschema {schema}: {len(files)} file(s): {(done.stdout + done.stderr).strip()}")
        status |= done.returncode != 0
    return status


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repo", type=Path, default=REPO, help="repository root")
    args = parser.parse_args(argv)
    repo = args.repo.resolve()
    missing = [tool for tool in ("zizmor", "check-jsonschema") if shutil.which(tool) is None]
    if missing:
        names = ", ".join(missing)
        print(f"lint_workflows: {names} not installed (pip install zizmor check-jsonschema)", file=sys.stderr)
        return 2
    workflows = sorted(p for p in (repo / ".github" / "workflows").glob("*.y*ml") if p.suffix in (".yml", ".yaml"))
    examples = page_workflows(repo)
    with tempfile.TemporaryDirectory(prefix="docsnippets-lint-") as tmp:
        copies = write_examples(examples, Path(tmp))
        where = ", ".join(sorted({e.page for e in examples})) or "no page"
        counts = f"{len(workflows)} workflow(s), {len(copies)} documented example(s) ({where})"
        print(f"lint_workflows: {counts}, action.yml")
        all_workflows = workflows + copies
        status = zizmor([*all_workflows, repo / "action.yml"], repo)
        status |= schemas(all_workflows, repo / "action.yml")
    return 1 if status else 0


if __name__ == "__main__":
    sys.exit(main())
