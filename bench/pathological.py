"""What hostile input costs: how extraction time grows on Markdown built to make a search
rescan, and what one whole run costs on pull requests built to exhaust it.

Growth: for each shape, the CPU time of the prefilter and of the whole extraction of one file
at several sizes, up to the 5 MiB ``max_file_bytes`` cap, and the ratio of each time to the
previous size's. Linear work gives ratios near the size ratio (4 here); quadratic work gives
its square (16).

Bounds: each shape of ``hostile_prs.py`` and ``hostile_pages.py`` is one run of the real
entrypoint in a child process
(stage 1 or stage 2 against the tests' fake GitHub API, or the merge driver); the table gives
the child's own CPU time and peak memory (``ru_maxrss`` from ``wait4``) against the bounds
every run keeps, 120 s of CPU and 1 GiB, and how the run ended. Ending in an error that names
the bound it hit is within bounds; a child past ``--cap`` seconds of CPU is stopped.

    python bench/pathological.py                        # both tables
    python bench/pathological.py --shape NAME ...       # growth only, those shapes
    python bench/pathological.py --run NAME ...         # bounds only, those runs
    python bench/pathological.py --quick                # the runs at a tenth of their size (CI)
    python bench/pathological.py --scale 0.33           # the runs at a third of their size
    python bench/pathological.py --code DIR --run ...   # another checkout's entrypoint (old code)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "src"))
sys.path.insert(0, str(Path(__file__).resolve().parents[1]))  # tests.support: the fake API

from docsnippets.config import Config
from docsnippets.snippets.extract import may_contain_snippet, snippets_from_bytes
from docsnippets.snippets.grammar import RUNNING

REPO = Path(__file__).resolve().parents[1]

FIVE_MIB = 5 * 1024 * 1024


def _repeat(unit: bytes, head: bytes = b"", tail: bytes = b"") -> Callable[[int], bytes]:
    return lambda n: head + unit * max(1, n // len(unit)) + tail


SHAPES: dict[str, Callable[[int], bytes]] = {
    "word-then-openers": _repeat(b"```python\n", head=b"async\n"),
    "openers-then-word": _repeat(b"```python\n", tail=b"async\n"),
    "one-long-backtick-line": lambda n: b"`" * n + b"\nasync\n",
    "tilde-openers-backtick-closers": _repeat(b"~~~python\n```\n", head=b"async\n"),
    "closers-that-are-too-short": _repeat(b"```\n", head=b"````python\n", tail=b"await\n"),
    "quoted-openers": _repeat(b"> ```python\n", tail=b"> async\n"),
    "list-openers": _repeat(b"- ```python\n", tail=b"  async\n"),
    "words-everywhere": _repeat(b"await async ```python threading\n"),
}


def cpu(fn: Callable[[], object]) -> float:
    start = time.process_time()
    fn()
    return time.process_time() - start


CPU_BOUND = 120.0  # seconds of CPU one run may use
MEMORY_BOUND = 1024  # MiB one run may hold


def _runs() -> dict:
    import hostile_pages
    import hostile_prs

    return {**hostile_prs.SHAPES, **hostile_pages.SHAPES}


def main(argv: list[str] | None = None) -> int:
    runs = _runs()

    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--max-bytes", type=int, default=FIVE_MIB, help="largest file size (default: 5 MiB)")
    parser.add_argument("--shape", action="append", choices=sorted(SHAPES), help="only these growth shapes")
    parser.add_argument("--run", action="append", choices=list(runs), help="only these runs")
    parser.add_argument("--quick", action="store_true", help="runs at a tenth of their size")
    parser.add_argument("--scale", type=float, default=1.0, help="runs at this fraction of their size")
    parser.add_argument("--code", type=Path, default=REPO, help="the checkout whose entrypoint runs")
    parser.add_argument("--cap", type=float, default=3 * CPU_BOUND, help="CPU seconds before a run is stopped")
    args = parser.parse_args(argv)
    if args.shape or not args.run:
        growth(args.shape or sorted(SHAPES), args.max_bytes)
    if args.run or not args.shape:
        print()
        return bounds(args.run or list(runs), 0.1 if args.quick else args.scale, args.code, args.cap)
    return 0


def growth(shapes: list[str], max_bytes: int) -> None:
    # The snippets are judged by this interpreter's grammar: the table measures how the search
    # and the extraction grow with the file, which any Python shows; the declared Python's child
    # process would move the judging out of the CPU time measured here.
    config = Config(max_file_bytes=max(max_bytes + 64, Config().max_file_bytes), python=RUNNING)
    print(f"growth: the snippets judged by this Python ({RUNNING})", file=sys.stderr)
    sizes = []
    size = max_bytes
    while size >= 16 * 1024 and len(sizes) < 4:
        sizes.insert(0, size)
        size //= 4
    print(f"{'shape':32} {'bytes':>9} {'prefilter s':>12} {'ratio':>6} {'extract s':>10} {'ratio':>6}")
    for name in shapes:
        before: tuple[float, float] | None = None
        for size in sizes:
            data = SHAPES[name](size)
            pre = cpu(lambda d=data: may_contain_snippet(d, config))
            full = cpu(lambda d=data: snippets_from_bytes("docs/en/x.md", d, config))
            ratios = ("", "") if before is None else (_ratio(pre, before[0]), _ratio(full, before[1]))
            print(f"{name:32} {len(data):>9} {pre:>12.4f} {ratios[0]:>6} {full:>10.4f} {ratios[1]:>6}")
            before = (pre, full)


def bounds(names: list[str], scale: float, code: Path, cap: float) -> int:
    """The bounds table; exit 1 when a run went past a bound."""
    from tests.support.fake_github import FakeGitHub
    from tests.support.scenario import TOKEN

    print(f"{'run':20} {'CPU s':>8} {'peak MB':>8} {'bound':>12} {'met':>4}  how it ended")
    met_all = True
    launcher = _Launcher()
    for name in names:
        build, stage, _ = _runs()[name]
        with tempfile.TemporaryDirectory() as tmp, FakeGitHub(token=TOKEN, max_page_size=100) as fake:
            run = build(Path(tmp), fake, scale, stage)
            command = [sys.executable, str(code / "entrypoint.py"), *run.argv]
            code_, cpu_s, peak_mb, tail = launcher.measure(command, run, cap)
            ended = (run.ended() or tail) if code_ >= 0 else f"stopped by signal {-code_} past {cap:g} s of CPU"
        met = cpu_s <= CPU_BOUND and peak_mb <= MEMORY_BOUND and code_ >= 0
        met_all &= met
        exit_text = f"exit {code_}; " if code_ >= 0 else ""
        print(
            f"{name:20} {cpu_s:>8.1f} {peak_mb:>8.0f} {f'{CPU_BOUND:g}s/{MEMORY_BOUND}MB':>12} "
            f"{'yes' if met else 'NO':>4}  {exit_text}{ended}",
            flush=True,
        )
    launcher.close()
    return 0 if met_all else 1


# Each run is started by this small process, not by the bench: on Linux a child's peak memory
# (``ru_maxrss``) starts from its parent's size at the fork, and the bench holds the hostile PR's
# files (hundreds of MB for some runs) while the fake API serves them.
_LAUNCHER = r"""
import json, os, resource, subprocess, sys
for line in sys.stdin:
    job = json.loads(line)
    cap = job["cap"]
    def limit():
        resource.setrlimit(resource.RLIMIT_CPU, (int(cap), int(cap) + 5))
    with open(job["out"], "wb") as out, open(job["err"], "wb") as err:
        child = subprocess.Popen(job["argv"], env=job["env"], cwd=job["cwd"], stdout=out, stderr=err, preexec_fn=limit)
        _, status, usage = os.wait4(child.pid, 0)
        child.returncode = os.waitstatus_to_exitcode(status)
    print(json.dumps([child.returncode, usage.ru_utime + usage.ru_stime, usage.ru_maxrss]), flush=True)
