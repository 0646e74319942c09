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
from axonal_events.identity import CreateProjectRequest, ListProjectsRequest, Project, ProjectList
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
    """Projects and their API keys."""

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
