"""Status reports to the scheduler, written with the outbox in the caller's transaction."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from axonal_bus.outbox import enqueue
from axonal_db import Connection
from axonal_events import RunStatus, Subjects, new_event
from axonal_events.commands import StatusReport

__all__ = ["Reporter"]


@dataclass(frozen=True, slots=True)
class Reporter:
    """Addresses :class:`StatusReport` commands from one agent to the scheduler."""

    agent: str
    subjects: Subjects

    async def report(
        self,
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
        data = StatusReport(
            run_uuid=run_uuid,
            attempt=attempt,
            agent=self.agent,
            status=status,
            reason=reason,
            message=message,
            exit_code=exit_code,
            outputs=outputs or {},
            log_lines=log_lines,
        )
        event = new_event(
            data,
            source=f"/axonal/agent/{self.agent}",
            project=project,
            correlation_id=correlation_id,
        )
        await enqueue(
            conn, self.subjects, event, subject=self.subjects.command("scheduler", "report")
        )
