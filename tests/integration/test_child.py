"""The child process that judges by another Python: who may be it, and what it may answer.

Whatever sits on PATH under the name ``python3.12`` is only a candidate: one inside the tree
being judged (a pull request's checkout) or reached through a relative PATH entry is never
started, and one that greets with another version, prints garbage, dies or never answers ends
the run with one line naming the ``python`` setting and the fix (exit 2), never a traceback,
never an "internal error", never a hang. The fakes here are shell scripts.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest

from docsnippets import interpreter, work
from docsnippets.cli import main
from docsnippets.config import DEFAULT_MODULES, DEFAULT_PYTHON
from docsnippets.snippets import grammar
from docsnippets.snippets.grammar import GrammarError
from docsnippets.work import Bound, Limits, OverBudget

PAGE = "# A\n\n```python\nimport asyncio\nawait asyncio.sleep(1)\n```\n"
OTHER = "3.99"  # a version no machine has: every interpreter found for it is a fake


def fake(directory: Path, script: str, name: str = f"python{OTHER}") -> Path:
    directory.mkdir(parents=True, exist_ok=True)
    path = directory / name
    path.write_text(f"#!/bin/sh\n{script}\n", encoding="utf-8")
    path.chmod(0o755)
    return path


def greeting(version: str = OTHER) -> str:
    major, minor = version.split(".")
    return f'echo "[{major}, {minor}, \\"{version}.0 (fake)\\"]"'


def tree(root: Path, python: str = OTHER) -> Path:
    (root / "docs" / "en").mkdir(parents=True)
    (root / "docs" / "en" / "a.md").write_text(PAGE, encoding="utf-8")
    (root / ".docsnippets.yml").write_text(f'python: "{python}"\n', encoding="utf-8")
    return root


def run_cli(monkeypatch, capsys, root: Path, path: str, *args: str) -> tuple[int, str]:
    monkeypatch.setenv("PATH", path)
    monkeypatch.setenv("HOME", str(root / "no-home"))
    monkeypatch.delenv("PYENV_ROOT", raising=False)
    monkeypatch.delenv("UV_PYTHON_INSTALL_DIR", raising=False)
    code = main(["update", "--root", str(root), "--no-cache", *args])
    captured = capsys.readouterr()
    return code, captured.err


def assert_one_line_naming_the_setting(err: str) -> str:
    lines = err.strip().splitlines()
    assert len(lines) == 1, err
    [line] = lines
    assert line.startswith("docsnippets: error: ") and "`python` setting" in line, line
    assert "internal error" not in line and "Traceback" not in err
    return line


# --- who may be the child ----------------------------------------------------------------------


@pytest.mark.parametrize("entry", [".", "bin", "./bin", ""])
def test_a_relative_path_entry_never_supplies_the_interpreter(tmp_path, monkeypatch, entry):
    root = tree(tmp_path / "repo")
    planted = fake(root / entry if entry else root, f"touch {tmp_path}/started; {greeting()}; cat >/dev/null")
    monkeypatch.chdir(root)
    assert interpreter.find(OTHER, {"PATH": entry, "HOME": str(tmp_path)}) is None
    assert planted.exists() and not (tmp_path / "started").exists()


@pytest.mark.parametrize("variable", ["HOME", "PYENV_ROOT", "UV_PYTHON_INSTALL_DIR"])
def test_a_relative_manager_directory_never_supplies_the_interpreter(tmp_path, monkeypatch, variable):
    root = tree(tmp_path / "repo")
    layout = {
        "HOME": f"rel/.pyenv/versions/{OTHER}.0",
        "PYENV_ROOT": f"rel/versions/{OTHER}.0",
        "UV_PYTHON_INSTALL_DIR": f"rel/cpython-{OTHER}.0-linux",
    }
    fake(root / layout[variable] / "bin", f"{greeting()}; cat >/dev/null")
    monkeypatch.chdir(root)
    assert interpreter.find(OTHER, {"PATH": "", "HOME": str(tmp_path), variable: "rel"}) is None


def test_an_interpreter_inside_the_tree_being_judged_is_never_started(tmp_path, monkeypatch, capsys):
    root = tree(tmp_path / "repo")
    planted = fake(root / "tools", f"touch {tmp_path}/started; {greeting()}; cat >/dev/null")
    # Also through a directory outside that links into the tree, and a link inside to outside.
    (tmp_path / "outside").mkdir()
    (tmp_path / "outside" / "linked").symlink_to(root / "tools", target_is_directory=True)
    real = fake(tmp_path / "elsewhere", f"touch {tmp_path}/started; {greeting()}; cat >/dev/null")
    (root / "bin").mkdir()
    (root / "bin" / f"python{OTHER}").symlink_to(real)
    path = os.pathsep.join([str(root / "tools"), str(tmp_path / "outside" / "linked"), str(root / "bin")])
    code, err = run_cli(monkeypatch, capsys, root, path)
    assert code == 2 and not (tmp_path / "started").exists()
    line = assert_one_line_naming_the_setting(err)
    assert str(planted) in line and "inside the tree" in line


def test_the_workspace_never_supplies_the_interpreter(tmp_path, monkeypatch):
    workspace = tmp_path / "workspace"
    fake(workspace / "bin", f"{greeting()}; cat >/dev/null")
    environ = {"PATH": str(workspace / "bin"), "HOME": str(tmp_path), "GITHUB_WORKSPACE": str(workspace)}
    assert interpreter.find(OTHER, environ) is None
    assert interpreter.find(OTHER, {**environ, "GITHUB_WORKSPACE": ""}) == workspace / "bin" / f"python{OTHER}"


def test_no_interpreter_of_the_declared_version_is_one_line_with_the_fix(tmp_path, monkeypatch, capsys):
    root = tree(tmp_path / "repo")
    code, err = run_cli(monkeypatch, capsys, root, str(tmp_path / "empty"))
    assert code == 2
    line = assert_one_line_naming_the_setting(err)
    assert f"no python{OTHER} was found" in line
    assert f"uv python install {OTHER}" in line and f"pyenv install {OTHER}" in line
    assert "set python:" not in line  # a contributor's fix is to install it, never to change the team's grammar


# --- what the child may answer -----------------------------------------------------------------

BROKEN = {
    "garbage": ("echo garbage; cat >/dev/null", "not a docsnippets judge"),
    "null greeting": ("echo null; cat >/dev/null", "not a docsnippets judge"),
    "short greeting": ('echo "[3, 99]"; cat >/dev/null', "not a docsnippets judge"),
    "lying answers": (f'{greeting()}; while read -r line; do echo "{{}}"; done', "not a docsnippets judge"),
    "wrong answers": (f'{greeting()}; while read -r line; do echo "[1, 2, 3, 4]"; done', "not a docsnippets judge"),
    "another version": ('echo "[3, 11, \\"3.11.7\\"]"; cat >/dev/null', "is Python 3.11.7"),
    "dies": ("exit 3", "stopped (exit 3)"),
    "dies after greeting": (f"{greeting()}; exit 4", "stopped (exit 4)"),
}


@pytest.mark.parametrize("name", list(BROKEN))
def test_a_broken_interpreter_ends_the_run_with_one_line(tmp_path, monkeypatch, capsys, name):
    script, words = BROKEN[name]
    root = tree(tmp_path / "repo")
    executable = fake(tmp_path / "bin", script)
    code, err = run_cli(monkeypatch, capsys, root, str(tmp_path / "bin"))
    assert code == 2
    line = assert_one_line_naming_the_setting(err)
    assert str(executable) in line and words in line, line


def test_a_child_that_never_answers_is_stopped_at_the_bound(tmp_path):
    pid_file = tmp_path / "pid"
    executable = fake(tmp_path / "bin", f"echo $$ > {pid_file}; {greeting()}; exec sleep 600")
    child = interpreter.Child(OTHER, executable, answer_seconds=1.0)
    start = time.monotonic()
    with pytest.raises(GrammarError) as caught:
        child.facts("await x\n" * 50_000, DEFAULT_MODULES)  # larger than a pipe holds: the write blocks too
    assert time.monotonic() - start < 10
    assert "no answer within 1 s" in str(caught.value) and "\n" not in str(caught.value)
    pid = int(pid_file.read_text())
    time.sleep(0.2)
    with pytest.raises(ProcessLookupError):
        os.kill(pid, 0)  # killed and waited for: neither running nor a zombie


def test_a_slow_greeting_is_bounded_too(tmp_path):
    executable = fake(tmp_path / "bin", "exec sleep 600")
    child = interpreter.Child(OTHER, executable, answer_seconds=1.0)
    with pytest.raises(GrammarError, match="no answer within 1 s"):
        child.comparable("await x\n")


# --- hostile bodies travel and come back whole -------------------------------------------------

HOSTILE = {
    "nul": "await x\0y\n",
    "lone surrogate": "await f('\ud800')\n",
    "carriage returns": "await x\rawait y\r\nawait z\n",
    "line separators": "await f('a\u2028b\u2029c\x85d')\n",
    "json breakers": 'await f("}]\\n\\"\\\\", \'\\u0000\')\n',
    "deep parentheses": "await f" + "(" * 300 + ")" * 300 + "\n",
    # Short lines: Python 3.12.0-3.12.3 copy a line into every token of it (CPython gh-119118).
    "deep unary": "await f(\n" + "-\n" * 12_000 + "1)\n",  # the parser's stack overflows
    "recursion in compile": "await f(\n" + "1+\n" * 12_000 + "1)\n",
    "deep indentation": "async def f():\n" + "".join(" " * (i + 1) + "if x:\n" for i in range(120)) + "await y\n",
    "long body": "await x\n" + "y = [1, 2, 3]\n" * 20_000,
}


@pytest.mark.parametrize("name", list(HOSTILE))
def test_a_hostile_body_gets_the_same_facts_from_a_child_of_this_python(name):
    body = HOSTILE[name]
    child = interpreter.Child(grammar.RUNNING, Path(sys.executable))
    here = grammar.Running()
    assert child.facts(body, DEFAULT_MODULES) == here.facts(body, DEFAULT_MODULES)
    assert child.comparable(body) == here.comparable(body)


def test_one_child_answers_the_whole_run_and_is_waited_for(tmp_path, monkeypatch, capsys):
    if grammar.RUNNING == DEFAULT_PYTHON or interpreter.find(DEFAULT_PYTHON, os.environ) is None:
        pytest.skip(f"needs Python {DEFAULT_PYTHON} and another Python running the tests")
    real = interpreter.find(DEFAULT_PYTHON, os.environ)
    log = tmp_path / "starts"
    wrapper = fake(tmp_path / "bin", f'echo "$$" >> {log}; exec {real} "$@"', name=f"python{DEFAULT_PYTHON}")
    root = tmp_path / "repo"
    for n in range(40):
        for lang, body in (("en", f"await step{n}()\n"), ("zh", f"await step{n}()  # 步骤\n")):
            page = root / "docs" / lang / f"p{n}.md"
            page.parent.mkdir(parents=True, exist_ok=True)
            page.write_text(f"# {n}\n\n```python\n{body}```\n", encoding="utf-8")
    monkeypatch.setenv("PATH", f"{wrapper.parent}{os.pathsep}{os.environ.get('PATH', '')}")
    assert main(["update", "--root", str(root), "--no-cache"]) == 0
    manifest = json.loads((root / "documentation-snippets.json").read_text(encoding="utf-8"))
    assert manifest["selection"]["python"] == DEFAULT_PYTHON
    assert sum(len(f["snippets"]) for f in manifest["files"].values()) == 80
    interpreter.close_all()
    pids = log.read_text().split()
    assert len(pids) == 1  # one child for 80 snippets and 40 pairs
    with pytest.raises(ProcessLookupError):
        os.kill(int(pids[0]), 0)


def test_the_documented_line_is_the_line_given():
    docs = (Path(__file__).resolve().parents[2] / "docs" / "cli.md").read_text(encoding="utf-8")
    line = f"docsnippets: error: {interpreter.absent(DEFAULT_PYTHON, True, None)}"
    assert f"\n{line}\n" in docs


def test_a_forked_process_asks_a_child_of_its_own():
    child = interpreter.Child(grammar.RUNNING, Path(sys.executable))
    assert child.facts("await x\n", DEFAULT_MODULES).markers == ("await",)
    read, write = os.pipe()
    pid = os.fork()
    if pid == 0:  # the copy: its answers must not be read from the parent's child
        os.close(read)
        ok = all(child.facts(f"await x{n}\n", DEFAULT_MODULES).markers == ("await",) for n in range(50))
        os.write(write, b"1" if ok else b"0")
        os._exit(0)
    os.close(write)
    for n in range(50):
        assert child.comparable(f"y{n} = {n}\n") == grammar.Running().comparable(f"y{n} = {n}\n")
    os.waitpid(pid, 0)
    assert os.read(read, 1) == b"1"
    os.close(read)
    child.close()


def test_the_actions_line_says_what_fixes_it_there():
    """In the Action the image has the Python it has: a declared version it lacks is the
    repository's setting to change, the default one an image not built from the Dockerfile."""
    assert 'remove the setting or set python: "' in interpreter.absent(OTHER, False, None)
    default = interpreter.absent(DEFAULT_PYTHON, False, None)
    assert f"run the Action's image, built on Python {DEFAULT_PYTHON}" in default and "remove" not in default


