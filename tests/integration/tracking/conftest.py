"""The tracking service in-process on real NATS and PostgreSQL, and helpers to feed it."""

from __future__ import annotations

import asyncio
import json
import os
import subprocess
import sys
import uuid
from collections.abc import AsyncIterator, Iterable
from datetime import UTC, datetime
from typing import Any

import pytest_asyncio

from axonal_bus.errors import AxonalError
from axonal_bus.outbox import event_headers
from axonal_bus.ping import ping
from axonal_bus.service import ServiceSettings, build_app
from axonal_events import RunStatus
from axonal_testing.bus import forget_earlier_outbox
from axonal_testing.factories import run_event
from axonal_testing.waiting import wait_for
from axonal_tracking.app import DEFINITION


def service_settings(bus_settings: Any, database_url: str) -> ServiceSettings:
    return ServiceSettings(
        nats_url=bus_settings.nats_url,
        namespace=bus_settings.namespace,
        database_url=database_url,
        log_json=True,
    )


@pytest_asyncio.fixture
async def tracking(bus_settings, database_url, nats_client) -> AsyncIterator[ServiceSettings]:
    await forget_earlier_outbox(database_url, "tracking")
    settings = service_settings(bus_settings, database_url)
    app = build_app(DEFINITION, settings)
    task = asyncio.create_task(app.run())

    async def healthy() -> bool:
        try:
            return (await ping(nats_client, settings.subjects, "tracking", 0.5)).status == "ok"
        except AxonalError:
            return False

    await wait_for(healthy, timeout=20, message="tracking answers ping")
    try:
        yield settings
    finally:
        app.exit()
        await asyncio.wait_for(task, 10)


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


def start_tracking(bus_settings: Any, database_url: str, log: Any) -> subprocess.Popen[bytes]:
    """The tracking service as its own process (to be killed), its output in ``log``."""
    env = {
        **os.environ,
        "AXONAL_NATS_URL": bus_settings.nats_url,
        "AXONAL_NAMESPACE": bus_settings.namespace,
        "AXONAL_DATABASE_URL": database_url,
        "AXONAL_LOG_JSON": "true",
    }
    return subprocess.Popen(
        [sys.executable, "-m", "axonal_tracking"], env=env, stdout=log, stderr=subprocess.STDOUT
    )
