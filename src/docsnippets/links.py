"""The one shape of a permalink to lines of a file at a commit (the manifest's and the comment's)."""

from __future__ import annotations


def blob_lines(server_url: str, repository: str, commit: str, file: str, lines: tuple[int, int]) -> str:
    """``SERVER/OWNER/NAME/blob/COMMIT/PATH#Lfirst-Llast``, the path percent-quoted."""
    from urllib.parse import quote  # only a run that links anything needs it

    first, last = lines
    return f"{server_url}/{repository}/blob/{commit}/{quote(file, safe='/')}#L{first}-L{last}"