def test_the_cpu_bound_counts_what_the_declared_pythons_child_uses(tmp_path):
    """The child reads the bodies for the run: the CPU it spends, while it still runs, is the
    run's, so the Action's clock adds it to this process's own."""
    from docsnippets.github.settings import Settings

    busy = "i=0; while [ $i -lt 200000 ]; do i=$((i+1)); done"  # the shell spends CPU, then greets
    script = fake(tmp_path / "bin", f"{busy}\n{greeting()}\ncat > /dev/null")
    child = interpreter.Child(OTHER, script)
    interpreter._children[(OTHER, script)] = child
    try:
        child.prepare()
        child._greet()  # its loop is done
        spent = child.cpu_seconds()
        assert spent > 0.02, spent
        assert interpreter.cpu_seconds() >= time.process_time() + spent
        limits = Settings.from_environ({"GITHUB_WORKSPACE": str(tmp_path)}).limits()
        assert limits.clock is interpreter.cpu_seconds
        bound = Limits(cpu_seconds=time.process_time() + spent / 2, clock=limits.clock)
        with work.bounded(bound), pytest.raises(OverBudget):
            work.check()
    finally:
        child.close()
        interpreter._children.pop((OTHER, script), None)
    assert child.cpu_seconds() == 0.0  # waited for: among this process's children now


