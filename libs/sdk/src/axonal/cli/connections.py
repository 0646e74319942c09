"""``axonal connections``: named notifier targets of a project and the alert routes to them."""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded, project_path
from axonal.cli.deliveries import add_delivery_commands
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.connections import AlertRouteInfo, ConnectionInfo

__all__ = ["app"]

app = typer.Typer(
    name="connections",
    help="Connections that hooks and alert routes deliver to.\n\n"
    "A connection is a webhook, slack, discord, mattermost, teams, pagerduty or email target.",
    no_args_is_help=True,
    add_completion=False,
)
routes_app = typer.Typer(
    name="routes",
    help="Alert routes: matching events go to a connection.",
    no_args_is_help=True,
    add_completion=False,
)
app.add_typer(routes_app, name="routes")
Repeated = list[str] | None


def _path(project: str | None, tail: str = "") -> str:
    return project_path(project, "connections", tail)


def _target(item: ConnectionInfo) -> str:
    if item.smtp is not None:
        return f"smtp {item.smtp.host}:{item.smtp.port} -> {', '.join(item.smtp.to)}"
    key = f" key {item.routing_key}" if item.routing_key else ""
    return f"{item.url or '-'}{key}"


def _show(connections: list[ConnectionInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("name", "kind", "target (secrets masked)", "state", "failures in a row")
    for item in connections:
        state = "[green]enabled[/]" if item.enabled else "[red]disabled[/]"
        if item.disabled_reason:
            state += f" ({escape(item.disabled_reason)})"
        table.add_row(
            escape(item.name), item.kind.value, escape(_target(item)), state,
            str(item.consecutive_failures),
        )  # fmt: skip
    console.print(table if connections else "no connections")


def _smtp(
    host: str | None,
    port: int,
    username: str | None,
    password: str | None,
    security: str,
    sender: str | None,
    to: Repeated,
) -> dict[str, Any] | None:
    if host is None:
        return None
    return {
        "host": host, "port": port, "username": username, "password": password,
        "security": security, "sender": sender, "to": to or [],
    }  # fmt: skip


@app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="Unique in the project; hooks refer to it.")],
    kind: Annotated[
        str,
        typer.Argument(help="webhook, slack, discord, mattermost, teams, pagerduty or email."),
    ],
    url: Annotated[str | None, typer.Option("--url", help="The incoming webhook URL.")] = None,
    routing_key: Annotated[
        str | None,
        typer.Option("--routing-key", envvar="AXONAL_PAGERDUTY_ROUTING_KEY", help="PagerDuty."),
    ] = None,
    smtp_host: Annotated[str | None, typer.Option("--smtp-host")] = None,
    smtp_port: Annotated[int, typer.Option("--smtp-port", min=1, max=65535)] = 587,
    smtp_user: Annotated[str | None, typer.Option("--smtp-user")] = None,
    smtp_password: Annotated[
        str | None, typer.Option("--smtp-password", envvar="AXONAL_SMTP_PASSWORD")
    ] = None,
    smtp_security: Annotated[
        str, typer.Option("--smtp-security", help="starttls, tls or none.")
    ] = "starttls",
    sender: Annotated[str | None, typer.Option("--from", help="The From address.")] = None,
    to: Annotated[Repeated, typer.Option("--to", help="A recipient (repeatable).")] = None,
    description: Annotated[str, typer.Option("--description", "-d")] = "",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Create a connection, e.g. ``axonal connections create team slack --url https://...``."""
    from axonal_events.connections import ConnectionInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    body: dict[str, Any] = {"name": name, "kind": kind, "description": description}
    smtp = _smtp(smtp_host, smtp_port, smtp_user, smtp_password, smtp_security, sender, to)
    extra = {"url": url, "routing_key": routing_key, "smtp": smtp}
    body |= {k: v for k, v in extra.items() if v is not None}
    with api(api_url) as client:
        found = client.post(path, ConnectionInfo, json=body)
    if as_json:
        print_json(found)
        return
    _show([found])
    if found.secret:
        console.print(f"signing secret: [bold]{escape(found.secret)}[/]")
        console.print("[yellow]Store it now: it is not shown again.[/]")


