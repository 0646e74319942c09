"""Status reports to the scheduler, written with the outbox in the caller's transaction."""

from __future__ import annotations

from typing import Any

from axonal_agent.context import Context
from axonal_bus.outbox import enqueue
from axonal_db import Connection
from axonal_events import RunStatus, new_event
from axonal_events.commands import StatusReport

__all__ = ["report"]


async def report(
    ctx: Context,
    conn: Connection,
    run_uuid: str,
    attempt: int,
    status: RunStatus,
    *,
    project: str | None = None,
    correlation_id: str | None = None,
    reason: str | None = None,
    message: str | None = None,
    exit_code: int | None = None,
    outputs: dict[str, Any] | None = None,
    log_lines: int | None = None,
) -> None:
    """A :class:`StatusReport` from this agent to ``cmd.scheduler.report`` (outbox)."""
    agent = ctx.settings.name
    data = StatusReport(
        run_uuid=run_uuid,
        attempt=attempt,
        agent=agent,
        status=status,
        reason=reason,
        message=message,
        exit_code=exit_code,
        outputs=outputs or {},
        log_lines=log_lines,
    )
    event = new_event(
        data,
        source=f"/axonal/agent/{agent}",
        project=project,
        correlation_id=correlation_id,
    )
    await enqueue(conn, ctx.subjects, event, subject=ctx.subjects.command("scheduler", "report"))
