"""Where the command line writes: Rich consoles, errors with a hint, JSON, status colours."""

from __future__ import annotations

import json
from typing import Any, NoReturn

import typer
from rich.console import Console
from rich.markup import escape

__all__ = ["DONE", "console", "err_console", "fail", "print_json", "status_text"]

console = Console()
err_console = Console(stderr=True)

#: The statuses a run does not leave.
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


def fail(message: str, hint: str | None = None, code: int = 1) -> NoReturn:
    """Print ``message`` (and a hint, Rich markup allowed) on stderr and exit with ``code``."""
    err_console.print(f"[bold red]Error:[/] {escape(message)}")
    if hint:
        err_console.print(f"[bold]Hint:[/] {hint}")
    raise typer.Exit(code)


def status_text(status: str) -> str:
    """``status`` as Rich markup in its colour."""
    style = _STYLES.get(status, "blue")
    return f"[{style}]{escape(status)}[/]"


def _plain(value: Any) -> Any:
    """``value`` with every pydantic model in it dumped as JSON would hold it (by the model's
    own JSON serializer: metric values NaN and infinite are the strings "NaN", "Infinity")."""
    if hasattr(value, "model_dump_json"):
        return json.loads(value.model_dump_json())
    if isinstance(value, dict):
        return {key: _plain(item) for key, item in value.items()}
    if isinstance(value, list | tuple):
        return [_plain(item) for item in value]
    return value


def print_json(value: Any) -> None:
    """Print ``value`` (a model, or plain data holding models) as indented JSON on stdout."""
    console.print_json(json.dumps(_plain(value), default=str))
