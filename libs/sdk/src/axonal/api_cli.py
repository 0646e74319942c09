"""What the commands that talk to the api share: options, the client, errors, styles."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from typing import Annotated, Any, TypeVar

import typer
from rich.markup import escape

from axonal.api_client import ApiClient, ApiError, resolve_api_url, split_project
from axonal.cli import console, err_console, fail

__all__ = [
    "DONE",
    "ApiUrl",
    "AsJson",
    "ProjectOpt",
    "api",
    "print_json",
    "run_path",
    "status_text",
]

T = TypeVar("T")

ApiUrl = Annotated[
    str | None,
    typer.Option(
        "--api-url", envvar="AXONAL_API_URL", help="The api (default: the local stack's)."
    ),
]
AsJson = Annotated[bool, typer.Option("--json", help="Print JSON for scripts.")]
ProjectOpt = Annotated[
    str | None,
    typer.Option(
        "-p", "--project", envvar="AXONAL_PROJECT", help="owner/project (default default/default)."
    ),
]

DONE = frozenset({"succeeded", "failed", "stopped", "skipped", "upstream_failed"})
_STYLES = {
    "succeeded": "green",
    "failed": "red",
    "upstream_failed": "red",
    "stopped": "yellow",
    "stopping": "yellow",
    "skipped": "dim",
    "running": "cyan",
    "retrying": "magenta",
    "warning": "yellow",
    "unschedulable": "red",
}

#: Set by tests: an ``httpx`` transport to use instead of the network.
transport: Any = None


def status_text(status: str) -> str:
    """``status`` as Rich markup in its colour."""
    style = _STYLES.get(status, "blue")
    return f"[{style}]{escape(status)}[/]"


def print_json(value: Any) -> None:
    console.print_json(json.dumps(value, default=str))


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
