"""How the Actions runner reads a step's output: which lines it would obey as commands.

The runner (actions/runner, ``ActionCommandManager.TryProcessCommand``) splits stdout and
stderr into lines at CR, LF or CRLF, then tries two parsers on each line:

- ``::name props::data`` when the line, left-trimmed of whitespace, starts with ``::`` and
  holds a second ``::``;
- the legacy ``##[name props]data`` found *anywhere* in the line.

This module mirrors both, so a test can list every command a log would trigger.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

# .NET's Char.IsWhiteSpace, which String.TrimStart() trims.
_DOTNET_SPACE = (
    "\t\n\x0b\x0c\r \x85\xa0\u1680" + "".join(map(chr, range(0x2000, 0x200B))) + "\u2028\u2029\u202f\u205f\u3000"
)
_LINE_BREAK = re.compile(r"\r\n|\r|\n")


@dataclass(frozen=True)
class Obeyed:
    name: str
    line: str


def obeyed(log: str) -> list[Obeyed]:
    """Every line of ``log`` the runner would take as a workflow command."""
    out: list[Obeyed] = []
    for line in _LINE_BREAK.split(log):
        trimmed = line.lstrip(_DOTNET_SPACE)
        if trimmed.startswith("::") and trimmed.find("::", 2) != -1:
            info = trimmed[2 : trimmed.find("::", 2)]
            out.append(Obeyed(info.split(" ", 1)[0].lower(), line))
            continue
        start = line.find("##[")
        if start != -1 and line.find("]", start) != -1:
            info = line[start + 3 : line.find("]", start)]
            out.append(Obeyed(info.split(" ", 1)[0].lower(), line))
    return out


def foreign(log: str, token: str = "") -> list[Obeyed]:
    """The commands in ``log`` that docsnippets does not write itself: anything but its
    annotations and the one mask of its own token (on the first line)."""
    own_mask = f"::add-mask::{token}" if token else None
    found = []
    for i, command in enumerate(obeyed(log)):
        if command.name in ("error", "warning", "notice") and command.line.startswith(f"::{command.name}"):
            continue
        if own_mask is not None and i == 0 and command.line == own_mask:
            continue
        found.append(command)
    return found


def output_file(text: str) -> dict[str, str]:
    """The outputs the runner reads from a ``$GITHUB_OUTPUT`` file: ``NAME=VALUE`` lines and
    ``NAME<<DELIMITER`` blocks ending at a line that is exactly the delimiter (as its
    file-command parser does; a block left open is an error there too)."""
    lines = _LINE_BREAK.split(text)
    if lines and lines[-1] == "":
        lines.pop()
    out: dict[str, str] = {}
    i = 0
    while i < len(lines):
        line = lines[i]
        equals, heredoc = line.find("="), line.find("<<")
        if equals >= 0 and (heredoc < 0 or equals < heredoc):
            out[line[:equals]] = line[equals + 1 :]
        elif heredoc >= 0:
            key, delimiter = line[:heredoc], line[heredoc + 2 :]
            end = lines.index(delimiter, i + 1)  # ValueError: the block is never closed
            out[key] = "\n".join(lines[i + 1 : end])
            i = end
        elif line:
            raise ValueError(f"not an output line: {line!r}")
        i += 1
    return out
