"""``documentation-snippets.json``: schema 1, built from an inventory, validated on load.

The dump is deterministic (sorted by file and line, fixed indentation, UTF-8, trailing
newline) so that the committed file only changes when the documentation does.
"""

from __future__ import annotations

import contextlib
import json
import os
import re
import stat
from collections import Counter
from pathlib import Path, PurePosixPath
from typing import Any

from .classify import STATUSES
from .config import Config, NotRegularFile, read_regular
from .fences import sha256_text
from .records import MISSING, RELATIONS, Inventory, Pair, Snippet

SCHEMA = 1
DEFAULT_NAME = "documentation-snippets.json"


class ManifestError(ValueError):
    """The manifest cannot be used; one line naming the file and the fix."""


def snippet_id(index: int) -> str:
    return f"DOC-{index + 1:03d}"


def pair_id(index: int) -> str:
    return f"PAIR-{index + 1:02d}"


def permalink(server_url: str, repository: str, commit: str, snippet: Snippet) -> str:
    first, last = snippet.code_lines
    from urllib.parse import quote

    return f"{server_url}/{repository}/blob/{commit}/{quote(snippet.file)}#L{first}-L{last}"


def fence_fields(s: Snippet) -> dict[str, Any]:
    """Where a snippet stands and what was found in it, as the manifest (and the cache) store it."""
    return {
        "fence_lines": list(s.fence_lines),
        "code_lines": list(s.code_lines),
        "info": s.info,
        "markers": list(s.markers),
        "modules": list(s.modules),
        "status": s.status,
    }


def summarize(inv: Inventory) -> dict[str, Any]:
    statuses = Counter(s.status for s in inv.snippets)
    relations = Counter(p.relation for p in inv.pairs)
    n_missing = len(inv.missing())
    return {
        "fences": len(inv.snippets),
        "files": len({s.file for s in inv.snippets}),
        "pairs": len(inv.pairs),
        "examples": len(inv.snippets) - len(inv.pairs),
        "distinct_bodies": len({s.body_sha256 for s in inv.snippets}),
        "status": {k: statuses.get(k, 0) for k in STATUSES},
        "relation": {**{k: relations.get(k, 0) for k in RELATIONS}, MISSING: n_missing},
    }


def build(
    inv: Inventory,
    config: Config,
    repository: str | None = None,
    commit: str | None = None,
) -> dict[str, Any]:
    for key, value in (("repository", repository), ("commit", commit), ("server_url", config.server_url)):
        if value is not None and not _SOURCE_PATTERNS[key].fullmatch(value):
            raise ManifestError(
                f"{key.replace('_', ' ')} {value!r} cannot go into a link (spaces, quotes or brackets); "
                f"pass a plain {'owner/name' if key == 'repository' else key.replace('_', ' ')}"
            )
    for s in inv.snippets:
        if not s.file.isascii():
            try:
                s.file.encode("utf-8")
            except UnicodeEncodeError:
                raise ManifestError(
                    f"{s.file.encode('utf-8', 'surrogateescape')!r}: file name is not valid UTF-8; "
                    "rename the file or exclude it in the config"
                ) from None
    pair_of = inv.pair_of()
    snippets: list[dict[str, Any]] = []
    for index, s in enumerate(inv.snippets):
        entry: dict[str, Any] = {"id": snippet_id(index), "file": s.file, **fence_fields(s)}
        if s.status_message is not None:
            entry["status_message"] = s.status_message
        if s.status_line is not None:
            entry["status_line"] = s.status_line
        entry["body"] = s.body
        entry["body_sha256"] = s.body_sha256
        entry["file_sha256"] = s.file_sha256
        if repository and commit:
            entry["permalink"] = permalink(config.server_url, repository, commit, s)
        entry["pair"] = pair_id(pair_of[index]) if index in pair_of else None
        entry["counterpart_file"] = inv.counterpart_of(s.file)
        snippets.append(entry)
    pairs = [
        {"id": pair_id(n), "relation": p.relation, "snippets": [snippet_id(p.en), snippet_id(p.zh)]}
        for n, p in enumerate(inv.pairs)
    ]
    return {
        "schema": SCHEMA,
        "generator": "docsnippets",
        "source": {"repository": repository, "commit": commit, "server_url": config.server_url},
        "selection": config.selection(),
        "summary": summarize(inv),
        "snippets": snippets,
        "pairs": pairs,
    }


