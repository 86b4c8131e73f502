"""The manifest is a function of the tree and the configuration, whatever Python writes it.

The tree holds what 3.11, 3.12 and 3.13 read differently: PEP 701 f-strings, PEP 695 type
parameters and ``type`` statements (3.12), PEP 696 defaults (3.13), an error each words its own
way, and tab-indented code whose ``await`` one tokenizer sees and another does not. Every
CPython among 3.11, 3.12 and 3.13 found on this machine (pyenv's, uv's, PATH's) writes the
manifest of it with this source tree; the bytes must be the same, and ``check`` under each
must accept the manifest of every other. An absent interpreter is skipped with its reason; on
CI (``CI`` set) fewer than two of them is a failure, as the machines have all three.

The interpreters import the package from ``src`` and its pure-Python dependencies from links to
the running environment's copies: no virtual environment is built, so the test stays quick.
"""

from __future__ import annotations

import importlib.util
import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from docsnippets import interpreter
from docsnippets.config import DEFAULT_PYTHON
from docsnippets.snippets.grammar import RUNNING

SRC = Path(__file__).resolve().parents[2] / "src"
VERSIONS = ("3.11", "3.12", "3.13")
# Imported by update and check of a tree without a config file; the others load their pure
# fallbacks where a compiled part was built for another Python.
DEPENDENCIES = ("markdown_it", "mdurl", "yaml", "jinja2", "markupsafe")


def fence(body: str) -> str:
    return f"```python\n{body}```\n\n"


BODIES = {
    "pep701": 'user = {"name": "Ada"}\nawait greet(f"{user["name"]}: hello")\n',
    "pep695": "async def run[T](x: T) -> T:\n    return await step(x)\n",
    "type_alias": "import asyncio\n\ntype Jobs = list[asyncio.Task[None]]\n",
    "pep696": "async def run[T = int](x: T) -> T:\n    return await step(x)\n",
    "conversion": 'await show(f"{value!}")\n',  # 3.11 and 3.12 word this error differently
    "tabs": "async def f():\n\tif ready:\n        await go()\n",  # 3.12 stops before the await
    "plain": "import asyncio\n\nasyncio.run(main())\n",
}
ZH_PEP701 = 'user = {"name": "Ada"}\nawait greet(f"{user["name"]}: 你好")\n'
TREE = {
    "docs/en/guide.md": "# Guide\n\n" + "".join(fence(b) for b in BODIES.values()),
    "docs/zh/guide.md": "# 指南\n\n" + fence(ZH_PEP701) + "".join(fence(b) for k, b in BODIES.items() if k != "pep701"),
}
# What each Python's own tokenizer and compile() say of the bodies: the witness that the tree
# tells the interpreters apart, so the equal manifests below prove something.
_OWN_READING = (
    "import json, sys; sys.path.insert(0, sys.argv[1]); from docsnippets.snippets import classify; "
    "bodies = json.loads(sys.stdin.read()); "
    "print(json.dumps([[classify.find_markers(b), list(vars(classify.syntax_status(b)).values())] for b in bodies]))"
)


def _python(version: str) -> Path | None:
    return Path(sys.executable) if version == RUNNING else interpreter.find(version, os.environ)


def _absent(version: str) -> str | None:
    """Why ``version`` cannot be run here, or None."""
    if _python(version) is None:
        return f"no Python {version} on this machine (PATH, pyenv, uv)"
    if version != DEFAULT_PYTHON and _python(DEFAULT_PYTHON) is None:
        return f"no Python {DEFAULT_PYTHON}, the declared grammar, for Python {version} to ask"
    return None


@pytest.fixture(scope="module")
def lab(tmp_path_factory: pytest.TempPathFactory) -> Path:
    lab = tmp_path_factory.mktemp("interpreters")
    for rel, text in TREE.items():
        (lab / "tree" / rel).parent.mkdir(parents=True, exist_ok=True)
        (lab / "tree" / rel).write_text(text, encoding="utf-8")
    deps = lab / "deps"
    deps.mkdir()
    for name in DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            (deps / name).symlink_to(next(iter(spec.submodule_search_locations)), target_is_directory=True)
    return lab


