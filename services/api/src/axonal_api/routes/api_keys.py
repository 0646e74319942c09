"""``/api/v1/projects/{owner}/{project}/api-keys``: the project's Langfuse-style API keys."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Body

from axonal_api.access import CallerDep
from axonal_api.deps import GatewayDep
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.api_keys import (
    ApiKeyCreated,
    ApiKeyList,
    CreateApiKeyRequest,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
)
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(
    prefix="/api/v1/projects/{owner}/{project}/api-keys", tags=["api keys"], responses=ERRORS
)


@router.post("", status_code=201, summary="Create an API key (the secret is shown once)")
async def create_key(
    gw: GatewayDep,
    who: CallerDep,
    owner: Owner,
    project: Project,
    note: Annotated[str | None, Body(embed=True, max_length=500)] = None,
) -> ApiKeyCreated:
    # the key acts with its maker's role (the operator's token is nobody: the key acts as admin)
    holder = who.principal.name if who.via in ("token", "session") and who.principal else None
    request = CreateApiKeyRequest(project=f"{owner}/{project}", note=note, owner=holder)
    return await gw.call(Identity.create_api_key, request)


@router.get("", summary="List the project's API keys (without secrets)")
async def list_keys(gw: GatewayDep, owner: Owner, project: Project) -> ApiKeyList:
    request = ListApiKeysRequest(project=f"{owner}/{project}")
    return await gw.call(Identity.list_api_keys, request)


@router.delete("/{public_key}", summary="Revoke an API key")
async def revoke_key(gw: GatewayDep, owner: Owner, project: Project, public_key: str) -> ApiKeyList:
    request = RevokeApiKeyRequest(project=f"{owner}/{project}", public_key=public_key)
    return await gw.call(Identity.revoke_api_key, request)
