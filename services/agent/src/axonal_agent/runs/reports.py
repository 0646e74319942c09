"""Status reports to the scheduler, written with the outbox in the caller's transaction."""

from __future__ import annotations

from typing import Any

from axonal_agent.context import Context
from axonal_bus.outbox import PendingEvents, enqueue
from axonal_db import Connection
from axonal_events import CloudEvent, EventData, RunStatus, new_event
from axonal_events.commands import StatusReport

__all__ = ["report", "report_directly"]


def _report(
    ctx: Context,
    run_uuid: str,
    attempt: int,
    status: RunStatus,
    *,
    project: str | None = None,
    correlation_id: str | None = None,
    **fields: Any,
) -> CloudEvent[EventData]:
    agent = ctx.settings.name
    data = StatusReport(run_uuid=run_uuid, attempt=attempt, agent=agent, status=status, **fields)
    return new_event(
        data, source=f"/axonal/agent/{agent}", project=project, correlation_id=correlation_id
    )


async def report(
    ctx: Context,
    conn: Connection,
    run_uuid: str,
    attempt: int,
    status: RunStatus,
    **fields: Any,
) -> None:
    """A :class:`StatusReport` from this agent to ``cmd.scheduler.report`` (outbox).

    ``fields``: ``project``, ``correlation_id`` and the report's own (``reason``, ``message``,
    ``exit_code``, ``outputs``, ``log_lines``).
    """
    event = _report(ctx, run_uuid, attempt, status, **fields)
    await enqueue(conn, ctx.subjects, event, subject=ctx.subjects.command("scheduler", "report"))


async def report_directly(
    ctx: Context,
    conn: Connection,
    run_uuid: str,
    attempt: int,
    status: RunStatus,
    **fields: Any,
) -> PendingEvents:
    """As :func:`report`, for a report the caller publishes itself once ``conn`` commits
    (``ctx.publish_committed``): a run's next step waits on it."""
    events = PendingEvents(ctx.subjects)
    event = _report(ctx, run_uuid, attempt, status, **fields)
    events.add(event, subject=ctx.subjects.command("scheduler", "report"))
    await events.flush(conn, direct=True)
    return events
