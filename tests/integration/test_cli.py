import json
import os
import shlex
import subprocess
import sys
from pathlib import Path

import pytest

from docsnippets.cli import main

ROOT = Path(__file__).resolve().parents[2]
EN = "# Guide\n\n```python\nasync def hook(args):\n    return await call(args)  # note\n```\n"
ZH = "# 指南\n\n```python\nasync def hook(args):\n    return await call(args)  # 说明\n```\n"


@pytest.fixture
def tree(make_tree):
    return make_tree({"docs/en/g.md": EN, "docs/zh/g.md": ZH, "notes.md": "```bash\nawait\n```\n"})


def run(capsys, *args):
    code = main(list(args))
    cap = capsys.readouterr()
    return code, cap.out, cap.err


def test_update_check_cycle(tree, capsys):
    code, out, _ = run(capsys, "update", "--root", str(tree))
    assert code == 0 and out.startswith("wrote ") and "2 snippets in 2 files, 1 pair," in out
    assert run(capsys, "check", "--root", str(tree))[0] == 0
    # Unchanged content: update leaves the file alone (quiet pre-commit hook).
    code, out, _ = run(capsys, "update", "--root", str(tree))
    assert code == 0 and out.startswith("unchanged ")
    (tree / "docs/zh/g.md").write_text(ZH.replace("call(args)", "call(args, 1)"), encoding="utf-8")
    code, out, _ = run(capsys, "check", "--root", str(tree))
    assert code == 1 and out.startswith("stale:") and "diverged" in out and "docsnippets update" in out
    data = json.loads(run(capsys, "check", "--root", str(tree), "--format", "json")[1])
    assert data["desynchronized"][0]["relation"] == "diverged"
    assert {"file", "code_lines", "body_sha256"} <= set(data["changed"][0]["after"])


def test_missing_manifest_is_stale_not_error(tree, capsys):
    code, out, _ = run(capsys, "check", "--root", str(tree))
    assert code == 1 and "does not exist" in out


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["check", "--bogus"], "unrecognized arguments"),
        (["frobnicate"], "invalid choice"),
        (["check", "--format", "xml"], "invalid choice"),
        (["check", "--root", "/nonexistent/x"], "does not exist"),
    ],
)
def test_usage_errors_are_one_line_exit_2(capsys, args, needle):
    code, _, err = run(capsys, *args)
    assert code == 2 and needle in err and err.count("\n") == 1


def test_changed_outside_root(tree, capsys):
    run(capsys, "update", "--root", str(tree))
    code, _, err = run(capsys, "check", "--root", str(tree), "--changed", "../x.md")
    assert code == 2 and "leaves the root" in err


def test_entrypoint_dispatches_to_cli(tree):
    done = subprocess.run(
        [sys.executable, str(ROOT / "entrypoint.py"), "update", "--root", str(tree)],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert (tree / "documentation-snippets.json").is_file()


def test_cli_does_not_import_pygithub(tree):
    code = (
        "import sys; from docsnippets.cli import main; "
        f"rc = main(['check', '--root', {str(tree)!r}]); "
        "print('github' in sys.modules, rc)"
    )
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=False)
    assert done.stdout.split()[-2:] == ["False", "1"], done.stderr


def _source(tree):
    return json.loads((tree / "documentation-snippets.json").read_text(encoding="utf-8"))["source"]


def test_an_explicit_source_is_applied_and_then_kept(tree, capsys):
    run(capsys, "update", "--root", str(tree))
    code, out, err = run(capsys, "update", "--root", str(tree), "--repository", "o/r")
    assert code == 0 and out.startswith("wrote ") and _source(tree)["repository"] == "o/r"
    assert "the recorded source is now o/r at no commit (was no repository at no commit)" in err
    code, out, _ = run(capsys, "update", "--root", str(tree), "--commit", "ABCDEF1")
    assert out.startswith("wrote ") and _source(tree) == {
        "repository": "o/r",
        "commit": "abcdef1",
        "server_url": "https://github.com",
    }
    assert run(capsys, "update", "--root", str(tree))[1].startswith("unchanged ")
    assert _source(tree)["commit"] == "abcdef1"
    code, out, _ = run(capsys, "update", "--root", str(tree), "--force")
    assert out.startswith("wrote ") and _source(tree)["commit"] is _source(tree)["repository"] is None


