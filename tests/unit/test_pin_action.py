"""The release's action.yml rewrite (.ci/pin_action.py): only runs.image changes, byte for byte."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
import yaml
from tests.support.scripts import load_script

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / ".ci" / "pin_action.py"
DIGEST_REF = "docker://ghcr.io/owner/docsnippets@sha256:" + "0123456789abcdef" * 4
TAG_REF = "docker://ghcr.io/owner/docsnippets:v1.2.3"


pin_action = load_script(".ci/pin_action.py", "pin_action")


def _run(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([sys.executable, str(SCRIPT), *args], capture_output=True, text=True, check=False)


@pytest.mark.parametrize("ref", [DIGEST_REF, TAG_REF])
def test_real_action_yml_changes_only_the_image_line(tmp_path: Path, ref: str) -> None:
    target = tmp_path / "action.yml"
    original = (REPO / "action.yml").read_bytes()
    target.write_bytes(original)
    done = _run(str(target), ref)
    assert done.returncode == 0, done.stderr
    before, after = original.decode().splitlines(keepends=True), target.read_text().splitlines(keepends=True)
    assert len(before) == len(after)
    differing = [(b, a) for b, a in zip(before, after, strict=True) if b != a]
    assert differing == [("  image: Dockerfile\n", f"  image: {ref}\n")]
    data = yaml.safe_load(target.read_text())
    assert data["runs"] == {"using": "docker", "image": ref}


def test_comments_quotes_and_crlf_are_kept() -> None:
    text = (
        "name: x\r\n"
        "# a comment: image: Dockerfile\r\n"
        "runs:\r\n"
        "  using: 'docker'\r\n"
        '  image: "Dockerfile"   # built on every run\r\n'
        "  args: ['image: Dockerfile']\r\n"
    )
    result = pin_action.pin(text, TAG_REF)
    assert result == text.replace('"Dockerfile"   #', f"{TAG_REF}   #")
    assert yaml.safe_load(result)["runs"]["args"] == ["image: Dockerfile"]


def test_flow_mapping_is_rewritten_in_place() -> None:
    text = "runs: {using: docker, image: Dockerfile}\n"
    assert pin_action.pin(text, DIGEST_REF) == f"runs: {{using: docker, image: {DIGEST_REF}}}\n"


def test_already_pinned_is_a_no_op(tmp_path: Path) -> None:
    target = tmp_path / "action.yml"
    target.write_text(f"runs:\n  using: docker\n  image: {TAG_REF}\n")
    stamp = target.stat().st_mtime_ns
    assert _run(str(target), TAG_REF).returncode == 0
    assert target.stat().st_mtime_ns == stamp


@pytest.mark.parametrize(
    "ref",
    [
        "Dockerfile",
        "ghcr.io/owner/docsnippets:v1",  # no docker:// scheme
        "docker://ghcr.io/Owner/docsnippets:v1",  # upper case in the path
        "docker://ghcr.io/owner/docsnippets",  # neither tag nor digest
        "docker://ghcr.io/owner/docsnippets@sha256:" + "0" * 63,
        "docker://ghcr.io/owner/docsnippets@sha256:" + "G" * 64,
        "docker://ghcr.io/owner/docsnippets:-bad",
        "docker://ghcr.io/owner/docsnippets:v1\nimage: evil",
        "docker://ghcr.io/owner/docsnippets:v1 # comment",
        "docker://docsnippets:v1",  # no registry host
    ],
)
def test_bad_references_are_refused_and_nothing_is_written(tmp_path: Path, ref: str) -> None:
    target = tmp_path / "action.yml"
    original = (REPO / "action.yml").read_bytes()
    target.write_bytes(original)
    done = _run(str(target), ref)
    assert done.returncode == 2
    assert done.stderr.count("\n") == 1 and "not an image reference" in done.stderr
    assert "Traceback" not in done.stderr
    assert target.read_bytes() == original


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("runs:\n  using: node20\n  main: index.js\n", "runs.using is not 'docker'"),
        ("runs:\n  using: docker\n", "runs.image is not a one-line string"),
        ("runs:\n  using: docker\n  image: [a, b]\n", "runs.image is not a one-line string"),
        ("runs: [\n", "not valid YAML"),
        ("- just a list\n", "runs.using is not 'docker'"),
    ],
)
def test_unsuitable_files_are_refused(tmp_path: Path, text: str, message: str) -> None:
    target = tmp_path / "action.yml"
    target.write_text(text)
    done = _run(str(target), TAG_REF)
    assert done.returncode == 2
    assert message in done.stderr and "Traceback" not in done.stderr
    assert target.read_text() == text


def test_missing_file_and_wrong_arguments(tmp_path: Path) -> None:
    done = _run(str(tmp_path / "nope.yml"), TAG_REF)
    assert done.returncode == 2 and "cannot read" in done.stderr
    assert _run(str(tmp_path / "nope.yml")).returncode == 2


def test_the_reparse_guard_refuses_a_value_that_changes_other_keys(monkeypatch: pytest.MonkeyPatch) -> None:
    # Validation already keeps such values out; the guard is the second line of defence, so it
    # is tested with validation switched off.
    monkeypatch.setattr(pin_action, "validate_ref", lambda ref: ref)
    text = "runs: {using: docker, image: Dockerfile}\n"
    with pytest.raises(pin_action.PinError, match=r"more than runs\.image"):
        pin_action.pin(text, "x, using: node20")
    with pytest.raises(pin_action.PinError, match=r"more than runs\.image"):
        pin_action.pin("runs:\n  using: docker\n  image: Dockerfile\n", "x\n  using: node20")
