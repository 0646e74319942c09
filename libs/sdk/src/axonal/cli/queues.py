"""``axonal queues``: annotation queues, where people review traces, observations and
sessions and score them with the queue's score configs (Langfuse's model).

Completing an item with ``--score name=value`` checks each score against its config and
creates it (source ANNOTATION, with the queue's id) with the item's completion.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from contextlib import contextmanager
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

__all__ = ["app"]

app = typer.Typer(
    name="queues",
    help="Annotation queues: review and score traces.\n\n"
    "Items are traces, observations or sessions, scored with the queue's score configs.",
    no_args_is_help=True,
    add_completion=False,
)

QueueId = Annotated[str, typer.Argument(help="The queue's id (see `axonal queues ls`).")]
_ROOT = "annotation-queues"


@contextmanager
def _about_queues() -> Iterator[None]:
    """A missing queue or item, or a refused score, is answered with where to look."""
    from axonal.api_client import ApiError  # noqa: PLC0415

    try:
        yield
    except ApiError as exc:
        if exc.code == "not_found":
            exc.hint = "see the queues with `axonal queues ls` and items with `axonal queues items`"
        elif exc.code == "invalid":
            exc.hint = "scores name one of the queue's configs: --score quality=0.8"
        raise


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's annotation queues."""
    from axonal_events.annotation_queues import QueuePage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, _ROOT))
    with api(api_url) as client:
        found = client.get(path, QueuePage, params={"limit": 100})
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "name", "score configs", "description", "created")
    for queue in found.data:
        table.add_row(
            queue.id,
            f"[bold]{escape(queue.name)}[/]",
            str(len(queue.score_config_ids)),
            escape(queue.description or ""),
            queue.created_at.strftime("%Y-%m-%d %H:%M"),
        )
    console.print(table if found.data else "no annotation queues")


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The queue's name, unique in the project.")],
    config: Annotated[
        list[str] | None, typer.Option("--config", "-c", help="A score config id (repeatable).")
    ] = None,
    description: Annotated[str | None, typer.Option("--description", "-d")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create an annotation queue scored with the given configs."""
    from axonal_events.annotation_queues import AnnotationQueue  # noqa: PLC0415

    path = guarded(lambda: project_path(project, _ROOT))
    body = {"name": name, "description": description, "score_config_ids": config or []}
    with api(api_url) as client, _about_queues():
        created = client.post(path, AnnotationQueue, json=body)
    if as_json:
        print_json(created)
        return
    console.print(f"[green]created[/] {escape(created.name)} {created.id}")


@app.command("items")
def items(
    queue_id: QueueId,
    status: Annotated[
        str | None, typer.Option("--status", help="PENDING or COMPLETED (default: all).")
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List a queue's items, oldest first."""
    from axonal_events.annotation_queues import QueueItemPage  # noqa: PLC0415

    path = guarded(lambda: project_path(project, _ROOT, queue_id, "items"))
    params: dict[str, Any] = {"limit": 100}
    if status:
        params["status"] = status.upper()
    with api(api_url) as client, _about_queues():
        found = client.get(path, QueueItemPage, params=params)
    if as_json:
        print_json(found.data)
        return
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "object", "type", "status", "completed")
    for item in found.data:
        done = item.status == "COMPLETED"
        table.add_row(
            item.id,
            escape(item.object_id),
            item.object_type.value,
            f"[green]{item.status.value}[/]" if done else item.status.value,
            item.completed_at.strftime("%Y-%m-%d %H:%M") if item.completed_at else "",
        )
    console.print(table if found.data else "no items")


@app.command("enqueue")
def enqueue(
    queue_id: QueueId,
    object_id: Annotated[str, typer.Argument(help="The trace, observation or session id.")],
    object_type: Annotated[
        str, typer.Option("--type", help="TRACE, OBSERVATION or SESSION.")
    ] = "TRACE",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Add an object to a queue (adding it again answers the item already there)."""
    from axonal_events.annotation_queues import QueueItem  # noqa: PLC0415

    path = guarded(lambda: project_path(project, _ROOT, queue_id, "items"))
    body = {"object_id": object_id, "object_type": object_type.upper()}
    with api(api_url) as client, _about_queues():
        item = client.post(path, QueueItem, json=body)
    if as_json:
        print_json(item)
        return
    console.print(f"{item.id}  {escape(item.object_id)} [dim]{item.status.value}[/]")


def _score(text: str) -> dict[str, Any]:
    """``name=value``: a number, true/false, or a category label."""
    name, sep, raw = text.partition("=")
    if not sep or not name or not raw:
        fail(f"--score {text!r} is not name=value", hint="--score quality=0.8 --score tone=good")
    try:
        value = json.loads(raw)
    except json.JSONDecodeError:
        value = raw
    if not isinstance(value, int | float | str):
        value = raw
    return {"name": name, "value": value}


@app.command("complete")
def complete(
    queue_id: QueueId,
    item_id: Annotated[str, typer.Argument(help="The item's id (see `axonal queues items`).")],
    score: Annotated[
        list[str] | None,
        typer.Option("--score", "-s", help="name=value of one of the queue's configs."),
    ] = None,
    comment: Annotated[
        str | None, typer.Option("--comment", help="Kept with every score given.")
    ] = None,
    trace_id: Annotated[
        str | None,
        typer.Option("--trace-id", help="An OBSERVATION item's trace (looked up if left out)."),
    ] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Complete an item and create its scores, each checked against its config."""
    from axonal_events.annotation_queues import CompletedQueueItem  # noqa: PLC0415

    path = guarded(lambda: project_path(project, _ROOT, queue_id, "items", item_id, "complete"))
    scores = [_score(s) | {"comment": comment} for s in score or []]
    with api(api_url) as client, _about_queues():
        done = client.post(path, CompletedQueueItem, json={"scores": scores, "trace_id": trace_id})
    if as_json:
        print_json(done)
        return
    console.print(f"[green]completed[/] {done.item.id}  {len(done.score_ids)} score(s) created")
