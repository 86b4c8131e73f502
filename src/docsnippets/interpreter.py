"""Another Python on this machine, started to judge snippets by its grammar (an edge, like fileio.py).

When the declared version (the ``python`` setting) is not the running interpreter's, one child
process of that version is started the first time a body needs judging and answers every
request of the run; it runs :mod:`docsnippets.snippets.grammar` of this very installation, which
only tokenizes and compiles (``-I -S``: no site packages, no environment, no current directory
on its path). It ends when this process closes its input, as it does by exiting.
"""

from __future__ import annotations

import json
import os
import re
import sys
from collections.abc import Iterator, Mapping
from functools import lru_cache
from pathlib import Path
from typing import TYPE_CHECKING, Any

from docsnippets.snippets import grammar
from docsnippets.snippets.classify import Comparable

if TYPE_CHECKING:  # started only when the declared version is not the running one
    import subprocess

_BOOT = (
    "import sys; sys.path.append(sys.argv[1]); "
    "from docsnippets.snippets.grammar import serve; serve(sys.stdin.buffer, sys.stdout.buffer)"
)
_PATCH = re.compile(r"^(?:cpython-)?3\.(\d+)\.(\d+)(t?)")


def _patch_order(path: Path) -> tuple[int, int]:
    """Newest release first among a manager's installations of one version."""
    match = _PATCH.match(path.name)
    return (int(match.group(1)), int(match.group(2))) if match else (0, 0)


def candidates(version: str, environ: Mapping[str, str], home: bool = True) -> Iterator[Path]:
    """Where a ``python<version>`` may be: PATH (without pyenv's shims, which start nothing
    that pyenv has not activated), beside the running Python (its bin directory, and the
    installations next to its own, as pyenv and uv lay them out), then pyenv's and uv's
    usual places; newest release first within one place."""
    name = f"python{version}"
    for entry in environ.get("PATH", "").split(os.pathsep):
        if entry and Path(entry).name != "shims":
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
        try:
            found = sorted(root.glob(pattern), key=_patch_order, reverse=True)
        except OSError:
            continue
        for install in found:
            match = _PATCH.match(install.name)
            if not (match and match.group(3)) and "freethreaded" not in install.name:  # another build
                yield install / "bin" / name


def find(version: str, environ: Mapping[str, str], home: bool = True) -> Path | None:
    for path in candidates(version, environ, home):
        try:
            if path.is_file() and os.access(path, os.X_OK):
                return path
        except OSError:  # a directory on PATH this user may not enter
            continue
    return None


class Child:
    """A Python of the declared version in a child process, asked one body at a time."""

    def __init__(self, version: str, executable: Path) -> None:
        self.version = version
        self.executable = executable
        self._process: subprocess.Popen[bytes] | None = None
        self._greeted = False

    @property
    def identity(self) -> str:
        """The interpreter's file and its time: another release installed there is another judge."""
        real = self.executable.resolve()
        try:
            return f"{real} {real.stat().st_mtime_ns}"
        except OSError:
            return str(real)

    def prepare(self) -> None:
        """Start the child; it boots while this process goes on, and the first answer waits for it."""
        if self._process is None:
            self._process = self._start()

    def _start(self) -> subprocess.Popen[bytes]:
        import subprocess

        package_parent = str(Path(grammar.__file__).resolve().parents[2])
        flags = ["-I", "-S", *(["-B"] if sys.dont_write_bytecode else [])]
        try:
            return subprocess.Popen(
                [str(self.executable), *flags, "-c", _BOOT, package_parent],
                stdin=subprocess.PIPE,
                stdout=subprocess.PIPE,
                stderr=subprocess.DEVNULL,
            )
        except OSError as exc:
            why = f"{self.executable} did not start ({exc.strerror or exc})"
            raise grammar.GrammarError(grammar.unavailable(self.version, why)) from None

    def _greet(self) -> None:
        """Its first line names its version: a ``python3.12`` that is another Python is refused."""
        hello = self._read()
        if hello[:2] != [int(part) for part in self.version.split(".")]:
            raise grammar.GrammarError(
                grammar.unavailable(self.version, f"{self.executable} is Python {hello[2].split()[0]}")
            )
        self._greeted = True

    def _read(self) -> Any:
        assert self._process is not None and self._process.stdout is not None
        line = self._process.stdout.readline()
        if not line:
            code = self._process.poll()
            raise grammar.GrammarError(
                grammar.unavailable(self.version, f"{self.executable} stopped while judging a snippet (exit {code})")
            )
        return json.loads(line)

    def _ask(self, request: list[Any]) -> Any:
        self.prepare()
        if not self._greeted:
            self._greet()
        process = self._process
        assert process is not None and process.stdin is not None
        try:
            process.stdin.write(json.dumps(request).encode() + b"\n")
            process.stdin.flush()
        except OSError:
            pass  # it stopped: reading says so
        return self._read()

    def facts(self, body: str, modules: tuple[str, ...]) -> grammar.Facts:
        return grammar.decode_facts(self._ask(["facts", body, list(modules)]))

    def comparable(self, body: str) -> Comparable:
        found = grammar.decode_code(self._ask(["comparable", body]))
        return found if found is not None else ()


@lru_cache(maxsize=16)
def _child(version: str, home: bool) -> Child:
    executable = find(version, os.environ, home)
    if executable is None:
        raise grammar.GrammarError(grammar.unavailable(version, f"no python{version} was found"))
    return Child(version, executable)


def install(home: bool = True) -> None:
    """Let the pure core judge by a version other than the running one (entry points call this).

    ``home=False`` leaves out the interpreters installed under the home directory: on a runner
    the Action's home is shared with the job's earlier steps, which may have run PR code.
    """
    grammar.provide(lambda version: _child(version, home))
