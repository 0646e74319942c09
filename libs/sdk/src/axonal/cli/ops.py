"""``axonal ops``: list, inspect, follow and act on runs."""

from __future__ import annotations

import contextlib
import math
import time
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, parse, run_path
from axonal.cli.artifacts import artifacts
from axonal.cli.compare import compare
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt, alias
from axonal.cli.output import DONE, console, fail, print_json
from axonal.cli.push import push

if TYPE_CHECKING:
    from axonal_events.runs import LogLine

__all__ = ["app"]

app = typer.Typer(
    name="ops",
    help="List, inspect, follow and act on runs.",
    no_args_is_help=True,
    add_completion=False,
)

RunUuid = Annotated[str, typer.Argument(help="The run's uuid.")]


@app.command("ls")
def ls(
    project: ProjectOpt = None,
    status: Annotated[str | None, typer.Option("--status", "-s", help="Only this status.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 50,
    offset: Annotated[int, typer.Option("--offset", min=0)] = 0,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List the runs of a project, newest first."""
    from axonal.cli.views.runs import runs_table  # noqa: PLC0415
    from axonal_events.runs import RunList  # noqa: PLC0415

    path = guarded(lambda: run_path(project))
    params: dict[str, Any] = {"limit": limit, "offset": offset}
    if status:
        params["status"] = status
    with api(api_url) as client:
        page = client.get(path, RunList, params=params)
    print_json(page) if as_json else console.print(runs_table(page))


@app.command("get")
def get(run_uuid: RunUuid, project: ProjectOpt = None, as_json: AsJson = False,
        api_url: ApiUrl = None) -> None:  # fmt: skip
    """Show one run."""
    from axonal.cli.views.runs import run_details  # noqa: PLC0415
    from axonal_events.runs import RunInfo  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid))
    with api(api_url) as client:
        found = client.get(path, RunInfo)
    print_json(found) if as_json else console.print(run_details(found))


@app.command("statuses")
def statuses(
    run_uuid: RunUuid,
    project: ProjectOpt = None,
    watch: Annotated[bool, typer.Option("--watch", "-w", help="Refresh until done.")] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Show the status history of a run (with --watch, live until the run is done)."""
    from rich.live import Live  # noqa: PLC0415

    from axonal.cli.views.runs import pauses, statuses_table, wait_until_exists  # noqa: PLC0415
    from axonal_events.runs import RunInfo, StatusHistory  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid))
    with api(api_url) as client:
        if not watch:
            history = client.get(f"{path}/statuses", StatusHistory)
            print_json(history) if as_json else console.print(statuses_table(history))
            return
        wait_until_exists(client, path)
        screen = None if as_json else Live(console=console, auto_refresh=False)
        waits = pauses()
        with screen or contextlib.nullcontext():
            while True:
                history = client.get(f"{path}/statuses", StatusHistory)
                if screen is not None:
                    screen.update(statuses_table(history), refresh=True)
                if client.get(path, RunInfo).status in DONE:
                    break
                time.sleep(next(waits))
    if as_json:
        print_json(history)


def _print_line(line: LogLine, as_json: bool) -> None:
    if as_json:
        console.print_json(line.model_dump_json())
        return
    text = escape(line.line)
    styled = f"[red]{text}[/]" if line.stream == "stderr" else text
    console.print(styled, highlight=False, soft_wrap=True)


@app.command("logs")
def logs(
    run_uuid: RunUuid,
    project: ProjectOpt = None,
    follow: Annotated[
        bool, typer.Option("--follow", "-F", help="Stream new lines until the run is done.")
    ] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Print a run's logs (with --follow, keep streaming them live)."""
    from axonal_events.runs import LogLine, LogPage  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid))
    with api(api_url) as client:
        if follow:
            from axonal.cli.views.runs import wait_until_exists  # noqa: PLC0415

            wait_until_exists(client, path)
            stream = f"{path}/logs/stream"
            for event, data in client.stream_events(stream):
                if event == "log":
                    _print_line(parse(LogLine, data, f"GET {stream}"), as_json)
                elif event == "error":
                    fail(str(data.get("message", "the stream failed")), "try again")
            return
        after = 0
        while True:
            params = {"after": after, "limit": 1000}
            page = client.get(f"{path}/logs", LogPage, params=params)
            for line in page.lines:
                _print_line(line, as_json)
                after = max(after, line.seq)
            if len(page.lines) < 1000:
                break


