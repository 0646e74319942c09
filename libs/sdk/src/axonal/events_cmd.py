"""``axonal events publish``: send a CloudEvent to a project, as an outside system would."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.api_cli import ApiUrl, AsJson, ProjectOpt, api, guarded, print_json
from axonal.api_client import split_project
from axonal.cli import console, fail

__all__ = ["events_app"]

events_app = typer.Typer(
    name="events", help="Integration events: CloudEvents into the platform.", no_args_is_help=True
)


@events_app.command("publish")
def publish(
    event_type: Annotated[str, typer.Argument(help="The event's type, e.g. dataset.updated.")],
    data: Annotated[
        str | None, typer.Option("--data", "-d", help="The data as JSON, or @FILE to read it.")
    ] = None,
    source: Annotated[str, typer.Option("--source", help="Who sends it (a URI).")] = "axonal-cli",
    event_id: Annotated[
        str | None, typer.Option("--id", help="The event id (default: a new one).")
    ] = None,
    subject: Annotated[str | None, typer.Option("--subject", help="What it is about.")] = None,
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Publish one event; automation rules and webhooks of the project react to it."""
    owner, name = guarded(lambda: split_project(project))
    event: dict[str, Any] = {
        "specversion": "1.0",
        "id": event_id or uuid.uuid4().hex,
        "source": source,
        "type": event_type,
        "time": datetime.now(UTC).isoformat(),
    }
    if subject:
        event["subject"] = subject
    if data is not None:
        event["datacontenttype"] = "application/json"
        event["data"] = _data(data)
    with api(api_url) as client:
        reply = client.request(
            "POST",
            f"/api/v1/{owner}/{name}/events",
            content=json.dumps(event),
            headers={"content-type": "application/cloudevents+json"},
        )
    if as_json:
        print_json(reply)
        return
    for item in reply["accepted"]:
        console.print(
            f"published [bold]{escape(item['type'])}[/] {escape(item['id'])} "
            f"on [cyan]{escape(item['subject'])}[/]"
        )


def _data(value: str) -> Any:
    text = value
    if value.startswith("@"):
        try:
            text = Path(value[1:]).read_text(encoding="utf-8")
        except OSError as exc:
            fail(f"cannot read {value[1:]}: {exc.strerror}")
    try:
        return json.loads(text)
    except ValueError as exc:
        fail(f"--data is not JSON: {exc}", "pass a JSON value, e.g. --data '{\"version\": 7}'")
