"""Request/reply: read and set a project's quotas."""

from __future__ import annotations

from axonal_bus.errors import NotFound
from axonal_bus.outbox import enqueue
from axonal_db import transaction
from axonal_events import new_event
from axonal_events.catalog import ProjectQuotasChanged
from axonal_events.quotas import ProjectQuotas, SetQuotasRequest
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Identity
from axonal_identity.context import Context
from axonal_identity.quotas import store

__all__ = ["get_quotas", "register", "set_quotas"]


async def get_quotas(ctx: Context, request: ProjectRef) -> ProjectQuotas:
    async with ctx.pool.acquire() as conn:
        found = await store.quotas(conn, request.owner, request.name)
    if found is None:
        raise NotFound(f"project {request.owner}/{request.name} does not exist")
    return found


async def set_quotas(ctx: Context, request: SetQuotasRequest) -> ProjectQuotas:
    """Set the quotas and emit ``project.quotas.changed`` in the same transaction."""
    slug = f"{request.owner}/{request.name}"
    async with transaction(ctx.pool) as conn:
        found = await store.set_quotas(conn, request.owner, request.name, request.quotas)
        if found is None:
            raise NotFound(f"project {slug} does not exist")
        changed = ProjectQuotasChanged(
            project_id=found.project_id, owner=found.owner, name=found.name, quotas=found.quotas
        )
        await enqueue(conn, ctx.subjects, new_event(changed, source=ctx.source, project=slug))
    return found


def register(ctx: Context) -> None:
    ctx.serve(Identity.get_quotas, get_quotas)
    ctx.serve(Identity.set_quotas, set_quotas)
