"""``axonal schedules``: list schedules with their next fire time; pause, resume, remove,
backfill. A schedule is created by running a polyaxonfile with a ``schedule`` section."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path, run_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.schedules import ScheduleInfo

__all__ = ["app"]

app = typer.Typer(
    name="schedules",
    help="Schedules: runs created on a cron, an interval or a date.\n\n"
    "Create one with `axonal run -f` on a polyaxonfile that has a `schedule` section.",
    no_args_is_help=True,
    add_completion=False,
)
Uuid = Annotated[str, typer.Argument(help="The schedule's run uuid.")]


def _when(spec: dict[str, object]) -> str:
    kind = spec.get("kind")
    if kind == "cron":
        zone = spec.get("timezone")
        return f"cron {spec.get('cron')}" + (f" ({zone})" if zone else "")
    if kind == "interval":
        return f"every {spec.get('frequency')}s"
    return f"at {spec.get('startAt')}"


def _state(item: ScheduleInfo) -> str:
    if item.status != "running":
        return f"[dim]{item.status}[/]"
    if item.paused:
        return "[yellow]paused[/]"
    if item.waiting_on:
        return f"[yellow]waiting on {item.waiting_on[:8]}[/]"
    return "[green]active[/]"


def _show(items: list[ScheduleInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("uuid", "name", "when", "next", "runs", "state")
    for item in items:
        limit = item.spec.get("maxRuns")
        runs = f"{item.fired}/{limit}" if limit else str(item.fired)
        nxt = item.next_fire_at.isoformat(timespec="seconds") if item.next_fire_at else "-"
        table.add_row(
            item.run_uuid, escape(item.name or "-"), escape(_when(item.spec)), nxt, runs,
            _state(item),
        )  # fmt: skip
    console.print(table if items else "no schedules")


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's schedules with their next fire time."""
    from axonal_events.schedules import ScheduleList  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "schedules"))
    with api(api_url) as client:
        found = client.get(path, ScheduleList)
    print_json(found) if as_json else _show(found.schedules)


def _act(verb: str, run_uuid: str, project: str | None, as_json: bool, api_url: str | None) -> None:
    from axonal_events.schedules import ScheduleInfo  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "schedules", run_uuid, verb))
    with api(api_url) as client:
        item = client.post(path, ScheduleInfo)
    print_json(item) if as_json else _show([item])


@app.command("pause")
def pause(
    run_uuid: Uuid, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Stop firing until resumed (slots meanwhile follow the schedule's catch-up policy)."""
    _act("pause", run_uuid, project, as_json, api_url)


@app.command("resume")
def resume(
    run_uuid: Uuid, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Fire again; also releases a `dependsOnPast` schedule held by a failed run."""
    _act("resume", run_uuid, project, as_json, api_url)


@app.command("rm")
def rm(
    run_uuid: Uuid, project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None
) -> None:
    """Remove a schedule: its run stops, and it fires no more (its runs are kept)."""
    from axonal_events.runs import ActionAccepted  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid, "stop"))
    with api(api_url) as client:
        reply = client.post(path, ActionAccepted)
    print_json(reply) if as_json else console.print(f"removed schedule [bold]{run_uuid}[/]")


@app.command("backfill")
def backfill(
    run_uuid: Uuid,
    start: Annotated[
        datetime, typer.Option("--from", help="The window's start (UTC unless it has a zone).")
    ],
    end: Annotated[datetime, typer.Option("--to", help="The window's end, included.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a run for each slot of a past window; running it again creates none."""
    from axonal_events.schedules import BackfillResult  # noqa: PLC0415

    path = guarded(lambda: project_path(project, "schedules", run_uuid, "backfill"))
    body = {"start": start.isoformat(), "end": end.isoformat()}
    with api(api_url) as client:
        result = client.post(path, BackfillResult, json=body)
    if as_json:
        print_json(result)
        return
    slots = len(result.run_uuids)
    console.print(f"{slots} slots in the window: [bold]{result.created}[/] runs created")
