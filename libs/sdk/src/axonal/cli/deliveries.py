"""``deliveries`` and ``replay``: the delivery log of a webhook subscription or a connection.

No ``from __future__ import annotations`` here: Typer reads the commands' annotations at run
time, and the argument's type is built inside :func:`add_delivery_commands`.
"""

from collections.abc import Callable
from typing import TYPE_CHECKING, Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api, guarded
from axonal.cli.options import ApiUrl, AsJson, ProjectOpt
from axonal.cli.output import console, print_json

if TYPE_CHECKING:
    from axonal_events.webhooks import DeliveryInfo

__all__ = ["add_delivery_commands", "show_deliveries"]

_STATUS_STYLE = {"delivered": "green", "failed": "yellow", "dead": "red", "pending": "dim"}


def show_deliveries(deliveries: "list[DeliveryInfo]") -> None:
    from rich.table import Table  # noqa: PLC0415

    table = Table("event", "type", "status", "attempts", "last code", "latency ms", "next attempt")
    for item in deliveries:
        last = item.attempts[-1] if item.attempts else None
        if last is None:
            code, latency = "-", "-"
        elif last.status_code is not None:
            code, latency = str(last.status_code), f"{last.latency_ms:.1f}"
        else:  # no answer came: why
            code, latency = escape(last.error or "-")[:40], f"{last.latency_ms:.1f}"
        style = _STATUS_STYLE.get(item.status, "")
        table.add_row(
            item.id, escape(item.event_type), f"[{style}]{item.status.value}[/]",
            str(len(item.attempts)), code, latency, str(item.next_attempt_at or "-"),
        )  # fmt: skip
    console.print(table if deliveries else "no deliveries")


def add_delivery_commands(
    app: typer.Typer, path: Callable[[str | None, str], str], target: str, key: str
) -> None:
    """Add ``deliveries`` and ``replay`` to ``app``: ``path(project, tail)`` is the API path
    below one ``target`` (``connection``), which the commands' argument names by its ``key``
    (``name``)."""
    Target = Annotated[  # noqa: N806 - a type
        str, typer.Argument(metavar=key.upper(), help=f"The {target}'s {key}.")
    ]

    @app.command("deliveries", help=f"The newest deliveries of a {target} with their attempts.")
    def deliveries(
        key: Target,
        status: Annotated[
            str | None, typer.Option("--status", help="pending, failed, delivered or dead.")
        ] = None,
        limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=1000)] = 50,
        project: ProjectOpt = None,
        as_json: AsJson = False,
        api_url: ApiUrl = None,
    ) -> None:
        from axonal_events.webhooks import DeliveryList  # noqa: PLC0415

        where = guarded(lambda: path(project, f"{key}/deliveries"))
        params: dict[str, Any] = {"limit": limit} | ({"status": status} if status else {})
        with api(api_url) as client:
            found = client.get(where, DeliveryList, params=params)
        print_json(found) if as_json else show_deliveries(found.deliveries)

    @app.command("replay", help=f"Send a delivery again, or every dead one of a {target}.")
    def replay(
        key: Target,
        delivery: Annotated[
            str | None, typer.Option("--delivery", help="Only this delivery (else every dead one).")
        ] = None,
        project: ProjectOpt = None,
        as_json: AsJson = False,
        api_url: ApiUrl = None,
    ) -> None:
        from axonal_events.webhooks import ReplayResult  # noqa: PLC0415

        tail = f"{key}/deliveries/{delivery}/replay" if delivery else f"{key}/replay"
        where = guarded(lambda: path(project, tail))
        with api(api_url) as client:
            found = client.post(where, ReplayResult)
        if as_json:
            print_json(found)
        else:
            console.print(f"{found.replayed} deliveries queued again")
