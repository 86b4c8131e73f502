"""The one shape of a permalink to lines of a file at a commit (the manifest's and the comment's),
and the one reading of a git remote as the repository those permalinks point into."""

from __future__ import annotations

import re


def blob_lines(server_url: str, repository: str, commit: str, file: str, lines: tuple[int, int]) -> str:
    """``SERVER/OWNER/NAME/blob/COMMIT/PATH#Lfirst-Llast``, the path percent-quoted."""
    from urllib.parse import quote  # only a run that links anything needs it

    first, last = lines
    return f"{server_url}/{repository}/blob/{commit}/{quote(file, safe='/')}#L{first}-L{last}"


# GitHub's own rules: an owner is letters, digits and single inner hyphens, at most 39; a
# repository name letters, digits, '.', '_' and '-'. Nothing else may come from a remote URL.
_OWNER = re.compile(r"[A-Za-z0-9](?:-?[A-Za-z0-9]){0,38}")
_NAME = re.compile(r"[A-Za-z0-9._-]{1,100}")
_SCP = re.compile(r"(?:[A-Za-z0-9._-]+@)?(?P<host>[A-Za-z0-9.-]+):(?P<path>[^/].*)")
_SCHEMES = ("https", "http", "ssh", "git", "git+ssh", "ssh+git")


def repository_of_remote(url: str, server_url: str = "https://github.com") -> str | None:
    """``OWNER/NAME`` when the remote ``url`` names a repository on the server, else None.

    The URL is the repository's own config, and a clone's origin may carry anything: a token
    (``https://user:token@github.com/…``), another host, a path that only looks like GitHub's.
    So only the host of ``server_url`` (any port) is accepted, in the forms git clones from
    (``https://``, ``ssh://``, ``git@host:owner/name``), with exactly two path parts that are a
    valid owner and name; the answer holds those two and nothing else of the URL.
    """
    from urllib.parse import urlsplit  # only init and a first update ask

    if not url.isprintable() or any(c.isspace() for c in url):
        return None  # urlsplit would drop a newline or tab silently
    host = (urlsplit(server_url).hostname or "").lower()
    scp = _SCP.fullmatch(url) if "://" not in url else None
    if scp is not None:
        found_host, path = scp.group("host").lower(), scp.group("path")
    else:
        try:
            parts = urlsplit(url)
            found_host, path = (parts.hostname or "").lower(), parts.path
            parts.port  # noqa: B018  (raises on a port that is not a number)
        except ValueError:
            return None
        if parts.scheme.lower() not in _SCHEMES or parts.query or parts.fragment:
            return None
    if not host or found_host != host:
        return None
    owner, _, name = path.strip("/").removesuffix(".git").partition("/")
    if len(owner) > 39 or not _OWNER.fullmatch(owner) or not _NAME.fullmatch(name) or name in (".", ".."):
        return None
    return f"{owner}/{name}"
