"""Request/reply: create, verify, list and revoke project API keys."""

from __future__ import annotations

from axonal_bus.errors import Forbidden, NotFound
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
from axonal_events.rpcs import Identity
from axonal_identity.api_keys import store
from axonal_identity.context import Context
from axonal_identity.domain.api_keys import new_key, secret_matches
from axonal_identity.principals import store as principals_store

__all__ = ["create_api_key", "list_api_keys", "register", "revoke_api_key", "verify_api_key"]


async def _project(conn: Connection, slug: str) -> KeyProject:
    owner, _, name = slug.partition("/")
    project = await store.project_by_slug(conn, owner, name)
    if project is None:
        raise NotFound(f"project {slug} does not exist")
    return project


async def _owner_id(conn: Connection, name: str | None) -> str | None:
    if name is None:
        return None
    found = await principals_store.by_name(conn, name)
    if found is None:
        raise NotFound(f"principal {name} does not exist")
    return found.id


async def create_api_key(ctx: Context, request: CreateApiKeyRequest) -> ApiKeyCreated:
    key = new_key()
    async with ctx.pool.acquire() as conn:
        project = await _project(conn, request.project)
        owner_id = await _owner_id(conn, request.owner)
        info = await store.insert_key(conn, project, key, request.note, owner_id)
    return ApiKeyCreated(**info.model_dump(), secret_key=key.secret_key)


async def verify_api_key(ctx: Context, request: VerifyApiKeyRequest) -> ApiKeyInfo:
    async with ctx.pool.acquire() as conn:
        found = await store.key_by_public(conn, request.public_key)
    if found is None or not secret_matches(request.secret_key, found[1]):
        raise Forbidden("invalid API key")
    return found[0]


async def list_api_keys(ctx: Context, request: ListApiKeysRequest) -> ApiKeyList:
    async with ctx.pool.acquire() as conn:
        project = await _project(conn, request.project)
        return ApiKeyList(keys=await store.list_keys(conn, project.id))


async def revoke_api_key(ctx: Context, request: RevokeApiKeyRequest) -> ApiKeyList:
    async with ctx.pool.acquire() as conn:
        project = await _project(conn, request.project)
        if not await store.revoke_key(conn, project.id, request.public_key):
            raise NotFound(f"API key {request.public_key} does not exist in {request.project}")
        return ApiKeyList(keys=await store.list_keys(conn, project.id))


def register(ctx: Context) -> None:
    ctx.serve(Identity.create_api_key, create_api_key)
    ctx.serve(Identity.verify_api_key, verify_api_key)
    ctx.serve(Identity.list_api_keys, list_api_keys)
    ctx.serve(Identity.revoke_api_key, revoke_api_key)
