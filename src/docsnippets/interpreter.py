"""Another Python on this machine, started to judge snippets by its grammar (an edge, like fileio.py).

When the declared version (the ``python`` setting) is not the running interpreter's, one child
process of that version is started the first time a body needs judging and answers every
request of the run; it runs :mod:`docsnippets.snippets.facts` of this very installation, which
only tokenizes and compiles (``-I -S``: no site packages, no environment, no current directory
on its path). It ends when this process closes its input, at exit at the latest, and is waited
for, so what it used counts as this run's.

Whatever file bears the name ``python3.12`` is only a candidate: one inside the tree being
judged or the workspace (a pull request's checkout) is never started, nor one reached through
a relative PATH entry (the working directory is usually that tree). What a candidate answers
is checked: another version, an answer that is not one, silence past :data:`ANSWER_SECONDS`
or an exit each end the run with one line that names the setting and the fix.
"""

from __future__ import annotations

import atexit
import contextlib
import json
import os
import re
import sys
import time
from collections.abc import Iterable, Iterator, Mapping
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsnippets import work
from docsnippets.config import DEFAULT_PYTHON
from docsnippets.snippets import facts, grammar
from docsnippets.snippets.classify import Comparable

if TYPE_CHECKING:  # started only when the declared version is not the running one
    import subprocess

# One body judged: far longer than a body within the size caps takes, short of a stalled run.
ANSWER_SECONDS = 60.0
# The shortest wait between two looks at the CPU bound while a child works on an answer.
_SLICE = 0.05
_BUSY = 0.05  # a child that used this share of a wait in CPU is working (on a loaded machine), not hung
_CLOSE_SECONDS = 5.0  # for a child told to stop (its input closed) to exit by itself
_BOOT = (
    "import sys; sys.path.append(sys.argv[1]); "
    "from docsnippets.snippets.facts import serve; serve(sys.stdin.buffer, sys.stdout.buffer)"
)
_PATCH = re.compile(r"^(?:cpython-)?3\.(\d+)\.(\d+)(t?)")


def _patch_order(path: Path) -> tuple[int, int]:
    """Newest release first among a manager's installations of one version."""
    match = _PATCH.match(path.name)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def candidates(version: str, environ: Mapping[str, str], home: bool = True) -> Iterator[Path]:
    """Where a ``python<version>`` may be: PATH's absolute entries (without pyenv's shims, which
    start nothing that pyenv has not activated), beside the running Python (its bin directory,
    and the installations next to its own, as pyenv and uv lay them out), then pyenv's and uv's
    usual places; newest release first within one place."""
    name = f"python{version}"
    for entry in environ.get("PATH", "").split(os.pathsep):
        if os.path.isabs(entry) and Path(entry).name != "shims":
            yield Path(entry) / name
    running = Path(sys.base_prefix)
    yield running / "bin" / name
    places = [(running.parent, f"{version}.*"), (running.parent, f"cpython-{version}.*")]
    if home:
        user = Path(environ.get("HOME") or "~").expanduser()
        places.append((Path(environ.get("PYENV_ROOT") or user / ".pyenv") / "versions", f"{version}.*"))
        uv = Path(environ.get("UV_PYTHON_INSTALL_DIR") or user / ".local/share/uv/python")
        places.append((uv, f"cpython-{version}.*"))
    for root, pattern in places:
        if not root.is_absolute():  # relative to the working directory, usually the tree judged
            continue
        try:
            found = sorted(root.glob(pattern), key=_patch_order, reverse=True)
        except OSError:
            continue
        for install in found:
            match = _PATCH.match(install.name)
            if not (match and match.group(3)) and "freethreaded" not in install.name:  # another build
                yield install / "bin" / name


def _inside(path: Path, trees: Iterable[Path]) -> bool:
    """Whether ``path``, as written or with its links followed, lies in one of ``trees``."""
    try:
        real = path.resolve()
    except (OSError, RuntimeError):
        return True  # a path that cannot be followed is not vouched for
    return any(p.is_relative_to(t) for t in trees for p in (path, real))