SPINS = f"{greeting()}\nread line\nwhile :; do :; done"  # greets, then works on the first request forever


@contextmanager
def greeted(tmp_path: Path, script: str, **options: float) -> Iterator[interpreter.Child]:
    """A fake declared Python that has greeted, among the run's children (its CPU is the run's)
    while the block runs, killed after it."""
    executable = fake(tmp_path / "bin", script)
    child = interpreter.Child(OTHER, executable, **options)
    interpreter._children[(OTHER, executable)] = child
    try:
        child.prepare()
        child._greet()
        yield child
    finally:
        child.close(kill=True)
        interpreter._children.pop((OTHER, executable), None)


def _bound(seconds: float) -> Limits:
    """A CPU bound ``seconds`` past what the run has used so far."""
    return Limits(cpu_seconds=interpreter.cpu_seconds() + seconds, clock=interpreter.cpu_seconds)


def test_an_answer_is_awaited_no_longer_than_the_cpu_bound_leaves(tmp_path):
    """A body the child takes long over (its own Python's tokenizer is quadratic on one long
    line) is waited for no longer than what is left of the run's CPU bound: the run then
    stops at that bound, not a minute later as a broken Python."""
    with greeted(tmp_path, SPINS) as child:
        started = time.monotonic()
        with work.bounded(_bound(0.2)), pytest.raises(OverBudget) as caught:
            child.facts("await x\n", ())
        assert caught.value.bound == Bound.CPU_SECONDS
        assert time.monotonic() - started < interpreter.ANSWER_SECONDS / 2


