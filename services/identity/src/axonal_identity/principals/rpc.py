"""Request/reply: authenticate tokens and passwords; manage principals, tokens and roles.

Who may call what is the api's business (its permission table); these only do it.
"""

from __future__ import annotations

import asyncio
from datetime import UTC, datetime, timedelta

from axonal_bus.errors import Conflict, Forbidden, NotFound
from axonal_db import Connection, transaction
from axonal_events.principals import (
    AuthenticateRequest,
    CreatePrincipalRequest,
    CreateTokenRequest,
    ListMembersRequest,
    ListPrincipalsRequest,
    ListTokensRequest,
    MemberList,
    PasswordLoginRequest,
    Principal,
    PrincipalInfo,
    PrincipalList,
    RevokeTokenRequest,
    SetRoleRequest,
    TokenCreated,
    TokenList,
)
from axonal_events.rpcs import Identity
from axonal_identity.context import Context
from axonal_identity.domain.api_keys import hash_secret
from axonal_identity.domain.credentials import hash_password, new_token, password_matches
from axonal_identity.principals import store

__all__ = ["register"]


async def _named(conn: Connection, name: str) -> PrincipalInfo:
    found = await store.by_name(conn, name)
    if found is None:
        raise NotFound(f"principal {name} does not exist")
    return found


async def authenticate(ctx: Context, request: AuthenticateRequest) -> Principal:
    async with ctx.pool.acquire() as conn:
        principal_id = await store.principal_of_token(conn, hash_secret(request.token))
        found = await store.with_roles(conn, principal_id) if principal_id else None
    if found is None:
        raise Forbidden("invalid, expired or revoked token")
    return found


async def login(ctx: Context, request: PasswordLoginRequest) -> TokenCreated:
    async with ctx.pool.acquire() as conn:
        found = await store.password_hash_of(conn, request.username)
    stored = found[1] if found else None
    # hashing takes tens of milliseconds: off the event loop
    if found is None or not await asyncio.to_thread(password_matches, stored, request.password):
        raise Forbidden("wrong user name or password")
    token = new_token()
    expires = datetime.now(UTC) + timedelta(seconds=request.ttl_seconds)
    async with ctx.pool.acquire() as conn:
        info = await store.insert_token(conn, found[0], request.token_name, token, expires)
    return TokenCreated(**info.model_dump(), token=token.token)


async def create_principal(ctx: Context, request: CreatePrincipalRequest) -> PrincipalInfo:
    hashed = await asyncio.to_thread(hash_password, request.password) if request.password else None
    async with ctx.pool.acquire() as conn:
        created = await store.insert_principal(
            conn,
            request.name,
            request.kind,
            email=request.email,
            password_hash=hashed,
            superuser=request.superuser,
        )
    if created is None:
        raise Conflict(f"principal {request.name} already exists")
    return created


async def list_principals(ctx: Context, request: ListPrincipalsRequest) -> PrincipalList:
    async with ctx.pool.acquire() as conn:
        return PrincipalList(principals=await store.list_principals(conn, request.kind))


async def create_token(ctx: Context, request: CreateTokenRequest) -> TokenCreated:
    token = new_token()
    async with ctx.pool.acquire() as conn:
        principal = await _named(conn, request.principal)
        info = await store.insert_token(conn, principal.id, request.name, token, request.expires_at)
    return TokenCreated(**info.model_dump(), token=token.token)


async def list_tokens(ctx: Context, request: ListTokensRequest) -> TokenList:
    async with ctx.pool.acquire() as conn:
        principal = await _named(conn, request.principal)
        return TokenList(tokens=await store.list_tokens(conn, principal.id))


async def revoke_token(ctx: Context, request: RevokeTokenRequest) -> TokenList:
    async with ctx.pool.acquire() as conn:
        principal = await _named(conn, request.principal)
        if not await store.revoke_token(conn, principal.id, request.token_id):
            raise NotFound(f"token {request.token_id} of {request.principal} does not exist")
        return TokenList(tokens=await store.list_tokens(conn, principal.id))


async def set_role(ctx: Context, request: SetRoleRequest) -> MemberList:
    async with transaction(ctx.pool) as conn:
        principal = await _named(conn, request.principal)
        project_id = await _project_id(conn, request.org, request.project)
        if project_id is None:
            await store.set_org_role(conn, request.org, principal.id, request.role)
        else:
            await store.set_project_role(conn, project_id, principal.id, request.role)
        return MemberList(members=await store.list_members(conn, request.org, project_id))


async def list_members(ctx: Context, request: ListMembersRequest) -> MemberList:
    async with ctx.pool.acquire() as conn:
        project_id = await _project_id(conn, request.org, request.project)
        return MemberList(members=await store.list_members(conn, request.org, project_id))


async def _project_id(conn: Connection, org: str, project: str | None) -> str | None:
    if project is None:
        return None
    found = await store.project_id(conn, org, project)
    if found is None:
        raise NotFound(f"project {org}/{project} does not exist")
    return found


def register(ctx: Context) -> None:
    ctx.serve(Identity.authenticate, authenticate)
    ctx.serve(Identity.login, login)
    ctx.serve(Identity.create_principal, create_principal)
    ctx.serve(Identity.list_principals, list_principals)
    ctx.serve(Identity.create_token, create_token)
    ctx.serve(Identity.list_tokens, list_tokens)
    ctx.serve(Identity.revoke_token, revoke_token)
    ctx.serve(Identity.set_role, set_role)
    ctx.serve(Identity.list_members, list_members)
