"""SQL for connections; every info read from here has its secrets masked."""

from __future__ import annotations

import json
import uuid
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from axonal_db import Connection
from axonal_events.connections import ConnectionInfo, ConnectionKind, ConnectionSpec, SmtpConfig
from axonal_notifications.domain.secrets import MASK, mask_key, mask_url

__all__ = [
    "Resolved",
    "create",
    "delete",
    "disable",
    "get",
    "list_for",
    "resolve",
    "target_url",
]

_INFO = (
    "SELECT c.id, c.project, c.name, c.kind, c.url, c.settings::text AS settings, "
    "c.description, c.enabled, c.disabled_reason, c.created_at, coalesce(e.failures, 0) AS "
    "consecutive_failures, e.open_until AS circuit_open_until "
    "FROM connections c LEFT JOIN endpoints e ON e.url = c.url "
)


@dataclass(frozen=True, slots=True)
class Resolved:
    """A connection found by name: where its deliveries are keyed, its kind and state."""

    id: str
    kind: str
    enabled: bool


def target_url(spec: ConnectionSpec) -> str:
    """Where deliveries go (and their circuit breaker's key): ``smtp://host:port`` or url."""
    if spec.smtp is not None:
        return f"smtp://{spec.smtp.host}:{spec.smtp.port}"
    assert spec.url is not None  # every other kind has a url (checked by the contract)
    return spec.url


def _masked(row: asyncpg.Record) -> ConnectionInfo:
    settings = json.loads(row["settings"])
    smtp = settings.get("smtp")
    if smtp is not None and smtp.get("password"):
        smtp = smtp | {"password": MASK}
    email = row["kind"] == ConnectionKind.EMAIL
    return ConnectionInfo(
        id=row["id"],
        project=row["project"],
        name=row["name"],
        kind=row["kind"],
        url=None if email else mask_url(row["url"]),
        routing_key=mask_key(settings["routing_key"]) if settings.get("routing_key") else None,
        smtp=SmtpConfig.model_validate(smtp) if smtp is not None else None,
        description=row["description"],
        enabled=row["enabled"],
        disabled_reason=row["disabled_reason"],
        created_at=row["created_at"],
        consecutive_failures=row["consecutive_failures"],
        circuit_open_until=row["circuit_open_until"],
    )


async def create(conn: Connection, spec: ConnectionSpec, secret: str) -> ConnectionInfo:
    """Store ``spec`` (a name taken in the project raises ``UniqueViolationError``); the
    returned info carries ``secret`` when it is a webhook connection's signing secret."""
    connection_id = uuid.uuid4().hex
    url = target_url(spec)
    settings = {
        "routing_key": spec.routing_key,
        "smtp": spec.smtp.model_dump(mode="json") if spec.smtp else None,
    }
    await conn.execute(
        "INSERT INTO connections (id, project, name, kind, url, secret, settings, description) "
        "VALUES ($1, $2, $3, $4, $5, $6, $7::text::jsonb, $8)",
        connection_id,
        spec.project,
        spec.name,
        spec.kind.value,
        url,
        secret,
        json.dumps(settings),
        spec.description,
    )
    await conn.execute("INSERT INTO endpoints (url) VALUES ($1) ON CONFLICT DO NOTHING", url)
    found = await get(conn, spec.project, spec.name)
    assert found is not None  # inserted just above
    return found.model_copy(update={"secret": secret or None})


async def get(conn: Connection, project: str, name: str) -> ConnectionInfo | None:
    row = await conn.fetchrow(_INFO + "WHERE c.project = $1 AND c.name = $2", project, name)
    return None if row is None else _masked(row)


async def list_for(conn: Connection, project: str) -> list[ConnectionInfo]:
    rows = await conn.fetch(_INFO + "WHERE c.project = $1 ORDER BY c.name", project)
    return [_masked(row) for row in rows]


async def delete(conn: Connection, project: str, name: str) -> bool:
    """Delete a connection with its deliveries and the alert routes to it."""
    status: str = await conn.execute(
        "DELETE FROM connections WHERE project = $1 AND name = $2", project, name
    )
    return status.endswith(" 1")


async def resolve(
    conn: Connection, names: Sequence[tuple[str, str]]
) -> dict[tuple[str, str], Resolved]:
    """The connections named by (project, name) pairs; missing ones are left out."""
    rows = await conn.fetch(
        "SELECT c.id, c.project, c.name, c.kind, c.enabled FROM connections c "
        "JOIN unnest($1::text[], $2::text[]) AS n(project, name) USING (project, name)",
        [project for project, _ in names],
        [name for _, name in names],
    )
    return {
        (row["project"], row["name"]): Resolved(row["id"], row["kind"], row["enabled"])
        for row in rows
    }


async def disable(conn: Connection, target_id: str, reason: str) -> None:
    """Stop delivering to the connection ``target_id`` (none: nothing changes)."""
    await conn.execute(
        "UPDATE connections SET enabled = false, disabled_reason = $2 WHERE id = $1",
        target_id,
        reason,
    )
