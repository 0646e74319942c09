"""Consumers of deletions: a service deletes what it holds for a deleted project, trace or
run, once, and confirms it with ``deletion.completed`` in the same transaction.

Each service gives the purges it needs (:class:`Purges`); :func:`consume_deletions` consumes
the matching events on its durable ``<service>-deletions``, records the event id in the inbox
(a redelivery deletes nothing twice and confirms nothing twice) and enqueues the confirmation
in the outbox. A project's purge also drops the service's published outbox rows that carried
the project's data.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass
from typing import Any

from axonal_bus.errors import Invalid
from axonal_bus.inbox import claim
from axonal_bus.outbox import enqueue
from axonal_bus.service import ServiceContext
from axonal_db import Connection, transaction
from axonal_events import CloudEvent, EventData, new_event
from axonal_events.catalog import DeletionCompleted, ProjectDeleted, RunDeleted, TraceDeleted
from axonal_events.retention import DeletionScope

__all__ = ["Purges", "consume_deletions", "delete_rows", "purge_published_events"]

Purge = Callable[[Connection, Any], Awaitable[int]]

# Published events of the project: those that name it (envelope extension) or carry its id.
_PUBLISHED_SQL = (
    "DELETE FROM outbox WHERE published_at IS NOT NULL AND ("
    "convert_from(payload, 'UTF8')::jsonb ->> 'project' = $1 "
    "OR position(convert_to($2, 'UTF8') IN payload) > 0)"
)


@dataclass(frozen=True, slots=True)
class Purges:
    """What a service deletes, per scope: each returns how many rows (or objects) went."""

    project: Callable[[Connection, ProjectDeleted], Awaitable[int]] | None = None
    trace: Callable[[Connection, TraceDeleted], Awaitable[int]] | None = None
    run: Callable[[Connection, RunDeleted], Awaitable[int]] | None = None

    def types(self) -> list[str]:
        return [
            kind.type_name
            for kind, purge in (
                (ProjectDeleted, self.project),
                (TraceDeleted, self.trace),
                (RunDeleted, self.run),
            )
            if purge is not None
        ]


async def delete_rows(conn: Connection, wheres: Sequence[str], *args: object) -> int:
    """Run ``DELETE FROM <where>`` for each of ``wheres`` (constants such as ``"runs WHERE
    project = $1"``, children before parents) with ``args``; how many rows went."""
    total = 0
    for where in wheres:
        status: str = await conn.execute(f"DELETE FROM {where}", *args)  # noqa: S608 - constants
        total += int(status.rsplit(maxsplit=1)[-1])
    return total


async def purge_published_events(conn: Connection, project: ProjectDeleted) -> int:
    """Delete the published outbox rows of ``project`` (their payloads carry its data)."""
    status: str = await conn.execute(
        _PUBLISHED_SQL, f"{project.owner}/{project.name}", project.project_id
    )
    return int(status.rsplit(maxsplit=1)[-1])


def _target(data: EventData) -> tuple[DeletionScope, str, str]:
    """Scope, target and ``owner/name`` of a deletion event."""
    if isinstance(data, ProjectDeleted):
        return "project", data.project_id, f"{data.owner}/{data.name}"
    if isinstance(data, TraceDeleted):
        return "trace", data.trace_id, data.project
    if isinstance(data, RunDeleted):
        return "run", data.run_uuid, f"{data.owner}/{data.project}"
    raise Invalid(f"not a deletion event: {data.event_type()}")


async def _apply(purges: Purges, conn: Connection, data: EventData) -> int:
    if isinstance(data, ProjectDeleted) and purges.project is not None:
        return await purges.project(conn, data) + await purge_published_events(conn, data)
    if isinstance(data, TraceDeleted) and purges.trace is not None:
        return await purges.trace(conn, data)
    if isinstance(data, RunDeleted) and purges.run is not None:
        return await purges.run(conn, data)
    raise Invalid(f"no purge for {data.event_type()}")


def consume_deletions(ctx: ServiceContext[Any], purges: Purges) -> None:
    """Consume the deletions ``purges`` handles on ``<service>-deletions``."""
    durable = f"{ctx.name}-deletions"

    async def on_deletion(ctx: ServiceContext[Any], event: CloudEvent[EventData]) -> None:
        scope, target, project = _target(event.data)
        async with transaction(ctx.pool) as conn:
            if not await claim(conn, durable, event.id):
                return
            rows = await _apply(purges, conn, event.data)
            done = DeletionCompleted(
                scope=scope, target=target, request_id=event.id, service=ctx.name, rows=rows
            )
            await enqueue(conn, ctx.subjects, new_event(done, source=ctx.source, project=project))

    ctx.consume_events(durable, purges.types(), on_deletion, ack_wait=300.0)
