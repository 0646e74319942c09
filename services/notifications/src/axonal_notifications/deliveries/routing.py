"""Which deliveries a batch of events calls for, decided in the intake's transaction (see
:mod:`axonal_notifications.deliveries.handlers`).

* webhook subscriptions that want an event: one delivery each;
* a ``hook.requested`` with a notifier: one delivery to the project's connection of that
  name; a hook that names no such connection (or a disabled one, or one of another kind)
  adds none, is logged as a warning and announced as a final ``notification.failed``;
* alert routes that take an event: one delivery to the route's connection unless the same
  alert was delivered within the route's window (see :mod:`axonal_notifications.domain.alerts`).
"""

from __future__ import annotations

import uuid
from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass

import structlog

from axonal_bus.outbox import enqueue
from axonal_db import Connection
from axonal_events import CloudEvent, EventData, NotificationFailed, Subjects, new_event
from axonal_notifications.connections import store as connections_store
from axonal_notifications.domain.alerts import Route, admit, matching
from axonal_notifications.domain.announcements import SOURCE
from axonal_notifications.domain.deliveries import NewDelivery
from axonal_notifications.domain.filters import Subscription, wants
from axonal_notifications.domain.hooks import HookCall, hook_call, refusal
from axonal_notifications.routes import store as routes_store
from axonal_notifications.webhooks import store as webhooks_store

__all__ = ["Received", "deliveries_for"]

log = structlog.get_logger(__name__)


@dataclass(frozen=True, slots=True)
class Received:
    """An event and its bytes as they were on the bus (what receivers get)."""

    raw: bytes
    event: CloudEvent[EventData]


async def deliveries_for(
    conn: Connection, subjects: Subjects, batch: Sequence[Received]
) -> list[NewDelivery]:
    """The deliveries ``batch`` calls for (run inside one transaction)."""
    projects = sorted({r.event.project for r in batch if r.event.project})
    if not projects:
        return []
    return [
        *await _subscribed(conn, batch, projects),
        *await _hooked(conn, subjects, batch),
        *await _routed(conn, batch, projects),
    ]


def _delivery(target_id: str, received: Received) -> NewDelivery:
    event = received.event
    return NewDelivery(target_id, event.id, event.event_type, received.raw, event.correlationid)


async def _subscribed(
    conn: Connection, batch: Sequence[Received], projects: Sequence[str]
) -> list[NewDelivery]:
    by_project: dict[str, list[Subscription]] = defaultdict(list)
    for sub in await webhooks_store.subscriptions(conn, projects):
        by_project[sub.project].append(sub)
    return [
        _delivery(sub.id, r)
        for r in batch
        for sub in by_project.get(r.event.project or "", ())
        if wants(sub, r.event.event_type, r.event.data)
    ]


async def _hooked(
    conn: Connection, subjects: Subjects, batch: Sequence[Received]
) -> list[NewDelivery]:
    calls = [(r, call) for r in batch if (call := hook_call(r.event)) is not None]
    if not calls:
        return []
    found = await connections_store.resolve(
        conn, sorted({(c.project, c.connection) for _, c in calls})
    )
    new = []
    for received, call in calls:
        target = found.get((call.project, call.connection))
        kind, enabled = (target.kind, target.enabled) if target else (None, False)
        why = refusal(call, kind, enabled=enabled)
        if why is None and target is not None:
            new.append(_delivery(target.id, received))
        else:
            await _undeliverable(conn, subjects, received.event, call, why or "")
    return new


async def _undeliverable(
    conn: Connection, subjects: Subjects, event: CloudEvent[EventData], call: HookCall, why: str
) -> None:
    """Log the hook that cannot be delivered and announce it once (its id is derived from
    the hook's, so an event seen again adds nothing)."""
    log.warning(
        "notifications.hook_undeliverable",
        project=call.project,
        connection=call.connection,
        notifier=call.notifier,
        event_id=event.id,
        reason=why,
    )
    failed_id = str(uuid.uuid5(uuid.NAMESPACE_URL, f"axonal:{event.id}:undeliverable"))
    if await conn.fetchval("SELECT 1 FROM outbox WHERE event_id = $1", failed_id):
        return
    data = NotificationFailed(
        notification_id=event.id,
        source_event_id=event.id,
        channel=call.notifier,
        target=call.connection,
        attempts=1,
        error=why,
        final=True,
    )
    announced = new_event(
        data, source=SOURCE, project=call.project, event_id=failed_id,
        correlation_id=event.correlationid,
    )  # fmt: skip
    await enqueue(conn, subjects, announced)


async def _routed(
    conn: Connection, batch: Sequence[Received], projects: Sequence[str]
) -> list[NewDelivery]:
    by_project: dict[str, list[Route]] = defaultdict(list)
    for route in await routes_store.routes(conn, projects):
        by_project[route.filters.project].append(route)
    if not by_project:
        return []
    received = {r.event.id: r for r in batch}
    alerts = [
        a for r in batch for a in matching(by_project.get(r.event.project or "", []), r.event)
    ]
    if not alerts:
        return []
    last = await routes_store.last_sent(conn, [(a.route.id, a.key) for a in alerts])
    admission = admit(alerts, last)
    await routes_store.save(conn, admission)
    return [_delivery(a.route.connection_id, received[a.event_id]) for a in admission.sent]
