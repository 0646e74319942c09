"""Users, service accounts and their tokens; roles in organizations and projects.

Who may do what here is in :data:`~axonal_api.permissions.PERMISSIONS` (a principal's tokens
are its own, or a superuser's business); on top of it, only an owner grants ``owner``.
"""

from __future__ import annotations

from datetime import datetime
from typing import Annotated

from fastapi import APIRouter, Path, Query
from pydantic import BaseModel, Field

from axonal_api.access import CallerDep
from axonal_api.callers import Caller
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.runs import ERRORS, SLUG, Owner, Project
from axonal_events.principals import (
    CreatePrincipalRequest,
    CreateTokenRequest,
    ListMembersRequest,
    ListPrincipalsRequest,
    ListTokensRequest,
    MemberList,
    PrincipalInfo,
    PrincipalKind,
    PrincipalList,
    RevokeTokenRequest,
    Role,
    RoleName,
    SetRoleRequest,
    TokenCreated,
    TokenList,
)
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1", tags=["access"], responses=ERRORS)

Name = Annotated[str, Path(pattern=SLUG, description="A user's or service account's name.")]
Org = Annotated[str, Path(pattern=SLUG, description="Organisation slug.")]


class NewToken(BaseModel):
    name: str = Field(min_length=1, max_length=100)
    expires_at: datetime | None = None


class Grant(BaseModel):
    role: RoleName | None = Field(description="``null`` removes the grant.")


def _may_grant(who: Caller, held: Role, role: RoleName | None) -> None:
    if role == "owner" and held < Role.OWNER:
        raise ApiError(
            403, "forbidden", f"{who.name} is not an owner here: only owners grant owner"
        )


@router.get("/principals", summary="Users and service accounts")
async def list_principals(
    gw: GatewayDep, kind: Annotated[PrincipalKind | None, Query()] = None
) -> PrincipalList:
    return await gw.call(Identity.list_principals, ListPrincipalsRequest(kind=kind))


@router.post("/principals", status_code=201, summary="Create a user or a service account")
async def create_principal(gw: GatewayDep, body: CreatePrincipalRequest) -> PrincipalInfo:
    return await gw.call(Identity.create_principal, body)


@router.get("/principals/{name}/tokens", summary="A principal's live tokens (no secrets)")
async def list_tokens(gw: GatewayDep, name: Name) -> TokenList:
    return await gw.call(Identity.list_tokens, ListTokensRequest(principal=name))


@router.post("/principals/{name}/tokens", status_code=201, summary="A new token (shown once)")
async def create_token(gw: GatewayDep, name: Name, body: NewToken) -> TokenCreated:
    request = CreateTokenRequest(principal=name, name=body.name, expires_at=body.expires_at)
    return await gw.call(Identity.create_token, request)


@router.delete("/principals/{name}/tokens/{token_id}", summary="Revoke a token")
async def revoke_token(gw: GatewayDep, name: Name, token_id: str) -> TokenList:
    request = RevokeTokenRequest(principal=name, token_id=token_id)
    return await gw.call(Identity.revoke_token, request)


@router.get("/orgs/{org}/members", summary="Roles held in an organization")
async def org_members(gw: GatewayDep, org: Org) -> MemberList:
    return await gw.call(Identity.list_members, ListMembersRequest(org=org))


@router.put("/orgs/{org}/members/{name}", summary="Grant (or remove) a role in an organization")
async def set_org_role(
    gw: GatewayDep, who: CallerDep, org: Org, name: Name, body: Grant
) -> MemberList:
    _may_grant(who, who.role_in_org(org), body.role)
    request = SetRoleRequest(principal=name, org=org, role=body.role)
    return await gw.call(Identity.set_role, request)


@router.get("/{owner}/{project}/members", summary="Roles held in a project and its org")
async def project_members(gw: GatewayDep, owner: Owner, project: Project) -> MemberList:
    return await gw.call(Identity.list_members, ListMembersRequest(org=owner, project=project))


@router.put(
    "/{owner}/{project}/members/{name}",
    summary="Grant (or remove) a project role, overriding the organization's",
)
async def set_project_role(
    gw: GatewayDep, who: CallerDep, owner: Owner, project: Project, name: Name, body: Grant
) -> MemberList:
    _may_grant(who, who.role_in(f"{owner}/{project}"), body.role)
    request = SetRoleRequest(principal=name, org=owner, project=project, role=body.role)
    return await gw.call(Identity.set_role, request)
