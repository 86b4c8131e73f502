"""A fake GitHub REST API on 127.0.0.1, so the PyGithub wrapper is tested over real HTTP.

Only the endpoints docsnippets needs are served, with the JSON shapes PyGithub parses, real
``Link`` pagination headers, token checks, GitHub's comment-size limit, a request log for
counting API calls, and a queue of injected faults (403/404/422/5xx/rate limits/delays).
"""

from __future__ import annotations

import base64
import hashlib
import io
import itertools
import json
import math
import re
import tarfile
import threading
import time
from collections.abc import Callable, Iterator, Mapping
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from http import HTTPStatus
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any
from urllib.parse import parse_qs, unquote, urlencode, urlsplit

MAX_COMMENT_CHARS = 65536
TOO_LONG_ERROR: dict[str, Any] = {
    "message": "Validation Failed",
    "errors": [
        {
            "resource": "IssueComment",
            "code": "custom",
            "field": "body",
            "message": "body is too long (maximum is 65536 characters)",
        }
    ],
    "documentation_url": "https://docs.github.com/rest/issues/comments#create-an-issue-comment",
}
FORBIDDEN_INTEGRATION: dict[str, Any] = {"message": "Resource not accessible by integration"}
NOT_FOUND: dict[str, Any] = {"message": "Not Found"}

JsonBody = dict[str, Any] | list[Any] | str | bytes | None


@dataclass(frozen=True)
class LoggedRequest:
    """One request as the server saw it; `path` has the API prefix removed."""

    method: str
    path: str
    query: dict[str, str]
    status: int


@dataclass
class FaultRule:
    """Answer matching requests with `status` instead of serving them; `times` None = forever."""

    method: str
    path: str
    status: int
    times: int | None = 1
    body: JsonBody = None
    headers: dict[str, str] = field(default_factory=dict)
    delay: float = 0.0

    def matches(self, method: str, path: str) -> bool:
        return self.method in ("*", method) and re.search(self.path, path) is not None


@dataclass
class FakeComment:
    """An issue comment; ids are global and increasing, like GitHub's."""

    id: int
    issue: int
    body: str
    user: str
    created_at: str
    updated_at: str


