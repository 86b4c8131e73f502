"""The README's three-language configuration does what the README says it does."""

from __future__ import annotations

import io
import re
from pathlib import Path

from tests.support.corpus import write
from tests.support.gitinit import commit_all, init_repo, run_git

from docsnippets.cli import main
from docsnippets.configfile import load as load_config

README = Path(__file__).resolve().parents[2] / "README.md"
OLD = "```python\nasync def main():\n    data = await fetch(1)\n    return data\n```\n"
NEW = "```python\nasync def main():\n    data = await fetch(2)\n    return data\n```\n"


def _configuration() -> str:
    section = README.read_text(encoding="utf-8").split("## Three languages or more\n", 1)[1].split("\n## ", 1)[0]
    found = re.search(r"```yaml\n(.*?)```", section, re.DOTALL)
    assert found is not None, "the README's three-language section holds no yaml block"
    return found.group(1)


def run(*args: str) -> tuple[int, str]:
    out = io.StringIO()
    return main(list(args), out=out), out.getvalue()


def test_the_readme_configuration_follows_three_languages(tmp_path):
    pages = {f"docs/{code}/guide.md": f"# {code}\n\n{OLD}" for code in ("en", "ja", "zh-hant")}
    repo = write(tmp_path / "repo", {".docsnippets.yml": _configuration(), **pages})
    config = load_config(None, repo)
    assert config.translations is not None and config.source_language == "en"
    assert sorted(config.translations.languages) == ["en", "ja", "zh-hant"]
    init_repo(repo)
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, "base")
    base = run_git(repo, "rev-parse", "HEAD").strip()
    (repo / "docs/en/guide.md").write_text(f"# en\n\n{NEW}", encoding="utf-8")
    assert run("update", "--root", str(repo), "--no-cache")[0] == 0
    commit_all(repo, "the English example edited")
    code, comment = run("diff", base, "--root", str(repo), "--fail-on", "desync", "--format", "markdown")
    assert code == 1, comment
    assert "edited in this PR: 2 translations still show the old code: `ja`, `zh-hant`" in comment
    assert comment.count("Patch that brings") == 1  # one old variant, one patch
