"""A module the page has its reader create is no missing code, whichever fence shows it.

MetaGPT's tutorial (create_and_use_tools.md) shows ``# metagpt/tools/libs/calculate_factorial.py``
in a plain (not async) example, then imports it in an async one: the first fence is no selected
snippet, yet it is what the page asks the reader to create. A true finding stays a finding."""

from __future__ import annotations

import json

from docsnippets.cli import main

CREATE = (
    "```python\n# pkg/tools/libs/calc.py\nfrom pkg.tools.registry import register\n\n"
    "@register()\ndef calc(n):\n    return n\n```\n"
)
USE = (
    "```python\nimport asyncio\nfrom pkg.tools.libs import calc\n\nasync def main():\n    await asyncio.sleep(0)\n```\n"
)
ALSO_MISSING = USE.replace("import calc", "import absent").replace("def main", "def more")
CODE = {
    "pkg/__init__.py": "",
    "pkg/tools/__init__.py": "",
    "pkg/tools/registry.py": "def register():\n    ...\n",
    "pkg/tools/libs/__init__.py": "",
}


def findings(capsys, root) -> list[tuple[str, str | None]]:
    capsys.readouterr()
    assert main(["update", "--root", str(root), "--no-cache"], out=open("/dev/null", "w")) == 0  # noqa: SIM115
    main(["check", "--root", str(root), "--no-cache", "--format", "json"])
    return sorted((b["file"], b["name"]) for b in json.loads(capsys.readouterr().out)["broken_references"])


def test_a_module_created_in_a_plain_fence_of_the_page_is_not_missing(make_tree, capsys):
    page = f"# Tools\n\n1. Create it:\n\n{CREATE}\n2. Use it:\n\n{USE}\n{ALSO_MISSING}"
    root = make_tree({**CODE, "docs/tools.md": page, "docs/other.md": f"# Other\n\n{USE}"}, "repo")
    assert findings(capsys, root) == [("docs/other.md", "calc"), ("docs/tools.md", "absent")]


def test_a_fence_in_another_language_creates_nothing(make_tree, capsys):
    page = f"# Tools\n\n{CREATE.replace('```python', '```text')}\n{USE}"
    root = make_tree({**CODE, "docs/tools.md": page}, "repo")
    assert findings(capsys, root) == [("docs/tools.md", "calc")]