@dataclass
class FakeRepo:
    """In-memory state of one repository."""

    full_name: str
    id: int
    default_branch: str = "main"
    pulls: dict[int, dict[str, Any]] = field(default_factory=dict)
    contents: dict[tuple[str, str], bytes] = field(default_factory=dict)
    comments: dict[int, list[FakeComment]] = field(default_factory=dict)
    statuses: dict[str, list[dict[str, Any]]] = field(default_factory=dict)  # sha -> statuses, oldest first
    links: dict[tuple[str, str], str] = field(default_factory=dict)  # (ref, path) -> symlink target
    submodules: dict[tuple[str, str], str] = field(default_factory=dict)  # (ref, path) -> commit sha
    truncated: set[str] = field(default_factory=set)  # refs whose tree GitHub lists only in part
    archives: dict[str, bytes] = field(default_factory=dict)  # ref -> the tarball served instead of the real one

    def add_pull(
        self,
        number: int,
        files: list[dict[str, Any]] | None = None,
        *,
        head_sha: str = "b" * 40,
        base_sha: str = "a" * 40,
        head_label: str | None = None,
        state: str = "open",
    ) -> None:
        """Register PR `number` (which is also issue `number`) with its changed files; its head
        is `head_label` (``owner:branch``; default: this repository's ``feature`` branch)."""
        label = head_label or f"{self.full_name.split('/')[0]}:feature"
        self.pulls[number] = {
            "files": list(files or []),
            "head_sha": head_sha,
            "base_sha": base_sha,
            "head_label": label,
            "state": state,
        }
        self.comments.setdefault(number, [])

    def add_file(self, ref: str, path: str, data: bytes | str) -> None:
        self.contents[(ref, path)] = data.encode() if isinstance(data, str) else data

    def add_symlink(self, ref: str, path: str, target: str) -> None:
        self.links[(ref, path)] = target

    def add_submodule(self, ref: str, path: str, commit: str = "c0ffee" * 6 + "c0ff") -> None:
        self.submodules[(ref, path)] = commit

    def tree(self, ref: str) -> list[dict[str, Any]]:
        """The recursive tree of ``ref`` as ``GET /git/trees/{ref}?recursive=1`` lists it."""
        entries: dict[str, dict[str, Any]] = {}
        blobs = [(p, "100644", d) for (r, p), d in self.contents.items() if r == ref]
        blobs += [(p, "120000", t.encode()) for (r, p), t in self.links.items() if r == ref]
        for path, mode, data in blobs:
            sha = _git_blob_sha(data)
            entries[path] = {"path": path, "mode": mode, "type": "blob", "sha": sha, "size": len(data)}
        for (r, path), commit in self.submodules.items():
            if r == ref:
                entries[path] = {"path": path, "mode": "160000", "type": "commit", "sha": commit}
        for path in list(entries):
            parts = path.split("/")
            for i in range(1, len(parts)):
                folder = "/".join(parts[:i])
                entries.setdefault(folder, {"path": folder, "mode": "040000", "type": "tree", "sha": "0" * 40})
        return [entries[p] for p in sorted(entries)]

    def archive(self, ref: str) -> bytes | None:
        """The gzipped tar of ``ref`` as GitHub's tarball endpoint serves it (git archive's layout:
        one ``owner-name-sha7/`` directory, the commit in a pax global header), or None."""
        if ref in self.archives:
            return self.archives[ref]
        entries = self.tree(ref)
        if not entries:
            return None
        top = f"{self.full_name.replace('/', '-')}-{ref[:7]}"
        buffer = io.BytesIO()
        with tarfile.open(fileobj=buffer, mode="w:gz", format=tarfile.PAX_FORMAT, pax_headers={"comment": ref}) as tar:
            tar.addfile(_member(top, tarfile.DIRTYPE))
            for entry in entries:
                name = f"{top}/{entry['path']}"
                if entry["type"] == "tree" or entry["type"] == "commit":
                    tar.addfile(_member(name, tarfile.DIRTYPE))
                elif entry["mode"] == "120000":
                    member = _member(name, tarfile.SYMTYPE)
                    member.linkname = self.links[(ref, entry["path"])]
                    tar.addfile(member)
                else:
                    data = self.contents[(ref, entry["path"])]
                    member = _member(name, tarfile.REGTYPE)
                    member.size = len(data)
                    tar.addfile(member, io.BytesIO(data))
        return buffer.getvalue()


def _member(name: str, kind: bytes) -> tarfile.TarInfo:
    member = tarfile.TarInfo(name)
    member.type = kind
    member.mode = 0o755 if kind == tarfile.DIRTYPE else 0o644
    return member


def changed(filename: str, status: str = "modified", previous: str | None = None) -> dict[str, Any]:
    """Build a PR file entry the way GitHub lists it."""
    entry: dict[str, Any] = {
        "sha": hashlib.sha1(filename.encode()).hexdigest(),
        "filename": filename,
        "status": status,
        "additions": 1,
        "deletions": 0 if status != "removed" else 1,
        "changes": 1,
    }
    if status != "removed":
        entry["patch"] = "@@ -0,0 +1 @@\n+x"
    if previous is not None:
        entry["previous_filename"] = previous
    return entry


def _git_blob_sha(data: bytes) -> str:
    return hashlib.sha1(b"blob %d\0" % len(data) + data).hexdigest()


def _now() -> str:
    return datetime.now(UTC).strftime("%Y-%m-%dT%H:%M:%SZ")


