"""Request/reply: read an organization's audit trail, newest first, a page at a time."""

from __future__ import annotations

from axonal_bus.errors import Invalid
from axonal_events.audit import AuditPage, ListAuditRequest
from axonal_events.rpcs import Identity
from axonal_identity.audit import store
from axonal_identity.context import Context
from axonal_identity.domain.audit_cursor import InvalidCursor, decode_cursor, encode_cursor

__all__ = ["list_audit", "register"]


async def list_audit(ctx: Context, request: ListAuditRequest) -> AuditPage:
    try:
        after = decode_cursor(request.cursor) if request.cursor else None
    except InvalidCursor as exc:
        raise Invalid(str(exc)) from None
    async with ctx.pool.acquire() as conn:
        entries = await store.list_audit(conn, request, after)
    last = entries[-1] if len(entries) == request.limit else None
    return AuditPage(
        entries=entries,
        next_cursor=encode_cursor(last.occurred_at, last.event_id) if last else None,
    )


def register(ctx: Context) -> None:
    ctx.serve(Identity.list_audit, list_audit)
