"""``docsnippets merge-driver %O %A %B``: a git merge driver for the manifest.

Plain ``git merge`` already merges branches that changed snippets of *different* Markdown
files (their entries are separate regions of the file). This driver handles the rest: it
merges the entries by id, three ways. An entry deleted on one side goes; one added on one
side comes in; line fields that both sides moved add up (both moved it by editing above it,
which is exactly what a clean merge of the Markdown does), and an entry added on one side is
shifted by what the other side did above it. The result is validated like any manifest
(ids from file and body, pairs that name each other); anything that does not fit — both
sides changed the same snippet, one pair's two members changed on different sides, the
settings changed on both — is a conflict: the driver then leaves git's ordinary line merge
(with conflict markers) in %A, exits 1, and says to fix the Markdown and run
``docsnippets update``, which rewrites the manifest from the merged tree.
"""

from __future__ import annotations

import subprocess
from bisect import bisect_left
from collections.abc import Sequence
from dataclasses import dataclass
from itertools import pairwise
from pathlib import Path
from typing import Any

from docsnippets.config import Config
from docsnippets.fileio import write_atomic
from docsnippets.manifest import build as mf
from docsnippets.manifest import store
from docsnippets.manifest.io import permalink_of

Entry = dict[str, Any]
_SOFT = ("fence_lines", "code_lines", "permalink", "pair", "twins")
# What ties entries and pages together: schema 2's one pair and one counterpart, or schema 3's
# twins and counterparts by language, merged language by language (two branches that touched
# different translations of one page do not conflict).
_BY_LANGUAGE = ("twins", "counterparts")


@dataclass(frozen=True)
class Merged:
    """The merged manifest when clean, else the conflicts (one line each)."""

    data: dict[str, Any] | None
    conflicts: tuple[str, ...]


@dataclass(frozen=True)
class MergeResult:
    clean: bool
    messages: tuple[str, ...]


def _pick(base: Any, ours: Any, theirs: Any) -> tuple[Any, bool]:
    """Three-way choice of one value: (value, conflicted)."""
    if ours == theirs or theirs == base:
        return ours, False
    if ours == base:
        return theirs, False
    return ours, True


def _pick_field(key: str, values: Sequence[Any]) -> tuple[Any, bool]:
    """Three-way choice of one field; a by-language field is chosen language by language."""
    if key not in _BY_LANGUAGE or not all(isinstance(v, dict) or v is None for v in values):
        return _pick(*values)
    maps = [v or {} for v in values]
    out: dict[str, Any] = {}
    clash = False
    for code in sorted({k for m in maps for k in m}):
        value, hit = _pick(*(m.get(code) for m in maps))
        clash = clash or hit
        if value is not None:
            out[code] = value
    return out, clash


def _shifted(entry: Entry, delta: int) -> Entry:
    if not delta:
        return entry
    out = dict(entry)
    for key in ("fence_lines", "code_lines"):
        out[key] = [entry[key][0] + delta, entry[key][1] + delta]
    return out


def _hard(entry: Entry) -> dict[str, Any]:
    return {k: v for k, v in entry.items() if k not in _SOFT}


def _anchors(side: dict[str, Entry], base: dict[str, Entry], other: dict[str, Entry]) -> list[tuple[int, int]]:
    """(line on ``side``, how far ``other`` moved it) of every snippet all three versions share, in order."""
    return sorted(
        (side[i]["fence_lines"][0], other[i]["fence_lines"][0] - base[i]["fence_lines"][0])
        for i in side
        if i in base and i in other
    )


def _shift_at(entry: Entry, anchors: list[tuple[int, int]]) -> int:
    """How far the other side moved the region where ``entry`` (new on one side) stands: the
    move of the last shared snippet before it (of two on one line, the larger move)."""
    before = bisect_left(anchors, (entry["fence_lines"][0],))
    return anchors[before - 1][1] if before else 0


def _both(sid: str, o: Entry, a: Entry, b: Entry, file: str, conflicts: list[str]) -> Entry:
    if _hard(a) != _hard(b):
        conflicts.append(f"{file}: snippet {sid} differs between the branches")
    key = "twins" if "twins" in a else "pair"
    pair, clash = _pick_field(key, [o.get(key), a.get(key), b.get(key)])
    if clash:
        conflicts.append(f"{file}: both branches changed the pair of snippet {sid}")
    delta = (a["fence_lines"][0] - o["fence_lines"][0]) + (b["fence_lines"][0] - o["fence_lines"][0])
    out = _shifted({**o, **{k: v for k, v in a.items() if k not in ("fence_lines", "code_lines")}}, delta)
    out[key] = pair
    link = _pick(o.get("permalink"), a.get("permalink"), b.get("permalink"))[0]  # _relinked checks it
    out.pop("permalink", None)
    return out if link is None else {**out, "permalink": link}