def _run(lab: Path, version: str, *args: str) -> subprocess.CompletedProcess[str]:
    env = {
        "PATH": os.environ.get("PATH", "/usr/bin:/bin"),
        "HOME": os.environ.get("HOME", "/"),
        "PYTHONPATH": os.pathsep.join([str(SRC), str(lab / "deps")]),
        "DOCSNIPPETS_NO_CACHE": "1",
        "PYTHONDONTWRITEBYTECODE": "1",
    }
    code = "from docsnippets.cli import run; run()"
    command = [str(_python(version)), "-c", code, *args, "--root", str(lab / "tree")]
    return subprocess.run(command, env=env, capture_output=True, text=True, timeout=120, check=False)


def _manifest(lab: Path, version: str) -> Path:
    path = lab / f"manifest-{version}.json"
    if not path.exists():
        done = _run(lab, version, "update", "--manifest", str(path))
        assert done.returncode == 0, done.stdout + done.stderr
    return path


def _own_reading(version: str) -> list[object]:
    done = subprocess.run(
        [str(_python(version)), "-I", "-c", _OWN_READING, str(SRC)],
        input=json.dumps(list(BODIES.values())),
        capture_output=True,
        text=True,
        timeout=60,
        check=True,
    )
    return json.loads(done.stdout)


def test_ci_has_the_interpreters():
    present = [v for v in VERSIONS if _absent(v) is None]
    if len(present) < 2 and os.environ.get("CI"):
        pytest.fail(f"only {present} of {VERSIONS} found: CI machines have pyenv's 3.11, 3.12 and 3.13")
    if len(present) < 2:
        pytest.skip(f"fewer than two of {VERSIONS} here ({present}): nothing to compare")


def test_the_tree_reads_differently_under_each_python():
    present = [v for v in VERSIONS if _python(v) is not None]
    if len(present) < 2:
        pytest.skip(f"fewer than two of {VERSIONS} here")
    readings = {v: _own_reading(v) for v in present}
    assert len({json.dumps(r) for r in readings.values()}) == len(readings), readings


@pytest.mark.parametrize("version", [v for v in VERSIONS if v != RUNNING])
def test_the_manifest_is_the_same_under_every_python(lab, version):
    why = _absent(version) or _absent(RUNNING)
    if why:
        pytest.skip(why)
    ours, theirs = _manifest(lab, RUNNING), _manifest(lab, version)
    assert theirs.read_bytes() == ours.read_bytes()
    for python, manifest in ((version, ours), (RUNNING, theirs)):
        done = _run(lab, python, "check", "--manifest", str(manifest))
        assert done.returncode == 0, f"Python {python} on {manifest.name}: {done.stdout}{done.stderr}"


def test_the_declared_grammar_decides(lab):
    why = _absent(RUNNING)
    if why:
        pytest.skip(why)
    data = json.loads(_manifest(lab, RUNNING).read_text(encoding="utf-8"))
    assert data["selection"]["python"] == DEFAULT_PYTHON == "3.12"
    entries = {e["body"]: e for e in data["files"]["docs/en/guide.md"]["snippets"]}
    status = {name: entries[body]["status"] for name, body in BODIES.items()}
    assert status == {
        "pep701": "needs-async-wrapper",
        "pep695": "parses",
        "type_alias": "parses",
        "pep696": "syntax-error",  # type parameter defaults come with 3.13
        "conversion": "syntax-error",
        "tabs": "syntax-error",
        "plain": "parses",
    }
    assert entries[BODIES["conversion"]]["status_message"] == "f-string: missing conversion character"
    assert entries[BODIES["tabs"]]["markers"] == ["async def"]  # 3.12's tokenizer stops at the tab
    [pair] = {e["pair"]["relation"] for e in entries.values() if e["body"] == BODIES["pep701"]}
    assert pair == "strings"  # the f-string's translated text, read by 3.12's tokenizer


