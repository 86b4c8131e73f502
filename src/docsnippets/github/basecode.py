"""The base commit's code, read through the API only if the judge asks for it.

The judge asks only when the head has a broken reference in a snippet the base also had: to
tell a finding the base already had (an old debt, shown apart) from one the PR brought. Then
the base commit's listing and its archive (two requests; its ``.py`` files and the selected
pages kept, which may show a module a page creates) are read by SHA, as stage 2 reads the
head. When the base cannot be read within the archive bounds, or the API refuses, a warning
says so and no finding is taken for an old one: the verdict can only be stricter for it,
never more lenient.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from docsnippets.github.archive import ArchiveBounds, ArchiveError, read_archive
from docsnippets.github.commit import GitHubCommit
from docsnippets.github.errors import GitHubError
from docsnippets.sources import ModuleFiles

CONSEQUENCE = "every broken reference counts as this PR's"
Wanted = Callable[[str], bool]
Warn = Callable[[str], None]


def base_code(
    client: Any, sha: str, bounds: ArchiveBounds, wanted: Wanted, warn: Warn
) -> Callable[[], ModuleFiles | None]:
    """A reader of commit ``sha``'s code (the ``wanted`` paths from its archive) that calls the
    API on its first call only."""
    done: list[ModuleFiles | None] = []

    def read() -> ModuleFiles | None:
        if not done:
            done.append(_read(client, sha, bounds, wanted, warn))
        return done[0]

    return read


def _read(client: Any, sha: str, bounds: ArchiveBounds, wanted: Wanted, warn: Warn) -> ModuleFiles | None:
    try:
        listing = client.listing(sha)
        if listing.truncated or not bounds.fits(listing):
            warn(
                f"the base commit {sha[:12]} is larger than the archive bounds, so its code was not read; {CONSEQUENCE}"
            )
            return None
        archived = read_archive(client.archive(sha), listing, wanted, bounds)
    except (GitHubError, ArchiveError) as exc:
        warn(f"the base commit's code could not be read ({exc}); {CONSEQUENCE}")
        return None
    return GitHubCommit(listing, client.blob, archived=archived).code()