class FakeGitHub:
    """The fake server; use as a context manager, or call start()/stop()."""

    def __init__(
        self,
        *,
        token: str | None = "test-token",
        prefix: str = "",
        max_page_size: int = 3,
        large_file_bytes: int = 1024 * 1024,
        bot_login: str = "github-actions[bot]",
        user_login: str = "docs-bot",
    ) -> None:
        self.token = token
        self.prefix = prefix.rstrip("/")
        self.max_page_size = max_page_size
        self.large_file_bytes = large_file_bytes
        self.bot_login = bot_login
        self.user_login = user_login  # who GET /user says a token that is no installation's is
        self.repos: dict[str, FakeRepo] = {}
        self.faults: list[FaultRule] = []
        self.log: list[LoggedRequest] = []
        self.seen_authorization: list[str] = []
        #: Called as hook(method, path) before a request is handled; lets tests mutate state
        #: "concurrently", e.g. add a comment just before a POST lands.
        self.on_request: Callable[[str, str], None] | None = None
        self.lock = threading.RLock()
        self._ids = itertools.count(1000)
        self._server: ThreadingHTTPServer | None = None
        self._thread: threading.Thread | None = None

    # -- lifecycle --------------------------------------------------------------------------

    def start(self) -> FakeGitHub:
        handler = type("Handler", (_Handler,), {"fake": self})
        server = ThreadingHTTPServer(("127.0.0.1", 0), handler)
        server.daemon_threads = True
        self._server = server
        self._thread = threading.Thread(target=server.serve_forever, args=(0.02,), name="fake-github", daemon=True)
        self._thread.start()
        return self

    def stop(self) -> None:
        if self._server is not None:
            self._server.shutdown()
            self._server.server_close()
            self._server = None
        if self._thread is not None:
            self._thread.join(timeout=5)
            self._thread = None

    def __enter__(self) -> FakeGitHub:
        return self.start()

    def __exit__(self, *exc_info: object) -> None:
        self.stop()

    @property
    def port(self) -> int:
        assert self._server is not None, "server not started"
        return int(self._server.server_address[1])

    @property
    def api_url(self) -> str:
        """What a client passes as base_url (github.com or GHES style, per `prefix`)."""
        return f"http://127.0.0.1:{self.port}{self.prefix}"

    # -- state helpers ----------------------------------------------------------------------

    def add_repo(self, full_name: str, *, default_branch: str = "main") -> FakeRepo:
        with self.lock:
            repo = FakeRepo(full_name, next(self._ids), default_branch)
            self.repos[full_name] = repo
            return repo

    def add_comment(self, repo: str, issue: int, body: str, *, user: str | None = None) -> int:
        with self.lock:
            now = _now()
            comment = FakeComment(next(self._ids), issue, body, user or self.bot_login, now, now)
            self.repos[repo].comments.setdefault(issue, []).append(comment)
            return comment.id

    def comments(self, repo: str, issue: int) -> list[FakeComment]:
        with self.lock:
            return sorted(self.repos[repo].comments.get(issue, []), key=lambda c: c.id)

    def fail(
        self,
        method: str,
        path: str,
        status: int,
        *,
        times: int | None = 1,
        body: JsonBody = None,
        headers: Mapping[str, str] | None = None,
        delay: float = 0.0,
    ) -> FaultRule:
        """Queue a fault; `path` is a regex searched in the prefix-less request path."""
        rule = FaultRule(method.upper(), path, status, times, body, dict(headers or {}), delay)
        with self.lock:
            self.faults.append(rule)
        return rule

    def requests(self, method: str | None = None, path: str | None = None) -> list[LoggedRequest]:
        """Logged requests, optionally filtered by method and a path regex."""
        with self.lock:
            return [
                r
                for r in self.log
                if (method is None or r.method == method) and (path is None or re.search(path, r.path))
            ]

    def reset_log(self) -> None:
        with self.lock:
            self.log.clear()

    def _take_fault(self, method: str, path: str) -> FaultRule | None:
        with self.lock:
            for rule in self.faults:
                if rule.matches(method, path):
                    if rule.times is not None:
                        rule.times -= 1
                        if rule.times <= 0:
                            self.faults.remove(rule)
                    return rule
        return None


@contextmanager
def running(**kwargs: Any) -> Iterator[FakeGitHub]:
    """`with running(prefix="/api/v3") as fake:` — start a server for the block."""
    fake = FakeGitHub(**kwargs)
    with fake:
        yield fake