def _trees(environ: Mapping[str, str], avoid: Iterable[Path]) -> list[Path]:
    given = [*avoid, *([Path(environ["GITHUB_WORKSPACE"])] if environ.get("GITHUB_WORKSPACE") else [])]
    out: list[Path] = []
    for tree in given:
        out.append(tree.absolute())
        with contextlib.suppress(OSError, RuntimeError):
            out.append(tree.resolve())
    return out


def search(
    version: str, environ: Mapping[str, str], home: bool = True, avoid: Iterable[Path] = ()
) -> tuple[Path | None, Path | None]:
    """The first executable ``python<version>`` outside ``avoid`` and the workspace, and the
    first one refused for being inside them (to say so when none other is found)."""
    trees = _trees(environ, avoid)
    refused = None
    for path in candidates(version, environ, home):
        try:
            if not (path.is_file() and os.access(path, os.X_OK)):
                continue
        except OSError:  # a directory on PATH this user may not enter
            continue
        if _inside(path, trees):
            refused = refused or path
            continue
        return path, refused
    return None, refused


def find(version: str, environ: Mapping[str, str], home: bool = True, avoid: Iterable[Path] = ()) -> Path | None:
    return search(version, environ, home, avoid)[0]


def absent(version: str, home: bool, refused: Path | None) -> str:
    """The one line for a run that finds no ``python<version>`` it may start."""
    if not home:  # the Action: its image has the Python it has
        why = f"the Action runs Python {grammar.RUNNING} and finds no python{version}"
        if version == DEFAULT_PYTHON:  # the image is not the one the Dockerfile builds
            return grammar.unavailable(version, why, f"run the Action's image, built on Python {version}")
        return grammar.unavailable(version, why, f'remove the setting or set python: "{grammar.RUNNING}"')
    where = f" ({refused} is inside the tree being judged and is never used)" if refused else ""
    why = f"no python{version} was found on PATH, beside this Python or under pyenv or uv{where}"
    fix = f"install it with `uv python install {version}` or `pyenv install {version}`"
    return grammar.unavailable(version, why, fix)


