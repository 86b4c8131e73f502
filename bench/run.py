"""Benchmark for the "Performance at scale" goals: ratios measured in one run, on this machine.

Every measured command is a fresh ``python -c ...`` child of the same interpreter, so both
sides of each ratio pay the same process start (the docsnippets modes also pay their own
imports: that is part of their cost). That interpreter is the Python whose grammar judges the
snippets (the ``python`` setting's default, the Action's), as the Action runs it: judging in
its own process. When this script runs under another Python, the children are that one, found
as docsnippets finds it, with the dependencies linked from here; what this Python pays for a
child process of the declared one is measured apart and printed as information. Children run
with a private bytecode cache (``PYTHONPYCACHEPREFIX`` under the output dir,
``PYTHONDONTWRITEBYTECODE`` removed) and each command runs once untimed first, so nobody is
timed compiling source, as an installed package would not be. Modes run alternately, in a
rotated order each round, and the table shows medians; peak RSS is the child's own
``ru_maxrss`` from ``wait4`` (which counts the processes it waited for, a judging child too).

    python bench/run.py                   # 10,000 files, 5 rounds
    python bench/run.py --scaling         # also 2,500/5,000/10,000 files and 1..300 changed files
    python bench/run.py --smoke           # tiny tree, 1 round, no timing claims (CI)
    python bench/run.py --write-readme    # also put this run's goals in bench/README.md's table
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import shlex
import shutil
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from pathlib import Path

HERE = Path(__file__).resolve().parent
REPO = HERE.parent
sys.path.insert(0, str(HERE))
sys.path.insert(0, str(REPO / "src"))

import generate  # noqa: E402  (a sibling script, not a package)
import table  # noqa: E402

from docsnippets import interpreter  # noqa: E402
from docsnippets.config import DEFAULT_PYTHON  # noqa: E402
from docsnippets.snippets.grammar import RUNNING  # noqa: E402

CORPUS = REPO.parent / "shared" / "corpus" / "slime-docs-624b824a8"
CODE = REPO.parent / "shared" / "corpus" / "slime-code-624b824a8"
CHANGED_BACKUP = "changed-backup.json"  # one per edited tree: <tree name>.changed-backup.json

# The baselines, as plain loops. The words are the prefilter's (passed in argv so they follow
# the default config); the floor only reads and searches, the parse loop parses everything.
FLOOR = """
import os, sys
root, words = sys.argv[1], [w.encode() for w in sys.argv[2:]]
n = hits = 0
for d, dirs, names in os.walk(root):
    dirs[:] = [x for x in dirs if x != ".git"]
    for name in names:
        if name.endswith((".md", ".markdown")):
            with open(os.path.join(d, name), "rb") as h:
                data = h.read()
            n += 1
            hits += any(w in data for w in words)
print(n, hits)
"""
PARSE_ALL = """
import os, sys
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark")
if sys.argv[2] == "block":
    md.disable(["inline", "text_join"], ignoreInvalid=True)
n = 0
for d, dirs, names in os.walk(sys.argv[1]):
    dirs[:] = [x for x in dirs if x != ".git"]
    for name in names:
        if name.endswith((".md", ".markdown")):
            with open(os.path.join(d, name), "rb") as h:
                md.parse(h.read().decode("utf-8-sig"))
            n += 1
print(n)
"""
# The console script's own entry (pyproject [project.scripts]): what `docsnippets` runs.
CLI = "from docsnippets.cli import run; run()"
# The cold floor of a check: start, import markdown-it, parse the files a check must parse
# (with the block-only parser docsnippets uses), nothing else.
PARSE_SOME = """
import sys
from markdown_it import MarkdownIt
md = MarkdownIt("commonmark").disable(["inline", "text_join"], ignoreInvalid=True)
for name in sys.argv[1:]:
    with open(name, "rb") as h:
        md.parse(h.read().decode("utf-8-sig"))
"""
# The same command timed inside the child after its imports (lazy ones too, such as the manifest
# validator): no process start and no import on either side, only the work. The process rows
# and goal 3 show what the imports cost.
IN_PROCESS = """
import contextlib, io, sys, time
import markdown_it, yaml
from docsnippets.cli import main
start = time.perf_counter()
with contextlib.redirect_stdout(io.StringIO()):
    code = main(sys.argv[1:])
