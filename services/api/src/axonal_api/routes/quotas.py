"""``/api/v1/projects/{owner}/{project}/quotas``: read and set a project's quotas (identity).

A limit left unset is the default of the service enforcing it: the api's for ingest rates and
storage, the scheduler's for concurrent runs. A change applies at once on this api replica and
within :data:`axonal_api.quotas.TTL` seconds on the others; the scheduler applies a new
concurrency at its next admission.
"""

from __future__ import annotations

from fastapi import APIRouter

from axonal_api.deps import GatewayDep
from axonal_api.quotas import QuotasDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.quotas import ProjectQuotas, QuotaLimits, SetQuotasRequest
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/projects", tags=["projects"], responses=ERRORS)


@router.get("/{owner}/{project}/quotas", summary="A project's quotas")
async def get_quotas(gw: GatewayDep, owner: Owner, project: Project) -> ProjectQuotas:
    """Its limits; one left unset (``null``) is the platform's default."""
    return await gw.call(Identity.get_quotas, ProjectRef(owner=owner, name=project))


@router.put("/{owner}/{project}/quotas", summary="Set a project's quotas")
async def set_quotas(
    gw: GatewayDep, quotas: QuotasDep, owner: Owner, project: Project, body: QuotaLimits
) -> ProjectQuotas:
    """Replaces every limit: concurrent runs, spans and points per second, storage bytes (one
    left out: the platform's default). A client over a rate gets 429 with ``Retry-After``; a
    run over the concurrency waits queued; an upload over the storage gets 413."""
    request = SetQuotasRequest(owner=owner, name=project, quotas=body)
    found = await gw.call(Identity.set_quotas, request)
    quotas.forget(f"{owner}/{project}")
    return found
