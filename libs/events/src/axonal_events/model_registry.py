"""Registered models, their versions, aliases and lineage (RPCs of the registry).

A version is made from a run's logged model artifact and named by a number counted per
model; its bytes (sha256) are its identity, so the same bytes never make two versions. An
alias (``staging``, ``production``, or a custom one) has one holder at a time; moving a
protected alias makes a pending request that an approval completes. Archiving a version
takes every alias it holds.
"""

from __future__ import annotations

from datetime import datetime
from enum import StrEnum
from typing import Any

from pydantic import Field

from axonal_events.base import Payload

__all__ = [
    "ALIAS_PATTERN",
    "MODEL_NAME_PATTERN",
    "AliasRequest",
    "AliasRequestList",
    "ApprovePromotion",
    "ArchiveModelVersion",
    "CreateModelVersion",
    "CreateRegisteredModel",
    "GetModelVersion",
    "LineageEdge",
    "LineageGraph",
    "LineageNode",
    "ListModelVersions",
    "ListPromotionRequests",
    "ListRegisteredModels",
    "ModelRef",
    "ModelVersion",
    "ModelVersionList",
    "PromoteModelVersion",
    "Promotion",
    "PromotionStatus",
    "ProtectAliases",
    "ReadModelLineage",
    "RegisteredModel",
    "RegisteredModelList",
]

MODEL_NAME_PATTERN = r"^[A-Za-z0-9][A-Za-z0-9_.-]{0,99}$"
ALIAS_PATTERN = r"^[a-z][a-z0-9_-]{0,49}$"
_PROJECT = r"^[^/\s]+/[^/\s]+$"
_RUN_UUID = r"^[0-9a-f]{32}$"
_SHA256 = r"^[0-9a-f]{64}$"
_ID = r"^[0-9a-f]{32}$"


class ModelRef(Payload):
    project: str = Field(pattern=_PROJECT)
    model: str = Field(pattern=MODEL_NAME_PATTERN)


class CreateRegisteredModel(Payload):
    project: str = Field(pattern=_PROJECT)
    name: str = Field(pattern=MODEL_NAME_PATTERN)
    description: str | None = Field(default=None, max_length=2000)
    protected_aliases: list[str] = Field(
        default_factory=list, max_length=20, description="Aliases that move only on approval."
    )


class RegisteredModel(Payload):
    project: str
    name: str
    description: str | None = None
    protected_aliases: list[str]
    aliases: dict[str, int] = Field(description="Each alias and the version holding it.")
    latest_version: int | None = None
    created_at: datetime


class ListRegisteredModels(Payload):
    project: str = Field(pattern=_PROJECT)


class RegisteredModelList(Payload):
    models: list[RegisteredModel]


class ProtectAliases(ModelRef):
    """Set the model's protected aliases (an empty list protects none)."""

    aliases: list[str] = Field(max_length=20)


class CreateModelVersion(ModelRef):
    """A version of ``model`` (created when missing) from a run's logged model artifact."""

    run_uuid: str = Field(pattern=_RUN_UUID)
    artifact: str = Field(min_length=1, max_length=200, description="The run's artifact name.")
    sha256: str = Field(pattern=_SHA256, description="The artifact version: its bytes' digest.")
    path: str = Field(min_length=1, max_length=1024, description="Its artifact store key.")
    size: int = Field(ge=0)
    description: str | None = Field(default=None, max_length=2000)


class ModelVersion(Payload):
    project: str
    model: str
    version: int
    run_uuid: str
    artifact: str
    sha256: str
    path: str
    size: int
    description: str | None = None
    aliases: list[str]
    archived: bool
    created_at: datetime


class ListModelVersions(ModelRef):
    pass


class ModelVersionList(Payload):
    versions: list[ModelVersion]


class GetModelVersion(ModelRef):
    ref: str = Field(min_length=1, max_length=50, description="A version number or an alias.")


class PromoteModelVersion(ModelRef):
    version: int = Field(ge=1)
    alias: str = Field(min_length=1, max_length=50)
    requested_by: str | None = Field(default=None, max_length=200)


class ArchiveModelVersion(ModelRef):
    version: int = Field(ge=1)


class PromotionStatus(StrEnum):
    MOVED = "moved"
    PENDING = "pending"


class AliasRequest(Payload):
    """A move of a protected alias, waiting for approval (or approved)."""

    id: str
    project: str
    model: str
    alias: str
    version: int
    requested_by: str | None = None
    approved_by: str | None = None
    created_at: datetime
    approved_at: datetime | None = None


class Promotion(Payload):
    status: PromotionStatus
    version: ModelVersion
    request: AliasRequest | None = Field(default=None, description="When approval is needed.")


class ApprovePromotion(ModelRef):
    request_id: str = Field(pattern=_ID)
    approved_by: str | None = Field(default=None, max_length=200)


class ListPromotionRequests(ModelRef):
    pending_only: bool = True


class AliasRequestList(Payload):
    requests: list[AliasRequest]


class ReadModelLineage(ModelRef):
    version: int = Field(ge=1)
    depth: int = Field(default=3, ge=1, le=10, description="Runs upstream to follow.")


class LineageNode(Payload):
    id: str = Field(description="dataset:<name>@<sha256>, run:<uuid> or model:<name>/<n>.")
    kind: str = Field(description="dataset, run or model_version.")
    label: str
    attributes: dict[str, Any] = Field(default_factory=dict)


class LineageEdge(Payload):
    source: str
    target: str
    relation: str = Field(description="read (dataset -> run), wrote, or registered.")


class LineageGraph(Payload):
    nodes: list[LineageNode]
    edges: list[LineageEdge]
