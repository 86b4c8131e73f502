"""Bad input, one table: every row is a broken manifest, config, tree or command line.

Each case sets up a small tree, runs the CLI (in-process, and for the rows marked so also in
a child process, to prove no traceback reaches stderr) and states the exit code and what
the single stderr line must name: the file and the fix. Add a row to add a case.
"""

from __future__ import annotations

import ctypes
import io
import json
import os
import subprocess
import sys
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

import pytest
from tests.support.judging import scan_tree
from tests.support.manifest_helpers import entry_objects, rename_file, schema1

from docsnippets.cli import main
from docsnippets.config import Config
from docsnippets.manifest import build as mf

SRC = Path(__file__).resolve().parents[2] / "src"
DOC = "# Guide\n\n```python\nasync def f():\n    return await g()\n```\n"
FILES = {"docs/en/g.md": DOC, "docs/zh/g.md": DOC.replace("Guide", "指南")}
M = mf.DEFAULT_MANIFEST


# --- setups: each gets the tree root (already holding FILES) ----------------------------------


def good_manifest(root: Path) -> dict:
    assert main(["update", "--root", str(root)], out=io.StringIO()) == 0
    return json.loads((root / M).read_text(encoding="utf-8"))


def first(data: dict) -> dict:
    return entry_objects(data)[0]


def old_schema(root: Path) -> None:
    (root / M).write_text(json.dumps(schema1(scan_tree(root, Config()))), encoding="utf-8")


def manifest_text(text: str | bytes) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        data = text if isinstance(text, bytes) else text.encode("utf-8")
        (root / M).write_bytes(data)

    return setup


def mutated(mutate: Callable[[dict], object]) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        data = good_manifest(root)
        mutate(data)
        (root / M).write_text(json.dumps(data, ensure_ascii=False), encoding="utf-8")

    return setup


def raw_mutated(old: str, new: str) -> Callable[[Path], None]:
    """Edit the JSON text itself, for what json.dumps cannot write (NaN spelled out, escapes)."""

    def setup(root: Path) -> None:
        good_manifest(root)
        text = (root / M).read_text(encoding="utf-8")
        assert old in text
        (root / M).write_text(text.replace(old, new, 1), encoding="utf-8")

    return setup


def config_text(text: str | bytes, name: str = ".docsnippets.yml") -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        (root / name).write_bytes(text if isinstance(text, bytes) else text.encode("utf-8"))

    return setup


