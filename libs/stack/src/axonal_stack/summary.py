"""Rich rendering of a stack: where everything is, and how each service is doing."""

from __future__ import annotations

from pathlib import Path

from rich import box
from rich.console import Group, RenderableType
from rich.panel import Panel
from rich.table import Table
from rich.text import Text

from axonal_stack.health import ServiceHealth, StackStatus
from axonal_stack.settings import StackPaths

__all__ = ["format_uptime", "services_table", "stack_summary"]

_STYLES = {"ok": "green", "degraded": "yellow", "down": "red"}


def format_uptime(seconds: float | None) -> str:
    """``42s``, ``5m 03s``, ``2h 07m``, ``3d 04h``; ``-`` when unknown."""
    if seconds is None:
        return "-"
    total = int(seconds)
    days, rest = divmod(total, 86400)
    hours, rest = divmod(rest, 3600)
    minutes, secs = divmod(rest, 60)
    if days:
        return f"{days}d {hours:02d}h"
    if hours:
        return f"{hours}h {minutes:02d}m"
    if minutes:
        return f"{minutes}m {secs:02d}s"
    return f"{secs}s"


def _checks(health: ServiceHealth) -> Text:
    if health.error:
        return Text(health.error, style="red")
    text = Text()
    for i, (name, state) in enumerate(sorted(health.checks.items())):
        if i:
            text.append(", ")
        text.append(f"{name}: ")
        text.append(state, style="green" if state == "ok" else "red")
    return text


def services_table(services: list[ServiceHealth]) -> Table:
    """One row per service: status, instance, version, uptime, restarts, checks."""
    table = Table(box=box.SIMPLE_HEAD, pad_edge=False)
    for column in ("service", "status", "instance", "version", "uptime", "restarts", "checks"):
        table.add_column(column, justify="right" if column == "restarts" else "left")
    for health in services:
        table.add_row(
            health.service,
            Text(health.status, style=f"bold {_STYLES[health.status]}"),
            health.instance or "-",
            health.version or "-",
            format_uptime(health.uptime_seconds),
            str(health.restarts),
            _checks(health),
        )
    return table


def stack_summary(status: StackStatus) -> RenderableType:
    """A panel of addresses (the web UI's first) and folders above the services table."""
    paths = StackPaths(Path(status.home))
    where = Table.grid(padding=(0, 2))
    where.add_column(style="bold cyan")
    where.add_column()
    no_api = "not running (no api service installed)"
    where.add_row("UI", Text(status.ui_url, style="bold") if status.ui_url else no_api)
    nats = status.nats_url.replace(",", ", ") if status.nats_url else None
    rows = {
        "NATS": nats,
        "PostgreSQL": status.database_url,
        "API": status.api_url or no_api,
    }
    if replicas := [h.url for h in status.services if h.url and (h.replica or 1) > 1]:
        rows["API replicas"] = ", ".join(replicas)
    rows |= {
        "home": str(paths.home),
        "logs": str(paths.logs),
        "artifacts": status.artifacts_url or str(paths.artifacts),
    }
    for key, value in rows.items():
        where.add_row(key, value or "-")
    healthy = sum(1 for h in status.services if h.healthy)
    if status.healthy:
        title, style = f"Axonal is up: {healthy}/{len(status.services)} services healthy", "green"
    elif status.running:
        title, style = f"Axonal is degraded: {healthy}/{len(status.services)} healthy", "yellow"
    else:
        title, style = "Axonal is not running", "red"
    parts: list[RenderableType] = [where]
    for why in status.down.values() if status.down else filter(None, [status.error]):
        parts.append(Text(why, style="red"))
    if status.services:
        parts.append(services_table(status.services))
    return Panel(Group(*parts), title=title, title_align="left", border_style=style)