def test_a_silent_child_is_a_broken_python_though_cpu_is_left(tmp_path):
    """A child that stops answering and uses no CPU has not spent the run's CPU bound, however
    little of it is left: the run says the declared Python gave no answer, not that judging
    took too long."""
    with greeted(tmp_path, f"{greeting()}\nread line\nexec sleep 600", answer_seconds=1.0) as child:
        with work.bounded(_bound(0.2)), pytest.raises(GrammarError) as caught:
            child.facts("await x\n", ())
        assert "no answer within 1 s" in str(caught.value)


def test_a_child_still_working_at_the_answer_limit_is_waited_for_until_the_cpu_bound(tmp_path):
    """On a loaded runner a long body can keep the child working past the answer limit while it
    gets only part of a core: that is judging taking long, stopped by the CPU bound, never a
    broken Python."""
    with greeted(tmp_path, SPINS, answer_seconds=0.3) as child:
        with work.bounded(_bound(1.5)), pytest.raises(OverBudget) as caught:
            child.facts("await x\n", ())
        assert caught.value.bound == Bound.CPU_SECONDS


def test_without_a_cpu_bound_a_busy_child_still_ends_at_the_answer_limit(tmp_path):
    script = fake(tmp_path / "bin", SPINS)
    child = interpreter.Child(OTHER, script, answer_seconds=0.5)
    try:
        started = time.monotonic()
        with pytest.raises(GrammarError, match=r"no answer within 0\.5 s"):
            child.facts("await x\n", ())
        assert time.monotonic() - started < 10
    finally:
        child.close(kill=True)


