"""``/api/v1/{owner}/{project}/runs/{uuid}/artifacts``: upload, list, download (the latest
or a given version), versions; lineage.

An upload streams the body into the artifact store under ``<owner>/<project>/<run>/<path>``
and under its content key (size and sha256 computed on the way, ``AXONAL_ARTIFACT_MAX_BYTES``
enforced with a 413; see :mod:`axonal_api.content`; so is the project's ``storage_bytes``
quota, against the bytes its recorded artifact versions hold), then publishes the artifact's
record on ``ingest.artifacts.<run>`` and answers 201 with it once JetStream stored it; the tracking
service lists it soon after. Changed bytes under the same name are a new version (their
sha256); every version stays downloadable with ``?version=<sha256>``.
"""

from __future__ import annotations

import contextlib
import hashlib
import json
import mimetypes
import re
from collections.abc import AsyncIterator
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Annotated
from urllib.parse import quote

from fastapi import APIRouter, Depends, FastAPI, Header, Query, Request
from fastapi.responses import StreamingResponse
from pydantic import ValidationError
from starlette.requests import ClientDisconnect

from axonal_api.content import content_key, put_versioned
from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.quotas import QuotasDep
from axonal_api.routes.runs import ERRORS, Owner, Project, RunUuid, get_run_checked
from axonal_api.settings import ApiSettings
from axonal_events.artifacts import (
    ARTIFACT_NAME_PATTERN,
    MAX_SUMMARY_BYTES,
    ArtifactKind,
    ArtifactList,
    ArtifactRecord,
    Lineage,
    ListArtifacts,
    ListArtifactVersions,
    ReadLineage,
)
from axonal_events.retention import ProjectRef
from axonal_events.rpcs import Tracking
from axonal_storage import ArtifactNotFoundError, ArtifactStore, InvalidKeyError, StorageError
from axonal_storage import open_store as open_artifact_store

__all__ = ["StoreDep", "router", "stream_object"]


@contextlib.asynccontextmanager
async def _store_lifespan(app: FastAPI) -> AsyncIterator[None]:
    """Open the artifact store of ``AXONAL_ARTIFACTS_URL`` for the api's lifetime."""
    settings: ApiSettings = app.state.settings
    if settings.artifacts_url is None:
        app.state.artifact_store = None
        yield
        return
    async with open_artifact_store(settings.artifacts_url) as store:
        app.state.artifact_store = store
        try:
            yield
        finally:
            app.state.artifact_store = None


router = APIRouter(
    prefix="/api/v1/{owner}/{project}/runs",
    tags=["artifacts"],
    responses={**ERRORS, 413: ERRORS[400]},
    lifespan=_store_lifespan,
)


def _store(request: Request) -> ArtifactStore:
    found: ArtifactStore | None = getattr(request.app.state, "artifact_store", None)
    if found is None:
        raise ApiError(503, "unavailable", "no artifact store: set AXONAL_ARTIFACTS_URL")
    return found


StoreDep = Annotated[ArtifactStore, Depends(_store)]
_NAME = re.compile(ARTIFACT_NAME_PATTERN)
_SHA256 = r"^[0-9a-f]{64}$"
_BYTES = {"application/octet-stream": {"schema": {"type": "string", "format": "binary"}}}


class _TooLarge(Exception):
    pass


def _key(owner: str, project: str, run_uuid: str, path: str) -> str:
    return f"{owner}/{project}/{run_uuid}/{path}"


def _summary(header: str | None) -> dict[str, object]:
    if not header:
        return {}
    try:
        value = json.loads(header)
    except ValueError:
        value = None
    if not isinstance(value, dict):
        raise ApiError(400, "invalid", "the Axonal-Summary header must be a JSON object")
    if len(json.dumps(value, separators=(",", ":"))) > MAX_SUMMARY_BYTES:
        raise ApiError(400, "invalid", f"the summary is over {MAX_SUMMARY_BYTES} bytes")
    return value