_REPO = r"/repos/(?P<owner>[^/]+)/(?P<name>[^/]+)"
_ROUTES: list[tuple[str, re.Pattern[str], str]] = [
    ("GET", re.compile(_REPO + r"$"), "get_repo"),
    ("GET", re.compile(_REPO + r"/pulls$"), "list_pulls"),
    ("GET", re.compile(_REPO + r"/pulls/(?P<number>\d+)$"), "get_pull"),
    ("POST", re.compile(_REPO + r"/statuses/(?P<sha>[0-9a-f]{40})$"), "create_status"),
    ("GET", re.compile(_REPO + r"/pulls/(?P<number>\d+)/files$"), "list_files"),
    ("GET", re.compile(_REPO + r"/issues/(?P<number>\d+)/comments$"), "list_comments"),
    ("POST", re.compile(_REPO + r"/issues/(?P<number>\d+)/comments$"), "create_comment"),
    ("GET", re.compile(_REPO + r"/issues/comments/(?P<id>\d+)$"), "get_comment"),
    ("PATCH", re.compile(_REPO + r"/issues/comments/(?P<id>\d+)$"), "edit_comment"),
    ("DELETE", re.compile(_REPO + r"/issues/comments/(?P<id>\d+)$"), "delete_comment"),
    ("GET", re.compile(_REPO + r"/contents(?:/(?P<path>.*))?$"), "get_contents"),
    ("GET", re.compile(_REPO + r"/git/blobs/(?P<sha>[0-9a-f]+)$"), "get_blob"),
    ("GET", re.compile(_REPO + r"/git/trees/(?P<sha>[0-9a-f]{40})$"), "get_tree"),
    ("GET", re.compile(_REPO + r"/tarball/(?P<sha>[0-9a-f]{40})$"), "get_tarball"),
    (
        "GET",
        re.compile(r"/_codeload/(?P<owner>[^/]+)/(?P<name>[^/]+)/legacy\.tar\.gz/(?P<sha>[0-9a-f]{40})$"),
        "codeload",
    ),
]


class _Answer(Exception):
    """Raised by route code to send an error answer."""

    def __init__(self, status: int, body: JsonBody = None) -> None:
        super().__init__(status)
        self.status = status
        self.body = body if body is not None else {"message": HTTPStatus(status).phrase}


