"""``axonal audit``: an organization's audit trail (organization admins)."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated, Any

import typer
from rich.markup import escape

from axonal.cli.api import api
from axonal.cli.options import ApiUrl, AsJson
from axonal.cli.output import console, print_json

__all__ = ["app"]

app = typer.Typer(
    name="audit",
    help="The audit trail: who did what, when, from where.",
    no_args_is_help=True,
    add_completion=False,
)


@app.callback()
def audit() -> None:
    """The audit trail: who did what, when, from where."""


def _what(data: dict[str, Any], event_type: str) -> str:
    if event_type == "api.write_audited":
        return f"{data.get('method')} {data.get('path')} → {data.get('status')}"
    return event_type


@app.command("ls")
def ls(
    org: Annotated[str, typer.Option("--org", help="The organization.")],
    project: Annotated[str | None, typer.Option("--project", "-p", help="One project.")] = None,
    actor: Annotated[str | None, typer.Option("--actor", help="One caller.")] = None,
    event_type: Annotated[str | None, typer.Option("--type", help="One event type.")] = None,
    since: Annotated[datetime | None, typer.Option("--since", help="From this time.")] = None,
    limit: Annotated[int, typer.Option("--limit", "-n", min=1, max=500)] = 50,
    cursor: Annotated[str | None, typer.Option("--cursor", help="The next page's cursor.")] = None,
    as_json: AsJson = False,
    api_url: ApiUrl = None,
) -> None:
    """List entries, newest first."""
    from rich.table import Table  # noqa: PLC0415

    from axonal_events.audit import AuditPage  # noqa: PLC0415

    params = {
        "project": project.rpartition("/")[2] if project else None,
        "actor": actor,
        "type": event_type,
        "since": since.isoformat() if since else None,
        "limit": limit,
        "cursor": cursor,
    }
    with api(api_url) as client:
        page = client.get(
            f"/api/v1/orgs/{org}/audit",
            AuditPage,
            params={k: v for k, v in params.items() if v is not None},
        )
    if as_json:
        print_json(page)
        return
    table = Table("when", "actor", "what", "project", "from")
    for entry in page.entries:
        table.add_row(
            f"{entry.occurred_at:%Y-%m-%d %H:%M:%S}",
            escape(entry.actor),
            escape(_what(entry.data, entry.type)),
            escape(entry.project or ""),
            escape(str(entry.data.get("client") or entry.source)),
        )
    console.print(table)
    if page.next_cursor:
        console.print(f"[dim]more: --cursor {page.next_cursor}[/]")
