"""What the agent's tests send it as the scheduler would."""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from axonal_bus.outbox import event_headers
from axonal_events import RunStatus, RunStatusChanged, new_event

__all__ = ["publish_stopping"]


async def publish_stopping(nats_client: Any, bus_settings: Any, run_uuid: str) -> None:
    """The scheduler's ``run.stopping`` event for ``run_uuid``."""
    data = RunStatusChanged(
        run_uuid=run_uuid,
        project="acme/vision",
        status=RunStatus.STOPPING,
        previous_status=RunStatus.RUNNING,
        occurred_at=datetime.now(UTC),
    )
    event = new_event(data, source="/tests/scheduler", project="acme/vision")
    await nats_client.jetstream().publish(
        bus_settings.subjects.event("run.stopping"), event.to_json(), headers=event_headers(event)
    )
