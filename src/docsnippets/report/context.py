"""What a PR comment needs besides the report: names, links, the fix, the base comparison.

Its own module, apart from the comment's rendering, so that every command can describe the
comment it might print while only one that prints it loads the rendering code.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

from docsnippets.constants import DEFAULT_MANIFEST, FIX_COMMAND
from docsnippets.links import blob_lines

if TYPE_CHECKING:
    from docsnippets.judge.compare import Report
    from docsnippets.judge.verdict import Verdict
    from docsnippets.pagerules import Translations
    from docsnippets.snippets.records import Inventory, Snippet


# English names of the codes projects commonly use; ``translations.names`` overrides them.
KNOWN_NAMES = {
    "en": "English",
    "zh": "Chinese",
    "zh-cn": "Simplified Chinese",
    "zh-hans": "Simplified Chinese",
    "zh-hant": "Traditional Chinese",
    "zh-tw": "Traditional Chinese",
    "de": "German",
    "es": "Spanish",
    "fr": "French",
    "it": "Italian",
    "ja": "Japanese",
    "ko": "Korean",
    "pt": "Portuguese",
    "pt-br": "Brazilian Portuguese",
    "ru": "Russian",
    "tr": "Turkish",
    "uk": "Ukrainian",
    "pl": "Polish",
    "nl": "Dutch",
    "vi": "Vietnamese",
    "id": "Indonesian",
    "fa": "Persian",
    "ar": "Arabic",
    "he": "Hebrew",
    "hi": "Hindi",
}


@dataclass(frozen=True)
class Links:
    """Where the reviewer's links point: always the PR's own repository and head commit."""

    server_url: str
    repository: str
    commit: str

    def lines(self, snippet: Snippet) -> str:
        return blob_lines(self.server_url, self.repository, self.commit, snippet.file, snippet.code_lines)

    def line(self, file: str, line: int) -> str:
        return blob_lines(self.server_url, self.repository, self.commit, file, (line, line))


@dataclass(frozen=True)
class CommentContext:
    """What the comment needs besides the report: names, links, the fix, the base comparison."""

    marker: str
    manifest_name: str = DEFAULT_MANIFEST
    manifest_path: str = DEFAULT_MANIFEST
    fix_command: str = FIX_COMMAND
    links: Links | None = None
    base_missing: bool = False
    head_manifest_missing: bool = False
    changes: Report | None = None  # what the PR changes, against the base manifest
    verdict: Verdict | None = None  # the gate's answer every output shares
    template: Path | None = None  # a repository's own comment template, else the packaged one
    root: Path | None = None  # the repository the template is in: no symlink followed there
    inventory: Inventory | None = None  # the head tree's, to show translations together
    translations: Translations | None = None  # the languages and their names, when configured

    def language_name(self, code: str | None) -> str:
        """A code's display name: the configured one, a known one, else the code itself."""
        if code is None:
            return "?"
        named = dict(self.translations.names) if self.translations is not None else {}
        return named.get(code) or KNOWN_NAMES.get(code.lower().replace("_", "-"), code)