class _Handler(BaseHTTPRequestHandler):
    fake: FakeGitHub
    protocol_version = "HTTP/1.1"
    server_version = "FakeGitHub/1.0"
    timeout = 30
    # One segment per answer: headers and body written separately would meet delayed ACKs.
    wbufsize = 1 << 16
    disable_nagle_algorithm = True

    def log_message(self, format: str, *args: Any) -> None:  # quiet test output
        pass

    # -- plumbing ---------------------------------------------------------------------------

    def do_GET(self) -> None:
        self._dispatch("GET")

    def do_POST(self) -> None:
        self._dispatch("POST")

    def do_PATCH(self) -> None:
        self._dispatch("PATCH")

    def do_DELETE(self) -> None:
        self._dispatch("DELETE")

    def _dispatch(self, method: str) -> None:
        fake = self.fake
        length = int(self.headers.get("Content-Length") or 0)
        raw_body = self.rfile.read(length) if length else b""
        split = urlsplit(self.path)
        query = {k: v[-1] for k, v in parse_qs(split.query, keep_blank_values=True).items()}
        raw_path = split.path
        if fake.prefix and not raw_path.startswith(fake.prefix + "/"):
            self._send(method, raw_path, query, 404, NOT_FOUND)
            return
        path = raw_path[len(fake.prefix) :]
        self.fake.seen_authorization.append(self.headers.get("Authorization", ""))

        rule = fake._take_fault(method, path)
        if rule is not None:
            if rule.delay:
                time.sleep(rule.delay)
            body = rule.body
            if body is None:
                body = {"message": HTTPStatus(rule.status).phrase}
            self._send(method, path, query, rule.status, body, rule.headers)
            return
        if fake.token is not None and not self._authorized():
            self._send(method, path, query, 401, {"message": "Bad credentials"})
            return
        if fake.on_request is not None:
            fake.on_request(method, path)
        try:
            status, body, headers = self._route(method, path, query, raw_body)
        except _Answer as answer:
            status, body, headers = answer.status, answer.body, {}
        self._send(method, path, query, status, body, headers)

    def _authorized(self) -> bool:
        value = self.headers.get("Authorization", "")
        scheme, _, credential = value.partition(" ")
        return scheme.lower() in ("token", "bearer") and credential == self.fake.token

    def _send(
        self,
        method: str,
        path: str,
        query: dict[str, str],
        status: int,
        body: JsonBody,
        headers: Mapping[str, str] | None = None,
    ) -> None:
        with self.fake.lock:
            self.fake.log.append(LoggedRequest(method, path, query, status))
        if body is None:
            payload = b""
        elif isinstance(body, bytes):
            payload = body
        elif isinstance(body, str):
            payload = body.encode()
        else:
            payload = json.dumps(body).encode()
        try:
            self.send_response(status)
            given = {k.lower() for k in headers or {}}
            if payload and "content-type" not in given:
                ctype = "text/html" if isinstance(body, str) else "application/json; charset=utf-8"
                self.send_header("Content-Type", ctype)
            self.send_header("Content-Length", str(len(payload)))
            self.send_header("X-RateLimit-Limit", "5000")
            if not any(k.lower() == "x-ratelimit-remaining" for k in headers or {}):
                self.send_header("X-RateLimit-Remaining", "4999")
                self.send_header("X-RateLimit-Reset", str(int(time.time()) + 3600))
            for key, value in (headers or {}).items():
                self.send_header(key, value)
            self.end_headers()
            if payload:
                self.wfile.write(payload)
        except (BrokenPipeError, ConnectionResetError):  # client gave up (timeout tests)
            self.close_connection = True

    # -- URLs -------------------------------------------------------------------------------

    @property
    def _host(self) -> str:
        return self.headers.get("Host") or f"127.0.0.1:{self.fake.port}"

    def _api(self, path: str) -> str:
        return f"http://{self._host}{self.fake.prefix}{path}"

    def _web(self, path: str) -> str:
        return f"http://{self._host}{path}"

    # -- routes -----------------------------------------------------------------------------

    def _route(
        self, method: str, path: str, query: dict[str, str], raw_body: bytes
    ) -> tuple[int, JsonBody, dict[str, str]]:
        if method == "GET" and path == "/user":
            return 200, {"login": self.fake.user_login, "id": 7, "type": "User"}, {}
        for verb, pattern, name in _ROUTES:
            match = pattern.match(path)
            if match and verb == method:
                params = match.groupdict()
                with self.fake.lock:
                    repo = self.fake.repos.get(f"{params['owner']}/{params['name']}")
                    if repo is None:
                        raise _Answer(404, NOT_FOUND)
                    handler = getattr(self, "_" + name)
                    return handler(repo, params, query, raw_body)
        raise _Answer(404, NOT_FOUND)

    def _json_input(self, raw_body: bytes) -> dict[str, Any]:
        try:
            data = json.loads(raw_body or b"{}")
        except ValueError as exc:
            raise _Answer(400, {"message": "Problems parsing JSON"}) from exc
        if not isinstance(data, dict):
            raise _Answer(400, {"message": "Problems parsing JSON"})
        return data

    def _valid_body(self, data: dict[str, Any]) -> str:
        body = data.get("body")
        if not isinstance(body, str) or not body:
            raise _Answer(
                422,
                {
                    "message": "Validation Failed",
                    "errors": [{"resource": "IssueComment", "code": "missing_field", "field": "body"}],
                },
            )
        if len(body) > MAX_COMMENT_CHARS:
            raise _Answer(422, TOO_LONG_ERROR)
        return body

    def _repo_json(self, repo: FakeRepo) -> dict[str, Any]:
        owner, name = repo.full_name.split("/")
        return {
            "id": repo.id,
            "node_id": f"R_{repo.id}",
            "name": name,
            "full_name": repo.full_name,
            "private": False,
            "owner": {"login": owner, "id": 1, "type": "Organization"},
            "html_url": self._web(f"/{repo.full_name}"),
            "url": self._api(f"/repos/{repo.full_name}"),
            "default_branch": repo.default_branch,
        }

    def _comment_json(self, repo: FakeRepo, comment: FakeComment) -> dict[str, Any]:
        return {
            "id": comment.id,
            "node_id": f"IC_{comment.id}",
            "url": self._api(f"/repos/{repo.full_name}/issues/comments/{comment.id}"),
            "html_url": self._web(f"/{repo.full_name}/pull/{comment.issue}#issuecomment-{comment.id}"),
            "issue_url": self._api(f"/repos/{repo.full_name}/issues/{comment.issue}"),
            "body": comment.body,
            "user": {"login": comment.user, "id": 41898282, "type": "Bot"},
            "created_at": comment.created_at,
            "updated_at": comment.updated_at,
            "author_association": "NONE",
        }

    def _paginate(self, path: str, query: dict[str, str], items: list[Any]) -> tuple[int, JsonBody, dict[str, str]]:
        try:
            per_page = int(query.get("per_page", "30"))
            page = int(query.get("page", "1"))
        except ValueError as exc:
            raise _Answer(400, {"message": "Invalid pagination"}) from exc
        size = max(1, min(per_page, 100, self.fake.max_page_size))
        page = max(1, page)
        last = max(1, math.ceil(len(items) / size))
        chunk = items[(page - 1) * size : page * size]

        def link(to: int) -> str:
            return f"<{self._api(path)}?{urlencode({**query, 'page': str(to)})}>"

        links = []
        if page < last:
            links += [f'{link(page + 1)}; rel="next"', f'{link(last)}; rel="last"']
        if page > 1:
            links += [f'{link(1)}; rel="first"', f'{link(min(page - 1, last))}; rel="prev"']
        return 200, chunk, ({"Link": ", ".join(links)} if links else {})

    def _get_repo(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        return 200, self._repo_json(repo), {}

    def _pull(self, repo: FakeRepo, params: dict[str, Any]) -> dict[str, Any]:
        pull = repo.pulls.get(int(params["number"]))
        if pull is None:
            raise _Answer(404, NOT_FOUND)
        return pull

    def _pull_json(self, repo: FakeRepo, number: int) -> dict[str, Any]:
        pull = repo.pulls[number]
        owner, branch = pull["head_label"].split(":", 1)
        head_repo = {**self._repo_json(repo), "full_name": f"{owner}/{repo.full_name.split('/')[1]}"}
        return {
            "id": number + 5_000_000,
            "number": number,
            "state": pull["state"],
            "title": f"PR {number}",
            "url": self._api(f"/repos/{repo.full_name}/pulls/{number}"),
            "html_url": self._web(f"/{repo.full_name}/pull/{number}"),
            "issue_url": self._api(f"/repos/{repo.full_name}/issues/{number}"),
            "head": {"ref": branch, "label": pull["head_label"], "sha": pull["head_sha"], "repo": head_repo},
            "base": {
                "ref": repo.default_branch,
                "label": f"{repo.full_name.split('/')[0]}:{repo.default_branch}",
                "sha": pull["base_sha"],
                "repo": self._repo_json(repo),
            },
        }

    def _get_pull(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        self._pull(repo, params)
        return 200, self._pull_json(repo, int(params["number"])), {}

    def _list_pulls(self, repo: FakeRepo, params: dict[str, Any], query: dict[str, str], raw: bytes) -> Any:
        """GitHub's filters: ``state`` (default open) and ``head`` (``owner:branch``)."""
        state = query.get("state", "open")
        head = query.get("head")
        numbers = [
            n
            for n, p in sorted(repo.pulls.items())
            if state in ("all", p["state"]) and (head is None or p["head_label"] == head)
        ]
        return self._paginate(f"/repos/{repo.full_name}/pulls", query, [self._pull_json(repo, n) for n in numbers])

    def _create_status(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        data = self._json_input(raw)
        if data.get("state") not in ("error", "failure", "pending", "success"):
            raise _Answer(422, {"message": "Validation Failed", "errors": [{"field": "state", "code": "invalid"}]})
        if len(str(data.get("description") or "")) > 140:
            raise _Answer(422, {"message": "Validation Failed", "errors": [{"field": "description", "code": "custom"}]})
        status = {
            "id": next(self.fake._ids),
            "state": data["state"],
            "context": data.get("context") or "default",
            "description": data.get("description"),
            "target_url": data.get("target_url"),
            "created_at": _now(),
            "url": self._api(f"/repos/{repo.full_name}/statuses/{params['sha']}"),
        }
        repo.statuses.setdefault(params["sha"], []).append(status)
        return 201, status, {}

    def _list_files(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        files = self._pull(repo, params)["files"]
        path = f"/repos/{repo.full_name}/pulls/{params['number']}/files"
        return self._paginate(path, query, files)

    def _issue_comments(self, repo: FakeRepo, params: dict[str, Any]) -> list[FakeComment]:
        number = int(params["number"])
        if number not in repo.comments and number not in repo.pulls:
            raise _Answer(404, NOT_FOUND)
        return repo.comments.setdefault(number, [])

    def _list_comments(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        comments = sorted(self._issue_comments(repo, params), key=lambda c: c.id)
        path = f"/repos/{repo.full_name}/issues/{params['number']}/comments"
        return self._paginate(path, query, [self._comment_json(repo, c) for c in comments])

    def _create_comment(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        comments = self._issue_comments(repo, params)
        body = self._valid_body(self._json_input(raw))
        now = _now()
        comment = FakeComment(next(self.fake._ids), int(params["number"]), body, self.fake.bot_login, now, now)
        comments.append(comment)
        return (
            201,
            self._comment_json(repo, comment),
            {"Location": self._api(f"/repos/{repo.full_name}/issues/comments/{comment.id}")},
        )

    def _find_comment(self, repo: FakeRepo, params: dict[str, Any]) -> FakeComment:
        wanted = int(params["id"])
        for comments in repo.comments.values():
            for comment in comments:
                if comment.id == wanted:
                    return comment
        raise _Answer(404, NOT_FOUND)

    def _get_comment(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        return 200, self._comment_json(repo, self._find_comment(repo, params)), {}

    def _edit_comment(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        comment = self._find_comment(repo, params)
        comment.body = self._valid_body(self._json_input(raw))
        comment.updated_at = _now()
        return 200, self._comment_json(repo, comment), {}

    def _delete_comment(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        comment = self._find_comment(repo, params)
        repo.comments[comment.issue].remove(comment)
        return 204, None, {}

    def _get_contents(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        path = unquote(params.get("path") or "").strip("/")
        ref = query.get("ref", repo.default_branch)
        data = repo.contents.get((ref, path))
        if data is None:
            under = path + "/" if path else ""
            children = sorted(p for (r, p) in repo.contents if r == ref and p.startswith(under))
            if not children:
                raise _Answer(404, NOT_FOUND)
            names = sorted({p[len(path) :].lstrip("/").split("/")[0] for p in children})
            return (
                200,
                [{"type": "dir", "name": n, "path": f"{path}/{n}".lstrip("/")} for n in names],
                {},
            )
        sha = _git_blob_sha(data)
        large = len(data) > self.fake.large_file_bytes
        encoded = base64.b64encode(data).decode()
        # GitHub wraps base64 at 60 columns; PyGithub must cope with the newlines.
        wrapped = "\n".join(encoded[i : i + 60] for i in range(0, len(encoded), 60))
        quoted = urlsplit(self.path).path[len(self.fake.prefix) :]
        return (
            200,
            {
                "type": "file",
                "encoding": "none" if large else "base64",
                "size": len(data),
                "name": path.rsplit("/", 1)[-1],
                "path": path,
                "content": "" if large else wrapped + "\n",
                "sha": sha,
                "url": self._api(f"{quoted}?ref={ref}"),
                "git_url": self._api(f"/repos/{repo.full_name}/git/blobs/{sha}"),
                "html_url": self._web(f"/{repo.full_name}/blob/{ref}/{path}"),
                "download_url": None,
            },
            {},
        )

    def _get_tree(self, repo: FakeRepo, params: dict[str, Any], query: dict[str, str], raw: bytes) -> Any:
        sha = params["sha"]
        entries = repo.tree(sha)
        if not entries:
            raise _Answer(404, NOT_FOUND)
        if query.get("recursive") not in ("1", "true"):
            entries = [e for e in entries if "/" not in e["path"]]
        url = self._api(f"/repos/{repo.full_name}/git/trees/{sha}")
        return 200, {"sha": sha, "url": url, "tree": entries, "truncated": sha in repo.truncated}, {}

    def _get_tarball(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        """GitHub answers 302 to its archive host; here the same server serves it under /_codeload."""
        if repo.archive(params["sha"]) is None:
            raise _Answer(404, NOT_FOUND)
        location = self._api(f"/_codeload/{repo.full_name}/legacy.tar.gz/{params['sha']}")
        return 302, None, {"Location": location}

    def _codeload(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        data = repo.archive(params["sha"])
        if data is None:
            raise _Answer(404, NOT_FOUND)
        return 200, data, {"Content-Type": "application/x-gzip"}

    def _get_blob(self, repo: FakeRepo, params: dict[str, Any], query: Any, raw: bytes) -> Any:
        for data in [*repo.contents.values(), *(t.encode() for t in repo.links.values())]:
            if _git_blob_sha(data) == params["sha"]:
                return (
                    200,
                    {
                        "sha": params["sha"],
                        "size": len(data),
                        "encoding": "base64",
                        "content": base64.b64encode(data).decode(),
                        "url": self._api(f"/repos/{repo.full_name}/git/blobs/{params['sha']}"),
                        "node_id": f"B_{params['sha'][:8]}",
                    },
                    {},
                )
        raise _Answer(404, NOT_FOUND)
