"""Request/reply: create and list teams, their members and their roles."""

from __future__ import annotations

from axonal_bus.errors import Conflict, NotFound
from axonal_db import Connection, transaction
from axonal_events.principals import (
    CreateTeamRequest,
    ListTeamsRequest,
    SetTeamMemberRequest,
    SetTeamRoleRequest,
    Team,
    TeamList,
)
from axonal_events.rpcs import Identity
from axonal_identity.context import Context
from axonal_identity.principals import store as principals
from axonal_identity.teams import store

__all__ = ["register"]


async def _team(conn: Connection, org: str, name: str) -> str:
    found = await store.team_id(conn, org, name)
    if found is None:
        raise NotFound(f"team {name} does not exist in {org}")
    return found


async def _one(conn: Connection, org: str, name: str) -> Team:
    return (await store.list_teams(conn, org, name))[0]


async def create_team(ctx: Context, request: CreateTeamRequest) -> Team:
    async with ctx.pool.acquire() as conn:
        if not await store.insert_team(conn, request.org, request.name):
            raise Conflict(f"team {request.name} already exists in {request.org}")
        return await _one(conn, request.org, request.name)


async def list_teams(ctx: Context, request: ListTeamsRequest) -> TeamList:
    async with ctx.pool.acquire() as conn:
        return TeamList(teams=await store.list_teams(conn, request.org))


async def set_team_member(ctx: Context, request: SetTeamMemberRequest) -> Team:
    async with transaction(ctx.pool) as conn:
        team = await _team(conn, request.org, request.team)
        principal = await principals.by_name(conn, request.principal)
        if principal is None:
            raise NotFound(f"principal {request.principal} does not exist")
        await store.set_member(conn, team, principal.id, request.member)
        return await _one(conn, request.org, request.team)


async def set_team_role(ctx: Context, request: SetTeamRoleRequest) -> Team:
    async with transaction(ctx.pool) as conn:
        team = await _team(conn, request.org, request.team)
        if request.project is None:
            await store.set_org_role(conn, team, request.role)
        else:
            project_id = await principals.project_id(conn, request.org, request.project)
            if project_id is None:
                raise NotFound(f"project {request.org}/{request.project} does not exist")
            await store.set_project_role(conn, team, project_id, request.role)
        return await _one(conn, request.org, request.team)


def register(ctx: Context) -> None:
    ctx.serve(Identity.create_team, create_team)
    ctx.serve(Identity.list_teams, list_teams)
    ctx.serve(Identity.set_team_member, set_team_member)
    ctx.serve(Identity.set_team_role, set_team_role)