def test_a_different_origin_remote_is_named_not_applied(tree, capsys):
    git = ["git", "-C", str(tree)]
    subprocess.run([*git, "init", "-q"], check=True)
    subprocess.run([*git, "remote", "add", "origin", "https://github.com/first/repo.git"], check=True)
    run(capsys, "update", "--root", str(tree))
    assert _source(tree)["repository"] == "first/repo"  # a new manifest asks the remote
    subprocess.run([*git, "remote", "set-url", "origin", "https://github.com/fork/repo.git"], check=True)
    code, out, err = run(capsys, "update", "--root", str(tree))
    assert code == 0 and out.startswith("unchanged ") and _source(tree)["repository"] == "first/repo"
    assert "pass --repository fork/repo to record it" in err and err.count("\n") == 1


@pytest.mark.parametrize("command", ["update", "check", "render", "merge-driver"])
def test_every_option_has_help(command):
    from docsnippets.cli import build_parser

    sub = next(a for a in build_parser()._actions if a.dest == "command").choices[command]
    for action in sub._actions:
        if action.option_strings or action.help is not None:
            assert action.help, (command, action.option_strings or action.dest)


# The console script's entry, as `docsnippets` runs it: what it printed must be out before it
# goes, and a failed flush must show.
RUN = "from docsnippets.cli import run; run()"


def _buffered() -> dict[str, str]:
    """The environment with Python's own output buffering, as a console script normally has it."""
    return {k: v for k, v in os.environ.items() if k != "PYTHONUNBUFFERED"}


def test_the_console_entry_delivers_all_output_and_the_exit_code(tree):
    assert main(["update", "--root", str(tree)]) == 0
    (tree / "docs/en/g.md").write_text(EN + "\n```python\nawait more()\n```\n" * 400, encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-c", RUN, "check", "--root", str(tree), "--format", "json"],
        capture_output=True,
        text=True,
        check=False,
        env=_buffered(),
    )
    assert done.returncode == 1, done.stderr
    assert len(done.stdout) > 65_536  # more than a pipe holds: the tail is written at the flush
    assert len(json.loads(done.stdout)["added"]) == 400


def test_the_console_entry_fails_when_its_output_cannot_be_written(tree):
    assert main(["update", "--root", str(tree)]) == 0
    if not Path("/dev/full").exists():
        pytest.skip("no /dev/full here")
    with open("/dev/full", "w") as full:
        done = subprocess.run(
            [sys.executable, "-c", RUN, "check", "--root", str(tree)],
            stdout=full,
            stderr=subprocess.PIPE,
            text=True,
            check=False,
            env=_buffered(),
        )
    assert done.returncode == 2  # the check passed, but nobody could read that it did
    assert "the output could not be written" in done.stderr


@pytest.mark.parametrize(
    ("redirect", "expected"),
    [("2>&-", 0), (">&-", 0)],
)
def test_the_console_entry_started_with_a_closed_stream_keeps_its_exit_code(tree, redirect, expected):
    """A hook runner may start it with a descriptor closed: that is no traceback and no false verdict."""
    assert main(["update", "--root", str(tree)]) == 0
    command = f"{shlex.quote(sys.executable)} -c {shlex.quote(RUN)} check --root {shlex.quote(str(tree))} {redirect}"
    done = subprocess.run(["sh", "-c", command], capture_output=True, text=True, check=False, env=_buffered())
    assert done.returncode == expected, done.stderr
    assert "Traceback" not in done.stderr
