"""``.docsnippets.yml`` from disk: found at the root or named by --config, parsed by :mod:`config`.

Read with the root's rule of :mod:`docsnippets.fileio`: a config that is a symlink inside the
repository, or sits under one, is refused, never read through.
"""

from __future__ import annotations

import os
import stat
from dataclasses import fields
from pathlib import Path
from typing import Any

from docsnippets.config import Config, ConfigError, from_mapping
from docsnippets.constants import CONFIG_FILENAMES
from docsnippets.fileio import NotRegularFile, SymlinkRefused, read_regular
from docsnippets.visible import quoted


def _present(path: Path) -> bool:
    """A file, or a symlink: the read refuses that by name rather than taking it for no config."""
    try:
        mode = os.lstat(path).st_mode
    except (OSError, ValueError):
        return False
    return stat.S_ISREG(mode) or stat.S_ISLNK(mode)


def _once_loader(yaml: Any, where: str) -> Any:
    """PyYAML's safe loader, refusing a key set twice in one mapping: PyYAML keeps the last
    and drops the first without a word (a language written twice would lose a template)."""

    class Once(yaml.SafeLoader):  # type: ignore[misc,name-defined]
        def construct_mapping(self, node: Any, deep: bool = False) -> Any:
            seen: set[Any] = set()
            for key_node, _ in node.value:
                if key_node.tag == "tag:yaml.org,2002:merge":
                    continue
                key = self.construct_object(key_node, deep=deep)
                try:
                    twice = key in seen
                except TypeError:  # an unhashable key: the constructor says so below
                    continue
                if twice:
                    line = key_node.start_mark.line + 1
                    raise ConfigError(f"{where}: line {line}: {quoted(str(key))} is set twice; keep one")
                seen.add(key)
            return super().construct_mapping(node, deep=deep)

    return Once


def load(path: Path | None, root: Path) -> Config:
    """The explicit file, else ``.docsnippets.yml`` at the root, else the defaults."""
    if path is None:
        for name in CONFIG_FILENAMES:
            candidate = root / name
            if _present(candidate):
                path = candidate
                break
        else:
            return Config()
    import yaml  # here: most trees have no config, and yaml is a fifth of the start-up

    where = str(path)
    try:
        raw = read_regular(path, root=root)
        if raw is None:
            raise ConfigError(f"{where}: config file not found; pass an existing file to --config")
        text = raw.decode("utf-8")
    except SymlinkRefused as exc:
        raise ConfigError(str(exc)) from None
    except NotRegularFile:
        raise ConfigError(f"{where}: not a regular file; pass the config file to --config") from None
    except (OSError, UnicodeDecodeError) as exc:
        raise ConfigError(f"{where}: cannot read the config ({exc.__class__.__name__}); fix the file") from None
    try:
        data = yaml.load(text, Loader=_once_loader(yaml, where))  # Once is a SafeLoader
    except ConfigError:
        raise
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        at = f" at line {mark.line + 1}, column {mark.column + 1}" if mark else ""
        problem = getattr(exc, "problem", None) or "invalid YAML"
        raise ConfigError(f"{where}: invalid YAML{at}: {problem}; fix the syntax") from None
    except RecursionError:
        raise ConfigError(f"{where}: invalid YAML: nested too deeply; fix the syntax") from None
    except (ValueError, TypeError, OverflowError) as exc:
        # PyYAML's constructors let these through for values such as 2001-13-01 or an
        # integer of more than 4300 digits.
        detail = str(exc).split(";")[0].splitlines()[0] if str(exc) else type(exc).__name__
        raise ConfigError(f"{where}: invalid YAML value ({detail}); fix the value") from None
    config = from_mapping(data, where)
    return Config(**{**{f.name: getattr(config, f.name) for f in fields(Config)}, "source": path})
