"""GitHub failures as one-line, token-free errors with a kind the Action can branch on."""

from __future__ import annotations

import json
import re
from collections.abc import Iterator
from contextlib import contextmanager
from enum import StrEnum
from http import HTTPStatus

import requests
import urllib3
from github import GithubException, RateLimitExceededException
from github.Requester import Requester
from urllib3.exceptions import MaxRetryError

_MAX_MESSAGE = 300


class ErrorKind(StrEnum):
    """What went wrong, as far as the caller's next step is concerned."""

    FORBIDDEN = "forbidden"  # a 403 that is no rate limit: a read-only token (fork PR)
    NOT_FOUND = "not_found"
    TOO_LARGE = "too_large"  # GitHub refused the comment body as too long
    UNAVAILABLE = "unavailable"  # 5xx or rate limit after the retries, timeouts, connection errors
    BUDGET = "budget"  # this run's request budget is used up (transport.RequestBudget)
    FAILED = "failed"


class GitHubError(Exception):
    """One-line, token-free message and the kind of failure."""

    def __init__(self, kind: ErrorKind | str, message: str, *, status: int | None = None) -> None:
        super().__init__(message)
        self.kind = ErrorKind(kind)
        self.status = status
        self.message = message


class Translator:
    """Turns what PyGithub, requests and urllib3 raise into GitHubErrors naming the operation,
    with the token scrubbed and the message on one line."""

    def __init__(self, *, token: str, host: str, timeout: int) -> None:
        self._token = token
        self._host = host
        self._timeout = timeout

    @contextmanager
    def guard(self, operation: str) -> Iterator[None]:
        """Turn PyGithub/requests/urllib3 failures into one-line, token-free GitHubErrors."""
        try:
            yield
        except GitHubError:
            raise
        except GithubException as exc:
            raise self._from_github(operation, exc) from exc
        except requests.exceptions.HTTPError as exc:  # a download's status (the JSON API raises the above)
            status = exc.response.status_code if exc.response is not None else 0
            raise self._from_github(operation, GithubException(status, None, None)) from exc
        except (requests.exceptions.RequestException, urllib3.exceptions.HTTPError) as exc:
            cause = _network_cause(exc)
            refused = isinstance(cause, urllib3.exceptions.NewConnectionError)
            if not refused and (
                isinstance(exc, requests.exceptions.Timeout) or isinstance(cause, urllib3.exceptions.TimeoutError)
            ):
                what = f"{self._host} did not answer within {self._timeout}s"
            else:
                what = f"cannot reach {self._host} ({type(cause).__name__})"
            raise GitHubError(ErrorKind.UNAVAILABLE, f"{operation} failed: {what}") from exc
        except json.JSONDecodeError as exc:
            raise GitHubError(ErrorKind.FAILED, f"{operation} failed: the answer was not JSON") from exc

    def _from_github(self, operation: str, exc: GithubException) -> GitHubError:
        status = exc.status
        data = exc.data if isinstance(exc.data, dict) else {}
        headers = {str(k).lower(): str(v) for k, v in (exc.headers or {}).items()}
        message = str(data.get("message") or exc.message or _reason(status))
        details = _error_details(data.get("errors"))
        text = f"{message} ({'; '.join(details)})" if details else message
        rate_limited = isinstance(exc, RateLimitExceededException) or (
            status in (403, 429)
            and (
                headers.get("x-ratelimit-remaining") == "0"
                or "retry-after" in headers
                or Requester.isRateLimitError(message)
            )
        )
        if rate_limited or status == 429:
            kind = ErrorKind.UNAVAILABLE
            if "rate limit" not in text.lower():
                text = f"rate limited ({text})"
        elif status == 403:
            kind = ErrorKind.FORBIDDEN
        elif status == 404:
            kind = ErrorKind.NOT_FOUND
        elif status == 422 and re.search(r"too (long|large)", text, re.IGNORECASE):
            kind = ErrorKind.TOO_LARGE
        elif isinstance(status, int) and status >= 500:
            kind = ErrorKind.UNAVAILABLE
        else:
            kind = ErrorKind.FAILED
        line = self._one_line(f"{operation} failed: {status} {text}")
        return GitHubError(kind, line, status=status)

    def _one_line(self, text: str) -> str:
        text = " ".join(text.replace(self._token, "***").split())
        return text if len(text) <= _MAX_MESSAGE else text[: _MAX_MESSAGE - 1] + "…"


def _error_details(errors: object) -> list[str]:
    """GitHub's 422 `errors` list as short strings (its shape varies by endpoint)."""
    if not isinstance(errors, list):
        return []
    out = []
    for error in errors:
        if isinstance(error, str):
            out.append(error)
        elif isinstance(error, dict):
            if error.get("message"):
                out.append(str(error["message"]))
            elif error.get("code"):
                out.append(" ".join(str(error[k]) for k in ("field", "code") if error.get(k)))
    return out


def _network_cause(exc: BaseException) -> BaseException:
    """The innermost urllib3 reason behind a requests error (timeouts hide in MaxRetryError)."""
    for arg in exc.args:
        if isinstance(arg, MaxRetryError) and arg.reason is not None:
            return arg.reason
    if isinstance(exc, MaxRetryError) and exc.reason is not None:
        return exc.reason
    return exc


def _reason(status: int) -> str:
    try:
        return HTTPStatus(status).phrase
    except ValueError:
        return "error"
