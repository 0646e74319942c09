"""``/api/v1/orgs/{org}/audit``: who did what, to which object, when, from where."""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query

from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, SLUG
from axonal_events.audit import AuditPage, ListAuditRequest
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/orgs/{org}/audit", tags=["audit"], responses=ERRORS)


@router.get("", summary="An organization's audit trail, newest first (org admins)")
async def list_audit(
    gw: GatewayDep,
    org: Annotated[str, Path(pattern=SLUG)],
    project: Annotated[str | None, Query(pattern=SLUG, description="One project's.")] = None,
    actor: Annotated[str | None, Query(max_length=200, description="One caller's.")] = None,
    type: Annotated[  # noqa: A002 - the query parameter's name
        str | None, Query(max_length=200, description="One event type: api.write_audited...")
    ] = None,
    since: Annotated[datetime | None, Query()] = None,
    until: Annotated[datetime | None, Query()] = None,
    limit: Annotated[int, Query(ge=1, le=500)] = 50,
    cursor: Annotated[
        str | None, Query(max_length=200, description="A page's next_cursor.")
    ] = None,
) -> AuditPage:
    query = ListAuditRequest(
        org=org,
        project=project,
        actor=actor,
        type=type,
        since=since,
        until=until,
        limit=limit,
        cursor=cursor,
    )
    return await gw.call(Identity.list_audit, query)
