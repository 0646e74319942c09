"""The identity service's RPCs: projects and their API keys."""

from __future__ import annotations

from axonal_events.api_keys import (
    ApiKeyCreated,
    ApiKeyInfo,
    ApiKeyList,
    CreateApiKeyRequest,
    ListApiKeysRequest,
    RevokeApiKeyRequest,
    VerifyApiKeyRequest,
)
from axonal_events.audit import AuditPage, ListAuditRequest
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
from axonal_events.principals import (
    AuthenticateRequest,
    CreatePrincipalRequest,
    CreateTeamRequest,
    CreateTokenRequest,
    ListMembersRequest,
    ListPrincipalsRequest,
    ListTeamsRequest,
    ListTokensRequest,
    MemberList,
    PasswordLoginRequest,
    Principal,
    PrincipalInfo,
    PrincipalList,
    RevokeTokenRequest,
    SetRoleRequest,
    SetTeamMemberRequest,
    SetTeamRoleRequest,
    Team,
    TeamList,
    TokenCreated,
    TokenList,
)
from axonal_events.quotas import ProjectQuotas, SetQuotasRequest
from axonal_events.retention import (
    DeleteProjectRequest,
    DeletionAccepted,
    ProjectRef,
    ProjectRetention,
    SetRetentionRequest,
)
from axonal_events.rpc import Rpc

__all__ = ["Identity"]


class Identity:
    """Projects, their API keys, and principals with their tokens and roles."""

    create_project = Rpc(
        "identity", "create_project", CreateProjectRequest, Project, "Create a project."
    )
    list_projects = Rpc(
        "identity", "list_projects", ListProjectsRequest, ProjectList, "Projects of an owner."
    )
    create_api_key = Rpc(
        "identity",
        "create_api_key",
        CreateApiKeyRequest,
        ApiKeyCreated,
        "A new key pair; the secret is returned only here.",
    )
    verify_api_key = Rpc(
        "identity", "verify_api_key", VerifyApiKeyRequest, ApiKeyInfo, "The project of a key."
    )
    list_api_keys = Rpc(
        "identity", "list_api_keys", ListApiKeysRequest, ApiKeyList, "Keys of a project."
    )
    revoke_api_key = Rpc(
        "identity", "revoke_api_key", RevokeApiKeyRequest, ApiKeyList, "Revoke a key."
    )
    authenticate = Rpc(
        "identity", "authenticate", AuthenticateRequest, Principal, "Who a token acts for."
    )
    login = Rpc(
        "identity",
        "login",
        PasswordLoginRequest,
        TokenCreated,
        "A new expiring token for a user's name and password.",
    )
    create_principal = Rpc(
        "identity", "create_principal", CreatePrincipalRequest, PrincipalInfo, "A user or service."
    )
    list_principals = Rpc(
        "identity", "list_principals", ListPrincipalsRequest, PrincipalList, "Users and services."
    )
    create_token = Rpc(
        "identity",
        "create_token",
        CreateTokenRequest,
        TokenCreated,
        "A personal access or service account token; the secret is returned only here.",
    )
    list_tokens = Rpc("identity", "list_tokens", ListTokensRequest, TokenList, "A principal's.")
    revoke_token = Rpc("identity", "revoke_token", RevokeTokenRequest, TokenList, "Revoke one.")
    set_role = Rpc(
        "identity",
        "set_role",
        SetRoleRequest,
        MemberList,
        "Grant or remove a role in an organization or project; the members after.",
    )
    list_members = Rpc(
        "identity", "list_members", ListMembersRequest, MemberList, "Roles held there."
    )
    delete_project = Rpc(
        "identity",
        "delete_project",
        DeleteProjectRequest,
        DeletionAccepted,
        "Delete a project; every service deletes its data and confirms it.",
    )
    get_retention = Rpc(
        "identity", "get_retention", ProjectRef, ProjectRetention, "A project's retention."
    )
    set_retention = Rpc(
        "identity",
        "set_retention",
        SetRetentionRequest,
        ProjectRetention,
        "Set a project's retention; the owning services apply it.",
    )
    list_audit = Rpc(
        "identity",
        "list_audit",
        ListAuditRequest,
        AuditPage,
        "An organization's audit trail, newest first.",
    )
    get_quotas = Rpc(
        "identity", "get_quotas", ProjectRef, ProjectQuotas, "A project's quotas (unset: default)."
    )
    set_quotas = Rpc(
        "identity",
        "set_quotas",
        SetQuotasRequest,
        ProjectQuotas,
        "Set a project's quotas; the api and the scheduler enforce them.",
    )
    create_team = Rpc("identity", "create_team", CreateTeamRequest, Team, "A new team.")
    list_teams = Rpc("identity", "list_teams", ListTeamsRequest, TeamList, "An org's teams.")
    set_team_member = Rpc(
        "identity", "set_team_member", SetTeamMemberRequest, Team, "Add or remove a member."
    )
    set_team_role = Rpc(
        "identity",
        "set_team_role",
        SetTeamRoleRequest,
        Team,
        "Grant or remove a team's role in its organization or one of its projects.",
    )
