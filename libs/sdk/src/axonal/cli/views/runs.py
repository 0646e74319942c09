"""Rich views of runs: tables, a run's details, a live status until it is done."""

from __future__ import annotations

import contextlib
import time
from typing import Any

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.table import Table

from axonal.api_client import ApiClient, ApiError
from axonal.cli.output import DONE, status_text

__all__ = ["run_details", "runs_table", "statuses_table", "wait_until_exists", "watch_run"]

POLL = 0.5
#: Seconds a just-submitted run may take to exist (the scheduler creates it from the command).
APPEAR_WITHIN = 30.0


def runs_table(runs: list[dict[str, Any]], total: int | None = None) -> Table:
    title = f"{len(runs)} of {total} runs" if total is not None else None
    table = Table(box=box.SIMPLE_HEAD, title=title, pad_edge=False)
    for column in ("uuid", "name", "kind", "status", "queue", "created"):
        table.add_column(column, no_wrap=column in ("uuid", "status"))
    for run in runs:
        table.add_row(
            run["uuid"],
            escape(run.get("name") or "-"),
            run.get("kind", "-"),
            status_text(run["status"]),
            escape(run.get("queue") or "-"),
            str(run.get("created_at", "-"))[:19],
        )
    return table


def run_details(run: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    for key in (
        "uuid", "name", "owner", "project", "kind", "status", "reason", "message", "queue",
        "attempt", "pipeline_uuid", "original_uuid", "cache_hit_of", "children",
        "created_at", "started_at", "finished_at", "description", "tags", "progress",
        "inputs", "outputs",
    ):  # fmt: skip
        value = run.get(key)
        if value in (None, {}, "", []):
            continue
        shown = status_text(value) if key == "status" else escape(str(value))
        if key == "progress":
            shown = f"{value:.0%}"
        table.add_row(key, shown)
    if run.get("managed") is False:
        table.add_row("tracked", "from the SDK (no agent runs it)")
    return table


def statuses_table(history: dict[str, Any]) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("at", "status", "reason", "message"):
        table.add_column(column)
    for change in history.get("changes", []):
        table.add_row(
            str(change["at"])[:23],
            status_text(change["status"]),
            escape(change.get("reason") or ""),
            escape(change.get("message") or ""),
        )
    return table


def wait_until_exists(client: ApiClient, run_path: str) -> dict[str, Any]:
    """The run at ``run_path``, waiting a little for one just submitted to be created."""
    appear_by = time.monotonic() + APPEAR_WITHIN
    while True:
        try:
            run: dict[str, Any] = client.request("GET", run_path)
        except ApiError as exc:
            if exc.status != 404 or time.monotonic() > appear_by:
                raise
            time.sleep(POLL / 5)
            continue
        return run


def _children(client: ApiClient, runs_path: str, run_uuid: str) -> tuple[int, int]:
    page = client.request("GET", runs_path, params={"pipeline": run_uuid, "limit": 1000})
    done = sum(1 for child in page["runs"] if child["status"] in DONE)
    return done, int(page["total"])


def watch_run(
    client: ApiClient, runs_path: str, run_uuid: str, *, live: bool = True
) -> dict[str, Any]:
    """Poll the run until it is done, showing its status (and children done for a DAG or
    matrix) when ``live``; return the run."""
    from rich.live import Live  # noqa: PLC0415
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    from axonal.cli.output import console  # noqa: PLC0415

    progress = Progress(TextColumn("children"), BarColumn(), MofNCompleteColumn(), console=console)
    bar = progress.add_task("children", total=None)

    def view(run: dict[str, Any], has_children: bool) -> Group:
        head = (
            f"[bold]{run['uuid']}[/] {escape(run.get('name') or '')} {status_text(run['status'])}"
        )
        if run.get("message"):
            head += f"  [dim]{escape(run['message'])}[/]"
        return Group(head, progress) if has_children else Group(head)

    appear_by = time.monotonic() + APPEAR_WITHIN
    screen = Live(console=console, transient=False, auto_refresh=False) if live else None
    with screen or contextlib.nullcontext():
        while True:
            try:
                run: dict[str, Any] = client.request("GET", f"{runs_path}/{run_uuid}")
            except ApiError as exc:  # a new run exists once the scheduler has read the submit
                if exc.status != 404 or time.monotonic() > appear_by:
                    raise
                time.sleep(POLL / 5)
                continue
            has_children = run.get("kind") in {"dag", "matrix"} or run.get("children", 0) > 0
            if has_children:
                done, total = _children(client, runs_path, run_uuid)
                progress.update(bar, completed=done, total=max(total, run.get("children", 0)))
            if screen is not None:
                screen.update(view(run, has_children), refresh=True)
            if run["status"] in DONE:
                break
            time.sleep(POLL)
    if screen is not None:
        console.print()  # the live view leaves the cursor on its last line
    return run
