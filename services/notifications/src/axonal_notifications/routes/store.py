"""SQL for alert routes and the de-duplication state of their alerts."""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime, timedelta

from axonal_db import Connection
from axonal_events.connections import AlertRouteInfo, AlertRouteSpec
from axonal_notifications.domain.alerts import Admission, Route
from axonal_notifications.domain.filters import Subscription

__all__ = ["create", "delete", "get", "last_sent", "list_for", "routes", "save"]

_INFO = (
    "SELECT r.id, r.project, c.name AS connection, r.events, r.kinds, r.statuses, r.tags, "
    "r.dedup_seconds, r.description, r.created_at, "
    "(SELECT coalesce(sum(s.suppressed), 0) FROM alert_sends s WHERE s.route_id = r.id) "
    "AS suppressed FROM alert_routes r JOIN connections c ON c.id = r.connection_id "
)

Slot = tuple[str, str]


async def create(conn: Connection, spec: AlertRouteSpec, connection_id: str) -> AlertRouteInfo:
    route_id = uuid.uuid4().hex
    await conn.execute(
        "INSERT INTO alert_routes (id, project, connection_id, events, kinds, statuses, tags, "
        "dedup_seconds, description) VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9)",
        route_id,
        spec.project,
        connection_id,
        spec.events,
        sorted(set(spec.kinds)),
        sorted(set(spec.statuses)),
        sorted(set(spec.tags)),
        spec.dedup_seconds,
        spec.description,
    )
    found = await get(conn, spec.project, route_id)
    assert found is not None  # inserted just above
    return found


async def get(conn: Connection, project: str, route_id: str) -> AlertRouteInfo | None:
    row = await conn.fetchrow(_INFO + "WHERE r.project = $1 AND r.id = $2", project, route_id)
    return None if row is None else AlertRouteInfo.model_validate(dict(row))


async def list_for(conn: Connection, project: str) -> list[AlertRouteInfo]:
    rows = await conn.fetch(_INFO + "WHERE r.project = $1 ORDER BY r.created_at", project)
    return [AlertRouteInfo.model_validate(dict(row)) for row in rows]


async def delete(conn: Connection, project: str, route_id: str) -> bool:
    status: str = await conn.execute(
        "DELETE FROM alert_routes WHERE project = $1 AND id = $2", project, route_id
    )
    return status.endswith(" 1")


async def routes(conn: Connection, projects: Sequence[str]) -> list[Route]:
    """The routes of ``projects`` whose connection is enabled."""
    rows = await conn.fetch(
        "SELECT r.id, r.project, r.connection_id, r.events, r.kinds, r.statuses, r.tags, "
        "r.dedup_seconds FROM alert_routes r JOIN connections c ON c.id = r.connection_id "
        "WHERE r.project = ANY($1::text[]) AND c.enabled",
        list(projects),
    )
    return [
        Route(
            Subscription(
                row["id"], row["project"], tuple(row["events"]), tuple(row["kinds"]),
                tuple(row["statuses"]), tuple(row["tags"]),
            ),
            row["connection_id"],
            timedelta(seconds=row["dedup_seconds"]),
        )
        for row in rows
    ]  # fmt: skip


async def last_sent(conn: Connection, slots: Sequence[Slot]) -> dict[Slot, datetime | None]:
    """When each (route id, alert key) was last delivered, locked for this transaction
    (so replicas taking the same alert at once decide one after the other)."""
    ordered = sorted(set(slots))
    route_ids, keys = [s[0] for s in ordered], [s[1] for s in ordered]
    await conn.execute(
        "INSERT INTO alert_sends (route_id, key) SELECT * FROM unnest($1::text[], $2::text[]) "
        "ON CONFLICT DO NOTHING",
        route_ids,
        keys,
    )
    rows = await conn.fetch(
        "SELECT s.route_id, s.key, s.last_sent_at FROM alert_sends s "
        "JOIN unnest($1::text[], $2::text[]) AS k(route_id, key) USING (route_id, key) "
        "ORDER BY s.route_id, s.key FOR UPDATE OF s",
        route_ids,
        keys,
    )
    return {(row["route_id"], row["key"]): row["last_sent_at"] for row in rows}


async def save(conn: Connection, admission: Admission) -> None:
    """Store the new last delivered times and count the suppressed repeats."""
    await conn.executemany(
        "UPDATE alert_sends SET last_sent_at = $3 WHERE route_id = $1 AND key = $2",
        [(route_id, key, at) for (route_id, key), at in admission.last_sent.items()],
    )
    await conn.executemany(
        "UPDATE alert_sends SET suppressed = suppressed + $3 WHERE route_id = $1 AND key = $2",
        [(route_id, key, n) for (route_id, key), n in admission.suppressed.items()],
    )
