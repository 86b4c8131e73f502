"""A local memo of per-file extraction results, keyed by content (an I/O edge, like sources/worktree.py).

Parsing the Markdown is most of what a check costs, and the local loop (a pre-commit hook, a
contributor re-running ``docsnippets check``) sees the same file contents again and again.
An entry is found by the SHA-256 of the file's bytes under a *salt* made of everything else
extraction depends on: the selection settings, the Python version (``compile()`` decides
the status), the markdown-it-py release, and the bytes of the extraction code itself. So a
hit is what parsing would give, and any change to the tool or its inputs is a miss.

The cache lives in a user cache directory, never in the repository, and the Action never
uses one: on a runner the home directory is shared with earlier steps that ran PR code. An
entry that cannot be read or does not validate is a miss; a directory that cannot be written
only means no cache. Either way nothing changes but the speed.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from docsnippets.config import Config
from docsnippets.constants import Status
from docsnippets.fileio import read_regular, write_atomic
from docsnippets.snippets import grammar
from docsnippets.snippets.digest import sha256
from docsnippets.snippets.fences import sha256_text
from docsnippets.snippets.records import Snippet, fence_fields, snippet_from

# Bumped whenever the entry layout changes (the code hash would catch it too; this says why).
CACHE_FORMAT = 1
# The modules whose code decides an extraction result.
_EXTRACTION_CODE = (
    "constants.py",
    "snippets/fences.py",
    "snippets/classify.py",
    "snippets/blocks.py",
    "snippets/markdown.py",
    "snippets/digest.py",
    "snippets/facts.py",
    "snippets/grammar.py",
    "snippets/extract.py",
    "snippets/records.py",
    "cache.py",
)
_HEX = frozenset("0123456789abcdef")
_STATUSES = frozenset(Status)
# Bodies up to this size get their code digest computed for the entry; a longer one is left
# without (pairing computes it if it is ever needed), so a cold run never tokenizes a huge
# block only to fill the cache.
MAX_DIGEST_CHARS = 100_000


@dataclass(frozen=True)
class CacheSettings:
    """Where the cache lives; read once from the environment by the CLI."""

    directory: Path | None

    @classmethod
    def from_environ(cls, env: Mapping[str, str]) -> CacheSettings:
        """``DOCSNIPPETS_NO_CACHE`` disables it; else ``DOCSNIPPETS_CACHE_DIR``, else the XDG cache."""
        if env.get("DOCSNIPPETS_NO_CACHE", "").strip().lower() not in ("", "0", "false", "no", "off"):
            return cls(None)
        if env.get("DOCSNIPPETS_CACHE_DIR"):
            return cls(Path(env["DOCSNIPPETS_CACHE_DIR"]))
        if env.get("XDG_CACHE_HOME"):
            return cls(Path(env["XDG_CACHE_HOME"]) / "docsnippets")
        if env.get("HOME"):
            return cls(Path(env["HOME"]) / ".cache" / "docsnippets")
        return cls(None)


def _markdown_it_fingerprint() -> bytes:
    """The installed markdown-it-py's ``__init__.py`` (it holds the release), found without importing it."""
    from importlib.util import find_spec

    spec = find_spec("markdown_it")
    if spec is None or spec.origin is None:
        raise OSError("markdown-it-py is not installed")
    return Path(spec.origin).read_bytes()


def salt(config: Config) -> str:
    """Everything besides the file's bytes that an extraction result depends on, hashed."""
    digest = sha256()
    # The declared Python's release decides markers, statuses and digests.
    judge = grammar.judge(config.python)
    head = [CACHE_FORMAT, sys.implementation.name, sys.version, list(config.languages), list(config.modules)]
    head += [config.python, judge.identity]
    digest.update(json.dumps(head).encode())
    here = Path(__file__).resolve().parent
    for name in _EXTRACTION_CODE:
        code = (here / name).read_bytes()
        digest.update(b"%d:" % len(code) + code)
    digest.update(_markdown_it_fingerprint())
    return digest.hexdigest()[:32]


class SnippetCache:
    """Extraction results by file content, one small JSON file an entry.

    ``get`` and ``put`` never raise: a cache that fails is a cache that misses.
    """

    def __init__(self, directory: Path, config: Config) -> None:
        self.enabled = True
        self.python = config.python
        self.hits = 0
        self.misses = 0
        try:
            self.directory = directory / salt(config)
        except (OSError, ValueError):
            self.directory = directory
            self.enabled = False

    def _entry(self, file_sha256: str) -> Path | None:
        if len(file_sha256) != 64 or not _HEX.issuperset(file_sha256):
            return None
        return self.directory / f"{file_sha256}.json"

    def get(self, path: str, file_sha256: str) -> list[Snippet] | None:
        entry = self._entry(file_sha256) if self.enabled else None
        if entry is None:
            return None
        try:
            raw = read_regular(entry, root=None)  # never blocks on a FIFO or reads a device
            if raw is None:
                raise FileNotFoundError(entry)
            found = _snippets(json.loads(raw), path, file_sha256)
        except (OSError, ValueError, TypeError, KeyError, RecursionError):
            self.misses += 1
            return None
        self.hits += 1
        return found

    def put(self, file_sha256: str, snippets: Sequence[Snippet]) -> None:
        entry = self._entry(file_sha256) if self.enabled else None
        if entry is None:
            return
        try:
            judge = grammar.judge(self.python)
            data = json.dumps({"format": CACHE_FORMAT, "snippets": [_entry_of(s, judge) for s in snippets]}).encode()
            write_atomic(entry, data, root=None, durable=False)  # readers see no entry or a whole one, never half
        except (OSError, ValueError, RecursionError):
            self.enabled = False  # read-only or full: stop trying for this run


def _entry_of(s: Snippet, judge: grammar.Judge) -> dict[str, Any]:
    # The path and the file hash are not stored: they are the caller's and the key.
    return {
        **fence_fields(s),
        "body": s.body,
        "status_message": s.status_message,
        "status_line": s.status_line,
        "code_digest": s.code_digest or (grammar.code_digest(judge, s.body) if len(s.body) <= MAX_DIGEST_CHARS else ""),
    }


def _check_shape(e: Any) -> None:
    """The line ranges and string lists of an entry; anything else is a damaged entry."""
    for key in ("fence_lines", "code_lines"):
        value = e[key]
        if not (isinstance(value, list) and len(value) == 2 and all(type(v) is int and v >= 1 for v in value)):
            raise ValueError("bad line range")
    for key in ("markers", "modules"):
        if not (isinstance(e[key], list) and all(isinstance(v, str) for v in e[key])):
            raise ValueError("bad string list")


def _snippets(data: Any, path: str, file_sha256: str) -> list[Snippet]:
    if not isinstance(data, dict) or data.get("format") != CACHE_FORMAT or not isinstance(data["snippets"], list):
        raise ValueError("bad entry")
    out: list[Snippet] = []
    for e in data["snippets"]:
        body, info, status = e["body"], e["info"], e["status"]
        message, line, digest = e["status_message"], e["status_line"], e["code_digest"]
        if not (isinstance(body, str) and isinstance(info, str) and status in _STATUSES):
            raise ValueError("bad snippet")
        if not (message is None or isinstance(message, str)) or not (line is None or type(line) is int):
            raise ValueError("bad status")
        if not (isinstance(digest, str) and (digest == "" or (len(digest) == 64 and _HEX.issuperset(digest)))):
            raise ValueError("bad digest")
        _check_shape(e)
        out.append(snippet_from(path, e, body_sha256=sha256_text(body), file_sha256=file_sha256, code_digest=digest))
    return out
