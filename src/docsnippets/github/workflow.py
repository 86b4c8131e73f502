"""GitHub Actions workflow commands: annotations and masks on stdout, outputs and summary files.

Pure builders return the command text; ``LogStream`` is the one way the Action writes to its
log; only ``write_outputs`` and ``append_summary`` touch files, the ones the runner names in
``GITHUB_OUTPUT`` and ``GITHUB_STEP_SUMMARY``. Every one of them shows hidden characters in the
one visible form of ``docsnippets.visible`` first, then applies the runner's own escaping.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from pathlib import Path
from typing import TextIO

from docsnippets.visible import clipped, quoted, visible, visible_block

# The runner obeys ``::name::data`` at the start of a left-trimmed line and, in its legacy
# form, ``##[name]data`` anywhere in a line, on stdout and stderr alike.
_COMMAND_START = "::"
_LEGACY_COMMAND = "##["


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
    """``::error file=…,line=…,endLine=…,title=…::message``, each part shown visible and then
    escaped so that no file name or message can end the command early or start another.

    A file name holding hidden characters is named in their visible form, as everywhere else:
    GitHub then cannot place the annotation on the file, and it shows at the top of the run.
    """
    props = []
    if file:
        props.append(f"file={_escape_prop(visible(file))}")
    if lines:
        props.append(f"line={lines[0]}")
        props.append(f"endLine={lines[1]}")
    if title:
        props.append(f"title={_escape_prop(visible(title))}")
    head = f"::{level} {','.join(props)}" if props else f"::{level}"
    return f"{head}::{_escape_data(visible(message))}"


def plain_line(text: str) -> str:
    """``text`` as one log line the runner shows but never obeys.

    Hidden characters (CR and LF among them) are shown visible, so a file name cannot start a
    line of its own, and ``%`` is escaped as in annotation data; ``[`` after ``##`` and a
    leading ``:`` are escaped too, the two ways a line the runner reads becomes a command.
    """
    line = _escape_data(visible(text)).replace(_LEGACY_COMMAND, "##%5B")
    indent = len(line) - len(line.lstrip())
    if line.startswith(_COMMAND_START, indent):
        line = f"{line[:indent]}%3A{line[indent + 1 :]}"
    return line


def one_line(text: str, limit: int) -> str:
    """``text`` for a place that shows one short line (a commit status description): hidden
    characters (line breaks among them) shown as everywhere else, every run of spaces made
    one, and at most ``limit`` characters, the last an ellipsis when cut."""
    return clipped(" ".join(visible(text).split()), limit)


class LogStream:
    """Where every line the Action prints goes (stdout or stderr of the step).

    The runner reads both streams line by line and obeys workflow commands in them, so text
    from a pull request (paths, snippets, error messages naming them) reaches the log only
    through ``line`` (escaped) or inside a command built by ``annotation`` (escaped as the
    runner unescapes it); ``command`` takes only such built commands.
    """

    def __init__(self, stream: TextIO) -> None:
        self._stream = stream

    def line(self, text: str) -> None:
        self._write(plain_line(text))

    def command(self, text: str) -> None:
        if not text.startswith(_COMMAND_START) or "\n" in text or "\r" in text:
            raise ValueError("not a workflow command built by docsnippets.github.workflow")
        self._write(text)

    def annotate(self, level: str, message: str) -> None:
        """A file-less annotation (``::warning::…``) of ``message``."""
        self.command(annotation(level, message))

    def _write(self, line: str) -> None:
        self._stream.write(visible(line) + "\n")  # built visible already: a guard, not a change
        self._stream.flush()


def add_mask(secret: str) -> str | None:
    """The command that makes the runner hide ``secret`` in every later log line.

    The runner already masks the secrets it knows; a token handed in some other way (a value
    computed by an earlier step) is masked only by this.
    """
    if not secret or "\n" in secret or "\r" in secret:
        return None
    return f"::add-mask::{secret}"


def write_outputs(path: Path | None, values: Mapping[str, str]) -> None:
    """Append ``values`` to the runner's output file, each as ``key<<DELIMITER`` lines.

    Values are shown visible, so none holds a line break (or anything hidden) at all; the
    delimiter is new and random for every value besides (as actions/toolkit makes it), so no
    value could end its block early and write another output even then: a fixed delimiter is
    known to anyone who can put text into a value. A value holding its delimiter is refused.
    """
    if path is None:
        return
    blocks = []
    for key, value in ((visible(k), visible(v)) for k, v in values.items()):
        delimiter = f"ghadelimiter_{uuid.uuid4()}"
        if delimiter in key or delimiter in value:
            raise ValueError(f"the output {quoted(key)} contains its own delimiter; not written")
        blocks.append(f"{key}<<{delimiter}\n{value}\n{delimiter}\n")
    with path.open("a", encoding="utf-8") as handle:
        handle.write("".join(blocks))


def append_summary(path: Path | None, text: str) -> None:
    if path is None:
        return
    text = visible_block(text)
    with path.open("a", encoding="utf-8") as handle:
        handle.write(text)
        if not text.endswith("\n"):
            handle.write("\n")
