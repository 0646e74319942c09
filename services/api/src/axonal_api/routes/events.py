"""``POST /api/v1/{owner}/{project}/events``: CloudEvents from outside systems, onto the bus.

Structured mode (``application/cloudevents+json``: one event), batched mode
(``application/cloudevents-batch+json``: a JSON array) and binary mode (``ce-*`` headers,
the body as data) are accepted. Each event lands on the EVENTS stream under
``<ns>.ext.<source>.<type>`` with the ``project`` extension set to the project posted to,
and is answered 202 only once JetStream stored it. A repeated event (same source and id) is
stored once. Automation rules and webhook subscriptions react to them.
"""

from __future__ import annotations

import json
from typing import Any

from fastapi import APIRouter, Request
from pydantic import ValidationError

from axonal_api.deps import GatewayDep
from axonal_api.errors import ApiError
from axonal_api.routes.runs import ERRORS, Owner, Project
from axonal_events.answers import EventAccepted, EventsAccepted
from axonal_events.external import ExternalEvent, from_binary

__all__ = ["router"]

router = APIRouter(prefix="/api/v1/{owner}/{project}", tags=["events"], responses=ERRORS)

MAX_BODY = 1024 * 1024
MAX_BATCH = 100
STRUCTURED = "application/cloudevents+json"
BATCH = "application/cloudevents-batch+json"


@router.post(
    "/events",
    status_code=202,
    summary="Publish CloudEvents from an outside system",
    responses={**ERRORS, 413: ERRORS[400], 415: ERRORS[400]},
    openapi_extra={
        "requestBody": {
            "required": True,
            "content": {
                STRUCTURED: {"schema": {"type": "object"}},
                BATCH: {"schema": {"type": "array", "items": {"type": "object"}}},
                "*/*": {"schema": {}, "description": "binary mode: ce-* headers"},
            },
        }
    },
)
async def publish_events(
    gw: GatewayDep, owner: Owner, project: Project, request: Request
) -> EventsAccepted:
    """400 names the event and the attribute that is wrong; nothing of a bad batch is stored."""
    body = await _read_limited(request)
    media = request.headers.get("content-type", "").split(";")[0].strip().lower()
    if media == STRUCTURED:
        docs = [_json(body)]
    elif media == BATCH:
        docs = _json(body)
        if not isinstance(docs, list) or not 1 <= len(docs) <= MAX_BATCH:
            raise ApiError(400, "invalid", f"a batch is a JSON array of 1 to {MAX_BATCH}")
    elif "ce-specversion" in request.headers:
        try:
            docs = [from_binary(request.headers, body)]
        except ValueError as exc:
            raise ApiError(400, "invalid", str(exc)) from None
    else:
        raise ApiError(
            415,
            "unsupported_media_type",
            f"send {STRUCTURED}, {BATCH}, or binary mode with ce-specversion, ce-id, ce-source "
            "and ce-type headers",
        )
    events = [_event(doc, i, f"{owner}/{project}") for i, doc in enumerate(docs)]
    accepted = []
    for event in events:
        subject = await gw.external(event)
        accepted.append(
            EventAccepted(id=event.id, source=event.source, type=event.type, subject=subject)
        )
    return EventsAccepted(accepted=accepted)


async def _read_limited(request: Request) -> bytes:
    body = bytearray()
    async for chunk in request.stream():
        body += chunk
        if len(body) > MAX_BODY:
            raise ApiError(413, "too_large", f"events are limited to {MAX_BODY:,} bytes a request")
    return bytes(body)


def _json(body: bytes) -> Any:
    try:
        return json.loads(body)
    except ValueError:
        raise ApiError(400, "invalid", "the body is not JSON") from None


def _event(doc: Any, index: int, project: str) -> ExternalEvent:
    if not isinstance(doc, dict):
        raise ApiError(400, "invalid", f"event {index}: not a JSON object")
    if doc.get("project", project) != project:
        raise ApiError(400, "invalid", f"event {index}: its project extension is not {project}")
    try:
        return ExternalEvent.model_validate({**doc, "project": project})
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(part) for part in first["loc"]) or "(event)"
        raise ApiError(400, "invalid_event", f"event {index}: {where}: {first['msg']}") from None
