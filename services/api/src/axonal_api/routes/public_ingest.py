"""Langfuse- and OTLP-compatible writes: ``/api/public/otel/v1/traces``, ``/v1/traces``,
``/api/public/ingestion``, ``/api/public/scores`` and the key's ``/api/public/projects``.

Every write is converted to trace records here and answered once JetStream stored them; the
tracking service merges and stores them soon after. Auth is HTTP Basic ``publicKey:secretKey``.

Spans and ingestion events count against the project's ``spans_per_second``
(:mod:`axonal_api.quotas`): over it, a 429 with ``Retry-After`` before the body is read. Scores
do not count: the Langfuse SDK's score uploads retry a 429 only twice, ignoring
``Retry-After``, then drop the scores.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

from fastapi import APIRouter, FastAPI, Request
from fastapi.responses import JSONResponse, Response

from axonal_api.deps import GatewayDep
from axonal_api.otlp_body import BodyError, json_body, otlp_spans, read_body
from axonal_api.public_auth import (
    INGEST_RESPONSES,
    KeyProjectDep,
    PublicError,
    install_public_errors,
)
from axonal_api.quotas import Bucket, QuotasDep, RateLimited
from axonal_api.score_config_cache import ScoreConfigCacheDep
from axonal_api.trace_publish import RecordRefused, RecordTooLarge, publish_records
from axonal_events.score_configs import ScoreConfig
from axonal_traces import (
    InvalidRecord,
    OtlpFormatError,
    convert_batch,
    convert_spans,
    score_config_ids,
    score_record,
)

__all__ = ["include", "router"]

OTLP_MAX_BYTES = 32 * 2**20
INGESTION_MAX_BYTES = 5 * 2**20
SCORES_MAX_BYTES = 2 * 2**20
#: An ``ExportTraceServiceResponse`` without partial-success details serializes to no bytes.
_EMPTY_EXPORT_RESPONSE = b""

router = APIRouter(tags=["langfuse-compatible ingestion"], responses=INGEST_RESPONSES)


def _invalid(message: str) -> PublicError:
    return PublicError(400, message, "InvalidRequestError")


def _refused(exc: BodyError) -> PublicError:
    return PublicError(exc.status, exc.message, "InvalidRequestError")


async def _body(request: Request, limit: int) -> bytes:
    try:
        return await read_body(request, limit)
    except BodyError as exc:
        raise _refused(exc) from None


async def _json(request: Request, limit: int) -> tuple[bytes, Any]:
    """The raw body and its JSON value."""
    raw = await _body(request, limit)
    try:
        return raw, json_body(raw)
    except BodyError as exc:
        raise _invalid(exc.message) from None


async def _admit(gw: GatewayDep, quotas: QuotasDep, project: KeyProjectDep) -> Bucket | None:
    """The project's spans bucket once it lets the request in (429 when it does not)."""
    try:
        return await quotas.admit(gw, f"{project.owner}/{project.name}", "spans")
    except RateLimited as exc:
        headers = {"Retry-After": str(exc.retry_after)}
        raise PublicError(429, str(exc), "TooManyRequestsError", headers) from None


async def _otlp(
    request: Request, gw: GatewayDep, project: KeyProjectDep, quotas: QuotasDep
) -> Response:
    version = request.headers.get("x-langfuse-ingestion-version", "")
    if version.isdigit() and int(version) > 4:
        raise _invalid(f"x-langfuse-ingestion-version {version} is not supported (at most 4)")
    bucket = await _admit(gw, quotas, project)
    raw = await _body(request, OTLP_MAX_BYTES)
    try:
        spans = otlp_spans(raw, request.headers.get("content-type", ""))
        records = convert_spans(spans, project_id=project.id)
    except BodyError as exc:
        raise _refused(exc) from None
    except OtlpFormatError as exc:
        raise _invalid(str(exc)) from None
    if bucket is not None:
        bucket.take(len(spans))
    await _publish(gw, project, raw, traces=records.traces, observations=records.observations)
    if request.headers.get("content-type", "").startswith("application/x-protobuf"):
        return Response(_EMPTY_EXPORT_RESPONSE, media_type="application/x-protobuf")
    return JSONResponse({})


async def _publish(gw: GatewayDep, project: KeyProjectDep, raw: bytes, **records: Any) -> None:
    try:
        await publish_records(gw, project, raw, **records)
    except RecordTooLarge as exc:
        raise PublicError(413, str(exc), "PayloadTooLargeError") from None
    except RecordRefused as exc:
        raise _invalid(str(exc)) from None


_OTLP: dict[int | str, dict[str, Any]] = {
    200: {"content": {"application/json": {}, "application/x-protobuf": {}}}
}


@router.post(
    "/api/public/otel/v1/traces",
    summary="OTLP/HTTP trace export (protobuf or JSON)",
    responses=_OTLP,
)
async def otel_traces(
    request: Request, gw: GatewayDep, project: KeyProjectDep, quotas: QuotasDep
) -> Response:
    """``ExportTraceServiceRequest`` as protobuf or OTLP-JSON, optionally gzipped."""
    return await _otlp(request, gw, project, quotas)