class Child:
    """A Python of the declared version in a child process, asked one body at a time."""

    def __init__(self, version: str, executable: Path, answer_seconds: float = ANSWER_SECONDS) -> None:
        self.version = version
        self.executable = executable
        self.answer_seconds = answer_seconds
        self._process: subprocess.Popen[bytes] | None = None
        self._owner = 0  # the process that started the child
        self._greeted = False
        self._received = bytearray()
        self._searched = 0  # how much of it holds no line end

    @property
    def identity(self) -> str:
        """The interpreter's file and its time: another release installed there is another judge."""
        real = self.executable.resolve()
        try:
            return f"{real} {real.stat().st_mtime_ns}"
        except OSError:
            return str(real)

    def prepare(self) -> None:
        """Start the child; it boots while this process goes on, and the first answer waits for it.

        A forked copy of this process starts its own: two writers on one child's input would
        interleave their requests."""
        if self._process is not None and self._owner != os.getpid():
            self._process = None  # the parent's child: the parent ends it
        if self._process is None:
            self._process = self._start()
            self._owner = os.getpid()
            self._greeted = False
            self._received.clear()
            self._searched = 0

    def _start(self) -> subprocess.Popen[bytes]:
        import subprocess

        package_parent = str(Path(facts.__file__).resolve().parents[2])
        flags = ["-I", "-S", *(["-B"] if sys.dont_write_bytecode else [])]
        try:
            process = subprocess.Popen(
                [str(self.executable), *flags, "-c", _BOOT, package_parent],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
                bufsize=0,
                cwd=os.sep,
            )
        except OSError as exc:
            raise self._broken(f"did not start ({exc.strerror or exc})") from None
        assert process.stdin is not None
        os.set_blocking(process.stdin.fileno(), False)  # a request is written as the child reads it
        return process

    def close(self, kill: bool = False) -> None:
        """Let the child end (its input closed) and wait for it; ``kill`` does not ask first."""
        import subprocess

        process, self._process = self._process, None
        if process is None:
            return
        if kill:
            process.kill()
        for stream in (process.stdin, process.stdout):
            try:
                if stream is not None:
                    stream.close()
            except OSError:
                pass  # a child that left without reading what it was sent
        try:
            process.wait(_CLOSE_SECONDS)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()

    def _broken(self, problem: str) -> grammar.GrammarError:
        fix = f"reinstall Python {self.version} there, or put a working python{self.version} earlier on PATH"
        return grammar.GrammarError(grammar.unavailable(self.version, f"{self.executable} {problem}", fix))

    def _exchange(self, request: bytes) -> Any:
        """Write one request (none for the greeting) and read one answer line, within the bound."""
        import selectors

        self.prepare()
        process = self._process
        assert process is not None and process.stdin is not None and process.stdout is not None
        started, since = time.monotonic(), (self.cpu_seconds(), work.cpu_left())
        deadline = self._deadline(started)
        pending = memoryview(request)
        with selectors.DefaultSelector() as selector:
            selector.register(process.stdout, selectors.EVENT_READ)
            if pending:
                selector.register(process.stdin, selectors.EVENT_WRITE)
            while (line := self._line()) is None:
                ready = selector.select(max(0.0, deadline - time.monotonic()))
                if not ready and time.monotonic() >= deadline:
                    if self._waited(started, since, judging=bool(request)):
                        started, since = time.monotonic(), (self.cpu_seconds(), work.cpu_left())
                    deadline = self._deadline(started)
                for key, _ in ready:
                    if key.fileobj is process.stdin:
                        pending = self._write(pending)
                        if not pending:
                            selector.unregister(process.stdin)
                    elif not self._receive(process.stdout.fileno()):
                        raise self._stopped()
        try:
            return json.loads(line)
        except ValueError:
            self.close(kill=True)
            raise self._not_a_judge() from None

    def _deadline(self, started: float) -> float:
        """When to look again at a child that has not answered: at the answer limit, or sooner
        when less of the run's CPU bound is left (the child cannot use more CPU than it is
        waited for, so a busy child is stopped where the bound is reached, not a minute later)."""
        left = work.cpu_left()
        limit = started + self.answer_seconds
        return limit if left is None else min(limit, time.monotonic() + max(left, _SLICE))

    def _waited(self, started: float, since: tuple[float, float | None], judging: bool) -> bool:
        """Raise if waiting is over: the CPU bound spent, or the answer limit passed with the child
        idle (a broken Python, however little CPU is left). True when it kept working on a body
        and the bound counted that (``since``: the child's CPU and the bound then): wait again,
        the bound ends it. Else the limit stands (no bound, one blind to the child, inf, nan)."""
        left = work.cpu_left()
        if left is not None and left <= 0:
            self.close(kill=True)
            raise work.cpu_spent()
        waited = time.monotonic() - started
        if waited < self.answer_seconds:
            return False
        (child_from, left_from), share = since, _BUSY * waited
        worked = judging and self.cpu_seconds() - child_from >= share
        if worked and left is not None and left_from is not None and left_from - left >= share:
            return True
        self.close(kill=True)
        raise self._broken(f"gave no answer within {self.answer_seconds:g} s")

    def _write(self, pending: memoryview) -> memoryview:
        assert self._process is not None and self._process.stdin is not None
        try:
            return pending[os.write(self._process.stdin.fileno(), pending) :]
        except BlockingIOError:
            return pending
        except OSError:  # it left: reading says how
            return pending[len(pending) :]

    def _receive(self, fd: int) -> bool:
        chunk = os.read(fd, 1 << 16)
        self._received += chunk
        return bool(chunk)

    def _line(self) -> bytes | None:
        """The first whole line received, or None; what was searched is not searched again."""
        end = self._received.find(b"\n", self._searched)
        if end < 0:
            self._searched = len(self._received)
            return None
        line = bytes(self._received[:end])
        del self._received[: end + 1]
        self._searched = 0
        return line

    def _stopped(self) -> grammar.GrammarError:
        assert self._process is not None
        process = self._process
        self.close()
        code = process.returncode
        return self._broken(f"stopped (exit {code})" if code is None or code >= 0 else f"stopped (signal {-code})")

    def _not_a_judge(self) -> grammar.GrammarError:
        return self._broken("answered something that is not a docsnippets judge's answer")

    def _greet(self) -> None:
        """Its first line names its version: a ``python3.12`` that is another Python is refused."""
        hello = self._exchange(b"")
        if not (isinstance(hello, list) and len(hello) == 3 and isinstance(hello[2], str)):
            self.close(kill=True)
            raise self._not_a_judge()
        if hello[:2] != [int(part) for part in self.version.split(".")]:
            self.close(kill=True)
            raise self._broken(f"is Python {hello[2].split(' ')[0]}")
        self._greeted = True

    def _ask(self, request: list[Any]) -> Any:
        self.prepare()
        if not self._greeted:
            self._greet()
        return self._exchange(json.dumps(request).encode() + b"\n")

    def _decoded(self, decode: Any, raw: Any) -> Any:
        try:
            return decode(raw)
        except (ValueError, TypeError):
            self.close(kill=True)
            raise self._not_a_judge() from None

    def cpu_seconds(self) -> float:
        """The CPU time the child has used while it runs (from ``/proc``; 0 where there is none).
        Once waited for, it is counted among this process's children instead."""
        process = self._process
        if process is None or process.returncode is not None or self._owner != os.getpid():
            return 0.0
        try:
            with open(f"/proc/{process.pid}/stat", "rb") as stat:
                fields = stat.read().rsplit(b")", 1)[1].split()  # the name, in parentheses, may hold spaces
            return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")  # utime, stime
        except (OSError, ValueError, IndexError):
            return 0.0

    def facts(self, body: str, modules: tuple[str, ...]) -> facts.Facts:
        return self._decoded(facts.decode_facts, self._ask(["facts", body, list(modules)]))

    def comparable(self, body: str) -> Comparable:
        found = self._decoded(facts.decode_code, self._ask(["comparable", body]))
        return found if found is not None else ()


