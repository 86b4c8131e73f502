"""The ``strings`` relation through the CLI: manifest, check, the reports and the catalogue.

The tree reproduces agentscope's README twins (README.md / README_zh.md): one example whose
Chinese version translates its strings and comments, one that differs in a URL's path.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from tests.support.manifest_helpers import entry_objects

from docsnippets.cli import main

MCP = """\
from agentscope.mcp import HttpStatelessClient
import os

async def fine_grained_mcp_control():
    # Initialize the MCP client
    client = HttpStatelessClient(
        name="gaode_mcp",
        transport="streamable_http",
        url=f"https://mcp.amap.com/mcp?key={os.environ['GAODE_API_KEY']}",
    )
    func = await client.get_callable_function(func_name="maps_geo")
    # Option 1: Call directly
    await func(address="Tiananmen Square", city="Beijing")
"""
MCP_ZH = (
    MCP.replace("# Initialize the MCP client", "# 以高德MCP为例，初始化MCP客户端")
    .replace("# Option 1: Call directly", "# 选项 1：直接调用")
    .replace('address="Tiananmen Square", city="Beijing"', 'address="天安门广场", city="北京"')
)
FETCH = 'async def main():\n    page = await fetch("https://example.com/en/quickstart")\n    print("Ready")\n'
FETCH_ZH = FETCH.replace("/en/", "/zh/").replace('"Ready"', '"就绪"')


def _page(title: str, *bodies: str) -> str:
    return f"# {title}\n\n" + "".join(f"Text.\n\n```python\n{b}```\n\n" for b in bodies)


@pytest.fixture
def tree(make_tree) -> Path:
    en, zh = _page("AgentScope", MCP, FETCH), _page("AgentScope", MCP_ZH, FETCH_ZH)
    return make_tree({"README.md": en, "README_zh.md": zh})


def run(capsys, *args: str) -> tuple[int, str]:
    code = main(list(args))
    return code, capsys.readouterr().out


def test_the_manifest_records_translated_twins_as_strings(tree: Path, capsys):
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    data = json.loads((tree / "documentation-snippets.json").read_text(encoding="utf-8"))
    relations = sorted({e["pair"]["relation"] for e in entry_objects(data) if e["pair"]})
    assert relations == ["diverged", "strings"]  # the URL's path is code: that pair stays diverged
    code, out = run(capsys, "check", "--root", str(tree), "--format", "json")
    report = json.loads(out)
    assert code == 0 and report["fresh"]
    assert report["summary"]["relation"] == {
        "identical": 0,
        "indentation": 0,
        "comments": 0,
        "strings": 1,
        "diverged": 1,
        "missing": 0,
    }
    assert [d["relation"] for d in report["desynchronized"]] == ["diverged"]
    assert [d["sides"][0]["code_lines"][0] for d in report["desynchronized"]] == [24]


def test_the_text_report_and_the_markdown_name_only_the_code_difference(tree: Path, capsys):
    code, out = run(capsys, "check", "--root", str(tree))
    assert code == 1
    assert "(and README_zh.md:6-18, same code, strings translated)" in out, out
    assert out.count("diverged ") == 1 and "diverged 24-26 <-> README_zh.md:24-26" in out, out
    code, out = run(capsys, "check", "--root", str(tree), "--format", "markdown")
    assert code == 1
    assert "`README.md:6-18`" not in out.split("#### Desynchronized")[1], out
    assert "edit `README.md:6-18`" not in out and "make `README.md:24-26` and `README_zh.md:24-26` the same code" in out


def test_a_manifest_that_recorded_the_twins_as_diverged_is_stale(tree: Path, capsys):
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    path = tree / "documentation-snippets.json"
    data = json.loads(path.read_text(encoding="utf-8"))
    for entry in entry_objects(data):
        if entry["pair"] and entry["pair"]["relation"] == "strings":
            entry["pair"]["relation"] = "diverged"
    path.write_text(json.dumps(data, ensure_ascii=False, indent=2) + "\n", encoding="utf-8")
    code, out = run(capsys, "check", "--root", str(tree))
    assert code == 1 and "diverged → strings" in out, out
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    assert run(capsys, "check", "--root", str(tree))[0] == 0


CATALOGUE_WORDS = [("en", "translated strings (and comments)"), ("zh", "字符串（及注释）本地化")]


@pytest.mark.parametrize(("lang", "words"), CATALOGUE_WORDS)
def test_the_catalogue_names_the_relation(tree: Path, capsys, lang: str, words: str):
    assert run(capsys, "update", "--root", str(tree))[0] == 0
    code, out = run(capsys, "render", "--root", str(tree), "--lang", lang)
    assert code == 0 and f"| {words} |" in out, out
