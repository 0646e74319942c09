"""Consumer of ``artifact.version.created`` (durable ``registry-artifacts``): each artifact
version a run read or wrote becomes an edge of the lineage graph, stored once."""

from __future__ import annotations

from axonal_bus.errors import Invalid
from axonal_events import CloudEvent, EventData
from axonal_events.catalog.models import ArtifactVersionCreated
from axonal_registry.context import Context
from axonal_registry.lineage import store

__all__ = ["on_artifact_version", "register"]


async def on_artifact_version(ctx: Context, event: CloudEvent[EventData]) -> None:
    if not isinstance(event.data, ArtifactVersionCreated):
        raise Invalid(f"expected artifact.version.created, got {event.type}")
    async with ctx.pool.acquire() as conn:
        await store.add(conn, event.data)


def register(ctx: Context) -> None:
    ctx.consume_events(f"{ctx.name}-artifacts", ["artifact.version.created"], on_artifact_version)
