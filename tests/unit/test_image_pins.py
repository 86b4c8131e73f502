"""The Action's image is reproducible: its base is pinned by digest and every runtime
requirement by version and hash, installed with --require-hashes."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]


def from_line() -> str:
    return next(line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.upper().startswith("FROM "))


def test_the_base_image_is_pinned_by_digest_with_its_tag_named():
    image = from_line().split()[1]
    assert re.fullmatch(r"python:[\w.-]+@sha256:[0-9a-f]{64}", image), image
    tag = image.split("@")[0]
    comments = [line for line in (ROOT / "Dockerfile").read_text().splitlines() if line.startswith("#")]
    assert any(tag in line for line in comments), "say in a comment which tag the digest was resolved from"


def requirements() -> dict[str, list[str]]:
    """Each pinned requirement of requirements-action.txt with its hashes."""
    text = (ROOT / "requirements-action.txt").read_text().replace("\\\n", " ")
    out = {}
    for line in text.splitlines():
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        name, *options = line.split()
        assert re.fullmatch(r"[A-Za-z0-9._-]+==[A-Za-z0-9.+!-]+", name), f"not pinned exactly: {line}"
        out[name] = [o.removeprefix("--hash=") for o in options]
    return out


def test_every_requirement_is_pinned_with_hashes():
    pins = requirements()
    assert pins
    for name, hashes in pins.items():
        assert hashes, f"{name} has no --hash"
        assert all(re.fullmatch(r"sha256:[0-9a-f]{64}", h) for h in hashes), name


def test_the_pins_cover_the_direct_dependencies_and_nothing_unused():
    direct = {
        line.strip().lower()
        for line in (ROOT / "requirements-action.in").read_text().splitlines()
        if line.strip() and not line.startswith("#")
    }
    pinned = {name.split("==")[0].lower() for name in requirements()}
    assert direct <= pinned
    assert "jsonschema" not in pinned  # the manifest validator is generated code, not a runtime dependency


def test_the_image_installs_with_require_hashes():
    dockerfile = (ROOT / "Dockerfile").read_text()
    install = dockerfile[dockerfile.index("pip install") :].split("&&")[0]
    assert "--require-hashes" in install and "requirements-action.txt" in install


def test_the_workflow_artifacts_stay_out_of_the_build_context():
    ignored = (ROOT / ".dockerignore").read_text().splitlines()
    assert ".docsnippets-stage1" in ignored and ".docsnippets-report.json" in ignored
