"""Ready-made events for tests."""

from __future__ import annotations

import uuid
from datetime import UTC, datetime
from typing import Any

from axonal_events import CloudEvent, EventData, RunStatus, RunStatusChanged, new_event

__all__ = ["run_event"]


def run_event(
    status: RunStatus = RunStatus.SUCCEEDED,
    *,
    run_uuid: str | None = None,
    project: str = "acme/demo",
    **extra: Any,
) -> CloudEvent[EventData]:
    """A ``run.<status>`` event with a fresh id."""
    data = RunStatusChanged(
        run_uuid=run_uuid or uuid.uuid4().hex,
        project=project,
        status=status,
        occurred_at=datetime.now(UTC),
        **extra,
    )
    return new_event(data, source="/axonal/tests", project=project)