print(f"elapsed {time.perf_counter() - start:.6f}")
sys.exit(code)
"""
# Parallelism probe: the product's own per-file extraction, sequential or over a process pool.
PARALLEL = """
import sys
from multiprocessing import Pool
from pathlib import Path
from docsnippets.config import Config
from docsnippets.judge.inventory import read_pages
from docsnippets.snippets.pairs import pair_up
from docsnippets.sources.worktree import WorkTree

def chunk(args):
    root, files = args
    return read_pages(WorkTree(Path(root)), files, Config())

if __name__ == "__main__":
    root, workers = Path(sys.argv[1]).resolve(), int(sys.argv[2])
    config = Config()
    files = [p for p in WorkTree(root).entries() if config.selects(p)]
    parts = [(str(root), files[i::workers * 8]) for i in range(workers * 8)] if workers > 1 else [(str(root), files)]
    snippets, notices, present = [], [], set()
    if workers <= 1:
        found = [chunk(parts[0])]
    else:
        with Pool(workers) as pool:
            found = list(pool.imap_unordered(chunk, parts))
    for f in found:
        snippets += f.snippets; notices += f.notices; present |= f.present
    inv = pair_up(snippets, present, config, notices)
    print(len(inv.snippets), len(inv.pairs))
"""


@dataclass
class Sample:
    seconds: list[float] = field(default_factory=list)
    rss_kb: list[int] = field(default_factory=list)

    @property
    def median(self) -> float:
        return statistics.median(self.seconds)

    @property
    def peak_mb(self) -> float:
        return max(self.rss_kb) / 1024


@dataclass(frozen=True)
class Mode:
    name: str
    argv: tuple[str, ...]
    ok_codes: tuple[int, ...] = (0,)
    in_process: bool = False  # the child prints its own "elapsed" (see IN_PROCESS)


# What the docsnippets modes import besides the standard library, linked for a Python other than
# this one (pure Python; a compiled part built for this Python is skipped, as each package allows).
DEPENDENCIES = ("markdown_it", "mdurl", "yaml", "jinja2", "markupsafe")


def declared_python() -> str:
    """The Python the goals are timed with: the declared one, as the Action judges."""
    if RUNNING == DEFAULT_PYTHON:
        return sys.executable
    found = interpreter.find(DEFAULT_PYTHON, os.environ)
    if found is None:
        raise SystemExit(
            f"bench: the goals are timed under Python {DEFAULT_PYTHON}, the declared grammar, as the Action "
            f"runs; install it (`uv python install {DEFAULT_PYTHON}` or `pyenv install {DEFAULT_PYTHON}`) "
            "or run the bench with it"
        )
    return str(found)


def linked_dependencies(out: Path) -> Path:
    """A directory of links to this environment's copies of DEPENDENCIES."""
    import importlib.util

    deps = out / "dependencies"
    shutil.rmtree(deps, ignore_errors=True)
    deps.mkdir(parents=True)
    for name in DEPENDENCIES:
        spec = importlib.util.find_spec(name)
        if spec is not None and spec.submodule_search_locations:
            (deps / name).symlink_to(next(iter(spec.submodule_search_locations)), target_is_directory=True)
    return deps


def child_env(pycache: Path, src_dir: Path, cache: Path, deps: Path | None = None) -> dict[str, str]:
    env = dict(os.environ)
    env.pop("PYTHONDONTWRITEBYTECODE", None)
    env.pop("DOCSNIPPETS_NO_CACHE", None)
    env["DOCSNIPPETS_CACHE_DIR"] = str(cache)  # the "cached" modes' extraction cache, warmed untimed
    env["PYTHONPYCACHEPREFIX"] = str(pycache)
    first = os.pathsep.join([str(src_dir), *([str(deps)] if deps is not None else [])])
    env["PYTHONPATH"] = first + os.pathsep + env["PYTHONPATH"] if env.get("PYTHONPATH") else first
    return env


def run_child(argv: Sequence[str], env: dict[str, str]) -> tuple[float, int, int, str]:
    """(wall seconds, exit code, peak RSS in KB, stdout+stderr) of one child process."""
    start = time.perf_counter()
    proc = subprocess.Popen(argv, env=env, stdout=subprocess.PIPE, stderr=subprocess.STDOUT)
    out = proc.stdout.read() if proc.stdout else b""
    _, status, usage = os.wait4(proc.pid, 0)
    seconds = time.perf_counter() - start
    proc.returncode = os.waitstatus_to_exitcode(status)
    if proc.stdout:
        proc.stdout.close()
    return seconds, proc.returncode, usage.ru_maxrss, out.decode("utf-8", "replace")