def _act(verb: str, run_uuid: str, project: str | None, as_json: bool, api_url: str | None) -> None:
    from axonal_events.runs import ActionAccepted  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid, verb))
    with api(api_url) as client:
        reply = client.post(path, ActionAccepted)
    if as_json:
        print_json(reply)
        return
    message = f"{verb}: accepted for [bold]{reply.uuid}[/]"
    if reply.new_uuid:
        message += f" (new run [bold]{reply.new_uuid}[/])"
    console.print(message)


def _action(verb: str, doc: str) -> None:
    def command(
        run_uuid: RunUuid, project: ProjectOpt = None, as_json: AsJson = False,
        api_url: ApiUrl = None,
    ) -> None:  # fmt: skip
        _act(verb, run_uuid, project, as_json, api_url)

    command.__doc__ = doc
    command.__name__ = verb
    app.command(verb)(command)


for _verb, _doc in (
    ("stop", "Stop a run (and the runs of a DAG or matrix)."),
    ("restart", "Start a copy of a run; prints the new run's uuid."),
    ("resume", "Resume a stopped or failed run."),
    ("approve", "Approve a run that waits for approval."),
    ("skip", "Skip a run that has not started."),
):
    _action(_verb, _doc)

app.command("push")(push)
app.command("compare")(compare)
app.command("artifacts")(artifacts)


@app.command("metrics")
def metrics(
    run_uuid: RunUuid,
    name: Annotated[
        list[str] | None, typer.Option("--name", "-n", help="Only this metric (repeatable).")
    ] = None,
    points: Annotated[
        int, typer.Option("--points", min=2, max=100_000, help="Most points per series.")
    ] = 1000,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """A run's metrics: last value, min and max per metric (--json: the downsampled series)."""
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.metrics import SeriesList  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid, "metrics"))
    with api(api_url) as client:
        found = client.get(path, SeriesList, params={"name": name or [], "points": points})
    if as_json:
        print_json(found)
        return
    table = Table("metric", "points", "last step", "last", "min", "max", "NaN")
    for series in found.series:
        if not series.points:
            continue
        last = series.points[-1]
        low = min((p.min for p in series.points if not math.isnan(p.min)), default=math.nan)
        high = max((p.max for p in series.points if not math.isnan(p.max)), default=math.nan)
        nans = sum(p.nans for p in series.points)
        table.add_row(
            escape(series.name), f"{series.total:,}", str(last.step),
            f"{last.value:.6g}", f"{low:.6g}", f"{high:.6g}", f"{nans:,}",
        )  # fmt: skip
    console.print(table if found.series else "no metrics logged yet")


@app.command("rm")
def rm(
    run_uuid: RunUuid,
    project: ProjectOpt = None,
    yes: Annotated[bool, typer.Option("--yes", "-y", help="Do not ask for confirmation.")] = False,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a run (a running one is stopped first); its records disappear from listings."""
    from axonal_events.runs import ActionAccepted  # noqa: PLC0415

    path = guarded(lambda: run_path(project, run_uuid))
    if not (yes or as_json) and not typer.confirm(f"Delete run {run_uuid}?"):
        raise typer.Abort
    with api(api_url) as client:
        reply = client.delete(path, ActionAccepted)
    if as_json:
        print_json(reply)
    else:
        console.print(f"delete: accepted for [bold]{reply.uuid}[/]")


alias(app, "delete", "rm", rm)
