"""What adding an object to a queue and completing an item do across the store.

:func:`add_to_queue` is the one way in for every producer of review work: the public API, the
CLI and the online evaluation rules that send traces for review.
"""

from __future__ import annotations

from datetime import UTC, datetime

from axonal_bus.errors import Invalid, NotFound
from axonal_db import Connection
from axonal_evaluation.domain.annotation import annotation_scores
from axonal_evaluation.queues import store
from axonal_evaluation.score_configs import store as configs
from axonal_events.annotation_queues import (
    AddQueueItem,
    AnnotationQueue,
    CompleteQueueItem,
    QueueItem,
    QueueObjectType,
    QueueStatus,
)
from axonal_events.catalog.scores import ScoreCreated
from axonal_events.score_configs import ScoreRefused

__all__ = ["add_to_queue", "complete_item", "queue_of"]


async def queue_of(conn: Connection, project_id: str, queue_id: str) -> AnnotationQueue:
    found = await store.find_queue(conn, project_id, queue_id)
    if found is None:
        raise NotFound(f"Annotation queue not found: {queue_id}")
    return found


async def add_to_queue(
    conn: Connection,
    project_id: str,
    queue_id: str,
    object_id: str,
    object_type: QueueObjectType = QueueObjectType.TRACE,
    status: QueueStatus = QueueStatus.PENDING,
) -> QueueItem:
    """Put the object in the queue, once: adding it again answers the item already there,
    whatever its status. :class:`NotFound` when the project has no such queue."""
    await queue_of(conn, project_id, queue_id)
    request = AddQueueItem(
        project_id=project_id,
        queue_id=queue_id,
        object_id=object_id,
        object_type=object_type,
        status=status,
    )
    return await store.insert_item(conn, request)


async def complete_item(
    conn: Connection, request: CompleteQueueItem
) -> tuple[QueueItem, list[ScoreCreated]]:
    """Mark the item COMPLETED; its scores, checked against the queue's configs, as the
    events that create them (to enqueue in this transaction). Completing again emits the same
    score ids, so a retry creates nothing twice."""
    queue = await queue_of(conn, request.project_id, request.queue_id)
    item = await store.find_item(
        conn, request.project_id, request.queue_id, request.item_id, lock=True
    )
    if item is None:
        raise NotFound(f"Annotation queue item not found: {request.item_id}")
    found = await configs.find_many(conn, request.project_id, queue.score_config_ids)
    try:
        records = annotation_scores(
            item,
            request.scores,
            found,
            queue.score_config_ids,
            now=datetime.now(UTC),
            trace_id=request.trace_id,
        )
    except ScoreRefused as exc:
        raise Invalid(str(exc)) from None
    completed = await store.set_status(conn, item.id, QueueStatus.COMPLETED)
    events = [
        ScoreCreated(project_id=request.project_id, project=request.project, score=record)
        for record in records
    ]
    return completed, events
