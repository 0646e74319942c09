"""A small HTTP client of the Axonal api for the CLI (``httpx``, imported when used).

Where the api is: ``--api-url`` / ``AXONAL_API_URL``, else the ``api_url`` the local stack
recorded in ``$AXONAL_HOME/stack.json`` (read as plain JSON: the SDK imports no server code).
The bearer token: see :mod:`axonal._credentials`.
"""

from __future__ import annotations

import json
import os
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import TYPE_CHECKING, Any

from axonal._credentials import token_for

if TYPE_CHECKING:
    import httpx

__all__ = ["ApiClient", "ApiError", "resolve_api_url"]

DEFAULT_PROJECT = "default/default"
_START_HINT = "start the platform with [cyan]axonal up --detach[/], or pass --api-url"


class ApiError(Exception):
    """The api said no, or could not be reached: a message and a hint for people.

    ``status`` is the HTTP status (None: no answer) and ``code`` the api's error code
    (``invalid``, ``not_found``, ``conflict``...): callers decide on those, never on the text.
    """

    def __init__(
        self,
        message: str,
        hint: str | None = None,
        *,
        status: int | None = None,
        code: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.hint = hint
        self.status = status
        self.code = code
        self.details: list[dict[str, Any]] = []


def _stack_api_url() -> str | None:
    home = Path(os.environ.get("AXONAL_HOME") or "~/.axonal").expanduser()
    try:
        doc = json.loads((home / "stack.json").read_text())
    except (OSError, ValueError):
        return None
    url = doc.get("api_url") if isinstance(doc, dict) else None
    return url if isinstance(url, str) and url else None


def resolve_api_url(given: str | None) -> str:
    """``given`` (option or env), else the local stack's api; raises :class:`ApiError`."""
    url = given or os.environ.get("AXONAL_API_URL") or _stack_api_url()
    if not url:
        raise ApiError("no Axonal api is known", hint=_START_HINT)
    return url.rstrip("/")


def split_project(project: str | None) -> tuple[str, str]:
    """``owner/project`` (``-p`` or ``AXONAL_PROJECT``, default ``default/default``)."""
    value = project or os.environ.get("AXONAL_PROJECT") or DEFAULT_PROJECT
    owner, sep, name = value.partition("/")
    if not sep or not owner or not name or "/" in name:
        raise ApiError(
            f"project {value!r} is not owner/project", hint="pass it as -p acme/churn-model"
        )
    return owner, name


#: Hints by HTTP status (the api's message says what went wrong, the hint what to do).
_HINTS = {
    400: "check the values given",
    401: "sign in with [cyan]axonal login[/] (or set AXONAL_API_TOKEN)",
    403: "your role does not allow this here: ask an admin of the project",
    404: "check the uuid and the project (-p owner/project)",
    409: "it exists already",
    413: "it is larger than the api accepts",
    422: "check the values given",
    502: "a service of the platform failed: check it with [cyan]axonal status[/]",
    503: "check the platform with [cyan]axonal status[/]",
}
_DETAILS_HINT = "fix the request (the problems are listed above)"


class ApiClient:
    """Calls ``/api/v1`` and turns every failure into an :class:`ApiError`."""

    def __init__(
        self,
        base_url: str,
        *,
        token: str | None = None,
        timeout: float = 30.0,
        transport: httpx.BaseTransport | None = None,
    ) -> None:
        import httpx  # noqa: PLC0415 - `import axonal` stays light

        token = token if token is not None else token_for(base_url)
        headers = {"Authorization": f"Bearer {token}"} if token else {}
        self.base_url = base_url
        self._http = httpx.Client(
            base_url=base_url,
            headers=headers,
            timeout=timeout,
            transport=transport,
            # plain HTTP never uses TLS: skip building a context (50 ms of every CLI command)
            verify=not base_url.startswith("http://"),
        )

    def close(self) -> None:
        self._http.close()

    def __enter__(self) -> ApiClient:
        return self

    def __exit__(self, *_: object) -> None:
        self.close()

    def request(self, method: str, path: str, **kwargs: Any) -> Any:
        import httpx  # noqa: PLC0415

        try:
            reply = self._http.request(method, path, **kwargs)
        except httpx.HTTPError as exc:
            raise ApiError(f"cannot reach the api at {self.base_url}: {exc}", _START_HINT) from None
        if reply.status_code >= 400:
            raise self._error(reply)
        return reply.json() if reply.content else None

    @contextmanager
    def download(self, path: str) -> Iterator[Iterator[bytes]]:
        """The body of ``GET path`` in chunks, as it arrives (for large files)."""
        import httpx  # noqa: PLC0415

        try:
            with self._http.stream("GET", path) as reply:
                if reply.status_code >= 400:
                    reply.read()
                    raise self._error(reply)
                yield reply.iter_bytes()
        except httpx.TransportError as exc:
            raise ApiError(f"cannot reach the api at {self.base_url}: {exc}", _START_HINT) from None

    def stream_events(self, path: str, *, retries: int = 5) -> Iterator[tuple[str, dict[str, Any]]]:
        """Server-Sent Events of ``path`` as (event, data), until the server ends them.

        A dropped connection is resumed with ``Last-Event-ID`` (up to ``retries`` times in a
        row), so no event is lost or repeated.
        """
        import httpx  # noqa: PLC0415

        last_id: str | None = None
        failures = 0
        while True:
            headers = {"Last-Event-ID": last_id} if last_id else {}
            try:
                for event_id, event, data in self._read_events(path, headers):
                    last_id, failures = event_id or last_id, 0
                    yield event, data
                return
            except httpx.HTTPError as exc:
                failures += 1
                if failures > retries:
                    message = f"cannot reach the api at {self.base_url}: {exc}"
                    raise ApiError(message, _START_HINT) from None
                time.sleep(min(5.0, 0.25 * 2**failures))

    def _read_events(
        self, path: str, headers: dict[str, str]
    ) -> Iterator[tuple[str | None, str, dict[str, Any]]]:
        import httpx  # noqa: PLC0415

        timeout = httpx.Timeout(30.0, read=None)
        with self._http.stream("GET", path, headers=headers, timeout=timeout) as reply:
            if reply.status_code >= 400:
                reply.read()
                raise self._error(reply)
            event_id, event, data = None, "message", ""
            for line in reply.iter_lines():
                if line.startswith("id:"):
                    event_id = line[3:].strip()
                elif line.startswith("event:"):
                    event = line[6:].strip()
                elif line.startswith("data:"):
                    data += line[5:].strip()
                elif not line and data:
                    yield event_id, event, json.loads(data)
                    event_id, event, data = None, "message", ""

    @staticmethod
    def _error(reply: httpx.Response) -> ApiError:
        try:
            body = reply.json()
        except ValueError:
            body = {}
        if not isinstance(body, dict):
            body = {}
        message = str(body.get("message") or f"the api answered {reply.status_code}")
        code = body.get("code")
        details = body.get("details")
        details = details if isinstance(details, list) and details else []
        hint = _DETAILS_HINT if details else _HINTS.get(reply.status_code)
        error = ApiError(
            message,
            hint,
            status=reply.status_code,
            code=code if isinstance(code, str) else None,
        )
        error.details = details
        return error
