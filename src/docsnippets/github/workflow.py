"""GitHub Actions workflow commands: annotations and masks on stdout, outputs and summary files.

Pure builders return the command text; only ``write_outputs`` and ``append_summary`` touch
files, the ones the runner names in ``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY``.
"""

from __future__ import annotations

from collections.abc import Mapping
from pathlib import Path

_OUTPUT_DELIMITER = "docsnippets_EOF"


def _escape_data(text: str) -> str:
    return text.replace("%", "%25").replace("\r", "%0D").replace("\n", "%0A")


def _escape_prop(text: str) -> str:
    return _escape_data(text).replace(":", "%3A").replace(",", "%2C")


def annotation(
    level: str,
    message: str,
    file: str | None = None,
    lines: tuple[int, int] | None = None,
    title: str = "",
) -> str:
    """``::error file=…,line=…,endLine=…,title=…::message``, each part escaped so that no file
    name or message can end the command early or start another."""
    props = []
    if file:
        props.append(f"file={_escape_prop(file)}")
    if lines:
        props.append(f"line={lines[0]}")
        props.append(f"endLine={lines[1]}")
    if title:
        props.append(f"title={_escape_prop(title)}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{_escape_data(message)}"


def add_mask(secret: str) -> str | None:
    """The command that makes the runner hide ``secret`` in every later log line.

    The runner already masks the secrets it knows; a token handed in some other way (a value
    computed by an earlier step) is masked only by this.
    """
    if not secret or "\n" in secret or "\r" in secret:
        return None
    return f"::add-mask::{secret}"


def write_outputs(path: Path | None, values: Mapping[str, str]) -> None:
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        for key, value in values.items():
            if "\n" in value:
                handle.write(f"{key}<<{_OUTPUT_DELIMITER}\n{value}\n{_OUTPUT_DELIMITER}\n")
            else:
                handle.write(f"{key}={value}\n")


def append_summary(path: Path | None, text: str) -> None:
    if path is None:
        return
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)
        if not text.endswith("\n"):
            handle.write("\n")