def test_a_manifest_from_before_the_setting_is_fresh_and_update_adds_it(tmp_path, capsys):
    from docsnippets.cli import main

    for rel, text in TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    manifest = tmp_path / "documentation-snippets.json"
    assert main(["update", "--root", str(tmp_path)]) == 0
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["selection"]["python"]  # as docsnippets wrote it before the setting existed
    manifest.write_text(json.dumps(data, indent=2), encoding="utf-8")
    assert main(["check", "--root", str(tmp_path)]) == 0
    assert main(["update", "--root", str(tmp_path)]) == 0
    assert json.loads(manifest.read_text(encoding="utf-8"))["selection"]["python"] == DEFAULT_PYTHON
    if _python("3.13") is None:
        return
    (tmp_path / ".docsnippets.yml").write_text('python: "3.13"\n', encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--root", str(tmp_path)]) == 1  # another grammar: the selection differs
    assert "selection settings differ" in capsys.readouterr().out


def test_a_manifest_from_before_the_setting_is_stale_where_the_default_reads_otherwise(tmp_path, capsys):
    """Written by a 3.11 docsnippets before the setting existed: read as judged by 3.12, it is
    stale exactly at the snippets 3.12 reads otherwise."""
    from docsnippets.cli import main

    if any(_python(v) is None for v in ("3.11", DEFAULT_PYTHON)):
        pytest.skip(f"needs Python 3.11 and {DEFAULT_PYTHON}")
    for rel, text in TREE.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text, encoding="utf-8")
    config = tmp_path / "as-3.11.yml"
    config.write_text('python: "3.11"\n', encoding="utf-8")
    manifest = tmp_path / "documentation-snippets.json"
    assert main(["update", "--root", str(tmp_path), "--config", str(config)]) == 0
    data = json.loads(manifest.read_text(encoding="utf-8"))
    del data["selection"]["python"]
    manifest.write_text(json.dumps(data, indent=2), encoding="utf-8")
    capsys.readouterr()
    assert main(["check", "--root", str(tmp_path)]) == 1
    out = capsys.readouterr().out
    assert "selection settings differ" not in out
    fields = "recorded status, status_message, status_line differ from the page"
    pep701 = f"docs/en/guide.md snippet 1: {fields} as Python {DEFAULT_PYTHON} reads it"
    assert pep701 in out  # 3.11 recorded a syntax error where 3.12 reads a PEP 701 f-string


def test_the_action_never_takes_a_python_from_the_home_directory(tmp_path):
    planted = tmp_path / ".pyenv" / "versions" / "3.99.1" / "bin" / "python3.99"
    planted.parent.mkdir(parents=True)
    planted.write_text("#!/bin/sh\nexit 0\n", encoding="utf-8")
    planted.chmod(0o755)
    env = {"HOME": str(tmp_path), "PATH": ""}
    assert interpreter.find("3.99", env) == planted  # the CLI: the user's own home
    assert interpreter.find("3.99", env, home=False) is None  # the Action: a home earlier steps share


def test_old_debts_read_code_lines_as_the_declared_python_does():
    """Whether a PR made a pair worse is decided on code lines; they are the declared
    Python's, as every reading that decides a verdict is."""
    from docsnippets.judge import debts

    if any(_python(v) is None for v in ("3.11", "3.12")):
        pytest.skip("needs Python 3.11 and 3.12")
    pep701 = BODIES["pep701"]
    assert debts._lines(pep701, "3.12") != debts._lines(pep701, "3.11")  # 3.11's tokenizer stops inside it
    assert debts._lines(pep701, "3.12")[-1] == '0|await greet ( f" { user [ "name" ] } : hello " )'
