"""One Markdown file's bytes -> its selected snippets (pure: no file system here).

A byte-level prefilter runs first. It only rejects a file when no line can open a fence
with a selected info string, or when none of the marker or module words occurs at all;
both are necessary for a selected block, so skipping such files changes no result.
"""

from __future__ import annotations

import hashlib
import re
from functools import lru_cache

from . import classify
from .config import Config
from .fences import extract_fences, sha256_text
from .records import Notice, Snippet


@lru_cache(maxsize=16)
def _prefilter(languages: tuple[str, ...], modules: tuple[str, ...]) -> tuple[re.Pattern[bytes], re.Pattern[bytes]]:
    langs = b"|".join(re.escape(lang.encode()) for lang in sorted(languages, key=len, reverse=True))
    opener = re.compile(rb"(?:`{3,}|~{3,})[ \t]*(?:" + langs + rb")(?=[ \t\r\n]|$)", re.IGNORECASE | re.MULTILINE)
    words = {b"async", b"await"} | {m.split(".")[0].encode() for m in modules}
    marker = re.compile(b"|".join(re.escape(w) for w in sorted(words)))
    return opener, marker


def may_contain_snippet(data: bytes, config: Config) -> bool:
    opener, marker = _prefilter(config.languages, config.modules)
    return marker.search(data) is not None and opener.search(data) is not None


def decode(path: str, data: bytes) -> tuple[str | None, Notice | None]:
    """UTF-8 text (a BOM is allowed) or a notice saying why the file was skipped."""
    if b"\x00" in data[:8192]:
        return None, Notice(path, "looks binary (NUL bytes); skipped - it is not Markdown text")
    try:
        return data.decode("utf-8-sig"), None
    except UnicodeDecodeError as exc:
        return None, Notice(
            path,
            f"not valid UTF-8 (byte 0x{data[exc.start]:02x} at offset {exc.start}); skipped - "
            "re-save the file as UTF-8",
        )


def snippets_from_bytes(
    path: str, data: bytes, config: Config, *, prefilter: bool = True
) -> tuple[list[Snippet], list[Notice]]:
    if len(data) > config.max_file_bytes:
        return [], [
            Notice(
                path,
                f"{len(data)} bytes is over max_file_bytes ({config.max_file_bytes}); skipped - "
                "raise max_file_bytes in the config or exclude the file",
            )
        ]
    if prefilter and not may_contain_snippet(data, config):
        return [], []
    text, notice = decode(path, data)
    if text is None:
        return [], [notice] if notice else []
    file_sha = hashlib.sha256(data).hexdigest()
    return snippets_from_text(path, text, config, file_sha), []


def snippets_from_text(path: str, text: str, config: Config, file_sha256: str = "") -> list[Snippet]:
    if not file_sha256:
        file_sha256 = sha256_text(text)
    out: list[Snippet] = []
    languages = set(config.languages)
    for fence in extract_fences(text):
        if fence.language not in languages:
            continue
        markers = tuple(classify.find_markers(fence.body))
        modules = tuple(classify.find_modules(fence.body, config.modules))
        if not markers and not modules:
            continue
        status = classify.syntax_status(fence.body)
        out.append(
            Snippet(
                file=path,
                fence_lines=fence.fence_lines,
                code_lines=fence.code_lines,
                info=fence.info,
                markers=markers,
                modules=modules,
                status=status.status,
                body=fence.body,
                body_sha256=fence.body_sha256,
                file_sha256=file_sha256,
                status_message=status.message,
                status_line=status.line,
            )
        )
    return out