def peak_rss_kb(argv: Sequence[str], env: dict[str, str]) -> int:
    """The child's peak RSS, measured apart from the timed runs.

    ``wait4`` on our own child also counts the memory the child shared with this process
    before ``exec`` (vfork), so GNU time runs it as its grandchild when it is installed.
    """
    gnu_time = shutil.which("time", path="/usr/bin:/bin")
    if gnu_time is None:
        return run_child(argv, env)[2]
    with tempfile.TemporaryDirectory() as tmp:
        report = Path(tmp) / "rss"
        run_child((gnu_time, "-f", "%M", "-o", str(report), *argv), env)
        return int(report.read_text().split()[-1])


def measure(modes: Sequence[Mode], repeat: int, env: dict[str, str]) -> dict[str, Sample]:
    """Warm each mode once, take its peak RSS, then run all modes ``repeat`` times, rotating the order."""
    samples = {m.name: Sample() for m in modes}
    for mode in modes:
        _, code, _, out = run_child(mode.argv, env)
        if code not in mode.ok_codes:
            raise SystemExit(f"bench: {mode.name} exited {code}:\n{out}")
        samples[mode.name].rss_kb.append(peak_rss_kb(mode.argv, env))
    for r in range(repeat):
        for mode in modes[r % len(modes) :] + modes[: r % len(modes)]:
            seconds, code, _, out = run_child(mode.argv, env)
            if code not in mode.ok_codes:
                raise SystemExit(f"bench: {mode.name} exited {code}:\n{out}")
            if mode.in_process:
                seconds = float(out.rsplit("elapsed ", 1)[1].split()[0])
            samples[mode.name].seconds.append(seconds)
    return samples


def words() -> list[str]:
    from docsnippets.config import Config

    config = Config()
    return sorted({"async", "await"} | {m.split(".")[0] for m in config.modules})


