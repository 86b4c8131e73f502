"""The test run on a clone without ../shared: the tests that need the corpus are summed up in
one line, still counted as skipped; any other skip is listed as pytest lists it."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]

TESTS = """
from pathlib import Path

import pytest
from tests.support.corpus import need

def test_reads_the_corpus():
    need(Path("/nonexistent/shared/corpus/slime-docs"))

def test_reads_two_corpus_trees():
    need(Path(__file__), Path("/nonexistent/shared/spec/seed-catalogue.md"))

def test_needs_something_else():
    pytest.skip("docker is not installed")

def test_runs():
    assert True
"""


def test_corpus_skips_are_one_line_and_still_counted(tmp_path: Path):
    (tmp_path / "test_sample.py").write_text(TESTS, encoding="utf-8")
    (tmp_path / "pytest.ini").write_text("[pytest]\n", encoding="utf-8")
    options = ["-q", "-ra", "-p", "no:cacheprovider", "-p", "tests.conftest", "-c", str(tmp_path / "pytest.ini")]
    done = subprocess.run(
        [sys.executable, "-m", "pytest", *options, "--rootdir", str(tmp_path), str(tmp_path / "test_sample.py")],
        cwd=REPO,
        capture_output=True,
        text=True,
        check=False,
    )
    out = done.stdout
    assert done.returncode == 0, out + done.stderr
    [listed] = [line for line in out.splitlines() if line.startswith("SKIPPED")]
    assert listed.endswith("test_sample.py:14: docker is not installed"), out
    assert "2 tests skipped: they read the Slime corpus or the seed catalogue in ../shared" in out, out
    assert out.rstrip().splitlines()[-1].startswith("1 passed, 3 skipped"), out
