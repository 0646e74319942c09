"""``axonal webhooks``: signed webhook subscriptions of a project and their deliveries."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.deliveries import add_delivery_commands
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt, alias
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.webhooks import WebhookInfo

__all__ = ["app"]

app = typer.Typer(
    name="webhooks",
    help="Webhook subscriptions: events POSTed as signed CloudEvents.",
    no_args_is_help=True,
    add_completion=False,
)


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "webhooks", tail)


def _show(webhooks: list[WebhookInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "url", "events", "state", "failures in a row")
    for hook in webhooks:
        state = "[green]enabled[/]" if hook.enabled else "[red]disabled[/]"
        if hook.disabled_reason:
            state += f" ({escape(hook.disabled_reason)})"
        if hook.circuit_open_until:
            state += f" [yellow]circuit open until {hook.circuit_open_until}[/]"
        table.add_row(
            hook.id, escape(hook.url), escape(", ".join(hook.events)), state,
            str(hook.consecutive_failures),
        )  # fmt: skip
    console.print(table if webhooks else "no webhooks")


@app.command("create")
def create(
    url: Annotated[str, typer.Argument(help="The receiver's http(s) URL.")],
    events: Annotated[
        list[str],
        typer.Option("--event", "-e", help="Event type or wildcard (repeatable): run.*, *."),
    ],
    kinds: Annotated[
        list[str] | None, typer.Option("--kind", help="Only runs of this kind (repeatable).")
    ] = None,
    statuses: Annotated[
        list[str] | None, typer.Option("--status", help="Only this status (repeatable).")
    ] = None,
    tags: Annotated[
        list[str] | None, typer.Option("--tag", "-t", help="Only events with this tag.")
    ] = None,
    description: Annotated[str, typer.Option("--description", "-d")] = "",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Subscribe URL, e.g. ``axonal webhooks create https://ci.example.com/hook -e 'run.*'``."""
    from axonal_events.webhooks import WebhookInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    body = {
        "url": url,
        "events": events,
        "kinds": kinds or [],
        "statuses": statuses or [],
        "tags": tags or [],
        "description": description,
    }
    with api(api_url) as client:
        hook = client.post(path, WebhookInfo, json=body)
    if as_json:
        print_json(hook)
        return
    _show([hook])
    console.print(f"signing secret: [bold]{escape(hook.secret or '')}[/]")
    console.print(
        "[yellow]Store it now: it is not shown again.[/] Receivers verify each POST with it "
        "(Standard Webhooks: webhook-id, webhook-timestamp, webhook-signature)."
    )


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's subscriptions."""
    from axonal_events.webhooks import WebhookList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, WebhookList)
    print_json(found) if as_json else _show(found.webhooks)


@app.command("rm")
def rm(
    webhook_id: Annotated[str, typer.Argument(help="The webhook's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a subscription and its deliveries (--json: the subscriptions left)."""
    from axonal_events.webhooks import WebhookList  # noqa: PLC0415

    path = guarded(lambda: _path(project, webhook_id))
    with api(api_url) as client:
        left = client.delete(path, WebhookList)
    print_json(left) if as_json else console.print(f"deleted webhook [bold]{webhook_id}[/]")


alias(app, "delete", "rm", rm)
add_delivery_commands(app, _path, "webhook", "id")