def pick_changed(tree: Path, count: int) -> list[str]:
    """Deterministic changed files: async pages first (their snippets change), then plain pages."""
    pages = sorted(p.relative_to(tree).as_posix() for p in (tree / "docs").rglob("*.md"))
    with_async = [p for p in pages if "async def" in (tree / p).read_text(encoding="utf-8")]
    plain = [p for p in pages if p not in set(with_async)]
    picked = with_async[: max(1, count // 3)]
    step = max(1, len(plain) // max(1, count))
    picked += plain[::step][: count - len(picked)]
    return picked[:count]


def _backup(out: Path, tree: Path) -> Path:
    return out / f"{tree.name}.{CHANGED_BACKUP}"


def apply_changes(tree: Path, out: Path, files: list[str]) -> None:
    """Edit ``files`` in place, saving the originals first so a crash cannot leave them edited."""
    backup = _backup(out, tree)
    restore_changes(out, tree)
    saved = {f: (tree / f).read_text(encoding="utf-8") for f in files}
    backup.write_text(json.dumps({"tree": str(tree), "files": saved}), encoding="utf-8")
    for n, (rel, text) in enumerate(saved.items()):
        if "async def" in text:
            text += "\n```python\nimport asyncio\n\n\nasync def bench_edit():\n    await asyncio.sleep(0)\n```\n"
        else:
            text += f"\nBench edit number {n}: one more sentence of prose.\n"
        (tree / rel).write_text(text, encoding="utf-8")


def restore_changes(out: Path, tree: Path | None = None) -> None:
    """Put back the originals of ``tree`` (None: of every tree a backup names)."""
    for backup in [_backup(out, tree)] if tree is not None else sorted(out.glob(f"*{CHANGED_BACKUP}")):
        if not backup.is_file():
            continue
        data = json.loads(backup.read_text(encoding="utf-8"))
        root = Path(data["tree"])
        for rel, text in data["files"].items():
            (root / rel).write_text(text, encoding="utf-8")
        backup.unlink()


def make_git(tree: Path, env: dict[str, str]) -> None:
    if (tree / ".git").exists():
        return
    git = ["git", "-C", str(tree), "-c", "user.name=bench", "-c", "user.email=bench@example.invalid"]
    for args in (["init", "-q"], ["add", "-A"], ["commit", "-q", "-m", "bench tree"]):
        subprocess.run([*git, *args], check=True, env=env, capture_output=True)


@dataclass(frozen=True)
class Goal:
    label: str
    mode: str
    reference: str | None
    limit: float
    unit: str = "x"


def fmt_row(cells: Sequence[object], widths: Sequence[int]) -> str:
    return "  ".join(str(c).ljust(w) for c, w in zip(cells, widths, strict=False)).rstrip()


def print_modes(title: str, samples: dict[str, Sample]) -> None:
    print(f"\n== {title}")
    widths = (32, 10, 10, 10, 10)
    print(fmt_row(("mode", "median_s", "min_s", "max_s", "peak_MB"), widths))
    for name, s in samples.items():
        row = (name, f"{s.median:.3f}", f"{min(s.seconds):.3f}", f"{max(s.seconds):.3f}", f"{s.peak_mb:.1f}")
        print(fmt_row(("mode " + name, *row[1:]), widths))


def samples_of(modes: Sequence[Mode], samples: dict[str, Sample]) -> dict[str, Sample]:
    return {m.name: samples[m.name] for m in modes}


def goal_value(g: Goal, samples: dict[str, Sample]) -> float | None:
    """The ratio of the two modes' medians, or the mode's peak memory; None when not measured."""
    if g.mode not in samples or (g.reference is not None and g.reference not in samples):
        return None
    s = samples[g.mode]
    return s.peak_mb if g.reference is None else s.median / samples[g.reference].median


def print_goals(goals: Sequence[Goal], samples: dict[str, Sample], title: str) -> bool:
    print(f"\n== {title}")
    widths = (56, 10, 10, 8, 5)
    print(fmt_row(("goal", "value", "limit", "unit", "met"), widths))
    all_met = True
    for g in goals:
        value = goal_value(g, samples)
        if value is None:
            print(fmt_row((f"goal {g.label}", "skipped", g.limit, g.unit, "-"), widths))
            continue
        met = value <= g.limit
        all_met &= met
        print(fmt_row((f"goal {g.label}", f"{value:.3f}", g.limit, g.unit, "yes" if met else "NO"), widths))
    return all_met


def goal_row(g: Goal, samples: dict[str, Sample]) -> table.Row:
    """One goal as bench/README.md's table shows it."""
    value = goal_value(g, samples)
    unit = "×" if g.unit == "x" else g.unit
    limit, goal = f"≤ {g.limit:g} {unit}", g.label.split(" <= ")[0]
    if value is None:
        return table.Row(goal, "skipped", "-", limit, None)
    if g.reference is None:
        return table.Row(goal, f"{value:.1f} MB", "", limit, value <= g.limit)
    measured = f"{samples[g.mode].median:.3f} s / {samples[g.reference].median:.3f} s"
    return table.Row(goal, measured, f"{value:.2f} ×", limit, value <= g.limit)


def write_readme(path: Path, samples: dict[str, Sample], heading: str, notes: Sequence[str] = ()) -> None:
    """This run's goals as the one table of bench/README.md (between its markers), then ``notes``."""
    rows = [goal_row(g, samples) for g in (*GOALS, *EARLIER_GOALS)]
    text = path.read_text(encoding="utf-8")
    written = table.markdown(heading, rows) + "".join(f"\n{note}\n" for note in notes)
    path.write_text(table.into_readme(text, written, str(path)), encoding="utf-8")
    print(f"wrote the table of {path}")


def tree_modes(python: str, tree: Path, manifest: Path, upd: Path, changed: list[str]) -> list[Mode]:
    cli = (python, "-c", CLI)
    inside = (python, "-c", IN_PROCESS)
    # The goals measure the engine itself: every file is parsed (--no-cache), as in a fresh
    # container. "update cached" shows what the local cache adds on top.
    check = ("check", "--root", str(tree), "--manifest", str(manifest), "--no-cache")
    update = ("update", "--root", str(tree), "--manifest", str(upd), "--force")
    return [
        Mode("parse-all", (python, "-c", PARSE_ALL, str(tree), "full")),
        Mode("parse-all-block", (python, "-c", PARSE_ALL, str(tree), "block")),
        Mode("read-and-search", (python, "-c", FLOOR, str(tree), *words())),
        Mode("update", (*cli, *update, "--no-cache")),
        Mode("update cached", (*cli, *update)),
        Mode("check", (*cli, *check), (0, 1)),
        Mode("check --changed", (*cli, *check, "--changed", *changed), (0, 1)),
        Mode("check in-process", (*inside, *check), (0, 1), in_process=True),
        Mode("check --changed in-process", (*inside, *check, "--changed", *changed), (0, 1), in_process=True),
    ]


def parsed_by_check(corpus: Path) -> list[str]:
    """The files a check of ``corpus`` parses: those the prefilter lets through."""
    from docsnippets.config import Config
    from docsnippets.snippets.extract import may_contain_snippet

    config = Config()
    names = sorted(p for p in corpus.rglob("*") if p.is_file() and config.is_markdown(p.name))
    return [str(p) for p in names if may_contain_snippet(p.read_bytes(), config)]


def prepare_tree(out: Path, files: int, share: float, seed: int, git: bool, env: dict[str, str]) -> Path:
    tree = out / f"tree-{files}-{seed}{'-git' if git else ''}"
    restore_changes(out)
    stats = generate.ensure(tree, files, share, seed)
    print(f"tree {tree}: {stats['files']} files, {stats['bytes'] / 1e6:.1f} MB, {stats['async_pages']} async pages")
    if git:
        make_git(tree, env)
    return tree


def base_manifest(python: str, tree: Path, out: Path, env: dict[str, str]) -> Path:
    manifest = out / f"{tree.name}.manifest.json"
    _, code, _, text = run_child((python, "-c", CLI, "update", "--root", str(tree), "--manifest", str(manifest)), env)
    if code != 0:
        raise SystemExit(f"bench: update of {tree} failed:\n{text}")
    return manifest


@contextlib.contextmanager
def changes(out: Path, *edits: tuple[Path, list[str]]) -> Iterator[None]:
    """Each tree with its ``changed`` files edited, restored afterwards whatever happens."""
    try:
        for tree, changed in edits:
            apply_changes(tree, out, changed)
        yield
    finally:
        for tree, _ in edits:
            restore_changes(out, tree)


REFERENCE_MODES = ("slime+code check", "slime+code --no-references")
# Information, not a goal: a cold check run by this Python while another is declared, so that a
# child process of the declared one judges (what a contributor on another Python pays).
CHILD_CHECK = "slime cold, a child judges"
CHILD_FLOOR = "slime floor, this Python"
SMALL_CHANGED = "check --changed, small tree"
# Issue 20's rows: a cold check against its floor, its memory, --changed flat in the tree's
# size, and update against parsing everything. All without the extraction cache. The cold
# check's limit leaves room for plain code (a public argparse, a normal interpreter exit) over
# start-up milliseconds that a container start dwarfs.
GOALS = [
    Goal("20.1 slime check, cold / floor <= 1.6", "slime check cold", "slime parse floor", 1.6),
    Goal("20.2 slime check, cold, peak RSS <= 20 MB", "slime check cold", None, 20, "MB"),
    Goal("20.3 --changed 3 files: big / small tree <= 1.3", "check --changed", SMALL_CHANGED, 1.3),
    Goal("20.4 update / parse-all <= 0.15", "update", "parse-all", 0.15),
]
EARLIER_GOALS = [
    Goal("1 update / read-and-search <= 2.5", "update", "read-and-search", 2.5),
    Goal("2 --changed / check <= 0.1, in-process", "check --changed in-process", "check in-process", 0.1),
    Goal("2' same, whole processes", "check --changed", "check", 0.1),
    Goal("3 slime check, cached / import markdown_it <= 1.5", "slime check cached", "import markdown_it", 1.5),
    Goal("3' slime check, cold (no cache)", "slime check cold", "import markdown_it", 1.5),
    Goal("3'' floor: import + parse those files only", "slime parse floor", "import markdown_it", 1.5),
    Goal("5 slime+code check / --no-references <= 1.5", *REFERENCE_MODES, 1.5),
    Goal("4 update peak RSS <= 150 MB", "update", None, 150, "MB"),
    Goal("4 check peak RSS <= 150 MB", "check", None, 150, "MB"),
]


def docs_and_code(out: Path, docs: Path, code: Path) -> Path:
    """The real repository: a copy of the docs with the code laid over it."""
    tree = out / "slime-docs-code"
    if tree.exists():
        shutil.rmtree(tree)
    shutil.copytree(docs, tree)
    shutil.copytree(code, tree, dirs_exist_ok=True)
    for p in [tree, *tree.rglob("*")]:
        p.chmod(p.stat().st_mode | 0o200)
    return tree


def reference_modes(python: str, tree: Path, env: dict[str, str]) -> list[Mode]:
    """A full check of the docs and code with the reference check on, and with it off."""
    manifest = tree / "documentation-snippets.json"
    run_child((python, "-c", CLI, "update", "--root", str(tree), "--manifest", str(manifest)), env)
    check = (python, "-c", CLI, "check", "--root", str(tree), "--manifest", str(manifest), "--no-cache")
    return [Mode(REFERENCE_MODES[0], check), Mode(REFERENCE_MODES[1], (*check, "--no-references"))]


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--files", type=int, default=10_000)
    parser.add_argument("--async-share", type=float, default=0.01)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument("--repeat", type=int, default=5, help="timed rounds per mode (default 5)")
    parser.add_argument("--out", type=Path, default=HERE / "out", help="trees, manifests, bytecode cache")
    parser.add_argument("--corpus", type=Path, default=CORPUS, help="Slime docs for the process-start goal")
    parser.add_argument("--code", type=Path, default=CODE, help="Slime code laid over the docs (reference goal)")
    parser.add_argument("--changed", type=int, default=3, help="files changed for check --changed")
    parser.add_argument(
        "--small-files", type=int, default=100, help="the small tree --changed is compared with (default 100)"
    )
    parser.add_argument("--git", action="store_true", help="make the tree a git work tree (git ls-files/status)")
    parser.add_argument("--scaling", action="store_true", help="also 2,500/5,000/10,000 files and 1..300 changes")
    parser.add_argument("--parallel", action="store_true", help="also time extraction over a 2-process pool")
    parser.add_argument("--smoke", action="store_true", help="tiny tree, 1 round, temporary dir (CI)")
    parser.add_argument("--src", type=Path, default=REPO / "src", help="docsnippets sources the children import")
    parser.add_argument("--references", action="store_true", help="only goal 5 (reference check cost), more rounds")
    parser.add_argument(
        "--write-readme",
        nargs="?",
        type=Path,
        const=HERE / "README.md",
        metavar="PATH",
        help="write this run's goals as the table of bench/README.md (or of PATH)",
    )
    args = parser.parse_args(argv)
    python = declared_python()
    if args.references:
        return references_only(args, python)
    tmp: str | None = None
    if args.smoke:
        tmp = tempfile.mkdtemp(prefix="docsnippets-bench-")
        args.out, args.files, args.repeat = Path(tmp), 40, 1
        args.async_share = max(args.async_share, 0.2)
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = bench_env(out, args.src, python)
    try:
        print(f"{describe(python)}, {os.cpu_count()} CPUs, {args.repeat} rounds, medians, src {args.src}")
        tree = prepare_tree(out, args.files, args.async_share, args.seed, args.git, env)
        manifest = base_manifest(python, tree, out, env)
        changed = pick_changed(tree, args.changed)
        # The small tree gets enough pages with examples for the same kind of change as the big
        # one (one page with examples edited, two without); at 1 % a 100-file tree has none.
        small = prepare_tree(out, args.small_files, max(args.async_share, 0.1), args.seed, args.git, env)
        small_manifest = base_manifest(python, small, out, env)
        small_changed = pick_changed(small, args.changed)
        upd = out / "update-manifest.json"
        modes = tree_modes(python, tree, manifest, upd, changed)
        # The two --changed checks alternate in a group of their own, with more rounds: their
        # ratio is a goal, and each is a fraction of a second.
        changed_modes = [m for m in modes if m.name == "check --changed"]
        modes = [m for m in modes if m.name != "check --changed"]
        small_check = (python, "-c", CLI, "check", "--root", str(small), "--manifest", str(small_manifest))
        changed_modes.append(Mode(SMALL_CHANGED, (*small_check, "--no-cache", "--changed", *small_changed), (0, 1)))
        slime_modes: list[Mode] = []
        if args.corpus.is_dir():
            slime = out / "slime-manifest.json"
            run_child((python, "-c", CLI, "update", "--root", str(args.corpus), "--manifest", str(slime)), env)
            slime_check = (python, "-c", CLI, "check", "--root", str(args.corpus), "--manifest", str(slime))
            floor_files = parsed_by_check(args.corpus)
            slime_modes = [
                Mode("import markdown_it", (python, "-c", "import markdown_it")),
                Mode("slime check cached", slime_check),
                Mode("slime check cold", (*slime_check, "--no-cache")),
                Mode("slime parse floor", (python, "-c", PARSE_SOME, *floor_files)),
            ]
            if python != sys.executable:  # information: this Python asking a child of the declared one
                here = (sys.executable, *slime_check[1:], "--no-cache")
                slime_modes += [
                    Mode(CHILD_CHECK, here),
                    Mode(CHILD_FLOOR, (sys.executable, "-c", PARSE_SOME, *floor_files)),
                ]
            print(f"floor of a cold Slime check ({len(floor_files)} files, those the prefilter lets through):")
            print(f"  {shlex.join([python, '-c', PARSE_SOME.strip()])} \\")
            print(f"    {shlex.join(str(Path(f).relative_to(args.corpus)) for f in floor_files)}  (in {args.corpus})")
            if args.code.is_dir():
                slime_modes += reference_modes(python, docs_and_code(out, args.corpus, args.code), env)
            else:
                print(f"code {args.code} absent: reference goal skipped")
        else:
            print(f"corpus {args.corpus} absent: process-start goal skipped")
        if args.parallel:
            modes += [
                Mode("extract 1 process", (python, "-c", PARALLEL, str(tree), "1")),
                Mode("extract 2 processes", (python, "-c", PARALLEL, str(tree), "2")),
            ]
        print(f"changed files: {', '.join(changed)}; in the {args.small_files}-file tree: {', '.join(small_changed)}")
        # Fractions of a second each: more rounds for the same cost make these ratios steadier.
        # A smoke run makes no timing claim, so one round is enough there.
        rounds = args.repeat if args.smoke else args.repeat * 4
        with changes(out, (tree, changed), (small, small_changed)):
            samples = measure(modes, args.repeat, env)
            print_modes(f"{args.files} files", samples)
            samples.update(measure(changed_modes, rounds, env))
            title = f"check --changed, {args.files} and {args.small_files} files, {rounds} rounds"
            print_modes(title, samples_of(changed_modes, samples))
        if slime_modes:
            samples.update(measure(slime_modes, rounds, env))
            print_modes(f"Slime docs ({args.corpus.name}), {rounds} rounds", samples_of(slime_modes, samples))
        all_met = print_goals(GOALS, samples, "goals of issue 20 (ratios of medians from this run, no cache)")
        print_goals(EARLIER_GOALS, samples, "earlier goals, kept to catch regressions")
        print(f"issue 20 goals met: {'yes' if all_met else 'NO'}")
        if args.write_readme is not None:
            heading = (
                f"`python bench/run.py`: {pythons(python)}, {os.cpu_count()} CPUs, "
                f"{args.files:,} files, {args.repeat} rounds ({rounds} for the short modes), "
                f"medians, {time.strftime('%Y-%m-%d')}."
            )
            write_readme(args.write_readme, samples, heading, [child_cost(samples)] if CHILD_CHECK in samples else [])
        print(f"(info) update / parse-all-block = {samples['update'].median / samples['parse-all-block'].median:.3f}")
        print(f"(info) update cached / update = {samples['update cached'].median / samples['update'].median:.3f}")
        if "slime parse floor" in samples:
            print(f"(info) floor peak RSS = {samples['slime parse floor'].peak_mb:.1f} MB")
        if CHILD_CHECK in samples:
            print(f"(info) {child_cost(samples)}")
        if args.parallel:
            one, two = samples["extract 1 process"].median, samples["extract 2 processes"].median
            print(f"(info) extraction 2 processes / 1 process = {two / one:.3f}")
        if args.scaling:
            scaling(args, out, python, env)
        return 0
    finally:
        restore_changes(out)
        if tmp is not None:
            shutil.rmtree(tmp, ignore_errors=True)


def describe(python: str) -> str:
    if python == sys.executable:
        return f"python {sys.version.split()[0]}"
    return f"children run {python} (Python {DEFAULT_PYTHON}, the declared grammar), started by python {RUNNING}"


def pythons(python: str) -> str:
    """Which Python the timed children are, down to the release (and which one started them)."""
    here = sys.version.split()[0]
    if python == sys.executable:
        return f"Python {here}"
    done = subprocess.run([python, "-c", "import platform; print(platform.python_version())"], capture_output=True)
    return f"Python {done.stdout.decode().strip()} (run by this script on Python {here})"


def bench_env(out: Path, src: Path, python: str) -> dict[str, str]:
    deps = linked_dependencies(out) if python != sys.executable else None
    return child_env(out / "pycache", src.resolve(), out / "cache", deps)


def child_cost(samples: dict[str, Sample]) -> str:
    """The information row: what a cold check costs a Python that asks a child of the declared one."""
    child, floor = samples[CHILD_CHECK].median, samples[CHILD_FLOOR].median
    own = samples["slime check cold"].median
    return (
        f"Information, not a goal: Python {RUNNING} with a child of Python {DEFAULT_PYTHON} judging, "
        f"a cold Slime check takes {child:.3f} s, {child / floor:.2f} × its floor under {RUNNING} "
        f"({floor:.3f} s); {DEFAULT_PYTHON} judging in its own process (20.1) takes {own:.3f} s."
    )


def scaling(args: argparse.Namespace, out: Path, python: str, env: dict[str, str]) -> None:
    """How cost grows with the tree and with the size of the change (fewer rounds: trends only)."""
    repeat = max(1, min(args.repeat, 3))
    print("\n== scaling with files (medians, s; --changed with 3 files)")
    names = ("read-and-search", "update", "check", "check --changed", "check --changed in-process")
    widths = (14, 16, 10, 10, 16, 26)
    print(fmt_row(("scale files", *names), widths))
    for n in (args.files // 4, args.files // 2, args.files):
        tree = prepare_tree(out, n, args.async_share, args.seed, args.git, env)
        manifest = base_manifest(python, tree, out, env)
        changed = pick_changed(tree, args.changed)
        modes = [m for m in tree_modes(python, tree, manifest, out / "scale.json", changed) if m.name in names]
        with changes(out, (tree, changed)):
            got = measure(modes, repeat, env)
        print(fmt_row((f"scale {n}", *(f"{got[k].median:.3f}" for k in names)), widths))
    print("\n== scaling with changed files (check --changed, medians, s)")
    tree = prepare_tree(out, args.files, args.async_share, args.seed, args.git, env)
    manifest = base_manifest(python, tree, out, env)
    widths = (14, 16, 26)
    print(fmt_row(("changes files", "process", "in-process"), widths))
    for count in (1, 3, 30, 300):
        changed = pick_changed(tree, count)
        check = ("check", "--root", str(tree), "--manifest", str(manifest), "--no-cache", "--changed", *changed)
        modes = [
            Mode("process", (python, "-c", CLI, *check), (0, 1)),
            Mode("in-process", (python, "-c", IN_PROCESS, *check), (0, 1), in_process=True),
        ]
        with changes(out, (tree, changed)):
            got = measure(modes, repeat, env)
        print(fmt_row((f"changes {count}", f"{got['process'].median:.3f}", f"{got['in-process'].median:.3f}"), widths))


def references_only(args: argparse.Namespace, python: str) -> int:
    """Goal 5 alone: the full check of Slime's docs and code with the reference check (imports
    and calls) against ``--no-references``, without the 10,000-file tree; 8 rounds per repeat,
    since each run is a fraction of a second and the machine is noisy."""
    if not (args.corpus.is_dir() and args.code.is_dir()):
        print(f"corpus {args.corpus} or code {args.code} absent: reference goal skipped")
        return 0
    out: Path = args.out.resolve()
    out.mkdir(parents=True, exist_ok=True)
    env = bench_env(out, args.src, python)
    modes = reference_modes(python, docs_and_code(out, args.corpus, args.code), env)
    rounds = args.repeat * 8
    print(f"{describe(python)}, {os.cpu_count()} CPUs, {rounds} rounds, medians, src {args.src}")
    samples = measure(modes, rounds, env)
    print_modes(f"Slime docs and code ({args.corpus.name} + {args.code.name}), {rounds} rounds", samples)
    goal = Goal("5 slime+code check / --no-references <= 1.5", *REFERENCE_MODES, 1.5)
    return 0 if print_goals([goal], samples, "goal 5 (ratio of medians from this run)") else 1


if __name__ == "__main__":
    raise SystemExit(main())