def _too_large(limit: int) -> ApiError:
    return ApiError(413, "too_large", f"the artifact is over the limit of {limit:,} bytes")


@dataclass(frozen=True, slots=True)
class _Room:
    """The bytes an upload may hold, and the error when it holds more."""

    limit: int
    error: ApiError


async def _room(
    request: Request, gw: GatewayDep, quotas: QuotasDep, owner: str, project: str
) -> _Room:
    """The largest upload, or what is left of the project's storage quota when less."""
    settings: ApiSettings = request.app.state.settings
    largest = _Room(settings.artifact_max_bytes, _too_large(settings.artifact_max_bytes))
    quota = (await quotas.limits(gw, f"{owner}/{project}")).storage_bytes
    if quota is None:
        return largest
    usage = await gw.call(Tracking.storage_usage, ProjectRef(owner=owner, name=project))
    left = max(0, quota - usage.bytes)
    if left >= largest.limit:
        return largest
    message = (
        f"project {owner}/{project} is over its storage quota of {quota:,} bytes "
        f"({usage.bytes:,} used, {left:,} left); delete artifacts or raise the quota"
    )
    return _Room(left, ApiError(413, "quota_exceeded", message))


async def _stream_into(
    store: ArtifactStore, owner: str, project: str, key: str, request: Request, room: _Room
) -> tuple[int, str]:
    """Store the request body under ``key`` and its content key; its size and sha256.
    Nothing is kept when the body is over the room's bytes (413) or the upload breaks off."""
    limit = room.limit

    async def body() -> AsyncIterator[bytes]:
        size = 0
        async for chunk in request.stream():
            size += len(chunk)
            if size > limit:
                raise _TooLarge
            yield chunk

    try:
        stored = await put_versioned(store, owner, project, key, body())
    except _TooLarge:
        raise room.error from None
    except InvalidKeyError as exc:
        raise ApiError(400, "invalid", f"bad artifact path: {exc.reason}") from None
    except ClientDisconnect:
        raise ApiError(400, "invalid", "the upload was cut short") from None
    except StorageError as exc:
        raise ApiError(503, "unavailable", f"the artifact store failed: {exc}") from None
    return stored.size, stored.sha256


@router.put(
    "/{run_uuid}/artifacts/{path:path}",
    status_code=201,
    summary="Upload an artifact of a run",
    openapi_extra={"requestBody": {"required": True, "content": _BYTES}},
)
async def upload(
    request: Request,
    gw: GatewayDep,
    store: StoreDep,
    quotas: QuotasDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    path: str,
    name: Annotated[str | None, Query(description="Its name (default: the path).")] = None,
    kind: ArtifactKind = ArtifactKind.FILE,
    step: Annotated[int | None, Query(ge=0, le=2**62)] = None,
    is_input: Annotated[bool, Query(description="Consumed by the run, not produced.")] = False,
    axonal_summary: Annotated[
        str | None, Header(max_length=MAX_SUMMARY_BYTES, description="Small JSON, by kind.")
    ] = None,
) -> ArtifactRecord:
    """The request body is the artifact's bytes, streamed; answers its record. Over the
    largest upload or the project's storage quota: 413 (``too_large``, ``quota_exceeded``)."""
    room = await _room(request, gw, quotas, owner, project)
    declared = request.headers.get("content-length", "")  # the server checked its syntax
    if declared.isdigit() and int(declared) > room.limit:
        raise room.error
    name = name or path
    if not _NAME.match(name):
        raise ApiError(
            400,
            "invalid",
            f"bad artifact name {name!r}: 1 to 200 letters, digits or _ . / : - "
            "(pass ?name= when the path is not one)",
        )
    summary = _summary(axonal_summary)
    run = await get_run_checked(gw, owner, project, run_uuid)
    key = _key(owner, project, run.uuid, path)
    size, sha256 = await _stream_into(store, owner, project, key, request, room)
    try:
        record = ArtifactRecord(
            run_uuid=run.uuid,
            project=f"{owner}/{project}",
            name=name,
            kind=kind,
            path=key,
            size=size,
            sha256=sha256,
            is_input=is_input,
            step=step,
            summary=summary,
            created_at=datetime.now(UTC),
        )
    except ValidationError as exc:
        raise ApiError(400, "invalid", f"bad artifact: {exc.errors()[0]['msg']}") from None
    msg_id = hashlib.sha256(f"{run.uuid}:{name}:{step}:{sha256}".encode()).hexdigest()
    await gw.ingest(f"artifacts.{run.uuid}", record.model_dump_json().encode(), msg_id)
    return record


