"""``axonal events publish``: send a CloudEvent to a project, as an outside system would."""

from __future__ import annotations

import json
import uuid
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.api_client import split_project
from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, fail, print_json

__all__ = ["app"]

app = typer.Typer(
    name="events",
    help="Integration events: CloudEvents into the platform.",
    no_args_is_help=True,
    add_completion=False,
)


@app.command("publish")
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
    from axonal_events.answers import EventsAccepted  # noqa: PLC0415

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
        reply = client.post(
            f"/api/v1/{owner}/{name}/events",
            EventsAccepted,
            content=json.dumps(event),
            headers={"content-type": "application/cloudevents+json"},
        )
    if as_json:
        print_json(reply)
        return
    for item in reply.accepted:
        console.print(
            f"published [bold]{escape(item.type)}[/] {escape(item.id)} "
            f"on [cyan]{escape(item.subject)}[/]"
        )


@app.command("nats-user")
def nats_user_entry(
    source: Annotated[str, typer.Argument(help="The integration's name, e.g. warehouse.")],
    namespace: Annotated[
        str, typer.Option("--namespace", envvar="AXONAL_NAMESPACE", help="The bus namespace.")
    ] = "axonal",
) -> None:
    """Print a NATS user for a trusted integration: it may publish its own events on
    ``<ns>.ext.<source>.>`` and nothing else. Add the entry to the ``users`` of the
    platform's account in the nats-server configuration."""
    from axonal_events import Subjects  # noqa: PLC0415 - keep `axonal --help` fast
    from axonal_events.integrations import (  # noqa: PLC0415
        integration_inbox,
        nats_user,
        password_variable,
    )

    try:
        subjects = Subjects(namespace)
        entry = nats_user(subjects, source)
    except ValueError as exc:
        fail(str(exc), hint="a source is one token of letters, digits, - or _")
    print(entry)
    console.print(
        f"[dim]# set {password_variable(source)} in the server's environment; the client "
        f"connects as ext-{escape(source)} with inbox_prefix="
        f"{integration_inbox(subjects, source)} and publishes CloudEvents on "
        f"{subjects.externals(source)[:-1]}<type>[/]",
        highlight=False,
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
