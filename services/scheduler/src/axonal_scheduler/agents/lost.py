"""Lost agents: the started runs of an agent past its deadline fail with ``AgentLost``."""

from __future__ import annotations

from datetime import datetime

import structlog

from axonal_events import RunStatus
from axonal_scheduler.agents import store
from axonal_scheduler.domain.liveness import MISSED_HEARTBEATS
from axonal_scheduler.domain.statuses import ACTIVE
from axonal_scheduler.runs import store as runs_store
from axonal_scheduler.runs.engine import Engine

__all__ = ["fail_lost_agents"]

log = structlog.get_logger(__name__)

#: Runs an agent has started (a ``scheduled`` one may still be taken by another agent).
_STARTED = [s.value for s in ACTIVE - {RunStatus.SCHEDULED}]


async def fail_lost_agents(engine: Engine, now: datetime) -> None:
    """Mark every agent past its deadline lost and end its started runs: ``failed``, or
    ``stopped`` for a run that was stopping."""
    conn = engine.conn
    for name in await store.lost_agents(conn, now, MISSED_HEARTBEATS):
        await store.mark_lost(conn, name, now)
        for uuid in await runs_store.runs_of(conn, name, _STARTED):
            run = await runs_store.lock_run(conn, uuid)
            if run is None:
                continue
            status = RunStatus.STOPPED if run.status is RunStatus.STOPPING else None
            message = f"agent {name} stopped sending heartbeats"
            await engine.set(run, status or RunStatus.FAILED, "AgentLost", message)
        log.warning("scheduler.agent_lost", agent=name)
