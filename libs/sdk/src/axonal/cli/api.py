"""How commands call the api: typed answers, paths under a project, errors that end the command.

Every answer is parsed into the model the api returns (from ``axonal_events``, which the api
uses too), so that a command reads typed attributes; an answer that does
not fit ends the command with what is missing, not a traceback. Fields the CLI does not know
(a newer api) are left out.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import AbstractContextManager, contextmanager
from typing import TYPE_CHECKING, Any, TypeVar

from rich.markup import escape

from axonal.api_client import ApiClient, ApiError, resolve_api_url, split_project
from axonal.cli.output import err_console, fail

if TYPE_CHECKING:
    from pydantic import BaseModel

__all__ = ["Api", "api", "guarded", "parse", "project_path", "run_path"]

T = TypeVar("T")
M = TypeVar("M", bound="BaseModel")
_VERSIONS_HINT = "the CLI and the api may be of different versions (`axonal version`)"

#: Set by tests: an ``httpx`` transport to use instead of the network.
transport: Any = None


def project_path(project: str | None, *parts: str) -> str:
    """``/api/v1/<owner>/<project>/<part>/...`` for ``-p`` (empty parts left out)."""
    owner, name = split_project(project)
    return "/".join(["/api/v1", owner, name, *filter(None, parts)])


def run_path(project: str | None, run_uuid: str | None = None, tail: str = "") -> str:
    """``/api/v1/<owner>/<project>/runs[/<uuid>][/<tail>]`` for ``-p``."""
    return project_path(project, "runs", run_uuid or "", tail)


def _show_details(details: list[dict[str, Any]]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table(expand=False)
    for column in ("where", "problem", "hint"):
        table.add_column(column, style="cyan" if column == "where" else None)
    for item in details:
        table.add_row(
            escape(str(item.get("location") or "(file)")),
            escape(str(item.get("message", ""))),
            escape(str(item.get("hint") or "")),
        )
    err_console.print(table)


def parse(model: type[M], body: object, what: str) -> M:
    """``body`` as a ``model``; :class:`ApiError` naming what does not fit."""
    from pydantic import ValidationError  # noqa: PLC0415 - only commands that call the api

    try:
        return model.model_validate(body, extra="ignore")
    except ValidationError as exc:
        problems = [
            f"{'.'.join(map(str, error['loc'])) or 'the answer'}: {error['msg']}"
            for error in exc.errors()
        ]
        more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
        raise ApiError(
            f"the api's answer to {what} is not a valid {model.__name__}: "
            f"{'; '.join(problems[:3])}{more}",
            hint=_VERSIONS_HINT,
        ) from None


class Api:
    """The api as a command sees it: each answer parsed into the model the api returns."""

    def __init__(self, client: ApiClient) -> None:
        self.client = client
        self.base_url = client.base_url

    def call(self, method: str, path: str, model: type[M], **kwargs: Any) -> M:
        return parse(model, self.client.request(method, path, **kwargs), f"{method} {path}")

    def get(self, path: str, model: type[M], **kwargs: Any) -> M:
        return self.call("GET", path, model, **kwargs)

    def post(self, path: str, model: type[M], **kwargs: Any) -> M:
        return self.call("POST", path, model, **kwargs)

    def patch(self, path: str, model: type[M], **kwargs: Any) -> M:
        return self.call("PATCH", path, model, **kwargs)

    def put(self, path: str, model: type[M], **kwargs: Any) -> M:
        return self.call("PUT", path, model, **kwargs)

    def delete(self, path: str, model: type[M], **kwargs: Any) -> M:
        return self.call("DELETE", path, model, **kwargs)

    def download(self, path: str) -> AbstractContextManager[Iterator[bytes]]:
        """The body of ``GET path`` in chunks, as it arrives."""
        return self.client.download(path)

    def stream_events(self, path: str) -> Iterator[tuple[str, dict[str, Any]]]:
        """Server-Sent Events of ``path`` as (event, data); resumed when the connection drops."""
        return self.client.stream_events(path)


@contextmanager
def api(api_url: str | None) -> Iterator[Api]:
    """The api; any :class:`ApiError` inside ends the command with its message and hint."""
    try:
        with ApiClient(resolve_api_url(api_url), transport=transport) as client:
            yield Api(client)
    except ApiError as exc:
        if exc.details:
            _show_details(exc.details)
        fail(exc.message, exc.hint)


def guarded(func: Callable[[], T]) -> T:
    """Run ``func``; an :class:`ApiError` (a bad ``-p``...) ends the command cleanly."""
    try:
        return func()
    except ApiError as exc:
        fail(exc.message, exc.hint)
