"""Request/reply: create, verify, list and revoke project API keys."""

from __future__ import annotations

from axonal_bus.errors import Permanent
from axonal_bus.service import ServiceContext
from axonal_db import Connection
from axonal_events.api_keys import (
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    CreateApiKeyRequest,
    KeyProject,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
    VerifyApiKeyRequest,
)
from axonal_identity import keys_store
from axonal_identity.domain.api_keys import new_key, secret_matches

__all__ = ["register"]


async def _project(conn: Connection, slug: str) -> KeyProject:
    owner, _, name = slug.partition("/")
    project = await keys_store.project_by_slug(conn, owner, name)
    if project is None:
        raise Permanent(f"not found: project {slug}")
    return project


def register(ctx: ServiceContext) -> None:
    async def create_api_key(request: CreateApiKeyRequest) -> ApiKeyCreated:
        key = new_key()
        async with ctx.pool.acquire() as conn:
            project = await _project(conn, request.project)
            info = await keys_store.insert_key(conn, project, key, request.note)
        return ApiKeyCreated(**info.model_dump(), secret_key=key.secret_key)

    async def verify_api_key(request: VerifyApiKeyRequest) -> ApiKeyInfo:
        async with ctx.pool.acquire() as conn:
            found = await keys_store.key_by_public(conn, request.public_key)
        if found is None or not secret_matches(request.secret_key, found[1]):
            raise Permanent("invalid API key")
        return found[0]

    async def list_api_keys(request: ListApiKeysRequest) -> ApiKeyList:
        async with ctx.pool.acquire() as conn:
            project = await _project(conn, request.project)
            return ApiKeyList(keys=await keys_store.list_keys(conn, project.id))

    async def revoke_api_key(request: RevokeApiKeyRequest) -> ApiKeyList:
        async with ctx.pool.acquire() as conn:
            project = await _project(conn, request.project)
            if not await keys_store.revoke_key(conn, project.id, request.public_key):
                raise Permanent(f"not found: API key {request.public_key} in {request.project}")
            return ApiKeyList(keys=await keys_store.list_keys(conn, project.id))

    ctx.serve_rpc("create_api_key", CreateApiKeyRequest, create_api_key)
    ctx.serve_rpc("verify_api_key", VerifyApiKeyRequest, verify_api_key)
    ctx.serve_rpc("list_api_keys", ListApiKeysRequest, list_api_keys)
    ctx.serve_rpc("revoke_api_key", RevokeApiKeyRequest, revoke_api_key)
