"""Status changes: validate, write the run and its history, emit one event per transition."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime

import structlog

from axonal_bus.outbox import PendingEvents
from axonal_db import Connection
from axonal_events import (
    DONE_STATUSES,
    EventData,
    HookRequested,
    NotificationFailed,
    RunDone,
    RunStatus,
    RunStatusChanged,
    Subjects,
    new_event,
)
from axonal_scheduler.domain.hooks import FailedHook, Parent, fired_hooks
from axonal_scheduler.domain.statuses import RUNNING, can_transition
from axonal_scheduler.runs import store
from axonal_scheduler.runs.store import Run

__all__ = ["Tx", "record_created", "set_status"]

log = structlog.get_logger(__name__)


@dataclass
class Tx:
    """An open transaction, where its events go, and the history and events it has yet to
    write: they are written together by :meth:`flush`, one statement each, before commit."""

    conn: Connection
    subjects: Subjects
    source: str
    history: list[store.HistoryRow] = field(default_factory=list)
    events: PendingEvents = field(init=False)

    def __post_init__(self) -> None:
        self.events = PendingEvents(self.subjects)

    def emit(self, data: EventData, *, project: str, subject: str | None = None) -> str:
        """Queue an event (or a command for ``subject``); returns its id."""
        event = new_event(data, source=self.source, project=project)
        self.events.add(event, subject=subject)
        return event.id

    async def flush(self) -> None:
        """Write the queued history rows and events in the open transaction; the events are
        the caller's to publish once it commits (``ctx.publish_committed(tx.events)``)."""
        await store.add_statuses(self.conn, self.history)
        self.history.clear()
        await self.events.flush(self.conn, direct=True)


def _fact(
    run: Run, status: RunStatus, previous: RunStatus | None, now: datetime
) -> RunStatusChanged:
    return RunStatusChanged(
        run_uuid=run.uuid,
        project=run.full_project,
        name=run.name,
        kind=run.kind,
        pipeline_uuid=run.pipeline_uuid,
        tags=list(run.tags),
        status=status,
        previous_status=previous,
        reason=run.reason,
        message=run.message,
        occurred_at=now,
    )


def _emit(tx: Tx, run: Run, previous: RunStatus | None, now: datetime) -> None:
    tx.history.append(store.HistoryRow(run.uuid, run.status, run.reason, run.message, now))
    project = run.full_project
    tx.emit(_fact(run, run.status, previous, now), project=project)
    if run.status in DONE_STATUSES:
        finished = run.finished_at or now
        duration = (finished - run.started_at).total_seconds() if run.started_at else None
        done = RunDone(
            run_uuid=run.uuid,
            project=project,
            name=run.name,
            kind=run.kind,
            pipeline_uuid=run.pipeline_uuid,
            tags=list(run.tags),
            status=run.status,
            started_at=run.started_at,
            finished_at=finished,
            duration_seconds=max(0.0, duration) if duration is not None else None,
            outputs=dict(run.outputs),
        )
        done_event_id = tx.emit(done, project=project)
        fired, failed = _hooks(run)
        for hook in fired:
            tx.emit(hook, project=project)
        for failure in failed:
            log.warning("run.hook_failed", run=run.uuid, error=failure.error)
            tx.emit(_hook_failure(run, failure, done_event_id), project=project)


def _hook_failure(run: Run, failure: FailedHook, done_event_id: str) -> NotificationFailed:
    """A hook that does not render, announced as a final ``notification.failed`` (where
    alert routes and the audit trail see it)."""
    hub = failure.hub_ref.rsplit("/", 1)[-1].split(":", 1)[0]
    return NotificationFailed(
        notification_id=f"{run.uuid}:hooks[{failure.index}]",
        source_event_id=done_event_id,
        channel=hub,
        target=failure.connection or failure.hub_ref,
        attempts=1,
        error=failure.error,
        final=True,
    )


def _hooks(run: Run) -> tuple[list[HookRequested], list[FailedHook]]:
    """The ``hook.requested`` events of a done run, and its hooks that cannot render."""
    parent = Parent(
        uuid=run.uuid,
        owner=run.owner,
        project=run.project,
        status=run.status.value,
        name=run.name,
        kind=run.kind,
        reason=run.reason,
        message=run.message,
        inputs=run.inputs,
        outputs=run.outputs,
    )
    fired, failed = fired_hooks(run.compiled.get("hooks") or [], parent)
    requested = [
        HookRequested(
            run_uuid=run.uuid,
            project=run.full_project,
            hub_ref=hook.hub_ref,
            trigger=hook.trigger,
            status=run.status.value,
            connection=hook.connection,
            params=hook.params,
            queue=hook.queue,
            name=run.name,
            kind=run.kind,
            inputs=dict(run.inputs),
            outputs=dict(run.outputs),
            reason=run.reason,
            message=run.message,
        )
        for hook in fired
    ]
    return requested, failed


async def record_created(tx: Tx, run: Run, *, then: Sequence[RunStatus] = ()) -> bool:
    """Insert ``run`` as ``created`` with its event; ``False`` if the uuid exists. ``then``:
    the statuses it goes through at once (each with its history and event), inserted in the
    last of them: one write for a run that needs no step in between."""
    now = datetime.now(UTC)
    chain = [RunStatus.CREATED, *then]
    run.status, run.created_at = chain[-1], now
    if RunStatus.QUEUED in chain:
        run.queued_at = now
    if not await store.insert_run(tx.conn, run):
        return False
    for previous, status in zip([None, *chain], chain, strict=False):
        run.status = status
        _emit(tx, run, previous, now)
    return True


async def set_status(
    tx: Tx,
    run: Run,
    status: RunStatus,
    reason: str | None = None,
    message: str | None = None,
    *,
    force: bool = False,
) -> bool:
    """Move ``run`` to ``status`` if the status machine allows it; ``False`` otherwise."""
    if not can_transition(run.status, status, force=force):
        log.info("run.transition_ignored", run=run.uuid, current=run.status, new=status)
        return False
    now = datetime.now(UTC)
    previous = run.status
    run.status, run.reason, run.message = status, reason, message
    if status in RUNNING and run.started_at is None:
        run.started_at = now
    if status is RunStatus.QUEUED:
        run.queued_at = now
    if status is RunStatus.RESUMING:
        run.finished_at = None
    if status in DONE_STATUSES and run.finished_at is None:
        run.finished_at = now
    await store.update_run(tx.conn, run)
    _emit(tx, run, previous, now)
    return True