@router.get("/{run_uuid}/artifacts", summary="List the artifacts of a run")
async def list_artifacts(
    gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid
) -> ArtifactList:
    run = await get_run_checked(gw, owner, project, run_uuid)
    return await gw.call(Tracking.list_artifacts, ListArtifacts(run_uuid=run.uuid))


@router.get(
    "/{run_uuid}/artifacts/{path:path}",
    summary="Download an artifact of a run",
    response_class=StreamingResponse,
    responses={200: {"content": _BYTES}},
)
async def download(
    gw: GatewayDep,
    store: StoreDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    path: str,
    version: Annotated[
        str | None, Query(pattern=_SHA256, description="A version's sha256 (default: latest).")
    ] = None,
) -> StreamingResponse:
    """The bytes as uploaded (the latest version, or ``version``), streamed."""
    run = await get_run_checked(gw, owner, project, run_uuid)
    key = _key(owner, project, run.uuid, path)
    if version is not None:
        known = await gw.call(
            Tracking.artifact_versions, ListArtifactVersions(run_uuid=run.uuid, path=key)
        )
        if all(record.sha256 != version for record in known.artifacts):
            raise ApiError(
                404, "not_found", f"version: {path!r} of run {run.uuid} has no version {version}"
            )
        key = content_key(owner, project, version)
    what = f"artifact {path!r} of run {run.uuid}"
    return await stream_object(store, key, path.rpartition("/")[2], what)


async def stream_object(
    store: ArtifactStore, key: str, filename: str, what: str
) -> StreamingResponse:
    """The object at ``key`` streamed as an attachment named ``filename``; a 404 naming
    ``what`` when it is missing."""
    try:
        info = await store.stat(key)
    except (ArtifactNotFoundError, InvalidKeyError):
        raise ApiError(404, "not_found", f"not found: {what}") from None
    except StorageError as exc:
        raise ApiError(503, "unavailable", f"the artifact store failed: {exc}") from None
    media_type = mimetypes.guess_type(filename)[0] or "application/octet-stream"
    headers = {
        "Content-Length": str(info.size),
        "Content-Disposition": f"attachment; filename*=UTF-8''{quote(filename)}",
    }
    return StreamingResponse(store.get(key), media_type=media_type, headers=headers)


@router.get("/{run_uuid}/artifact-versions", summary="Every version of an artifact of a run")
async def artifact_versions(
    gw: GatewayDep,
    owner: Owner,
    project: Project,
    run_uuid: RunUuid,
    name: Annotated[str, Query(pattern=ARTIFACT_NAME_PATTERN, description="Artifact name.")],
) -> ArtifactList:
    """Newest first; each version is named by its bytes' sha256."""
    run = await get_run_checked(gw, owner, project, run_uuid)
    request = ListArtifactVersions(run_uuid=run.uuid, name=name)
    return await gw.call(Tracking.artifact_versions, request)


@router.get("/{run_uuid}/lineage", summary="Artifacts a run consumed and produced, and by whom")
async def lineage(gw: GatewayDep, owner: Owner, project: Project, run_uuid: RunUuid) -> Lineage:
    """Each input and output with the other runs of the project that produced or consumed the
    same bytes (sha256) or the same key."""
    run = await get_run_checked(gw, owner, project, run_uuid)
    return await gw.call(Tracking.lineage, ReadLineage(run_uuid=run.uuid))