def test_an_interpreter_that_spins_without_greeting_is_a_broken_python_under_a_cpu_bound(tmp_path):
    """The greeting carries no body, so a child still using CPU before it says its version is
    not judging anything slowly: it is a broken Python, named as one at the answer limit, not
    a CPU bound spent on the pull request's pages."""
    script = fake(tmp_path / "bin", "while :; do :; done")
    child = interpreter.Child(OTHER, script, answer_seconds=0.3)
    interpreter._children[(OTHER, script)] = child
    try:
        with work.bounded(_bound(5)), pytest.raises(GrammarError, match=r"no answer within 0\.3 s"):
            child.facts("await x\n", ())
    finally:
        child.close(kill=True)
        interpreter._children.pop((OTHER, script), None)


@pytest.mark.parametrize("bound", ["not counting the child", "inf", "nan"])
def test_a_busy_child_that_the_cpu_bound_cannot_stop_ends_at_the_answer_limit(tmp_path, bound):
    """A busy child is waited for again only because the CPU bound stops it: under a bound
    whose clock does not count the child (a Limits' default clock) or one that never runs out
    (DOCSNIPPETS_MAX_CPU_SECONDS=inf), waiting again would wait for ever."""
    import math
    import threading

    if bound == "not counting the child":
        limits = Limits(cpu_seconds=time.process_time() + 60)
    else:
        limits = Limits(cpu_seconds=math.inf if bound == "inf" else math.nan, clock=interpreter.cpu_seconds)
    with greeted(tmp_path, SPINS, answer_seconds=0.3) as child:
        assert child._process is not None
        guard = threading.Timer(15, child._process.kill)  # a wait for ever ends as a killed child
        guard.start()
        try:
            with work.bounded(limits), pytest.raises(GrammarError, match=r"no answer within 0\.3 s"):
                child.facts("await x\n", ())
        finally:
            guard.cancel()