# One child per interpreter for the process's life, however many runs ask it (tests run many).
_children: dict[tuple[str, Path], Child] = {}


@atexit.register
def close_all() -> None:
    """End every child and wait for it (at exit: nothing outlives the run unaccounted)."""
    for child in _children.values():
        child.close()
    _children.clear()


def cpu_seconds() -> float:
    """The CPU time of this process and of its children: those waited for, and each declared
    Python still answering it (the work.py bound counts what was done for the run, wherever)."""
    waited = os.times()
    used = time.process_time() + waited.children_user + waited.children_system
    return used + sum(child.cpu_seconds() for child in _children.values())


def install(home: bool = True, avoid: Iterable[Path] = ()) -> None:
    """Let the pure core judge by a version other than the running one (entry points call this).

    ``avoid`` are the trees that must never supply the interpreter (the one being judged; the
    workspace is always one). ``home=False`` leaves out the interpreters installed under the
    home directory: on a runner the Action's home is shared with the job's earlier steps,
    which may have run PR code.
    """
    trees = tuple(avoid)

    def provider(version: str) -> Child:
        executable, refused = search(version, os.environ, home, trees)
        if executable is None:
            raise grammar.GrammarError(absent(version, home, refused))
        return _children.setdefault((version, executable), Child(version, executable))

    grammar.provide(provider)
