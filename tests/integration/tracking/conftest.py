"""The tracking service in-process on the test's NATS namespace and database, and helpers to
feed it."""

from __future__ import annotations

import json
import uuid
from collections.abc import Iterable
from datetime import UTC, datetime
from typing import Any

import pytest_asyncio

from axonal_bus.outbox import event_headers
from axonal_events import RunStatus
from axonal_testing.factories import run_event
from axonal_tracking.app import build_app
from axonal_tracking.settings import TrackingSettings


@pytest_asyncio.fixture
async def tracking(service_settings, running_service) -> TrackingSettings:
    settings = service_settings(TrackingSettings)
    await running_service(build_app(settings))
    return settings


async def create_run(
    js: Any, subjects: Any, project: str = "acme/demo", tags: list[str] | None = None
) -> str:
    """Publish the ``run.created`` event the scheduler would send; returns the run uuid."""
    event = run_event(RunStatus.CREATED, project=project, tags=tags or [])
    await js.publish(
        subjects.event(event.event_type), event.to_json(), headers=event_headers(event)
    )
    return str(event.data.run_uuid)  # type: ignore[attr-defined]


def batch(run_uuid: str, name: str, steps: Iterable[int], value: Any = None) -> bytes:
    at = datetime.now(UTC).isoformat()
    points = [
        {"name": name, "step": s, "value": float(s) if value is None else value, "at": at}
        for s in steps
    ]
    return json.dumps({"run_uuid": run_uuid, "points": points}).encode()


async def send(js: Any, subjects: Any, run_uuid: str, payload: bytes, msg_id: str = "") -> None:
    headers = {"Nats-Msg-Id": msg_id or uuid.uuid4().hex}
    await js.publish(subjects.ingest(f"metrics.{run_uuid}"), payload, headers=headers)