def _merge_group(file: str, groups: Sequence[dict[str, Any]], conflicts: list[str]) -> dict[str, Any] | None:
    o, a, b = ({e["id"]: e for e in g.get("snippets", [])} for g in groups)
    header: dict[str, Any] = {}
    for key in [k for k in ("counterpart", "language", "counterparts") if any(k in g for g in groups)]:
        header[key], clash = _pick_field(key, [g.get(key) for g in groups])
        if clash:
            conflicts.append(f"{file}: the branches give it different counterpart files")
    merged: list[Entry] = []
    anchors_a, anchors_b = _anchors(a, o, b), _anchors(b, o, a)
    for sid in dict.fromkeys([*o, *a, *b]):
        if sid in a and sid in b:
            merged.append(_both(sid, o[sid], a[sid], b[sid], file, conflicts) if sid in o else a[sid])
        elif sid in o:
            continue  # deleted on a side (edited there: its new body has a new id)
        elif sid in a:
            merged.append(_shifted(a[sid], _shift_at(a[sid], anchors_a)))
        else:
            merged.append(_shifted(b[sid], _shift_at(b[sid], anchors_b)))
    if not merged:
        return None
    merged.sort(key=lambda e: e["fence_lines"][0])
    for before, after in pairwise(merged):
        if after["fence_lines"][0] <= before["fence_lines"][1]:
            conflicts.append(f"{file}: both branches changed the snippets around line {after['fence_lines'][0]}")
    return {**header, "snippets": merged}


def _relinked(data: dict[str, Any]) -> dict[str, Any]:
    """Keep a permalink only where it is still the one the merged source and lines give."""
    for file, group in data["files"].items():
        for n, entry in enumerate(group["snippets"]):
            if "permalink" in entry and entry["permalink"] != permalink_of(data["source"], {**entry, "file": file}):
                group["snippets"][n] = {k: v for k, v in entry.items() if k != "permalink"}
    return data


def merge(base: dict[str, Any] | None, ours: dict[str, Any], theirs: dict[str, Any]) -> Merged:
    """Three-way merge of schema-2 or schema-3 manifests (pure)."""
    base = base if base is not None else {**ours, "files": {}}
    if ours.get("schema") != theirs.get("schema"):  # one branch changed the languages' setting
        said = f"the branches write schema {ours.get('schema')} and schema {theirs.get('schema')}"
        return Merged(None, (f"{said}: merge the configuration, then run `docsnippets update`",))
    conflicts: list[str] = []
    top: dict[str, Any] = {}
    for key in ("schema", "generator", "source", "selection"):
        top[key], clash = _pick(base.get(key), ours.get(key), theirs.get(key))
        if clash:
            conflicts.append(f"both branches changed the manifest's {key}")
    files: dict[str, Any] = {}
    for file in sorted({*base["files"], *ours["files"], *theirs["files"]}):
        group = _merge_group(file, [side["files"].get(file, {}) for side in (base, ours, theirs)], conflicts)
        if group is not None:
            files[file] = group
    if conflicts:
        return Merged(None, tuple(conflicts))
    data = _relinked({**top, "files": files})
    try:
        mf.validate(data, "the merged manifest")
    except mf.ManifestError as exc:
        return Merged(None, (str(exc).split("; run `docsnippets update`")[0],))
    return Merged(data, ())


def _read(path: Path, config: Config, root: Path) -> dict[str, Any] | None:
    text = store.read(path, root=root)
    if text is None or not text.strip():
        return None
    return mf.upgrade(mf.parse(text, str(path)), config)


def _line_merge(base: Path, current: Path, other: Path) -> str | None:
    """git's own three-way line merge, with conflict markers, for a person to resolve."""
    try:
        done = subprocess.run(
            [
                "git",
                "merge-file",
                "-p",
                "-L",
                "ours",
                "-L",
                "base",
                "-L",
                "theirs",
                str(current),
                str(base),
                str(other),
            ],
            capture_output=True,
            timeout=60,
            check=False,
        )
    except (OSError, subprocess.SubprocessError):
        return None
    # The exit status is the number of conflicts (capped at 127); above that, git failed.
    return done.stdout.decode("utf-8", "replace") if 0 <= done.returncode < 128 and done.stdout else None


def merge_files(base: Path, current: Path, other: Path, *, root: Path) -> MergeResult:
    """Merge the three files git hands over; the result replaces ``current`` atomically.

    A file that cannot be read at all (a symlink inside ``root``, a directory) is an error, not a
    conflict: git's line merge would read it through."""
    config = Config()
    fix = f"fix the Markdown, then run `docsnippets update` and `git add` the manifest ({current.name} is git's copy)"
    try:
        sides = [_read(base, config, root), _read(current, config, root), _read(other, config, root)]
    except store.ManifestAccessError:
        raise
    except mf.ManifestError as exc:
        merged = Merged(None, (str(exc).split("; run `docsnippets update`")[0],))
    else:
        ours, theirs = sides[1], sides[2]
        if ours is None or theirs is None:
            merged = Merged(None, ("one side has no manifest",))
        else:
            merged = merge(sides[0], ours, theirs)
    if merged.data is not None:
        write_atomic(current, mf.dumps(merged.data), root=root)
        return MergeResult(True, ())
    text = _line_merge(base, current, other)
    if text is not None:
        write_atomic(current, text, root=root)
    return MergeResult(False, (*(f"merge conflict: {c}" for c in merged.conflicts), f"to resolve: {fix}"))