@app.command("ls")
def ls(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's connections (secrets masked)."""
    from axonal_events.connections import ConnectionList  # noqa: PLC0415

    path = guarded(lambda: _path(project))
    with api(api_url) as client:
        found = client.get(path, ConnectionList)
    print_json(found) if as_json else _show(found.connections)


@app.command("get")
def get(
    name: Annotated[str, typer.Argument(help="The connection's name.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Show one connection (secrets masked)."""
    from axonal_events.connections import ConnectionInfo  # noqa: PLC0415

    path = guarded(lambda: _path(project, name))
    with api(api_url) as client:
        found = client.get(path, ConnectionInfo)
    print_json(found) if as_json else _show([found])


@app.command("rm")
def rm(
    name: Annotated[str, typer.Argument(help="The connection's name.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete a connection, its deliveries and the alert routes to it (--json: those left)."""
    from axonal_events.connections import ConnectionList  # noqa: PLC0415

    path = guarded(lambda: _path(project, name))
    with api(api_url) as client:
        left = client.delete(path, ConnectionList)
    print_json(left) if as_json else console.print(f"deleted connection [bold]{escape(name)}[/]")


add_delivery_commands(app, _path, "connection", "name")


def _routes_path(project: str | None, tail: str = "") -> str:
    return project_path(project, "alert-routes", tail)


def _show_routes(routes: list[AlertRouteInfo]) -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("id", "events", "to", "filters", "dedup s", "suppressed")
    for route in routes:
        given = {"kinds": route.kinds, "statuses": route.statuses, "tags": route.tags}
        filters = [f"{key}: {', '.join(values)}" for key, values in given.items() if values]
        table.add_row(
            route.id, escape(", ".join(route.events)), escape(route.connection),
            escape("; ".join(filters)) or "[dim]-[/]", str(route.dedup_seconds),
            str(route.suppressed),
        )  # fmt: skip
    console.print(table if routes else "no alert routes")


@routes_app.command("create")
def create_route(
    connection: Annotated[str, typer.Argument(help="The connection's name.")],
    events: Annotated[
        list[str],
        typer.Option("--event", "-e", help="Event type or wildcard (repeatable): metric.crossed."),
    ],
    kinds: Annotated[Repeated, typer.Option("--kind", help="Only runs of this kind.")] = None,
    statuses: Annotated[Repeated, typer.Option("--status", help="Only this status.")] = None,
    tags: Annotated[
        Repeated, typer.Option("--tag", "-t", help="Only events with this tag.")
    ] = None,
    dedup: Annotated[
        int, typer.Option("--dedup", min=0, help="Seconds a repeated alert is suppressed.")
    ] = 300,
    description: Annotated[str, typer.Option("--description", "-d")] = "",
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Route events, e.g. ``axonal connections routes create oncall -e metric.crossed``."""
    from axonal_events.connections import AlertRouteInfo  # noqa: PLC0415

    path = guarded(lambda: _routes_path(project))
    body = {
        "connection": connection, "events": events, "kinds": kinds or [],
        "statuses": statuses or [], "tags": tags or [], "dedup_seconds": dedup,
        "description": description,
    }  # fmt: skip
    with api(api_url) as client:
        found = client.post(path, AlertRouteInfo, json=body)
    print_json(found) if as_json else _show_routes([found])


@routes_app.command("ls")
def ls_routes(project: ProjectOpt = None, as_json: AsJson = False, api_url: ApiUrl = None) -> None:
    """List the project's alert routes."""
    from axonal_events.connections import AlertRouteList  # noqa: PLC0415

    path = guarded(lambda: _routes_path(project))
    with api(api_url) as client:
        found = client.get(path, AlertRouteList)
    print_json(found) if as_json else _show_routes(found.routes)


@routes_app.command("rm")
def rm_route(
    route_id: Annotated[str, typer.Argument(help="The route's id.")],
    project: ProjectOpt = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """Delete an alert route (--json: the routes left)."""
    from axonal_events.connections import AlertRouteList  # noqa: PLC0415

    path = guarded(lambda: _routes_path(project, route_id))
    with api(api_url) as client:
        left = client.delete(path, AlertRouteList)
    print_json(left) if as_json else console.print(f"deleted alert route [bold]{route_id}[/]")
