"""``/api/v1/{owner}/{project}/models``: the model registry.

A version is registered from a run's logged model artifact (its bytes' sha256, kept under
their content key, see :mod:`axonal_api.content`); aliases (``staging``, ``production``,
custom ones) have one holder each and a protected one moves when a pending request is
approved; archiving a version takes its aliases. The registry service emits
``model.version.created``, ``model.version.promoted`` and ``model.version.archived``.
"""

from __future__ import annotations

from typing import Annotated

from fastapi import APIRouter, Path, Query
from fastapi.responses import StreamingResponse
from pydantic import BaseModel, ConfigDict, Field

from axonal_api.content import content_key
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.artifacts import StoreDep, stream_object
from axonal_api.routes.runs import ERRORS, Owner, Project, get_run_checked
from axonal_events.artifacts import ARTIFACT_NAME_PATTERN, ListArtifactVersions
from axonal_events.model_registry import (
    MODEL_NAME_PATTERN,
    AliasRequestList,
    ApprovePromotion,
    ArchiveModelVersion,
    CreateModelVersion,
    CreateRegisteredModel,
    GetModelVersion,
    ListModelVersions,
    ListPromotionRequests,
    ListRegisteredModels,
    ModelRef,
    ModelVersion,
    ModelVersionList,
    PromoteModelVersion,
    Promotion,
    ProtectAliases,
    RegisteredModel,
    RegisteredModelList,
)
from axonal_events.rpcs import Registry, Tracking
from axonal_storage import ArtifactNotFoundError, StorageError

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}/models", tags=["models"], responses=ERRORS)
ModelName = Annotated[str, Path(pattern=MODEL_NAME_PATTERN, description="The model's name.")]
VersionNumber = Annotated[int, Path(ge=1, description="The version's number.")]
Ref = Annotated[str, Path(max_length=50, description="A version number or an alias.")]


class _Body(BaseModel):
    model_config = ConfigDict(extra="forbid")


class ModelBody(_Body):
    name: str = Field(pattern=MODEL_NAME_PATTERN)
    description: str | None = Field(default=None, max_length=2000)
    protected_aliases: list[str] = Field(default_factory=list, max_length=20)


class ProtectBody(_Body):
    aliases: list[str] = Field(max_length=20, description="Aliases that move only on approval.")


class VersionBody(_Body):
    run_uuid: str = Field(pattern=r"^[0-9a-fA-F-]{32,36}$", description="The run that logged it.")
    artifact: str = Field(pattern=ARTIFACT_NAME_PATTERN, description="The run's artifact name.")
    sha256: str | None = Field(
        default=None, pattern=r"^[0-9a-f]{64}$", description="Its version (default: latest)."
    )
    description: str | None = Field(default=None, max_length=2000)


class PromoteBody(_Body):
    alias: str = Field(min_length=1, max_length=50, description="production, staging, ...")
    requested_by: str | None = Field(default=None, max_length=200)


class ApproveBody(_Body):
    approved_by: str | None = Field(default=None, max_length=200)


def _ref(owner: str, project: str, model: str) -> ModelRef:
    return ModelRef(project=f"{owner}/{project}", model=model)


@router.get("", summary="List the registered models")
async def list_models(gw: GatewayDep, owner: Owner, project: Project) -> RegisteredModelList:
    query = ListRegisteredModels(project=f"{owner}/{project}")
    return await gw.call(Registry.list_models, query)


@router.post("", status_code=201, summary="Register a model (versions also register it)")
async def create_model(
    gw: GatewayDep, owner: Owner, project: Project, body: ModelBody
) -> RegisteredModel:
    request = CreateRegisteredModel(project=f"{owner}/{project}", **body.model_dump())
    return await gw.call(Registry.create_model, request)


@router.get("/{model}", summary="A model with its aliases")
async def get_model(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName
) -> RegisteredModel:
    return await gw.call(Registry.get_model, _ref(owner, project, model))


@router.put("/{model}/protected", summary="Set the aliases that move only on approval")
async def protect(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, body: ProtectBody
) -> RegisteredModel:
    request = ProtectAliases(project=f"{owner}/{project}", model=model, aliases=body.aliases)
    return await gw.call(Registry.protect_aliases, request)