"""


class _Launcher:
    """The process that starts each run and measures it (see ``_LAUNCHER``)."""

    def __init__(self) -> None:
        self.process = subprocess.Popen(
            [sys.executable, "-c", _LAUNCHER], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )

    def measure(self, command: list[str], run: object, cap: float) -> tuple[int, float, float, str]:
        """(exit code or -signal, CPU seconds, peak MiB, the log's last line) of one child run."""
        with tempfile.TemporaryDirectory() as logs:
            out, err = Path(logs, "out"), Path(logs, "err")
            job = {"argv": command, "env": run.env, "cwd": str(run.cwd), "cap": cap, "out": str(out), "err": str(err)}
            self.process.stdin.write(json.dumps(job) + "\n")
            self.process.stdin.flush()
            code, cpu_s, maxrss = json.loads(self.process.stdout.readline())
            lines = [line for part in (out, err) for line in part.read_bytes().decode("utf-8", "replace").splitlines()]
        last = next((line for line in reversed(lines) if line.startswith("docsnippets:")), lines[-1] if lines else "")
        return code, cpu_s, maxrss / 1024, last[:160]

    def close(self) -> None:
        self.process.stdin.close()
        self.process.wait()


def _ratio(now: float, then: float) -> str:
    return f"{now / then:.1f}" if then > 0.0005 else "-"


if __name__ == "__main__":
    sys.exit(main())
