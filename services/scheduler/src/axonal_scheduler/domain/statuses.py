"""The run status machine of Polyaxon (spec §8): groups and allowed transitions."""

from __future__ import annotations

from axonal_events import DONE_STATUSES, RunStatus

__all__ = [
    "ACTIVE",
    "DONE",
    "NOT_STARTED",
    "PENDING",
    "RUNNING",
    "can_transition",
    "is_done",
]

S = RunStatus
DONE = DONE_STATUSES
PENDING = frozenset({S.CREATED, S.ON_SCHEDULE, S.RESUMING})
RUNNING = frozenset({S.SCHEDULED, S.STARTING, S.PROCESSING, S.RUNNING})
#: Statuses a stop sets ``stopped`` at once: nothing runs anywhere yet.
NOT_STARTED = frozenset({*PENDING, S.COMPILED, S.QUEUED, S.RETRYING})
#: Statuses that hold a queue slot (the run was handed to an agent).
ACTIVE = frozenset({*RUNNING, S.STOPPING, S.WARNING, S.UNSCHEDULABLE, S.UNKNOWN})

_ENDINGS = frozenset({S.FAILED, S.STOPPED, S.STOPPING, S.SUCCEEDED})
_UNHEALTHY = frozenset({S.WARNING, S.UNSCHEDULABLE, S.UNKNOWN})
_ALLOWED: dict[RunStatus, frozenset[RunStatus]] = {
    S.CREATED: frozenset({S.ON_SCHEDULE, S.COMPILED, S.RUNNING, *DONE}),
    S.ON_SCHEDULE: frozenset({S.COMPILED, *DONE}),
    S.RESUMING: frozenset({S.COMPILED, *DONE}),
    S.COMPILED: frozenset({S.QUEUED, S.RUNNING, *DONE}),
    S.QUEUED: frozenset({S.SCHEDULED, S.RUNNING, *DONE}),
    S.SCHEDULED: frozenset({S.STARTING, S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.STARTING: frozenset({S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.RUNNING: frozenset({S.PROCESSING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.PROCESSING: frozenset({S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.WARNING: frozenset({S.STARTING, S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.UNSCHEDULABLE: frozenset({S.STARTING, S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.UNKNOWN: frozenset({S.STARTING, S.RUNNING, S.RETRYING, *_UNHEALTHY, *_ENDINGS}),
    S.RETRYING: frozenset({S.COMPILED, S.QUEUED, *DONE}),
    S.STOPPING: frozenset(DONE),
}


def is_done(status: RunStatus) -> bool:
    return status in DONE


def can_transition(current: RunStatus | None, new: RunStatus, *, force: bool = False) -> bool:
    """Whether a run in ``current`` (``None``: not created yet) may enter ``new``.

    ``created`` is only ever the first status; nothing leaves a done status except a forced
    ``resuming`` (resume); from ``stopping`` only done statuses are accepted; re-applying the
    current status is not a transition.
    """
    if current is None:
        return new is S.CREATED
    if new is S.CREATED or new is current:
        return False
    if current in DONE:
        return force and new is S.RESUMING
    return new in _ALLOWED.get(current, frozenset())