def dumps(data: dict[str, Any]) -> str:
    return json.dumps(data, ensure_ascii=False, indent=2) + "\n"


def _new_file_mode(path: Path) -> int:
    """The target's current permissions, else what a plain ``open(..., "w")`` would give."""
    try:
        return stat.S_IMODE(os.stat(path).st_mode)
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_atomic(path: Path, text: str) -> None:
    """Write beside the target, then rename over it: a reader sees the old or the new file.

    The text is encoded before anything touches the disk, the new file keeps the old one's
    permissions (mkstemp's 0600 would hide the manifest from other users of a shared
    checkout), and the directory is synced after the rename so the rename itself survives
    a crash. Temp files are named after their writer's PID, so that the next successful
    write can remove those of a writer that was killed half-way.
    """
    data = text.encode("utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
    mode = _new_file_mode(path)
    import tempfile  # only writers need it

    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.{os.getpid()}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fchmod(handle.fileno(), mode)
            os.fsync(handle.fileno())
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    with contextlib.suppress(OSError):
        dir_fd = os.open(path.parent, os.O_RDONLY | getattr(os, "O_DIRECTORY", 0))
        try:
            os.fsync(dir_fd)
        finally:
            os.close(dir_fd)
    _remove_stale_temps(path)


def _remove_stale_temps(path: Path) -> None:
    """Delete the temp files of writers killed half-way (``.NAME.PID.XXXX.tmp``, PID gone).

    Only files whose process no longer exists go, so a concurrent writer's file is safe.
    """
    if os.name != "posix":
        return
    prefix = f".{path.name}."
    with contextlib.suppress(OSError):
        for name in os.listdir(path.parent):
            if not (name.startswith(prefix) and name.endswith(".tmp")):
                continue
            pid = name[len(prefix) :].split(".", 1)[0]
            if not pid.isdigit() or int(pid) <= 1 or int(pid) == os.getpid():
                continue
            try:
                os.kill(int(pid), 0)
            except ProcessLookupError:
                with contextlib.suppress(OSError):
                    os.unlink(path.parent / name)
            except (OSError, OverflowError):
                pass  # alive (someone else's) or not a PID at all


# --- loading -----------------------------------------------------------------------------

_SNIPPET_FIELDS: dict[str, type | tuple[type, ...]] = {
    "id": str,
    "file": str,
    "fence_lines": list,
    "code_lines": list,
    "info": str,
    "markers": list,
    "modules": list,
    "status": str,
    "body": str,
    "body_sha256": str,
    "file_sha256": str,
}


def _fail(where: str, message: str) -> ManifestError:
    return ManifestError(f"{where}: {message}; run `docsnippets update` to regenerate it")


def _line_range(value: Any) -> bool:
    return (
        isinstance(value, list)
        and len(value) == 2
        and all(isinstance(v, int) and not isinstance(v, bool) and v >= 1 for v in value)
    )


def _safe_path(value: str) -> bool:
    p = PurePosixPath(value)
    return bool(value) and not p.is_absolute() and ".." not in p.parts and "\\" not in value and "\0" not in value


def _reject_constant(name: str) -> Any:
    raise ValueError(f"{name} is not a JSON number")


def _encodable(data: Any) -> bool:
    """No lone surrogate (a ``\\ud800`` escape) hides in the strings: they cannot be printed or written."""
    try:
        json.dumps(data, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return False
    return True


_SNIPPET_ID = re.compile(r"DOC-[0-9]{3,}")
_PAIR_ID = re.compile(r"PAIR-[0-9]{2,}")
# What may go into a Markdown link target unquoted: no space, control, bracket, quote or backslash.
_URL_PART = r"[^\s\x00-\x1f\x7f()<>\[\]\\\"'`]+"
_SOURCE_PATTERNS = {
    "repository": re.compile(_URL_PART),
    "commit": re.compile(_URL_PART),
    "server_url": re.compile(r"https?://" + _URL_PART),
}
_SUMMARY_COUNTS = ("fences", "files", "pairs", "examples", "distinct_bodies")


def parse(text: str, where: str) -> dict[str, Any]:
    """Parse and validate; every problem becomes one ManifestError line."""
    try:
        data = json.loads(text, parse_constant=_reject_constant)
    except json.JSONDecodeError as exc:
        raise _fail(where, f"not valid JSON at line {exc.lineno}, column {exc.colno} ({exc.msg})") from None
    except RecursionError:
        raise _fail(where, "not valid JSON (nested too deeply)") from None
    except ValueError as exc:  # NaN/Infinity, or an integer with more digits than Python converts
        raise _fail(where, f"not valid JSON ({str(exc).split(';')[0]})") from None
    if not _encodable(data):
        raise _fail(where, "a string holds a lone UTF-16 surrogate escape (\\ud800-\\udfff)")
    validate(data, where)
    return data


def validate(data: Any, where: str) -> None:
    if not isinstance(data, dict):
        raise _fail(where, "the top level is not a JSON object")
    schema = data.get("schema")
    if not isinstance(schema, int) or isinstance(schema, bool):
        raise _fail(where, f"'schema' is {schema!r}, expected {SCHEMA}")
    if schema > SCHEMA:
        raise ManifestError(
            f"{where}: schema {schema} is newer than this docsnippets understands ({SCHEMA}); upgrade docsnippets"
        )
    if schema != SCHEMA:
        raise _fail(where, f"unknown schema {schema}, expected {SCHEMA}")
    for key, kind in (("snippets", list), ("pairs", list), ("summary", dict), ("selection", dict)):
        if not isinstance(data.get(key), kind):
            raise _fail(where, f"'{key}' is missing or not a {kind.__name__}")
    for key in _SUMMARY_COUNTS:
        value = data["summary"].get(key)
        if not isinstance(value, int) or isinstance(value, bool) or value < 0:
            raise _fail(where, f"summary.{key} is missing or not a count")
    source = _validate_source(data.get("source"), where)
    ids: set[str] = set()
    places: dict[tuple[str, int], str] = {}
    for n, entry in enumerate(data["snippets"]):
        at = f"snippets[{n}]"
        if not isinstance(entry, dict):
            raise _fail(where, f"{at} is not an object")
        for key, kind in _SNIPPET_FIELDS.items():
            if not isinstance(entry.get(key), kind):
                raise _fail(where, f"{at}.{key} is missing or mistyped")
        if entry["id"] in ids:
            raise _fail(where, f"{at}: duplicated id {entry['id']}")
        if not _SNIPPET_ID.fullmatch(entry["id"]):
            raise _fail(where, f"{at}.id {entry['id']!r} is not of the form DOC-001")
        ids.add(entry["id"])
        if not _safe_path(entry["file"]):
            raise _fail(where, f"{at}.file {entry['file']!r} must be a relative path without '..'")
        for key in ("fence_lines", "code_lines"):
            if not _line_range(entry[key]):
                raise _fail(where, f"{at}.{key} must be two line numbers >= 1")
        (fence_first, fence_last), (code_first, code_last) = entry["fence_lines"], entry["code_lines"]
        if code_first != fence_first + 1 or not code_first - 1 <= code_last <= fence_last:
            raise _fail(where, f"{at}.code_lines must lie just inside its fence_lines")
        other = places.setdefault((entry["file"], fence_first), entry["id"])
        if other != entry["id"]:
            raise _fail(where, f"{at}: {entry['id']} and {other} are the same fence of {entry['file']}")
        for key, kind in (("status_message", str), ("status_line", int)):
            value = entry.get(key)
            if value is not None and (not isinstance(value, kind) or isinstance(value, bool)):
                raise _fail(where, f"{at}.{key} must be null or a {kind.__name__}")
        pair = entry.get("pair")
        if pair is not None and not (isinstance(pair, str) and _PAIR_ID.fullmatch(pair)):
            raise _fail(where, f"{at}.pair must be null or a pair id such as PAIR-01")
        if "permalink" in entry:
            expected = None if source is None else _permalink_of(source, entry)
            if entry["permalink"] != expected:
                raise _fail(where, f"{at}.permalink is not the one its source and lines give")
        if sha256_text(entry["body"]) != entry["body_sha256"]:
            raise _fail(where, f"{at}.body_sha256 does not match its body (edited by hand?)")
        if entry["status"] not in STATUSES:
            raise _fail(where, f"{at}.status {entry['status']!r} is not one of {', '.join(STATUSES)}")
        if not all(isinstance(m, str) for m in entry["markers"] + entry["modules"]):
            raise _fail(where, f"{at}: markers and modules must be strings")
        cf = entry.get("counterpart_file")
        if cf is not None and not (isinstance(cf, str) and _safe_path(cf)):
            raise _fail(where, f"{at}.counterpart_file must be null or a relative path")
    pair_ids: set[str] = set()
    paired: set[str] = set()
    for n, entry in enumerate(data["pairs"]):
        at = f"pairs[{n}]"
        if not isinstance(entry, dict) or not isinstance(entry.get("id"), str):
            raise _fail(where, f"{at} is not an object with an 'id'")
        if entry["id"] in pair_ids:
            raise _fail(where, f"{at}: duplicated id {entry['id']}")
        if not _PAIR_ID.fullmatch(entry["id"]):
            raise _fail(where, f"{at}.id {entry['id']!r} is not of the form PAIR-01")
        pair_ids.add(entry["id"])
        members = entry.get("snippets")
        if not (
            isinstance(members, list)
            and len(members) == 2
            and all(isinstance(m, str) and m in ids for m in members)
            and members[0] != members[1]
        ):
            raise _fail(where, f"{at}.snippets must name two snippet ids of this manifest, not the same one twice")
        if any(m in paired for m in members):
            raise _fail(where, f"{at}: a snippet is in more than one pair")
        paired.update(members)
        if entry.get("relation") not in RELATIONS:
            raise _fail(where, f"{at}.relation must be one of {', '.join(RELATIONS)}")


def _validate_source(source: Any, where: str) -> dict[str, Any] | None:
    """The ``source`` object (links in the catalogue are built from it), or None when absent."""
    if source is None:
        return None
    if not isinstance(source, dict):
        raise _fail(where, "'source' is not an object")
    for key, pattern in _SOURCE_PATTERNS.items():
        value = source.get(key)
        if value is not None and not (isinstance(value, str) and pattern.fullmatch(value)):
            raise _fail(where, f"source.{key} {value!r} is not a valid {key.replace('_', ' ')}")
    return source


def _permalink_of(source: dict[str, Any], entry: dict[str, Any]) -> str | None:
    repository, commit = source.get("repository"), source.get("commit")
    if not (repository and commit):
        return None
    code = entry["code_lines"]
    server = source.get("server_url") or "https://github.com"
    snippet = Snippet(entry["file"], (0, 0), (code[0], code[1]), "", (), (), "", "", "", "")
    return permalink(server, repository, commit, snippet)


def load(path: Path) -> dict[str, Any] | None:
    """The validated manifest, or None when the file does not exist."""
    try:
        raw = read_regular(path)
    except IsADirectoryError:
        raise ManifestError(f"{path}: is a directory; pass the manifest file to --manifest") from None
    except NotRegularFile:
        raise ManifestError(f"{path}: not a regular file; pass the manifest file to --manifest") from None
    except OSError as exc:
        raise ManifestError(f"{path}: cannot read ({exc.strerror or exc}); fix its permissions") from None
    if raw is None:
        return None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise _fail(str(path), "not UTF-8 text") from None
    return parse(text, str(path))


def to_inventory(data: dict[str, Any]) -> Inventory:
    """Rebuild the records from a validated manifest (for --changed and base comparisons)."""
    snippets: list[Snippet] = []
    index_of: dict[str, int] = {}
    for entry in data["snippets"]:
        snippets.append(
            Snippet(
                file=entry["file"],
                fence_lines=(entry["fence_lines"][0], entry["fence_lines"][1]),
                code_lines=(entry["code_lines"][0], entry["code_lines"][1]),
                info=entry["info"],
                markers=tuple(entry["markers"]),
                modules=tuple(entry["modules"]),
                status=entry["status"],
                body=entry["body"],
                body_sha256=entry["body_sha256"],
                file_sha256=entry["file_sha256"],
                status_message=entry.get("status_message"),
                status_line=entry.get("status_line"),
            )
        )
    order = sorted(range(len(snippets)), key=lambda i: snippets[i].key)
    for new, old in enumerate(order):
        index_of[data["snippets"][old]["id"]] = new
    ordered = tuple(snippets[i] for i in order)
    pairs = []
    for entry in data["pairs"]:
        a, b = (index_of[m] for m in entry["snippets"])
        pairs.append(Pair(a, b, entry["relation"]))
    pairs.sort(key=lambda p: (p.en, p.zh))
    counterparts: dict[str, str | None] = {}
    for entry in data["snippets"]:
        counterparts.setdefault(entry["file"], entry.get("counterpart_file"))
    return Inventory(ordered, tuple(pairs), tuple(counterparts.items()))
