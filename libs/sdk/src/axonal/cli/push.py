"""``axonal ops push PATH``: send a run recorded offline to the api.

The run is created with the uuid it was recorded under, and every metric batch is sent with
its recorded id as ``Idempotency-Key``: pushing a folder again (or after a failed push)
creates nothing twice and stores no point twice.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, run_path
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, fail, print_json, status_text

if TYPE_CHECKING:
    from axonal._offline import OfflineRun
    from axonal.cli.api import Api
    from axonal_events.runs import RunInfo

__all__ = ["push"]

_FOLDER_HINT = "pass the folder `init(offline=True)` printed, e.g. ~/.axonal/offline/<uuid>"


def push(
    path: Annotated[Path, typer.Argument(help="The offline run's folder.")],
    project: Annotated[
        str | None,
        typer.Option(
            "-p",
            "--project",
            help="owner/project (default: the one recorded, else AXONAL_PROJECT).",
        ),
    ] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Push a run recorded offline: create it, send its metrics, inputs, outputs, tags, end."""
    from axonal._offline import read_folder  # noqa: PLC0415
    from axonal_events.runs import RunInfo  # noqa: PLC0415

    try:
        run = read_folder(path.expanduser())
    except ValueError as exc:
        fail(str(exc), _FOLDER_HINT)
    runs = guarded(lambda: run_path(project or run.project))
    with api(api_url) as client:
        created = client.post(f"{runs}/tracked", RunInfo, json=_creation(run))
        path_of_run = f"{runs}/{created.uuid}"
        _send_metrics(client, path_of_run, run, quiet=as_json)
        found = client.patch(path_of_run, RunInfo, json=_changes(run))
        if run.status is not None:
            body = {"status": run.status, "message": run.message}
            found = client.post(f"{path_of_run}/end", RunInfo, json=body)
    summary = {"run": found, "points": run.points, "batches": len(run.batches)}
    print_json(summary) if as_json else _show(found, run)


def _creation(run: OfflineRun) -> dict[str, Any]:
    return {"uuid": run.uuid, "name": run.name, "description": run.description,
            "tags": run.tags, "inputs": run.inputs}  # fmt: skip


def _changes(run: OfflineRun) -> dict[str, Any]:
    return {"inputs": run.inputs, "outputs": run.outputs, "tags": run.tags,
            "progress": run.progress}  # fmt: skip


def _send_metrics(client: Api, path: str, run: OfflineRun, *, quiet: bool) -> None:
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn  # noqa: PLC0415

    from axonal_events.answers import MetricsAccepted  # noqa: PLC0415

    columns = (TextColumn("metrics"), BarColumn(), MofNCompleteColumn(), TextColumn("points"))
    with Progress(*columns, console=console, disable=quiet or not run.batches) as bar:
        task = bar.add_task("metrics", total=run.points)
        for msg_id, body, points in run.batches:
            headers = {"Content-Type": "application/json", "Idempotency-Key": msg_id}
            client.post(f"{path}/metrics", MetricsAccepted, content=body, headers=headers)
            bar.advance(task, points)


def _show(found: RunInfo, run: OfflineRun) -> None:
    project = f"{found.owner}/{found.project}"
    console.print(f"pushed run [bold]{found.uuid}[/] to [bold]{escape(project)}[/]")
    console.print(f"  status   {status_text(found.status)}")
    console.print(f"  metrics  {run.points:,} points in {len(run.batches):,} batches")
    console.print(f"  inputs   {len(found.inputs)}, outputs {len(found.outputs)}")
    if found.tags:
        console.print(f"  tags     {escape(', '.join(found.tags))}")
    if run.status is None:
        console.print("  the run never ended offline: it stays running", style="yellow")
