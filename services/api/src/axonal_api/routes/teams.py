"""Teams: ``/api/v1/orgs/{org}/teams`` (members and the organization role) and a team's role in
one project (``/api/v1/{owner}/{project}/teams/{team}``). Only an owner grants ``owner``."""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path
from pydantic import BaseModel, Field

from axonal_api.access import CallerDep
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.principals import Grant
from axonal_api.routes.runs import ERRORS, SLUG, Owner, Project
from axonal_events.principals import (
    CreateTeamRequest,
    ListTeamsRequest,
    Role,
    RoleName,
    SetTeamMemberRequest,
    SetTeamRoleRequest,
    Team,
    TeamList,
)
from axonal_events.rpcs import Identity

__all__ = ["router"]

router = APIRouter(prefix="/api/v1", tags=["access"], responses=ERRORS)

Org = Annotated[str, Path(pattern=SLUG, description="Organisation slug.")]
TeamName = Annotated[str, Path(pattern=SLUG, description="The team's name.")]
Name = Annotated[str, Path(pattern=SLUG, description="A user's or service account's name.")]


def _may_grant(held: Role, role: RoleName | None) -> None:
    if role == "owner" and held < Role.OWNER:
        raise ApiError(403, "forbidden", "only an owner grants owner")


@router.get("/orgs/{org}/teams", summary="An organization's teams, their members and roles")
async def list_teams(gw: GatewayDep, org: Org) -> TeamList:
    return await gw.call(Identity.list_teams, ListTeamsRequest(org=org))


class NewTeam(BaseModel):
    name: str = Field(pattern=SLUG)


@router.post("/orgs/{org}/teams", status_code=201, summary="Create a team")
async def create_team(gw: GatewayDep, org: Org, body: NewTeam) -> Team:
    return await gw.call(Identity.create_team, CreateTeamRequest(org=org, name=body.name))


@router.put("/orgs/{org}/teams/{team}/members/{name}", summary="Add a member to a team")
async def add_member(gw: GatewayDep, org: Org, team: TeamName, name: Name) -> Team:
    request = SetTeamMemberRequest(org=org, team=team, principal=name, member=True)
    return await gw.call(Identity.set_team_member, request)


@router.delete("/orgs/{org}/teams/{team}/members/{name}", summary="Remove a member of a team")
async def remove_member(gw: GatewayDep, org: Org, team: TeamName, name: Name) -> Team:
    request = SetTeamMemberRequest(org=org, team=team, principal=name, member=False)
    return await gw.call(Identity.set_team_member, request)


@router.put("/orgs/{org}/teams/{team}/role", summary="Grant (or remove) a team's org role")
async def set_org_role(
    gw: GatewayDep, who: CallerDep, org: Org, team: TeamName, body: Grant
) -> Team:
    _may_grant(who.role_in_org(org), body.role)
    request = SetTeamRoleRequest(org=org, team=team, role=body.role)
    return await gw.call(Identity.set_team_role, request)


@router.put("/{owner}/{project}/teams/{team}", summary="Grant (or remove) a team's project role")
async def set_project_role(
    gw: GatewayDep, who: CallerDep, owner: Owner, project: Project, team: TeamName, body: Grant
) -> Team:
    _may_grant(who.role_in(f"{owner}/{project}"), body.role)
    request = SetTeamRoleRequest(org=owner, team=team, project=project, role=body.role)
    return await gw.call(Identity.set_team_role, request)
