"""SQL for webhook subscriptions and the circuit state of their URLs."""

from __future__ import annotations

import uuid
from collections.abc import Sequence

from axonal_db import Connection
from axonal_events.webhooks import WebhookInfo, WebhookSpec
from axonal_notifications.domain.filters import Subscription

__all__ = [
    "create",
    "delete",
    "disable",
    "get",
    "list_for",
    "subscriptions",
]

_INFO = (
    "SELECT w.id, w.project, w.url, w.events, w.kinds, w.statuses, w.tags, w.description, "
    "w.enabled, w.disabled_reason, w.created_at, coalesce(e.failures, 0) AS "
    "consecutive_failures, e.open_until AS circuit_open_until "
    "FROM webhooks w LEFT JOIN endpoints e ON e.url = w.url "
)


async def create(conn: Connection, spec: WebhookSpec, secret: str) -> WebhookInfo:
    """Store ``spec``; the returned info is the only one that carries the secret."""
    webhook_id = uuid.uuid4().hex
    await conn.execute(
        "INSERT INTO webhooks (id, project, url, events, kinds, statuses, tags, description, "
        "secret) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        webhook_id,
        spec.project,
        spec.url,
        spec.events,
        sorted(set(spec.kinds)),
        sorted(set(spec.statuses)),
        sorted(set(spec.tags)),
        spec.description,
        secret,
    )
    await conn.execute("INSERT INTO endpoints (url) VALUES ($1) ON CONFLICT DO NOTHING", spec.url)
    found = await get(conn, spec.project, webhook_id)
    assert found is not None  # inserted just above
    return found.model_copy(update={"secret": secret})


async def get(conn: Connection, project: str, webhook_id: str) -> WebhookInfo | None:
    row = await conn.fetchrow(_INFO + "WHERE w.project = $1 AND w.id = $2", project, webhook_id)
    return None if row is None else WebhookInfo.model_validate(dict(row))


async def list_for(conn: Connection, project: str) -> list[WebhookInfo]:
    rows = await conn.fetch(_INFO + "WHERE w.project = $1 ORDER BY w.created_at", project)
    return [WebhookInfo.model_validate(dict(row)) for row in rows]


async def delete(conn: Connection, project: str, webhook_id: str) -> bool:
    status: str = await conn.execute(
        "DELETE FROM webhooks WHERE project = $1 AND id = $2", project, webhook_id
    )
    return status.endswith(" 1")


async def subscriptions(conn: Connection, projects: Sequence[str]) -> list[Subscription]:
    """The enabled subscriptions of ``projects``."""
    rows = await conn.fetch(
        "SELECT id, project, events, kinds, statuses, tags FROM webhooks "
        "WHERE project = ANY($1::text[]) AND enabled",
        list(projects),
    )
    return [
        Subscription(
            row["id"], row["project"], tuple(row["events"]), tuple(row["kinds"]),
            tuple(row["statuses"]), tuple(row["tags"]),
        )
        for row in rows
    ]  # fmt: skip


async def disable(conn: Connection, target_id: str, reason: str) -> None:
    """Stop delivering to the subscription ``target_id`` (none: nothing changes)."""
    await conn.execute(
        "UPDATE webhooks SET enabled = false, disabled_reason = $2 WHERE id = $1",
        target_id,
        reason,
    )