@router.get("/{model}/versions", summary="A model's versions, newest first")
async def list_versions(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName
) -> ModelVersionList:
    query = ListModelVersions(project=f"{owner}/{project}", model=model)
    return await gw.call(Registry.list_versions, query)


@router.post("/{model}/versions", status_code=201, summary="Register a run's model artifact")
async def create_version(
    gw: GatewayDep,
    store: StoreDep,
    owner: Owner,
    project: Project,
    model: ModelName,
    body: VersionBody,
) -> ModelVersion:
    """The artifact's given version (``sha256``), or its latest one the run logged."""
    run = await get_run_checked(gw, owner, project, body.run_uuid)
    sha256 = body.sha256
    if sha256 is None:
        query = ListArtifactVersions(run_uuid=run.uuid, name=body.artifact)
        logged = await gw.call(Tracking.artifact_versions, query)
        if not logged.artifacts:
            raise ApiError(
                404, "not_found", f"artifact: run {run.uuid} logged no {body.artifact!r}"
            )
        sha256 = logged.artifacts[0].sha256
    key = content_key(owner, project, sha256)
    try:
        info = await store.stat(key)
    except ArtifactNotFoundError:
        raise ApiError(
            404, "not_found", f"sha256: no artifact bytes {sha256} in {owner}/{project}"
        ) from None
    except StorageError as exc:
        raise ApiError(503, "unavailable", f"the artifact store failed: {exc}") from None
    request = CreateModelVersion(
        project=f"{owner}/{project}",
        model=model,
        run_uuid=run.uuid,
        artifact=body.artifact,
        sha256=sha256,
        path=key,
        size=info.size,
        description=body.description,
    )
    return await gw.call(Registry.create_version, request)


@router.get("/{model}/versions/{ref}", summary="A version, by number or alias")
async def get_version(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, ref: Ref
) -> ModelVersion:
    query = GetModelVersion(project=f"{owner}/{project}", model=model, ref=ref)
    return await gw.call(Registry.get_version, query)


@router.get(
    "/{model}/versions/{ref}/download",
    summary="Download a version's bytes",
    response_class=StreamingResponse,
)
async def download_version(
    gw: GatewayDep, store: StoreDep, owner: Owner, project: Project, model: ModelName, ref: Ref
) -> StreamingResponse:
    query = GetModelVersion(project=f"{owner}/{project}", model=model, ref=ref)
    version = await gw.call(Registry.get_version, query)
    filename = f"{model}-v{version.version}"
    return await stream_object(store, version.path, filename, f"version {ref} of {model!r}")


@router.post("/{model}/versions/{version}/promote", summary="Move an alias to a version")
async def promote(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    model: ModelName,
    version: VersionNumber,
    body: PromoteBody,
) -> Promotion:
    """Moves the alias now, or answers ``pending`` with a request when it is protected."""
    request = PromoteModelVersion(
        project=f"{owner}/{project}", model=model, version=version, **body.model_dump()
    )
    return await gw.call(Registry.promote, request)


@router.post("/{model}/versions/{version}/archive", summary="Archive (demote) a version")
async def archive(
    gw: GatewayDep, owner: Owner, project: Project, model: ModelName, version: VersionNumber
) -> ModelVersion:
    request = ArchiveModelVersion(project=f"{owner}/{project}", model=model, version=version)
    return await gw.call(Registry.archive, request)


@router.get("/{model}/requests", summary="Moves of protected aliases")
async def list_requests(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    model: ModelName,
    pending_only: Annotated[bool, Query(description="Only those not approved yet.")] = True,
) -> AliasRequestList:
    query = ListPromotionRequests(
        project=f"{owner}/{project}", model=model, pending_only=pending_only
    )
    return await gw.call(Registry.promotion_requests, query)


@router.post("/{model}/requests/{request_id}/approve", summary="Approve a pending alias move")
async def approve(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    model: ModelName,
    request_id: Annotated[str, Path(pattern=r"^[0-9a-f]{32}$")],
    body: ApproveBody | None = None,
) -> Promotion:
    request = ApprovePromotion(
        project=f"{owner}/{project}",
        model=model,
        request_id=request_id,
        approved_by=body.approved_by if body else None,
    )
    return await gw.call(Registry.approve, request)