def symlink(name: str, target: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        path = root / name
        path.parent.mkdir(parents=True, exist_ok=True)
        path.symlink_to(target.format(root=root, outside=root.parent / "outside"))

    return setup


def fifo(name: str) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        os.mkfifo(root / name)

    return setup


def unreadable(name: str, *, manifest: bool = False) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        if manifest:
            good_manifest(root)
        (root / name).chmod(0o000)

    return setup


def both(*setups: Callable[[Path], None]) -> Callable[[Path], None]:
    def setup(root: Path) -> None:
        for s in setups:
            s(root)

    return setup


def _outside(root: Path) -> None:
    outside = root.parent / "outside"
    outside.mkdir(exist_ok=True)
    (outside / "secret.md").write_text("```python\nawait leaked_secret()\n```\n", encoding="utf-8")


# --- the table ------------------------------------------------------------------------------------


@dataclass(frozen=True)
class Case:
    id: str
    argv: tuple[str, ...]  # "{root}" and "{tmp}" are filled in
    setup: Callable[[Path], None] | None = None
    code: int = 2
    needles: tuple[str, ...] = ()  # all must be in the one error line (or in the warnings)
    stdout: tuple[str, ...] = ()  # must be in stdout
    child: bool = False  # also run in a child process
    unreadable: bool = False  # needs file permissions to bite (see _drop_dac)
    marks: tuple = field(default=())


CHECK = ("check", "--root", "{root}")
UPDATE = ("update", "--root", "{root}")
RENDER = ("render", "--root", "{root}")
FIX_MANIFEST = "run `docsnippets update`"

CASES = [
    # manifest ------------------------------------------------------------------------------------
    Case("manifest-missing", CHECK, None, 1, stdout=("does not exist yet", "docsnippets update")),
    Case("manifest-missing-render", RENDER, None, 2, (M, "not found", FIX_MANIFEST)),
    Case(
        "not-json", CHECK, manifest_text('{"schema": 2,\n  oops}'), 2, (M, "line 2, column 3", FIX_MANIFEST), child=True
    ),
    Case("empty-file", CHECK, manifest_text(""), 2, (M, "line 1, column 1", FIX_MANIFEST)),
    Case("not-an-object", CHECK, manifest_text("[1, 2]"), 2, (M, "not a JSON object", FIX_MANIFEST)),
    Case("not-utf8", CHECK, manifest_text(b'{"schema": 2, "x": "\xff"}'), 2, (M, "not UTF-8", FIX_MANIFEST)),
    Case("nan", CHECK, raw_mutated('"schema": 2', '"schema": NaN'), 2, (M, "NaN", FIX_MANIFEST)),
    Case(
        "huge-int", CHECK, raw_mutated('"schema": 2', '"schema": ' + "9" * 5000), 2, (M, "not valid JSON", FIX_MANIFEST)
    ),
    Case("deep-json", CHECK, manifest_text("[" * 100_000), 2, (M, "nested too deeply", FIX_MANIFEST), child=True),
    Case("lone-surrogate", CHECK, raw_mutated('"body": "', '"body": "\\ud800'), 2, (M, "surrogate", FIX_MANIFEST)),
    Case("schema-newer", CHECK, mutated(lambda d: d.update(schema=99)), 2, (M, "newer", "upgrade docsnippets")),
    Case("schema-unknown", CHECK, mutated(lambda d: d.update(schema=0)), 2, (M, "unknown schema", FIX_MANIFEST)),
    Case("schema-missing", CHECK, mutated(lambda d: d.pop("schema")), 2, (M, "'schema'", FIX_MANIFEST)),
    Case("schema-string", CHECK, mutated(lambda d: d.update(schema="2")), 2, (M, "'schema'", FIX_MANIFEST)),
    Case(
        "field-missing",
        CHECK,
        mutated(lambda d: first(d).pop("body")),
        2,
        (M, "snippets[0].body", FIX_MANIFEST),
    ),
    Case(
        "field-mistyped",
        CHECK,
        mutated(lambda d: first(d).update(code_lines="4-5")),
        2,
        (M, "snippets[0].code_lines", FIX_MANIFEST),
    ),
    Case(
        "bool-line",
        CHECK,
        mutated(lambda d: first(d).update(code_lines=[True, 5])),
        2,
        (
            M,
            "code_lines",
        ),
    ),
    Case("files-not-object", CHECK, mutated(lambda d: d.update(files=[])), 2, (M, "'files'", FIX_MANIFEST)),
    Case(
        "snippets-not-list",
        CHECK,
        mutated(lambda d: d["files"]["docs/en/g.md"].update(snippets={})),
        2,
        (M, "].snippets must be", FIX_MANIFEST),
    ),
    Case(
        "file-absolute",
        CHECK,
        mutated(lambda d: rename_file(d, "docs/en/g.md", "/etc/passwd")),
        2,
        (M, "'/etc/passwd'", "relative path", FIX_MANIFEST),
        child=True,
    ),
    Case(
        "file-dotdot",
        CHECK,
        mutated(lambda d: rename_file(d, "docs/en/g.md", "docs/../../x.md")),
        2,
        (M, "'docs/../../x.md'", "without '..'", FIX_MANIFEST),
    ),
    Case(
        "id-duplicated",
        CHECK,
        mutated(lambda d: entry_objects(d)[1].update(id=first(d)["id"])),
        2,
        (M, "is not the one its file and body give", FIX_MANIFEST),
    ),
    Case(
        "pair-partner-absent",
        CHECK,
        mutated(lambda d: entry_objects(d)[1].update(pair=None)),
        2,
        (M, "pair partner", FIX_MANIFEST),
    ),
    Case(
        "pair-self",
        CHECK,
        mutated(lambda d: first(d)["pair"].update(zh=first(d)["id"])),
        2,
        (M, "pair", FIX_MANIFEST),
    ),
    Case("schema-1", CHECK, old_schema, 1, stdout=("older docsnippets (schema 1)", "docsnippets update")),
    Case("schema-1-render", RENDER, old_schema, 0, ("older docsnippets (schema 1)",), stdout=("DOC-002",)),
    Case("schema-1-update", UPDATE, old_schema, 0, stdout=("wrote",)),
    Case("hash-edited", CHECK, mutated(lambda d: first(d).update(body="x\n")), 2, (M, "edited by hand")),
    Case(
        "manifest-directory", ("check", "--root", "{root}", "--manifest", "{root}/docs"), None, 2, ("docs", "directory")
    ),
    Case("manifest-fifo", CHECK, fifo(M), 2, (M, "not a regular file", "--manifest"), child=True),
    Case("manifest-dev-zero", CHECK, symlink(M, "/dev/zero"), 2, (M, "a symlink inside the repository"), child=True),
    Case(  # outside the root the user's own link is followed, and the device still never read
        "manifest-dev-zero-outside",
        ("check", "--root", "{root}", "--manifest", "{tmp}/zero.json"),
        lambda root: (root.parent / "zero.json").symlink_to("/dev/zero"),
        2,
        ("zero.json", "not a regular file"),
        child=True,
    ),
    Case("manifest-unreadable", CHECK, unreadable(M, manifest=True), 2, (M, "Permission denied"), unreadable=True),
    # config --------------------------------------------------------------------------------------
    Case(
        "yaml-invalid",
        CHECK,
        config_text("languages: [python\nmodules: x\n"),
        2,
        (".docsnippets.yml", "invalid YAML at line", "fix the syntax"),
        child=True,
    ),
    Case("yaml-not-mapping", CHECK, config_text("- a\n- b\n"), 2, (".docsnippets.yml", "mapping")),
    Case(
        "unknown-key",
        CHECK,
        config_text("langauges: [python]\n"),
        2,
        (".docsnippets.yml", "unknown setting langauges", "known: "),
    ),
    Case(
        "bad-glob-absolute",
        CHECK,
        config_text("exclude: ['/docs/*']\n"),
        2,
        (".docsnippets.yml", "bad glob", "'/docs/*'"),
    ),
    Case("bad-glob-bracket", CHECK, config_text("exclude: ['docs/[ab']\n"), 2, (".docsnippets.yml", "bad glob")),
    Case("bad-glob-backslash", CHECK, config_text("exclude: ['docs\\\\*.md']\n"), 2, (".docsnippets.yml", "bad glob")),
    Case("wrong-type", CHECK, config_text("languages: 5\n"), 2, (".docsnippets.yml", "'languages'", "list")),
    Case(
        "ignore-calls-not-strings",
        CHECK,
        config_text("ignore_calls: [1, '']\n"),
        2,
        (".docsnippets.yml", "'ignore_calls'", "list of non-empty strings"),
    ),
    Case("max-bytes-negative", CHECK, config_text("max_file_bytes: -1\n"), 2, (".docsnippets.yml", "positive integer")),
    Case(
        "yaml-bad-date",
        CHECK,
        config_text("repository: 2001-13-01\n"),
        2,
        (".docsnippets.yml", "invalid YAML value", "month"),
        child=True,
    ),
    Case(
        "yaml-huge-int",
        CHECK,
        config_text("max_file_bytes: " + "9" * 5000 + "\n"),
        2,
        (".docsnippets.yml", "invalid YAML"),
    ),
    Case("yaml-deep", CHECK, config_text("a: " + "[" * 5000 + "\n"), 2, (".docsnippets.yml", "invalid YAML")),
    Case(
        "pair-rule-slot-twice",
        CHECK,
        config_text("pair_rules: [{en: '{name}-{name}.md', zh: 'zh/{name}-{name}.md'}]\n"),
        2,
        (".docsnippets.yml", "slot twice"),
    ),
    Case(
        "server-url-javascript",
        CHECK,
        config_text("server_url: 'javascript:alert(1)'\n"),
        2,
        (".docsnippets.yml", "'server_url'", "http"),
    ),
    Case("config-not-utf8", CHECK, config_text(b"languages: [\xff]\n"), 2, (".docsnippets.yml", "cannot read")),
    Case("config-missing", (*CHECK, "--config", "{tmp}/nope.yml"), None, 2, ("nope.yml", "not found", "--config")),
    Case("config-directory", (*CHECK, "--config", "{root}/docs"), None, 2, ("docs", "config")),
    Case(
        "config-fifo",
        (*CHECK, "--config", "{root}/c.yml"),
        fifo("c.yml"),
        2,
        ("c.yml", "not a regular file"),
        child=True,
    ),
    # tree ----------------------------------------------------------------------------------------
    Case("root-missing", ("check", "--root", "{tmp}/nope"), None, 2, ("nope", "does not exist", "--root"), child=True),
    Case("root-is-file", ("check", "--root", "{root}/docs/en/g.md"), None, 2, ("g.md", "not a directory", "--root")),
    Case(
        "symlink-outside",
        UPDATE,
        both(_outside, symlink("docs/en/leak.md", "{outside}/secret.md")),
        0,
        ("docs/en/leak.md", "outside the root", "not followed"),
        stdout=("2 snippets",),
    ),
    Case(
        "symlink-dir-outside-changed",
        (*CHECK, "--changed", "linked/secret.md"),
        both(_outside, symlink("linked", "{outside}"), lambda root: good_manifest(root)),
        0,
        ("linked/secret.md", "outside the root"),
    ),
    Case(
        "symlink-loop",
        UPDATE,
        both(symlink("loop.md", "loop.md"), symlink("b.md", "c.md"), symlink("c.md", "b.md")),
        2,
        ("b.md", "broken symlink", "fix the link or remove it"),
    ),
    Case(
        "symlink-dangling",
        UPDATE,
        symlink("docs/zh/gone.md", "{root}/docs/zh/nowhere.md"),
        2,
        ("docs/zh/gone.md", "broken symlink", "fix the link or remove it"),
    ),
    Case("markdown-fifo", UPDATE, fifo("docs/pipe.md"), 0, (), stdout=("2 snippets",), child=True),
    Case(
        "markdown-unreadable",
        CHECK,
        unreadable("docs/zh/g.md"),
        2,
        ("docs/zh/g.md", "permission denied", "make the file readable"),
        unreadable=True,
        child=True,
    ),
    # arguments -----------------------------------------------------------------------------------
    Case("unknown-option", (*CHECK, "--bogus"), None, 2, ("unrecognized arguments: --bogus", "--help"), child=True),
    Case("unknown-command", ("frobnicate",), None, 2, ("invalid choice", "--help")),
    Case("bad-choice", (*CHECK, "--format", "xml"), None, 2, ("invalid choice: 'xml'",)),
    Case("missing-value", (*CHECK, "--changed"), None, 2, ("--changed", "expected at least one argument")),
    Case("changed-outside", (*CHECK, "--changed", "../x.md"), lambda root: good_manifest(root), 2, ("../x.md", "root")),
    Case(
        "repository-with-space",
        (*UPDATE, "--repository", "o/r x", "--commit", "a" * 40),
        None,
        2,
        ("'o/r x'", "OWNER/NAME", "--repository"),
    ),
    Case("repository-no-slash", (*UPDATE, "--repository", "slime"), None, 2, ("'slime'", "OWNER/NAME")),
    Case("commit-not-hex", (*UPDATE, "--commit", "main"), None, 2, ("'main'", "7 to 40 hex digits")),
    Case("commit-too-short", (*UPDATE, "--commit", "abc12"), None, 2, ("'abc12'", "7 to 40 hex digits")),
    Case(
        "update-manifest-directory",
        ("update", "--root", "{root}", "--manifest", "{root}/docs"),
        None,
        2,
        ("docs: is a directory", "pass the manifest file to --manifest"),
        child=True,
    ),
    Case(
        "render-output-is-manifest",
        (*RENDER, "--output", "{root}/" + M),
        lambda root: good_manifest(root),
        2,
        (M, "--output"),
    ),
    Case(
        "manifest-is-a-doc",
        ("update", "--root", "{root}", "--manifest", "{root}/docs/en/g.md"),
        None,
        2,
        ("g.md", "--manifest"),
    ),
]


# --- running a case --------------------------------------------------------------------------------


def _drop_dac() -> None:
    """In the child: give up root's power to read any file (CAP_DAC_OVERRIDE/READ_SEARCH)."""
    libc = ctypes.CDLL(None, use_errno=True)
    for cap in (1, 2):
        if libc.prctl(24, cap, 0, 0, 0) != 0:  # PR_CAPBSET_DROP: exec then leaves it out
            raise OSError(ctypes.get_errno(), "prctl(PR_CAPBSET_DROP)")


def _can_drop_dac() -> bool:
    try:
        done = subprocess.run([sys.executable, "-c", "pass"], preexec_fn=_drop_dac, check=False)
    except (OSError, subprocess.SubprocessError):
        return False
    return done.returncode == 0


def run_child(argv: list[str], *, drop_dac: bool = False) -> tuple[int, str, str]:
    env = {**os.environ, "PYTHONPATH": str(SRC), "PYTHONIOENCODING": "utf-8"}
    done = subprocess.run(
        [sys.executable, "-c", "import sys; from docsnippets.cli import main; sys.exit(main(sys.argv[1:]))", *argv],
        capture_output=True,
        text=True,
        env=env,
        timeout=60,
        preexec_fn=_drop_dac if drop_dac else None,
        check=False,
    )
    return done.returncode, done.stdout, done.stderr


def check_outcome(case: Case, code: int, out: str, err: str) -> None:
    assert code == case.code, (code, out, err)
    assert "Traceback" not in err and "internal error" not in err, err
    lines = err.splitlines()
    if case.code == 2:
        assert len(lines) == 1 and lines[0].startswith("docsnippets: error: "), err
    else:
        assert all(line.startswith("docsnippets: warning: ") for line in lines), err
    for needle in case.needles:
        assert needle in err, (needle, err)
    for needle in case.stdout:
        assert needle in out, (needle, out)


@pytest.mark.parametrize("case", [pytest.param(c, id=c.id, marks=c.marks) for c in CASES])
def test_bad_input(case: Case, tmp_path: Path, capsys) -> None:
    root = tmp_path / "tree"
    for rel, text in FILES.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text, encoding="utf-8")
    if case.setup is not None:
        case.setup(root)
    argv = [a.format(root=root, tmp=tmp_path) for a in case.argv]
    capsys.readouterr()
    as_root = case.unreadable and os.geteuid() == 0
    if as_root and not _can_drop_dac():
        pytest.skip("running as root without the right to drop CAP_DAC_OVERRIDE: chmod 000 does not stop reads")
    if not as_root and "fifo" not in case.id:  # in-process: a FIFO bug would hang the test run itself
        code = main(argv)
        cap = capsys.readouterr()
        check_outcome(case, code, cap.out, cap.err)
    if case.child or as_root or "fifo" in case.id:
        check_outcome(case, *run_child(argv, drop_dac=as_root))
