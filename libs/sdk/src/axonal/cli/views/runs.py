"""Rich views of runs: tables, a run's details, a live status until it is done."""

from __future__ import annotations

import contextlib
import time
from collections.abc import Iterator
from typing import TYPE_CHECKING

from rich import box
from rich.console import Group
from rich.markup import escape
from rich.table import Table

from axonal.api_client import ApiError
from axonal.cli.output import DONE, status_text
from axonal.cli.views.warnings import render_warnings

if TYPE_CHECKING:
    from axonal.cli.api import Api
    from axonal_events.runs import RunInfo, RunList, StatusHistory

__all__ = [
    "pauses",
    "run_details",
    "runs_table",
    "statuses_table",
    "wait_until_exists",
    "watch_run",
]

#: The longest pause between two reads of a watched run.
POLL = 0.5
#: The first pause: a short run is seen done within a few tens of milliseconds of its end.
FIRST_POLL = 0.02
#: Seconds a just-submitted run may take to exist (the scheduler creates it from the command).
APPEAR_WITHIN = 30.0


def _when(value: object) -> str:
    return "-" if value is None else str(value)[:19]


def runs_table(page: RunList) -> Table:
    title = f"{len(page.runs)} of {page.total} runs"
    table = Table(box=box.SIMPLE_HEAD, title=title, pad_edge=False)
    for column in ("uuid", "name", "kind", "status", "queue", "created"):
        table.add_column(column, no_wrap=column in ("uuid", "status"))
    for run in page.runs:
        table.add_row(
            run.uuid,
            escape(run.name or "-"),
            escape(run.kind),
            status_text(run.status),
            escape(run.queue or "-"),
            _when(run.created_at),
        )
    return table


def run_details(run: RunInfo) -> Table:
    table = Table(box=box.SIMPLE, show_header=False, pad_edge=False)
    table.add_column("field", style="bold")
    table.add_column("value")
    fields = run.model_dump()
    for key in (
        "uuid", "name", "owner", "project", "kind", "status", "reason", "message", "queue",
        "attempt", "pipeline_uuid", "original_uuid", "cache_hit_of", "children",
        "created_at", "started_at", "finished_at", "description", "tags", "progress",
        "endpoints", "inputs", "outputs",
    ):  # fmt: skip
        value = fields[key]
        if value in (None, {}, "", []):
            continue
        if key == "status":
            shown = status_text(run.status)
        elif key == "progress" and run.progress is not None:
            shown = f"{run.progress:.0%}"
        elif key == "endpoints":  # a service's URLs, by the port its file declares
            shown = "\n".join(f"{escape(url)} (port {port})" for port, url in value.items())
        else:
            shown = escape(str(value))
        table.add_row(key, shown)
    if not run.managed:
        table.add_row("tracked", "from the SDK (no agent runs it)")
    if run.warnings:
        table.add_row("warnings", render_warnings(run.warnings))
    return table


def statuses_table(history: StatusHistory) -> Table:
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("at", "status", "reason", "message"):
        table.add_column(column)
    for change in history.changes:
        table.add_row(
            str(change.at)[:23],
            status_text(change.status),
            escape(change.reason or ""),
            escape(change.message or ""),
        )
    return table


def pauses() -> Iterator[float]:
    """Pauses between reads of a watched run: from ``FIRST_POLL``, half as long again each
    time, up to ``POLL`` (a no-op job ends within one of the first, a long run costs little)."""
    pause = FIRST_POLL
    while True:
        yield pause
        pause = min(POLL, pause * 1.5)


def wait_until_exists(client: Api, run_path: str) -> RunInfo:
    """The run at ``run_path``, waiting a little for one just submitted to be created."""
    from axonal_events.runs import RunInfo  # noqa: PLC0415

    appear_by = time.monotonic() + APPEAR_WITHIN
    while True:
        try:
            return client.get(run_path, RunInfo)
        except ApiError as exc:
            if exc.status != 404 or time.monotonic() > appear_by:
                raise
            time.sleep(POLL / 5)


def _children(client: Api, runs_path: str, run_uuid: str) -> tuple[int, int]:
    from axonal_events.runs import RunList  # noqa: PLC0415

    page = client.get(runs_path, RunList, params={"pipeline": run_uuid, "limit": 1000})
    done = sum(1 for child in page.runs if child.status in DONE)
    return done, page.total


def watch_run(client: Api, runs_path: str, run_uuid: str, *, live: bool = True) -> RunInfo:
    """Poll the run until it is done, showing its status (and children done for a DAG or
    matrix) when ``live``; return the run."""
    from rich.live import Live  # noqa: PLC0415
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    from axonal.cli.output import console  # noqa: PLC0415

    progress = Progress(TextColumn("children"), BarColumn(), MofNCompleteColumn(), console=console)
    bar = progress.add_task("children", total=None)

    def view(run: RunInfo, has_children: bool) -> Group:
        head = f"[bold]{run.uuid}[/] {escape(run.name or '')} {status_text(run.status)}"
        if run.message:
            head += f"  [dim]{escape(run.message)}[/]"
        return Group(head, progress) if has_children else Group(head)

    screen = Live(console=console, transient=False, auto_refresh=False) if live else None
    waits = pauses()
    with screen or contextlib.nullcontext():
        while True:  # a new run exists once the scheduler has read the submit
            run = wait_until_exists(client, f"{runs_path}/{run_uuid}")
            has_children = run.kind in {"dag", "matrix"} or run.children > 0
            if has_children:
                done, total = _children(client, runs_path, run_uuid)
                progress.update(bar, completed=done, total=max(total, run.children))
            if screen is not None:
                screen.update(view(run, has_children), refresh=True)
            if run.status in DONE:
                break
            time.sleep(next(waits))
    if screen is not None:
        console.print()  # the live view leaves the cursor on its last line
    return run
