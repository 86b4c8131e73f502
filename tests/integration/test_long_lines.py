"""A body of one long line read by every Python on this machine: what its tokens hold.

From 3.12 on, the tokenizer gives each token its own copy of the line it stands on (CPython
issue 119654), so a list of the tokens of one 20 KB line of 7,000 tokens held 140 MB, and a
body just under the size up to which tokens are kept for all readers, gigabytes. The tokens
kept carry no line. Each found interpreter runs classify.tokens in a child of its own and
reports the peak that tokenizing took (tracemalloc), against the body's size.
"""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest

from docsnippets import interpreter
from docsnippets.snippets.grammar import RUNNING

SRC = Path(__file__).resolve().parents[2] / "src"
BODY = "await f(" + "+".join("a" for _ in range(10_000)) + ")\n"
MEASURE = (
    "import sys, tracemalloc; from docsnippets.snippets import classify; "
    "body = sys.stdin.read(); tracemalloc.start(); toks = classify.tokens(body); "
    "print(len(toks), tracemalloc.get_traced_memory()[1])"
)


@pytest.mark.parametrize("version", ["3.11", "3.12", "3.13"])
def test_the_tokens_of_one_long_line_hold_memory_in_proportion_to_it(version):
    python = Path(sys.executable) if version == RUNNING else interpreter.find(version, os.environ)
    if python is None:
        pytest.skip(f"no Python {version} on this machine (PATH, pyenv, uv)")
    env = {"PATH": os.environ.get("PATH", "/usr/bin:/bin"), "PYTHONPATH": str(SRC), "PYTHONDONTWRITEBYTECODE": "1"}
    done = subprocess.run(
        [str(python), "-I", "-c", f"import sys; sys.path.insert(0, {str(SRC)!r}); {MEASURE}"],
        input=BODY,
        capture_output=True,
        text=True,
        env=env,
        check=False,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    count, peak = map(int, done.stdout.split())
    assert count > 20_000
    assert peak < 400 * count, (version, peak)
