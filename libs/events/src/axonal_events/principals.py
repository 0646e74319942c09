"""RPC payloads of principals (identity service): users, service accounts, tokens and roles.

A principal is who a request acts for. Its roles are given per organization (a project's
owner) and per project, and the project's role overrides the organization's.
"""

from __future__ import annotations

from datetime import datetime
from enum import IntEnum
from typing import Literal

from pydantic import Field

from axonal_events.base import Payload

__all__ = [
    "ROLE_NAMES",
    "AuthenticateRequest",
    "CreatePrincipalRequest",
    "CreateTeamRequest",
    "CreateTokenRequest",
    "ListMembersRequest",
    "ListPrincipalsRequest",
    "ListTeamsRequest",
    "ListTokensRequest",
    "Me",
    "Member",
    "MemberList",
    "PasswordLoginRequest",
    "Principal",
    "PrincipalInfo",
    "PrincipalKind",
    "PrincipalList",
    "RevokeTokenRequest",
    "Role",
    "RoleName",
    "SetRoleRequest",
    "SetTeamMemberRequest",
    "SetTeamRoleRequest",
    "Team",
    "TeamList",
    "TokenCreated",
    "TokenInfo",
    "TokenList",
]

RoleName = Literal["owner", "admin", "member", "viewer", "none"]
PrincipalKind = Literal["user", "service"]
_SLUG = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,63}$"
_PROJECT = Field(pattern=r"^[^/\s]+/[^/\s]+$", description="``owner/name``.")


class Role(IntEnum):
    """Roles in rising order: each grants what the ones below it grant."""

    NONE = 0
    VIEWER = 1
    MEMBER = 2
    ADMIN = 3
    OWNER = 4

    @property
    def label(self) -> RoleName:
        return ROLE_NAMES[self]

    @classmethod
    def named(cls, name: str) -> Role:
        return cls[name.upper()]


ROLE_NAMES: dict[Role, RoleName] = {
    Role.NONE: "none",
    Role.VIEWER: "viewer",
    Role.MEMBER: "member",
    Role.ADMIN: "admin",
    Role.OWNER: "owner",
}


class Principal(Payload):
    """Who a credential acts for, with every role it holds."""

    id: str
    name: str
    kind: PrincipalKind
    superuser: bool = False
    org_roles: dict[str, RoleName] = Field(default_factory=dict)
    project_roles: dict[str, RoleName] = Field(
        default_factory=dict, description="By ``owner/name``; overrides the organization's."
    )

    def role_in(self, project: str) -> Role:
        """The principal's role in ``owner/name``."""
        if self.superuser:
            return Role.OWNER
        if (given := self.project_roles.get(project)) is not None:
            return Role.named(given)
        return self.role_in_org(project.partition("/")[0])

    def role_in_org(self, org: str) -> Role:
        if self.superuser:
            return Role.OWNER
        return Role.named(self.org_roles.get(org, "none"))


class Me(Payload):
    """Who a request's credentials act for: a user, a service account, a key or a run."""

    name: str
    via: Literal["root", "run", "token", "key", "session"]
    superuser: bool = False
    project: str | None = Field(default=None, description="The only project of a key or run.")
    org_roles: dict[str, RoleName] = Field(default_factory=dict)
    project_roles: dict[str, RoleName] = Field(default_factory=dict)


class AuthenticateRequest(Payload):
    token: str = Field(max_length=200)


class PasswordLoginRequest(Payload):
    """A user's name and password, exchanged for a new token that expires."""

    username: str = Field(max_length=64)
    password: str = Field(max_length=200)
    token_name: str = Field(default="login", min_length=1, max_length=100)
    ttl_seconds: int = Field(default=7 * 86400, gt=0, le=400 * 86400)


class CreatePrincipalRequest(Payload):
    name: str = Field(pattern=_SLUG)
    kind: PrincipalKind = "user"
    email: str | None = Field(default=None, max_length=254)
    password: str | None = Field(default=None, min_length=8, max_length=200)
    superuser: bool = False


class PrincipalInfo(Payload):
    id: str
    name: str
    kind: PrincipalKind
    email: str | None = None
    superuser: bool = False
    created_at: datetime


class ListPrincipalsRequest(Payload):
    kind: PrincipalKind | None = None


class PrincipalList(Payload):
    principals: list[PrincipalInfo]


class CreateTokenRequest(Payload):
    principal: str = Field(pattern=_SLUG, description="The principal's name.")
    name: str = Field(min_length=1, max_length=100)
    expires_at: datetime | None = None


class TokenInfo(Payload):
    id: str
    name: str
    principal: str
    hint: str = Field(description="The token's last characters, to tell tokens apart.")
    created_at: datetime
    expires_at: datetime | None = None


class TokenCreated(TokenInfo):
    token: str = Field(description="Shown once; only its hash is stored.")


class ListTokensRequest(Payload):
    principal: str = Field(pattern=_SLUG)


class TokenList(Payload):
    tokens: list[TokenInfo]


class RevokeTokenRequest(Payload):
    principal: str = Field(pattern=_SLUG)
    token_id: str


class SetRoleRequest(Payload):
    """Give ``principal`` a role in an organization, or in one project when ``project`` is set
    (``none`` in a project takes the organization's role away there)."""

    principal: str = Field(pattern=_SLUG)
    org: str = Field(pattern=_SLUG)
    project: str | None = Field(default=None, pattern=_SLUG, description="The project's name.")
    role: RoleName | None = Field(description="``null`` removes the grant.")


class ListMembersRequest(Payload):
    org: str = Field(pattern=_SLUG)
    project: str | None = Field(default=None, pattern=_SLUG)


class Member(Payload):
    principal: str
    kind: PrincipalKind
    role: RoleName
    project: str | None = None


class MemberList(Payload):
    members: list[Member]


class Team(Payload):
    """Principals of an organization granted roles together."""

    org: str
    name: str
    members: list[str] = Field(default_factory=list)
    role: RoleName | None = Field(default=None, description="Its role in the organization.")
    project_roles: dict[str, RoleName] = Field(
        default_factory=dict, description="By project name (in its organization)."
    )


class TeamList(Payload):
    teams: list[Team]


class CreateTeamRequest(Payload):
    org: str = Field(pattern=_SLUG)
    name: str = Field(pattern=_SLUG)


class ListTeamsRequest(Payload):
    org: str = Field(pattern=_SLUG)


class SetTeamMemberRequest(Payload):
    org: str = Field(pattern=_SLUG)
    team: str = Field(pattern=_SLUG)
    principal: str = Field(pattern=_SLUG)
    member: bool = Field(description="Add (true) or remove (false).")


class SetTeamRoleRequest(Payload):
    """The team's role in its organization, or in one of its projects when ``project`` is set;
    ``null`` removes the grant."""

    org: str = Field(pattern=_SLUG)
    team: str = Field(pattern=_SLUG)
    project: str | None = Field(default=None, pattern=_SLUG)
    role: RoleName | None