@router.post(
    "/v1/traces", summary="OTLP/HTTP trace export at the collector's default path", responses=_OTLP
)
async def v1_traces(
    request: Request, gw: GatewayDep, project: KeyProjectDep, quotas: QuotasDep
) -> Response:
    return await _otlp(request, gw, project, quotas)


async def _configs(
    gw: GatewayDep, cache: ScoreConfigCacheDep, project: KeyProjectDep, ids: set[str]
) -> dict[str, ScoreConfig] | None:
    """The project's configs of ``ids``, to check the scores naming them (none named: None)."""
    return await cache.get_many(gw, project.id, ids) if ids else None


@router.post("/api/public/ingestion", status_code=207, summary="Langfuse batch ingestion")
async def ingestion(
    request: Request,
    gw: GatewayDep,
    project: KeyProjectDep,
    cache: ScoreConfigCacheDep,
    quotas: QuotasDep,
) -> JSONResponse:
    """``{batch: [events], metadata?}``; answers 207 with a result per event (a score that
    breaks its config is refused there, with the reason)."""
    bucket = await _admit(gw, quotas, project)
    raw, body = await _json(request, INGESTION_MAX_BYTES)
    if not isinstance(body, dict) or not isinstance(body.get("batch"), list):
        raise _invalid("Invalid request data: the body must be {batch: [...], metadata?}")
    configs = await _configs(gw, cache, project, score_config_ids(body["batch"]))
    records = convert_batch(body["batch"], received_at=datetime.now(UTC), score_configs=configs)
    if bucket is not None:
        bucket.take(len(records.traces) + len(records.observations))
    await _publish(
        gw,
        project,
        raw,
        traces=records.traces,
        observations=records.observations,
        scores=records.scores,
    )
    return JSONResponse(
        {
            "successes": [{"id": event_id, "status": 201} for event_id in records.accepted],
            "errors": [
                {"id": e.id, "status": e.status, "message": e.message, "error": e.error}
                for e in records.errors
            ],
        },
        status_code=207,
    )


@router.post(
    "/api/public/scores",
    summary="Create scores (one object, or an array)",
    responses={
        202: {"description": "Every score of the array accepted"},
        207: {"description": "Some scores of the array refused: {accepted, rejected, errors}"},
    },
)
async def scores(
    request: Request, gw: GatewayDep, project: KeyProjectDep, cache: ScoreConfigCacheDep
) -> JSONResponse:
    """An object answers ``{id}``; an array ``202 {message}``, or 207 when some were refused.
    A score that breaks its config is refused with the reason (a 400, or 404 for an unknown
    config; an entry of the 207 in an array)."""
    raw, body = await _json(request, SCORES_MAX_BYTES)
    now = datetime.now(UTC)
    # Ids the client left out derive from the body: a retried POST names the same scores.
    digest = hashlib.sha256(project.id.encode() + b"\0" + raw).hexdigest()[:28]
    items = [body] if isinstance(body, dict) else body if isinstance(body, list) else []
    ids = {str(i["configId"]) for i in items if isinstance(i, dict) and i.get("configId")}
    configs = await _configs(gw, cache, project, ids)
    if isinstance(body, dict):
        try:
            record = score_record(body, event_time=now, default_id=digest, configs=configs)
        except InvalidRecord as exc:
            if exc.status == 404:
                raise PublicError(404, str(exc), "LangfuseNotFoundError") from None
            raise _invalid(f"Invalid request data: {exc}") from None
        await _publish(gw, project, raw, scores=[record])
        return JSONResponse({"id": record.id})
    if not isinstance(body, list):
        raise _invalid("Invalid request data: a score object or an array of them")
    accepted, errors = [], []
    for index, item in enumerate(body):
        try:
            default_id = f"{digest}{index:04x}"
            accepted.append(
                score_record(item, event_time=now, default_id=default_id, configs=configs)
            )
        except InvalidRecord as exc:
            errors.append({"message": str(exc)})
    await _publish(gw, project, raw, scores=accepted)
    if errors:
        body = {"accepted": len(accepted), "rejected": len(errors), "errors": errors}
        return JSONResponse(body, status_code=207)
    return JSONResponse({"message": "Accepted"}, status_code=202)


@router.get("/api/public/projects", summary="The project of the API key")
async def projects(project: KeyProjectDep) -> dict[str, Any]:
    """As Langfuse answers it (the SDK's ``auth_check`` and experiment ids read it)."""
    return {
        "data": [
            {
                "id": project.id,
                "name": f"{project.owner}/{project.name}",
                "organization": {"id": project.owner, "name": project.owner},
                "metadata": {},
            }
        ]
    }


def include(app: FastAPI) -> None:
    """Add the public ingestion routes and their Langfuse-shaped errors to ``app``."""
    install_public_errors(app)
    app.include_router(router)
