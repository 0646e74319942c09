"""How commands call the api: the client, paths under a project, errors that end the command."""

from __future__ import annotations

from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Any, TypeVar

from rich.markup import escape

from axonal.api_client import ApiClient, ApiError, resolve_api_url, split_project
from axonal.cli.output import err_console, fail

__all__ = ["api", "guarded", "project_path", "run_path"]

T = TypeVar("T")

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


@contextmanager
def api(api_url: str | None) -> Iterator[ApiClient]:
    """A client of the api; any :class:`ApiError` inside ends the command with its message."""
    try:
        with ApiClient(resolve_api_url(api_url), transport=transport) as client:
            yield client
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
